import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { KeysetPosition } from '../../shared/application/pagination';
import { requireWorkspace, WorkspaceContext } from '../../shared/application/workspace-context';
import { keysetSql } from '../../shared/infrastructure/keyset-sql';
import { preparedQuery } from '../../shared/infrastructure/prepared-query';

export interface EndpointRow {
  id: string;
  workspace_id: string;
  url: string;
  description: string;
  enabled_events: string[];
  enabled: boolean;
  disabled_reason: string | null;
  /** Sealed (see SecretBox). */
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string | null;
  message_id: string;
  event_type: string;
  attempt: number;
  status_code: number | null;
  error: string | null;
  latency_ms: number;
  response_excerpt: string;
  succeeded: boolean;
  next_retry_at: Date | null;
  created_at: Date;
}

export type EndpointChanges = Partial<Pick<EndpointRow, 'url' | 'description' | 'enabled_events' | 'enabled'>> & {
  disabled_reason?: string | null;
  secret?: string;
  previous_secret?: string | null;
  previous_secret_expires_at?: Date | null;
};

const COLUMNS =
  'id, workspace_id, url, description, enabled_events, enabled, disabled_reason, secret, previous_secret, previous_secret_expires_at, failing_since, created_at, updated_at';
const CHANGEABLE = [
  'url',
  'description',
  'enabled_events',
  'enabled',
  'disabled_reason',
  'secret',
  'previous_secret',
  'previous_secret_expires_at',
];

