import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { requireWorkspace, WorkspaceContext } from '../application/workspace-context';
import { preparedQuery } from './prepared-query';
import { SecretBox } from './secret-box';

/**
 * How long a claim holds its key while the first request runs. Longer than any request of the
 * API takes (statements time out after 15 s); after it, a request with the key takes the claim
 * over, so a process that died mid-request does not block the key until it expires.
 */
export const IDEMPOTENCY_LEASE_SECONDS = 60;

/** What a request with an `Idempotency-Key` is: a later request with the key must match all of it. */
export interface IdempotentRequest {
  key: string;
  method: string;
  path: string;
  bodyHash: string;
}

/** A stored success: the answer a replay gives. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  /** The answer's JSON text; null when it had no body. */
  body: string | null;
}

export type IdempotencyClaim =
  /** This request holds the key: it runs, then `complete`s or `release`s with `token`. */
  { kind: 'claimed'; token: string } | { kind: 'replay'; response: StoredResponse } | { kind: 'mismatch' } | { kind: 'in_flight' };

interface KeyRow {
  method: string;
  path: string;
  body_hash: string;
  lock_token: string;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: string | null;
  expired: boolean;
  lease_over: boolean;
}

/** A claim that changed between reading and taking it over is read again, a few times at most. */
const MAX_ATTEMPTS = 4;

/**
 * The `idempotency_keys` table (see its migration; ADR 0045). Every statement names the
 * workspace; only retention deletes across workspaces, by `(workspace_id, key)`. Times are the
 * database's (`now()`), so every API instance judges leases and expiry by one clock.
 */
@Injectable()
export class IdempotencyRepository {
  private readonly box: SecretBox;
  private readonly ttlHours: number;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.box = new SecretBox(config.secretsKey);
    this.ttlHours = config.idempotencyTtlHours;
  }

  /**
   * Claims `request.key` for this request, or says why not: the key's stored answer to replay, a
   * different request under the key, or the first request still running within its lease. An
   * expired record counts as absent, and a claim whose lease is over is taken over.
   */
  async claim(ctx: WorkspaceContext, request: IdempotentRequest): Promise<IdempotencyClaim> {
    const workspaceId = requireWorkspace(ctx);
    const manager = this.dataSource.manager;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const token = randomUUID();
      const inserted = await preparedQuery(
        manager,
        `INSERT INTO idempotency_keys (workspace_id, key, method, path, body_hash, lock_token, locked_until)
         VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7))
         ON CONFLICT (workspace_id, key) DO NOTHING`,
        [workspaceId, request.key, request.method, request.path, request.bodyHash, token, IDEMPOTENCY_LEASE_SECONDS],
      );
      if (inserted.rowCount === 1) return { kind: 'claimed', token };

      const { rows } = await preparedQuery<KeyRow>(
        manager,
        `SELECT method, path, body_hash, lock_token, response_status, response_headers, response_body,
                created_at <= now() - make_interval(hours => $3) AS expired, locked_until <= now() AS lease_over
         FROM idempotency_keys WHERE workspace_id = $1 AND key = $2`,
        [workspaceId, request.key, this.ttlHours],
      );
      const row = rows[0];
      // Released or pruned since the insert: claim it again.
      if (!row) continue;
      if (row.expired) {
        if (await this.renew(workspaceId, request, row.lock_token, token)) return { kind: 'claimed', token };
        continue;
      }
      if (row.method !== request.method || row.path !== request.path || row.body_hash !== request.bodyHash) return { kind: 'mismatch' };
      if (row.response_status !== null) {
        const body = row.response_body === null ? null : this.box.open(row.response_body);
        return { kind: 'replay', response: { status: row.response_status, headers: row.response_headers ?? {}, body } };
      }
      if (!row.lease_over) return { kind: 'in_flight' };
      if (await this.takeOver(workspaceId, request.key, row.lock_token, token)) return { kind: 'claimed', token };
    }
    return { kind: 'in_flight' };
  }

  /** Stores the success of the request holding the claim `token`; false when the claim was taken over meanwhile. */
  async complete(ctx: WorkspaceContext, key: string, token: string, response: StoredResponse): Promise<boolean> {
    const { rowCount } = await preparedQuery(
      this.dataSource.manager,
      `UPDATE idempotency_keys SET response_status = $4, response_headers = $5, response_body = $6
       WHERE workspace_id = $1 AND key = $2 AND lock_token = $3 AND response_status IS NULL`,
      [
        requireWorkspace(ctx),
        key,
        token,
        response.status,
        JSON.stringify(response.headers),
        response.body === null ? null : this.box.seal(response.body),
      ],
    );
    return rowCount === 1;
  }

  /** Gives the key up after a failed request, so a retry runs anew; nothing when the claim was taken over. */
  async release(ctx: WorkspaceContext, key: string, token: string): Promise<void> {
    await preparedQuery(
      this.dataSource.manager,
      `DELETE FROM idempotency_keys WHERE workspace_id = $1 AND key = $2 AND lock_token = $3 AND response_status IS NULL`,
      [requireWorkspace(ctx), key, token],
    );
  }

  /** Retention, for every workspace at once: deletes at most `batch` expired records; the number deleted. */
  async pruneExpiredAcrossWorkspaces(batch: number): Promise<number> {
    const { rowCount } = await preparedQuery(
      this.dataSource.manager,
      `DELETE FROM idempotency_keys WHERE (workspace_id, key) IN (
         SELECT workspace_id, key FROM idempotency_keys WHERE created_at <= now() - make_interval(hours => $1) LIMIT $2)`,
      [this.ttlHours, batch],
    );
    return rowCount ?? 0;
  }

  /** An expired record becomes this request's fresh claim, unless someone else renewed it first. */
  private async renew(workspaceId: string, request: IdempotentRequest, seenToken: string, token: string): Promise<boolean> {
    const { rowCount } = await preparedQuery(
      this.dataSource.manager,
      `UPDATE idempotency_keys
       SET method = $4, path = $5, body_hash = $6, lock_token = $7, locked_until = now() + make_interval(secs => $8),
           response_status = NULL, response_headers = NULL, response_body = NULL, created_at = now()
       WHERE workspace_id = $1 AND key = $2 AND lock_token = $3 AND created_at <= now() - make_interval(hours => $9)`,
      [
        workspaceId,
        request.key,
        seenToken,
        request.method,
        request.path,
        request.bodyHash,
        token,
        IDEMPOTENCY_LEASE_SECONDS,
        this.ttlHours,
      ],
    );
    return rowCount === 1;
  }

  /** A claim whose lease ran out passes to this request, unless someone else took it first. */
  private async takeOver(workspaceId: string, key: string, seenToken: string, token: string): Promise<boolean> {
    const { rowCount } = await preparedQuery(
      this.dataSource.manager,
      `UPDATE idempotency_keys SET lock_token = $4, locked_until = now() + make_interval(secs => $5)
       WHERE workspace_id = $1 AND key = $2 AND lock_token = $3 AND response_status IS NULL AND locked_until <= now()`,
      [workspaceId, key, seenToken, token, IDEMPOTENCY_LEASE_SECONDS],
    );
    return rowCount === 1;
  }
}
