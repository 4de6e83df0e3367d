import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Client } from 'pg';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { pgTimeouts } from '../../database/timeouts';
import { ReconnectLoop } from '../../shared/infrastructure/reconnect-loop';
import { ApiKeyAuthenticator, AuthenticatedKey } from '../../shared/interface/http/request-context';
import { apiKeyHashText } from './api-key';
import { API_KEYS_CHANGED, WorkspacesService } from './workspaces.service';

const MAX_ENTRIES = 10_000;
/** A backstop for a revocation made without the announcement (e.g. by hand in SQL). */
const TTL_MS = 30_000;

/**
 * Valid keys remembered in memory, so a request costs no key lookup in the database. Entries
 * are kept only while this process listens for revocations: any announcement empties the cache,
 * and so does losing the listening connection (until it is back, every request looks the key
 * up). Unknown keys are never remembered. The listener starts with the first lookup, so
 * processes that never authenticate (CLI, workers) open no connection for it. While it is down,
 * one loop reconnects with backoff (0.5 s doubling to 10 s); requests never start attempts of
 * their own, and an outage is logged once when it starts and once when it ends (ADR 0046).
 */
@Injectable()
export class CachingApiKeyAuthenticator implements ApiKeyAuthenticator, OnModuleDestroy {
  private readonly logger = new Logger(CachingApiKeyAuthenticator.name);
  private readonly entries = new Map<string, { auth: AuthenticatedKey; expires: number }>();
  /** Bumped whenever the cache is emptied. */
  private generation = 0;
  private listener: Client | null = null;
  private readonly loop = new ReconnectLoop((lost) => this.listen(lost), {
    attempt: (attempt) => this.logger.debug(`Revocation listener connecting (attempt ${attempt})`),
    down: (error) => this.logger.warn(`Key cache off until the revocation listener is back: ${error.message}`),
    back: (downMs) => this.logger.log(`Revocation listener back after ${(downMs / 1000).toFixed(1)} s; key cache on`),
  });

  constructor(
    private readonly workspaces: WorkspacesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    workspaces.onKeysChanged(() => this.forgetAll());
  }

  async authenticate(key: string): Promise<AuthenticatedKey | null> {
    this.loop.start();
    // Keyed by the hash: the process holds no key in clear longer than the request does.
    const id = apiKeyHashText(key);
    const cached = this.loop.up ? this.entries.get(id) : undefined;
    if (cached && cached.expires > Date.now()) {
      this.workspaces.noteUse(cached.auth.keyId);
      return cached.auth;
    }
    // Whether the answer may be kept is decided before the lookup: an announcement that
    // arrives while it runs empties the cache and must not be undone by this answer.
    const generation = this.generation;
    const auth = await this.workspaces.authenticate(key);
    if (auth && this.loop.up && generation === this.generation) this.remember(id, auth);
    if (auth) this.workspaces.noteUse(auth.keyId);
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

  /**
   * One attempt of the loop: connect and `LISTEN`, bounded like the API's own connections, so an
   * attempt against a server that does not answer fails in time and the loop goes on.
   */
  private async listen(lost: (error: Error) => void): Promise<void> {
    const client = new Client({
      connectionString: this.config.databaseUrl,
      application_name: 'bi-key-revocations',
      ...pgTimeouts(this.config.database, 'api'),
    });
    this.listener = client;
    const drop = (error: Error) => {
      this.forgetAll();
      if (this.listener === client) this.listener = null;
      client.removeAllListeners();
      client.on('error', () => undefined);
      void client.end().catch(() => undefined);
      lost(error);
    };
    client.on('notification', () => this.forgetAll());
    client.on('error', drop);
    client.on('end', () => drop(new Error('the listening connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${API_KEYS_CHANGED}`);
    } catch (error) {
      drop(error as Error);
      throw error;
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.loop.stop();
    const client = this.listener;
    this.listener = null;
    this.entries.clear();
    if (client) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
    }
  }
}
