import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import DataLoader from 'dataloader';
import { DataSource, EntityManager } from 'typeorm';
import { requireWorkspace, WorkspaceContext } from '../../shared/application/workspace-context';
import type { ActivityInput } from './activity-input';
import type { SignalTrigger, SignalType } from '../signals/signal-types';
import { ActivityEntity, ActivityStage, ActivityStatus, DiscardReason } from './activity.entity';
import { preparedQuery } from '../../shared/infrastructure/prepared-query';
import { SqlParams } from '../../shared/infrastructure/sql-params';
import { groupBy, turnBatching } from '../../shared/infrastructure/turn-batching';

/** Every column, in one place, so raw reads return the entity's shape. */
const ACTIVITY_COLUMNS =
  'id, workspace_id, external_id, type, trigger, occurred_at, payload, stage, status, discard_reason, person_key, ' +
  'identity, contact_info, company_info, evaluation, buyer_id, signal_id, near_miss, created_at, updated_at';

/** What a pipeline step may change on an activity. */
export type ActivityChanges = Partial<
  Pick<
    ActivityEntity,
    | 'stage'
    | 'status'
    | 'discard_reason'
    | 'person_key'
    | 'identity'
    | 'contact_info'
    | 'company_info'
    | 'evaluation'
    | 'buyer_id'
    | 'signal_id'
    | 'near_miss'
  >
>;
const CHANGEABLE = new Set<string>([
  'stage',
  'status',
  'discard_reason',
  'person_key',
  'identity',
  'contact_info',
  'company_info',
  'evaluation',
  'buyer_id',
  'signal_id',
  'near_miss',
]);
const JSON_COLUMNS = new Set<string>(['identity', 'contact_info', 'company_info', 'evaluation', 'near_miss']);
const BIGINT_COLUMNS = new Set<string>(['buyer_id', 'signal_id']);

function checkChangeable(column: string): void {
  if (!CHANGEABLE.has(column)) throw new Error(`activities.${column} is not a pipeline result`);
}

function columnValue(column: string, value: unknown): unknown {
  return JSON_COLUMNS.has(column) && value !== null && value !== undefined ? JSON.stringify(value) : (value ?? null);
}

/** Which activities a stage move is for, and when it happens. */
export interface ActivityMove {
  workspaceId: string;
  /** The stage they move from; null: from any stage but done. */
  from: ActivityStage | null;
  now: Date;
}

/**
 * `UPDATE activities … FROM unnest(…)`: pipeline results stored, and the stage moved, for many
 * activities of one workspace at once, all moving from `from` and all setting the same `columns`
 * (each to its own value). An activity no longer at `from` is left alone (another run got there
 * first); the statement returns the ids it moved. Each id may appear once. Column names come from
 * the fixed set above, never from data.
 *
 * Its values are bound in `params` by name (`workspace`, `from`, `now`, `activities.<column>`),
 * so a statement that embeds it (the Match step's write) shares `workspace` and `now` by name.
 */
export function advanceManySql(
  params: SqlParams,
  move: ActivityMove,
  columns: readonly string[],
  rows: ReadonlyArray<{ id: string; changes: ActivityChanges }>,
): string {
  const workspace = params.bind('workspace', move.workspaceId);
  const from = params.bind('from', move.from);
  const now = params.bind('now', move.now);
  const arrays = [
    `${params.bind(
      'activities.id',
      rows.map((row) => row.id),
    )}::bigint[]`,
  ];
  const names = ['id'];
  const sets = [`updated_at = ${now}`];
  for (const column of columns) {
    checkChangeable(column);
    const values = rows.map(({ changes }) => columnValue(column, (changes as Record<string, unknown>)[column]));
    arrays.push(`${params.bind(`activities.${column}`, values)}::${BIGINT_COLUMNS.has(column) ? 'bigint' : 'text'}[]`);
    names.push(column);
    sets.push(`${column} = v.${column}${JSON_COLUMNS.has(column) ? '::json' : ''}`);
  }
  return (
    `UPDATE activities a SET ${sets.join(', ')} FROM unnest(${arrays.join(', ')}) AS v (${names.join(', ')}) ` +
    `WHERE a.workspace_id = ${workspace} AND (a.stage = ${from} OR (${from}::text IS NULL AND a.stage <> 'done')) AND a.id = v.id RETURNING a.id`
  );
}

