import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { CLOCK, ID_GENERATOR } from '../../shared/shared.module';
import { Clock, isoOrNull } from '../../shared/domain/clock';
import { formatId, ID_PREFIXES, IdGenerator, parseId } from '../../shared/domain/ids';
import { KeyScope } from '../../shared/application/workspace-context';
import { ApiKeyAuthenticator, AuthenticatedKey } from '../../shared/interface/http/request-context';
import { ApiKeyEntity, WorkspaceEntity } from './workspace.entity';
import { displayPrefix, generateApiKey, hashApiKey, isApiKeyShaped } from './api-key';
import { preparedQuery } from '../../shared/infrastructure/prepared-query';

/** The channel a key revocation is announced on. */
export const API_KEYS_CHANGED = 'api_keys_changed';

export interface CreatedWorkspace {
  workspace_id: string;
  api_key: string;
  key_id: string;
}

export interface CreatedKey {
  key_id: string;
  api_key: string;
  workspace_id: string;
  scope: KeyScope;
}

export class OperationError extends Error {}

export interface WorkspaceSummary {
  workspace_id: string;
  name: string;
  created_at: string;
  active_keys: number;
}

/** A key as `key list` shows it: never the secret, only the prefix it starts with. */
export interface KeySummary {
  key_id: string;
  scope: KeyScope;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** How often a key's use is written down (per key and process). */
const LAST_USE_RESOLUTION_MS = 3_600_000;

/** Workspaces and their API keys (managed by the operations CLI, outside the v1 API). */
@Injectable()
export class WorkspacesService implements ApiKeyAuthenticator {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async createWorkspace(name: string): Promise<CreatedWorkspace> {
    const trimmed = typeof name === 'string' ? name.trim() : '';
    if (trimmed === '' || trimmed.length > 200) throw new OperationError('--name must be 1 to 200 characters');
    return this.dataSource.transaction(async (manager) => {
      const workspace = manager.create(WorkspaceEntity, { id: this.ids.next(), name: trimmed, created_at: this.clock.now() });
      await manager.insert(WorkspaceEntity, workspace);
      const key = await this.insertKey(manager.getRepository(ApiKeyEntity), workspace.id, 'write');
      return { workspace_id: key.workspace_id, api_key: key.api_key, key_id: key.key_id };
    });
  }

  async createKey(workspaceId: string, scope: KeyScope = 'write'): Promise<CreatedKey> {
    if (scope !== 'read' && scope !== 'write') throw new OperationError('--scope must be read or write');
    const parsed = parseId(ID_PREFIXES.workspace, workspaceId);
    const exists = parsed.kind === 'ok' && (await this.dataSource.getRepository(WorkspaceEntity).existsBy({ id: parsed.value }));
    if (!exists) throw new OperationError(`No workspace ${String(workspaceId)}`);
    return this.insertKey(this.dataSource.getRepository(ApiKeyEntity), (parsed as { value: string }).value, scope);
  }

  /** Every workspace, oldest first, with how many keys it has that are not revoked. */
  async listWorkspaces(): Promise<WorkspaceSummary[]> {
    const rows: Array<{ id: string; name: string; created_at: Date; active_keys: number }> = await this.dataSource.query(
      `SELECT w.id, w.name, w.created_at,
              (SELECT count(*)::int FROM api_keys k WHERE k.workspace_id = w.id AND k.revoked_at IS NULL) AS active_keys
         FROM workspaces w ORDER BY w.created_at, w.id`,
    );
    return rows.map((row) => ({
      workspace_id: formatId(ID_PREFIXES.workspace, row.id),
      name: row.name,
      created_at: isoOrNull(row.created_at)!,
      active_keys: row.active_keys,
    }));
  }

