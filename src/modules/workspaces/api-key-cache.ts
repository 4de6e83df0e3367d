import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Client } from 'pg';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { ApiKeyAuthenticator, AuthenticatedKey } from '../../shared/interface/http/request-context';
import { apiKeyHashText } from './api-key';
import { API_KEYS_CHANGED, WorkspacesService } from './workspaces.service';

const MAX_ENTRIES = 10_000;
/** A backstop for a revocation made without the announcement (e.g. by hand in SQL). */
const TTL_MS = 30_000;
const RECONNECT_MS = 1_000;

/**
 * Valid keys remembered in memory, so a request costs no key lookup in the database. Entries
 * are kept only while this process listens for revocations: any announcement empties the cache,
 * and so does losing the listening connection (until it is back, every request looks the key
 * up). Unknown keys are never remembered. The listener starts with the first lookup, so
 * processes that never authenticate (CLI, workers) open no connection for it.
 */
@Injectable()
export class CachingApiKeyAuthenticator implements ApiKeyAuthenticator, OnModuleDestroy {
  private readonly logger = new Logger(CachingApiKeyAuthenticator.name);
  private readonly entries = new Map<string, { auth: AuthenticatedKey; expires: number }>();
  /** Bumped whenever the cache is emptied. */
  private generation = 0;
  private listener: Client | null = null;
  private listening = false;
  private closed = false;
  private reconnect: NodeJS.Timeout | null = null;

  constructor(
    private readonly workspaces: WorkspacesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    workspaces.onKeysChanged(() => this.forgetAll());
  }

  async authenticate(key: string): Promise<AuthenticatedKey | null> {
    if (!this.listener && !this.closed) this.listen();
    // Keyed by the hash: the process holds no key in clear longer than the request does.
    const id = apiKeyHashText(key);
    const cached = this.listening ? this.entries.get(id) : undefined;
    if (cached && cached.expires > Date.now()) return cached.auth;
    // Whether the answer may be kept is decided before the lookup: an announcement that
    // arrives while it runs empties the cache and must not be undone by this answer.
    const generation = this.generation;
    const auth = await this.workspaces.authenticate(key);
    if (auth && this.listening && generation === this.generation) this.remember(id, auth);
    return auth;
  }

  /** Forgets every key; called on each announcement, and directly when this process revokes. */
  forgetAll(): void {
    this.generation += 1;
    this.entries.clear();
  }

  private remember(id: string, auth: AuthenticatedKey): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(id, { auth, expires: Date.now() + TTL_MS });
  }

  private listen(): void {
    const client = new Client({ connectionString: this.config.databaseUrl });
    this.listener = client;
    const lost = (error?: Error) => {
      if (this.listener !== client) return;
      this.listening = false;
      this.listener = null;
      this.forgetAll();
      client.removeAllListeners();
      client.on('error', () => undefined);
      void client.end().catch(() => undefined);
      if (this.closed) return;
      if (error) this.logger.warn(`Key cache off until the revocation listener is back: ${error.message}`);
      this.reconnect = setTimeout(() => {
        this.reconnect = null;
        if (!this.closed && !this.listener) this.listen();
      }, RECONNECT_MS);
      this.reconnect.unref();
    };
    client.on('notification', () => this.forgetAll());
    client.on('error', lost);
    client.on('end', () => lost());
    client
      .connect()
      .then(() => client.query(`LISTEN ${API_KEYS_CHANGED}`))
      .then(() => {
        if (this.listener === client) this.listening = true;
      })
      .catch(lost);
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    if (this.reconnect) clearTimeout(this.reconnect);
    const client = this.listener;
    this.listener = null;
    this.listening = false;
    this.entries.clear();
    if (client) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
    }
  }
}
