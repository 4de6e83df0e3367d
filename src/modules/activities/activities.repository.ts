import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { requireWorkspace, WorkspaceContext } from '../../shared/application/workspace-context';
import type { PipelineStage } from '../pipeline/infrastructure/queues';
import type { ActivityInput } from './activity-input';
import { ActivityEntity } from './activity.entity';
import { preparedQuery } from '../../shared/infrastructure/prepared-query';

/** Every column, in one place, so raw reads return the entity's shape. */
const ACTIVITY_COLUMNS =
  'id, workspace_id, external_id, type, trigger, occurred_at, payload, stage, status, discard_reason, person_key, ' +
  'identity, contact_info, company_info, evaluation, buyer_id, signal_id, created_at, updated_at';

/** What a pipeline step may change on an activity. */
export type ActivityChanges = Partial<
  Pick<
    ActivityEntity,
    'stage' | 'status' | 'discard_reason' | 'person_key' | 'identity' | 'contact_info' | 'company_info' | 'evaluation' | 'buyer_id' | 'signal_id'
  >
>;
const CHANGEABLE = new Set<string>([
  'stage', 'status', 'discard_reason', 'person_key', 'identity', 'contact_info', 'company_info', 'evaluation', 'buyer_id', 'signal_id',
]);
const JSON_COLUMNS = new Set<string>(['identity', 'contact_info', 'company_info', 'evaluation']);

/**
 * `UPDATE activities SET … WHERE workspace_id = $1 AND id = $2 AND stage = $3`: the step's
 * result and the stage move in one statement, which does nothing if another run got there first.
 * Column names come from the fixed set above, never from data.
 */
export function advanceSql(
  workspaceId: string,
  id: string,
  from: PipelineStage,
  changes: ActivityChanges,
  now: Date,
  firstParam = 1,
): { sql: string; params: unknown[] } {
  const params: unknown[] = [workspaceId, id, from, now];
  const $ = (index: number) => `$${firstParam + index}`;
  const sets = [`updated_at = ${$(3)}`];
  for (const [column, value] of Object.entries(changes)) {
    if (!CHANGEABLE.has(column)) throw new Error(`activities.${column} is not a pipeline result`);
    params.push(JSON_COLUMNS.has(column) && value !== null ? JSON.stringify(value) : value);
    sets.push(`${column} = ${$(params.length - 1)}`);
  }
  return {
    sql: `UPDATE activities SET ${sets.join(', ')} WHERE workspace_id = ${$(0)} AND id = ${$(1)} AND stage = ${$(2)}`,
    params,
  };
}

export interface NewActivity {
  id: string;
  input: ActivityInput;
}

/** Activities, always within one workspace (the sweeper's cross-workspace scan is the exception, named as such). */
@Injectable()
export class ActivitiesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Inserts the batch in one statement; rows whose external_id the workspace already has (or that
   * repeat one earlier in the batch) are skipped. Returns the ids actually inserted.
   */
  async insertBatch(ctx: WorkspaceContext, activities: readonly NewActivity[], now: Date): Promise<Set<string>> {
    const workspaceId = requireWorkspace(ctx);
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `INSERT INTO activities (id, workspace_id, external_id, type, trigger, occurred_at, payload, created_at, updated_at)
       SELECT a.id, $1, a.external_id, a.type, a.trigger, a.occurred_at, a.payload::json, $2, $2
         FROM unnest($3::bigint[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::text[])
              AS a (id, external_id, type, trigger, occurred_at, payload)
       ON CONFLICT (workspace_id, external_id) WHERE external_id IS NOT NULL DO NOTHING
       RETURNING id`,
      [
        workspaceId,
        now,
        activities.map((a) => a.id),
        activities.map((a) => a.input.external_id ?? null),
        activities.map((a) => a.input.type),
        activities.map((a) => a.input.trigger),
        activities.map((a) => a.input.occurred_at),
        activities.map((a) => JSON.stringify(a.input)),
      ],
    );
    return new Set(rows.map((row) => row.id));
  }

  /** Ids of the workspace's activities with these external ids. */
  async idsByExternalId(ctx: WorkspaceContext, externalIds: readonly string[]): Promise<Map<string, string>> {
    if (externalIds.length === 0) return new Map();
    const rows: Array<{ id: string; external_id: string }> = await this.dataSource.query(
      `SELECT id, external_id FROM activities WHERE workspace_id = $1 AND external_id = ANY($2::text[])`,
      [requireWorkspace(ctx), externalIds],
    );
    return new Map(rows.map((row) => [row.external_id, row.id]));
  }

  /**
   * One activity. `extra` adds columns computed in the same round trip, e.g. a scalar subquery
   * over the workspace's knowledge base (`$1` is the workspace id).
   */
  find<Extra extends object = object>(ctx: WorkspaceContext, id: string, extra = ''): Promise<(ActivityEntity & Extra) | null> {
    return this.select(ctx, id, extra, '', this.dataSource.manager);
  }

  /** As `find`, and locks the row for the rest of the transaction (Match runs exactly once per activity). */
  lock<Extra extends object = object>(
    ctx: WorkspaceContext,
    id: string,
    manager: EntityManager,
    extra = '',
  ): Promise<(ActivityEntity & Extra) | null> {
    return this.select(ctx, id, extra, 'FOR UPDATE OF activities', manager);
  }

  private async select<Row>(ctx: WorkspaceContext, id: string, extra: string, lock: string, manager: EntityManager): Promise<Row | null> {
    const { rows } = await preparedQuery<Row>(
      manager,
      `SELECT ${ACTIVITY_COLUMNS}${extra ? `, ${extra}` : ''} FROM activities WHERE workspace_id = $1 AND id = $2 ${lock}`,
      [requireWorkspace(ctx), id],
    );
    return rows[0] ?? null;
  }

  /**
   * Stores a step's result and moves the activity from `from` to the next stage; false when it
   * had already moved on (a repeated job), in which case nothing is written.
   */
  async advance(
    ctx: WorkspaceContext,
    id: string,
    from: PipelineStage,
    changes: ActivityChanges,
    now: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const update = advanceSql(requireWorkspace(ctx), id, from, changes, now);
    const { rowCount } = await preparedQuery(manager, update.sql, update.params);
    return (rowCount ?? 0) > 0;
  }

  /** How the workspace's activities with ids in [fromId, toId] stand. */
  async progress(ctx: WorkspaceContext, fromId: string, toId: string): Promise<{ pending: number; processed: number; discarded: number }> {
    const rows = await this.dataSource.query(
      `SELECT count(*) FILTER (WHERE stage <> 'done')::int AS pending,
              count(*) FILTER (WHERE status = 'processed')::int AS processed,
              count(*) FILTER (WHERE status = 'discarded')::int AS discarded
         FROM activities WHERE workspace_id = $1 AND id BETWEEN $2 AND $3`,
      [requireWorkspace(ctx), fromId, toId],
    );
    return rows[0];
  }

  /**
   * System-wide scan (no workspace): activities not finished and untouched for `olderThanMs`,
   * whose job may never have reached Redis. Returns ids and workspaces only.
   */
  async unfinishedAcrossWorkspaces(
    olderThanMs: number,
    limit: number,
  ): Promise<Array<{ id: string; workspace_id: string; stage: PipelineStage; updated_at: Date }>> {
    return this.dataSource.query(
      `SELECT id, workspace_id, stage, updated_at FROM activities
        WHERE stage <> 'done' AND updated_at < now() - ($1 || ' milliseconds')::interval
        ORDER BY updated_at LIMIT $2`,
      [olderThanMs, limit],
    );
  }
}