/** Webhook endpoints and their deliveries; every statement is scoped to one workspace, except the worker's lookups by id. */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(
    ctx: WorkspaceContext,
    row: Omit<EndpointRow, 'workspace_id' | 'failing_since' | 'previous_secret' | 'previous_secret_expires_at' | 'disabled_reason'>,
  ): Promise<EndpointRow> {
    const { rows } = await preparedQuery<EndpointRow>(
      this.dataSource.manager,
      `INSERT INTO webhook_endpoints (id, workspace_id, url, description, enabled_events, enabled, secret, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING ${COLUMNS}`,
      [row.id, requireWorkspace(ctx), row.url, row.description, row.enabled_events, row.enabled, row.secret, row.created_at],
    );
    return rows[0];
  }

  /**
   * Where deliveries of the workspace's events start: at its events from now on, unless another of
   * its endpoints is enabled (then they go on from where they are). Called when an endpoint is
   * created or enabled, so that it is not sent what happened while nothing was listening.
   */
  async startDispatch(ctx: WorkspaceContext, endpointId: string): Promise<void> {
    await preparedQuery(
      this.dataSource.manager,
      `INSERT INTO webhook_dispatch AS d (workspace_id, seq)
       SELECT $1, coalesce((SELECT last FROM event_sequences WHERE workspace_id = $1), 0)
       ON CONFLICT (workspace_id) DO UPDATE SET seq = GREATEST(d.seq, EXCLUDED.seq)
        WHERE NOT EXISTS (SELECT 1 FROM webhook_endpoints w
                           WHERE w.workspace_id = $1 AND w.id <> $2 AND w.enabled AND w.deleted_at IS NULL)`,
      [requireWorkspace(ctx), endpointId],
    );
  }

  async page(ctx: WorkspaceContext, after: KeysetPosition | null, limit: number): Promise<EndpointRow[]> {
    const params: unknown[] = [requireWorkspace(ctx)];
    const keyset = keysetSql('w', 'created_at', 'desc', after, limit, params);
    const { rows } = await preparedQuery<EndpointRow>(
      this.dataSource.manager,
      `SELECT ${COLUMNS} FROM webhook_endpoints w WHERE w.workspace_id = $1 AND w.deleted_at IS NULL${keyset.where ? ` AND ${keyset.where}` : ''} ${keyset.tail}`,
      params,
    );
    return rows;
  }

  async find(ctx: WorkspaceContext, id: string): Promise<EndpointRow | null> {
    const { rows } = await preparedQuery<EndpointRow>(
      this.dataSource.manager,
      `SELECT ${COLUMNS} FROM webhook_endpoints WHERE workspace_id = $1 AND id = $2 AND deleted_at IS NULL`,
      [requireWorkspace(ctx), id],
    );
    return rows[0] ?? null;
  }

  /** The endpoints of `ids` that exist (deleted ones included, as a delivery must tell them apart). */
  async findMany(ctx: WorkspaceContext, ids: readonly string[]): Promise<EndpointRow[]> {
    const { rows } = await preparedQuery<EndpointRow & { deleted: boolean }>(
      this.dataSource.manager,
      `SELECT ${COLUMNS} FROM webhook_endpoints WHERE workspace_id = $1 AND id = ANY($2::bigint[]) AND deleted_at IS NULL`,
      [requireWorkspace(ctx), ids],
    );
    return rows;
  }

  /** The workspace's enabled endpoints. */
  async enabled(ctx: WorkspaceContext): Promise<EndpointRow[]> {
    const { rows } = await preparedQuery<EndpointRow>(
      this.dataSource.manager,
      `SELECT ${COLUMNS} FROM webhook_endpoints WHERE workspace_id = $1 AND enabled AND deleted_at IS NULL ORDER BY id`,
      [requireWorkspace(ctx)],
    );
    return rows;
  }

  async update(ctx: WorkspaceContext, id: string, changes: EndpointChanges, now: Date): Promise<EndpointRow | null> {
    const params: unknown[] = [requireWorkspace(ctx), id, now];
    const sets = Object.entries(changes)
      .filter(([name, value]) => CHANGEABLE.includes(name) && value !== undefined)
      .map(([name, value]) => `${name} = $${params.push(value)}`);
    // Enabling again starts a new count of failing days.
    if (changes.enabled === true) sets.push('failing_since = NULL');
    const { rows } = await preparedQuery<EndpointRow>(
      this.dataSource.manager,
      `UPDATE webhook_endpoints SET ${[...sets, 'updated_at = $3'].join(', ')}
        WHERE workspace_id = $1 AND id = $2 AND deleted_at IS NULL RETURNING ${COLUMNS}`,
      params,
    );
    return rows[0] ?? null;
  }

  async softDelete(ctx: WorkspaceContext, id: string, now: Date): Promise<boolean> {
    const { rowCount } = await preparedQuery(
      this.dataSource.manager,
      `UPDATE webhook_endpoints SET deleted_at = $3, enabled = false WHERE workspace_id = $1 AND id = $2 AND deleted_at IS NULL`,
      [requireWorkspace(ctx), id, now],
    );
    return (rowCount ?? 0) > 0;
  }

  /** After a delivery: a success clears the failing streak; a failure starts one if none runs. */
  async recordOutcome(ctx: WorkspaceContext, id: string, succeeded: boolean, now: Date): Promise<EndpointRow | null> {
    const { rows } = await preparedQuery<EndpointRow>(
      this.dataSource.manager,
      `UPDATE webhook_endpoints SET failing_since = CASE WHEN $3 THEN NULL ELSE coalesce(failing_since, $4) END
        WHERE workspace_id = $1 AND id = $2 AND (failing_since IS NOT NULL OR NOT $3) RETURNING ${COLUMNS}`,
      [requireWorkspace(ctx), id, succeeded, now],
    );
    return rows[0] ?? null;
  }

  /** Disables an endpoint that has failed since `failingBefore` or earlier; true when it did. */
  async disableIfFailingSince(ctx: WorkspaceContext, id: string, failingBefore: Date, reason: string, now: Date): Promise<boolean> {
    const { rowCount } = await preparedQuery(
      this.dataSource.manager,
      `UPDATE webhook_endpoints SET enabled = false, disabled_reason = $4, updated_at = $5
        WHERE workspace_id = $1 AND id = $2 AND enabled AND failing_since <= $3`,
      [requireWorkspace(ctx), id, failingBefore, reason, now],
    );
    return (rowCount ?? 0) > 0;
  }

  async insertDelivery(ctx: WorkspaceContext, row: DeliveryRow): Promise<void> {
    await this.insertDeliveries(ctx, [row]);
  }

  /** Attempts of one workspace, in one statement. */
  async insertDeliveries(ctx: WorkspaceContext, rows: readonly DeliveryRow[]): Promise<void> {
    await preparedQuery(
      this.dataSource.manager,
      `INSERT INTO webhook_deliveries (id, workspace_id, endpoint_id, event_id, message_id, event_type, attempt, status_code, error,
                                       latency_ms, response_excerpt, succeeded, next_retry_at, created_at)
       SELECT d.id, $1, d.endpoint_id, d.event_id, d.message_id, d.event_type, d.attempt, d.status_code, d.error,
              d.latency_ms, d.response_excerpt, d.succeeded, d.next_retry_at, d.created_at
         FROM json_to_recordset($2::json) AS d (id bigint, endpoint_id bigint, event_id bigint, message_id text, event_type text,
              attempt integer, status_code integer, error text, latency_ms integer, response_excerpt text, succeeded boolean,
              next_retry_at timestamptz, created_at timestamptz)`,
      [requireWorkspace(ctx), JSON.stringify(rows)],
    );
  }

  async deliveries(ctx: WorkspaceContext, endpointId: string, after: KeysetPosition | null, limit: number): Promise<DeliveryRow[]> {
    const params: unknown[] = [requireWorkspace(ctx), endpointId];
    const keyset = keysetSql('d', 'created_at', 'desc', after, limit, params);
    const { rows } = await preparedQuery<DeliveryRow>(
      this.dataSource.manager,
      `SELECT d.id, d.endpoint_id, d.event_id, d.message_id, d.event_type, d.attempt, d.status_code, d.error, d.latency_ms,
              d.response_excerpt, d.succeeded, d.next_retry_at, d.created_at
         FROM webhook_deliveries d WHERE d.workspace_id = $1 AND d.endpoint_id = $2${keyset.where ? ` AND ${keyset.where}` : ''} ${keyset.tail}`,
      params,
    );
    return rows;
  }
}
