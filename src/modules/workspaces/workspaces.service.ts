import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { CLOCK, ID_GENERATOR } from '../../shared/shared.module';
import { Clock } from '../../shared/domain/clock';
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

  async exists(workspaceId: string): Promise<boolean> {
    const parsed = parseId(ID_PREFIXES.workspace, workspaceId);
    return parsed.kind === 'ok' && this.dataSource.getRepository(WorkspaceEntity).existsBy({ id: parsed.value });
  }

  /**
   * Revokes a key at once; revoking a revoked key is a no-op that succeeds. The revocation is
   * announced (`NOTIFY`, delivered when it commits) to every process that caches keys.
   */
  async revokeKey(keyId: string): Promise<{ key_id: string; revoked: true }> {
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