  /** A workspace's keys, oldest first, revoked ones included. */
  async listKeys(workspaceId: string): Promise<KeySummary[]> {
    const parsed = parseId(ID_PREFIXES.workspace, workspaceId);
    if (parsed.kind !== 'ok' || !(await this.dataSource.getRepository(WorkspaceEntity).existsBy({ id: parsed.value }))) {
      throw new OperationError(`No workspace ${String(workspaceId)}`);
    }
    const keys = await this.dataSource
      .getRepository(ApiKeyEntity)
      .find({ where: { workspace_id: parsed.value }, order: { created_at: 'ASC', id: 'ASC' } });
    return keys.map((key) => ({
      key_id: formatId(ID_PREFIXES.apiKey, key.id),
      scope: key.scope,
      prefix: key.display_prefix,
      created_at: isoOrNull(key.created_at)!,
      last_used_at: isoOrNull(key.last_used_at),
      revoked_at: isoOrNull(key.revoked_at),
    }));
  }

  private readonly usesNoted = new Map<string, number>();

  /**
   * Writes down that a key was used, at most once an hour per key in this process, without the
   * caller waiting: a failure (the database away) only leaves the time older.
   */
  noteUse(keyId: string): void {
    const now = this.clock.now().getTime();
    if (now - (this.usesNoted.get(keyId) ?? -Infinity) < LAST_USE_RESOLUTION_MS) return;
    if (this.usesNoted.size >= 10_000) this.usesNoted.clear();
    this.usesNoted.set(keyId, now);
    this.dataSource
      .query(`UPDATE api_keys SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2)`, [keyId, new Date(now)])
      .catch(() => this.usesNoted.delete(keyId));
  }

  async exists(workspaceId: string): Promise<boolean> {
    const parsed = parseId(ID_PREFIXES.workspace, workspaceId);
    return parsed.kind === 'ok' && this.dataSource.getRepository(WorkspaceEntity).existsBy({ id: parsed.value });
  }

  /**
   * Revokes a key at once; revoking a revoked key is a no-op that succeeds. The revocation is
   * announced (`NOTIFY`, delivered when it commits) to every process that caches keys.
   */
  async revokeKey(keyId: string): Promise<{ key_id: string; revoked: true }> {
    // The secret itself, given by mistake, is neither looked up nor repeated.
    if (typeof keyId === 'string' && isApiKeyShaped(keyId.trim())) {
      throw new OperationError('That is an API key itself, not its id: pass --key-id key_… (`key list --workspace wor_…` shows the ids)');
    }
    const parsed = parseId(ID_PREFIXES.apiKey, keyId);
    if (parsed.kind !== 'ok') throw new OperationError(`No API key ${String(keyId)}`);
    const affected = await this.dataSource.transaction(async (manager) => {
      const [, count]: [unknown, number] = await manager.query(
        'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1',
        [parsed.value],
      );
      await manager.query(`NOTIFY ${API_KEYS_CHANGED}`);
      return count;
    });
    for (const listener of this.keyChangeListeners) listener();
    if (affected === 0) throw new OperationError(`No API key ${keyId}`);
    return { key_id: formatId(ID_PREFIXES.apiKey, parsed.value), revoked: true };
  }

  private readonly keyChangeListeners = new Set<() => void>();

  /** Called after this process revokes a key (other processes learn of it by the announcement). */
  onKeysChanged(listener: () => void): void {
    this.keyChangeListeners.add(listener);
  }

  async authenticate(key: string): Promise<AuthenticatedKey | null> {
    if (!isApiKeyShaped(key)) return null;
    // Runs on every request: plain SQL, no query builder or entity hydration.
    const { rows } = await preparedQuery<{ id: string; workspace_id: string; scope: KeyScope }>(
      this.dataSource.manager,
      'SELECT id, workspace_id, scope FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
      [hashApiKey(key)],
    );
    const row = rows[0];
    return row ? { keyId: row.id, workspaceId: row.workspace_id, scope: row.scope } : null;
  }

  private async insertKey(repository: Repository<ApiKeyEntity>, workspaceId: string, scope: KeyScope): Promise<CreatedKey> {
    const apiKey = generateApiKey();
    const id = this.ids.next();
    await repository.insert({
      id,
      workspace_id: workspaceId,
      key_hash: hashApiKey(apiKey),
      display_prefix: displayPrefix(apiKey),
      scope,
      created_at: this.clock.now(),
      revoked_at: null,
    });
    return {
      key_id: formatId(ID_PREFIXES.apiKey, id),
      api_key: apiKey,
      workspace_id: formatId(ID_PREFIXES.workspace, workspaceId),
      scope,
    };
  }
}