/** What the activity list shows of a row. */
export type ActivityListRow = Pick<
  ActivityEntity,
  'id' | 'type' | 'trigger' | 'occurred_at' | 'status' | 'discard_reason' | 'near_miss' | 'signal_id' | 'buyer_id'
>;

export interface ActivityFilter {
  status?: ActivityStatus;
  discardReason?: DiscardReason;
  type?: SignalType;
  trigger?: SignalTrigger;
  /** Id bounds of the arrival times asked for: `id >= fromId`, `id < toId` (`firstIdAt`). */
  fromId?: string;
  toId?: string;
  order: 'asc' | 'desc';
}

/** Status literals from this fixed table, never from input, so the partial indexes' predicates are visible to the planner. */
const STATUS_SQL: Record<ActivityStatus, string> = { queued: `'queued'`, processed: `'processed'`, discarded: `'discarded'` };

/**
 * One page of the activity list, in arrival order: by id, which is minted at arrival and is the
 * partition key (ADR 0053, ADR 0056). Arrival bounds and the cursor are id ranges, so a page reads
 * only the days it can find rows in, each through the primary key `(workspace_id, id)` (or, for
 * discarded activities, the partial index `activities_discarded`), in order, stopping after
 * `limit + 1` rows.
 */
export function activitiesPageSql(
  workspaceId: string,
  filter: ActivityFilter,
  afterId: string | null,
  limit: number,
): { sql: string; params: unknown[] } {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new Error(`Not a page size: ${limit}`);
  const params: unknown[] = [workspaceId];
  const conditions = ['a.workspace_id = $1'];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    conditions.push(sql.replaceAll('?', `$${params.length}`));
  };
  const status = filter.discardReason !== undefined ? 'discarded' : filter.status;
  if (status !== undefined) conditions.push(`a.status = ${STATUS_SQL[status]}`);
  if (filter.discardReason !== undefined) add('a.discard_reason = ?', filter.discardReason);
  if (filter.trigger !== undefined) add('a.trigger = ?', filter.trigger);
  else if (filter.type !== undefined) add('a.type = ?', filter.type);
  if (filter.fromId !== undefined) add('a.id >= ?::bigint', filter.fromId);
  if (filter.toId !== undefined) add('a.id < ?::bigint', filter.toId);
  if (afterId !== null) add(`a.id ${filter.order === 'asc' ? '>' : '<'} ?::bigint`, afterId);
  const direction = filter.order === 'asc' ? 'ASC' : 'DESC';
  return {
    sql: `SELECT a.id, a.type, a.trigger, a.occurred_at, a.status, a.discard_reason, a.near_miss, a.signal_id, a.buyer_id
            FROM activities a WHERE ${conditions.join(' AND ')} ORDER BY a.id ${direction} LIMIT ${limit + 1}`,
    params,
  };
}

interface FindKey {
  workspaceId: string;
  id: string;
}

interface AdvanceKey {
  workspaceId: string;
  id: string;
  from: ActivityStage;
  changes: ActivityChanges;
  now: Date;
}

const MAX_BIGINT = 9223372036854775807n;

/**
 * The id as PostgreSQL prints a bigint (batched answers are matched to their callers by it), or
 * null when no row can have it.
 */
function bigintId(id: string): string | null {
  if (!/^[0-9]{1,19}$/.test(id)) return null;
  const value = BigInt(id);
  return value <= MAX_BIGINT ? value.toString() : null;
}

export interface NewActivity {
  id: string;
  input: ActivityInput;
}

/** Activities, always within one workspace (the sweeper's cross-workspace scan is the exception, named as such). */
@Injectable()
export class ActivitiesRepository {
  /**
   * Outside a transaction, finds and stage moves are batched: the reads and moves of the jobs a
   * worker runs side by side become one statement per workspace, instead of one round trip each
   * (on the hot path the round trips, not the statements' work, were the pipeline's cost). Every
   * call still gets its own answer, and keeps the workspace it was made for.
   */
  private readonly finds = new DataLoader<FindKey, Record<string, unknown> | null>((keys) => this.findBatch(keys), turnBatching());
  private readonly advances = new DataLoader<AdvanceKey, boolean>((keys) => this.advanceBatch(keys), turnBatching());

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Inserts the batch in one statement; rows whose external_id the workspace already has (or that
   * repeat one earlier in the batch) are skipped. Returns the ids actually inserted. External ids
   * are claimed in `activity_external_ids` by the same statement (a unique key of the activities,
   * partitioned by id, could not leave `id` out, ADR 0053): a concurrent claim of the same one
   * waits for the other statement's transaction, and skips its row if that one committed. Claims
   * are made in external-id order, so two batches naming the same ids in different orders wait
   * for each other instead of deadlocking; of repeats within a batch the first (lowest id) wins.
   */
  async insertBatch(ctx: WorkspaceContext, activities: readonly NewActivity[], now: Date): Promise<Set<string>> {
    const workspaceId = requireWorkspace(ctx);
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `WITH a AS (
         SELECT * FROM unnest($3::bigint[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::text[])
                AS a (id, external_id, type, trigger, occurred_at, payload)
       ), claimed AS (
         INSERT INTO activity_external_ids (workspace_id, external_id, activity_id, created_at)
         SELECT $1, a.external_id, a.id, $2 FROM a WHERE a.external_id IS NOT NULL ORDER BY a.external_id, a.id
         ON CONFLICT (workspace_id, external_id) DO NOTHING
         RETURNING activity_id
       )
       INSERT INTO activities (id, workspace_id, external_id, type, trigger, occurred_at, payload, created_at, updated_at)
       SELECT a.id, $1, a.external_id, a.type, a.trigger, a.occurred_at, a.payload::json, $2, $2
         FROM a WHERE a.external_id IS NULL OR a.id IN (SELECT activity_id FROM claimed)
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

  /**
   * Ids of the workspace's activities with these external ids. An external id is remembered as
   * long as its activity is kept (`ACTIVITY_RETENTION_DAYS`).
   */
  async idsByExternalId(ctx: WorkspaceContext, externalIds: readonly string[]): Promise<Map<string, string>> {
    if (externalIds.length === 0) return new Map();
    const rows: Array<{ id: string; external_id: string }> = await this.dataSource.query(
      `SELECT activity_id AS id, external_id FROM activity_external_ids WHERE workspace_id = $1 AND external_id = ANY($2::text[])`,
      [requireWorkspace(ctx), externalIds],
    );
    return new Map(rows.map((row) => [row.external_id, row.id]));
  }

  /** One activity, read together with the other finds of the same turn of the event loop. */
  async find(ctx: WorkspaceContext, id: string): Promise<ActivityEntity | null> {
    const workspaceId = requireWorkspace(ctx);
    const rowId = bigintId(id);
    if (rowId === null) return null;
    const row = await this.finds.load({ workspaceId, id: rowId });
    return row as ActivityEntity | null;
  }

  private async findBatch(keys: readonly FindKey[]): Promise<Array<Record<string, unknown> | null>> {
    const found = new Map<string, Record<string, unknown>>();
    const keyOf = (workspaceId: string, id: string) => `${workspaceId}\u0000${id}`;
    for (const [workspaceId, group] of groupBy(keys, (key) => key.workspaceId)) {
      const { rows } = await preparedQuery<Record<string, unknown>>(
        this.dataSource.manager,
        `SELECT ${ACTIVITY_COLUMNS} FROM activities WHERE workspace_id = $1 AND id = ANY($2::bigint[])`,
        [workspaceId, [...new Set(group.map((key) => key.id))]],
      );
      for (const row of rows) found.set(keyOf(workspaceId, String(row.id)), row);
    }
    // The same activity asked for twice gets two copies: callers may change what they get.
    const handedOut = new Set<Record<string, unknown>>();
    return keys.map((key) => {
      const row = found.get(keyOf(key.workspaceId, key.id));
      if (!row) return null;
      if (handedOut.has(row)) return structuredClone(row);
      handedOut.add(row);
      return row;
    });
  }

  /**
   * As `find` for several activities, and locks their rows for the rest of the transaction, in id
   * order (so two transactions locking overlapping sets cannot deadlock). Answers follow `ids`:
   * null for an id no activity of the workspace has; a repeated id gets the same row. `extra`
   * adds the caller's computed columns to each row; it may refer to the statement's `workspace`.
   */
  async lockMany<Extra extends object = object>(
    ctx: WorkspaceContext,
    ids: readonly string[],
    manager: EntityManager,
    extra?: (params: SqlParams) => string,
  ): Promise<Array<(ActivityEntity & Extra) | null>> {
    const params = new SqlParams();
    const workspace = params.bind('workspace', requireWorkspace(ctx));
    const canonical = ids.map(bigintId);
    const wanted = [...new Set(canonical.filter((id): id is string => id !== null))];
    if (wanted.length === 0) return ids.map(() => null);
    const $ids = params.bind('ids', wanted);
    const columns = extra ? `${ACTIVITY_COLUMNS}, ${extra(params)}` : ACTIVITY_COLUMNS;
    const { rows } = await preparedQuery<ActivityEntity & Extra>(
      manager,
      `SELECT ${columns} FROM activities WHERE workspace_id = ${workspace} AND id = ANY(${$ids}::bigint[]) ORDER BY id FOR UPDATE OF activities`,
      params.values,
    );
    const byId = new Map(rows.map((row) => [String(row.id), row]));
    return canonical.map((id) => (id === null ? null : (byId.get(id) ?? null)));
  }

  /**
   * Stores a step's result and moves the activity from `from` to the next stage, together with
   * the other moves of the same turn; false when it had already moved on (a repeated job), in
   * which case nothing is written.
   */
  async advance(ctx: WorkspaceContext, id: string, from: ActivityStage, changes: ActivityChanges, now: Date): Promise<boolean> {
    const workspaceId = requireWorkspace(ctx);
    const rowId = bigintId(id);
    return rowId === null ? false : this.advances.load({ workspaceId, id: rowId, from, changes, now });
  }

  private async advanceBatch(keys: readonly AdvanceKey[]): Promise<boolean[]> {
    const moved = keys.map(() => false);
    const indexed = keys.map((key, index) => ({ key, index }));
    const groups = groupBy(indexed, ({ key }) => `${key.workspaceId}\u0000${key.from}\u0000${Object.keys(key.changes).sort().join(',')}`);
    for (const group of groups.values()) {
      // An activity moves once: a repeated job computed the same step, and only one can move it.
      const first = new Map<string, { key: AdvanceKey; index: number }>();
      for (const member of group) if (!first.has(member.key.id)) first.set(member.key.id, member);
      const members = [...first.values()];
      const { workspaceId, from, changes } = members[0].key;
      const now = new Date(Math.max(...members.map(({ key }) => key.now.getTime())));
      const params = new SqlParams();
      const update = advanceManySql(
        params,
        { workspaceId, from, now },
        Object.keys(changes).sort(),
        members.map(({ key }) => key),
      );
      const { rows } = await preparedQuery<{ id: string }>(this.dataSource.manager, update, params.values);
      const done = new Set(rows.map((row) => String(row.id)));
      for (const { key, index } of members) moved[index] = done.has(key.id);
    }
    return moved;
  }

  /**
   * One page of the workspace's activities (`activitiesPageSql`), read from the primary like the
   * single activity, so a list shows what `GET /ingest/v1/activities/{id}` shows.
   */
  async page(ctx: WorkspaceContext, filter: ActivityFilter, afterId: string | null, limit: number): Promise<ActivityListRow[]> {
    const { sql, params } = activitiesPageSql(requireWorkspace(ctx), filter, afterId, limit);
    return this.dataSource.query(sql, params);
  }

  /** How the workspace's activities with ids in [fromId, toId] stand. */
  async progress(ctx: WorkspaceContext, fromId: string, toId: string): Promise<{ pending: number; processed: number; discarded: number }> {
    const rows: Array<{ pending: number; processed: number; discarded: number }> = await this.dataSource.query(
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
   * whose job may never have reached Redis. Returns ids and workspaces only. Served by the partial
   * index on `created_at` of queued activities (an activity created within the window cannot have
   * been untouched for all of it), which no step's update touches.
   */
  async unfinishedAcrossWorkspaces(
    olderThanMs: number,
    limit: number,
  ): Promise<Array<{ id: string; workspace_id: string; stage: ActivityStage; updated_at: Date }>> {
    return this.dataSource.query(
      `SELECT id, workspace_id, stage, updated_at FROM activities
        WHERE status = 'queued' AND created_at < now() - ($1 || ' milliseconds')::interval
          AND updated_at < now() - ($1 || ' milliseconds')::interval
        ORDER BY created_at LIMIT $2`,
      [olderThanMs, limit],
    );
  }
}
