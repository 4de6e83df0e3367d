import { firstIdAt } from '../shared/domain/ids';

/**
 * Tables partitioned by time (ADR 0052): a range partition per period, created ahead of time, and
 * two catch-all partitions, `<table>_min` (from MINVALUE) and `<table>_max` (to MAXVALUE), so that
 * a row is never refused for lack of a partition and there is no DEFAULT partition (which would
 * stop the planner from pruning and from reading partitions in order). Retention removes whole
 * periods: `DETACH … CONCURRENTLY`, then `DROP`.
 *
 * Layout invariant, kept by `ensurePartitions` and `dropExpired`: `<table>_min` ends where the
 * oldest period starts, periods follow each other without gaps, `<table>_max` starts where the
 * newest period ends.
 */

/** One connection's statements: rows of `text` run with `values`. */
export type Sql = (text: string, values?: unknown[]) => Promise<Array<Record<string, unknown>>>;

export type PartitionUnit = 'month' | 'day';

export interface PartitionedTable {
  table: string;
  unit: PartitionUnit;
  /** The partition key column. */
  column: string;
  /** Periods kept ready after the current one, so that the MAXVALUE partition stays empty. */
  ahead: number;
  /** The partition key's SQL value at a period boundary (a UTC midnight). */
  boundary(at: Date): string;
  /** Storage parameters of every partition (a partitioned table has none of its own), e.g. `fillfactor = 50`. */
  storage?: string;
  /**
   * A SQL condition on rows that retention must not remove (an unfinished activity): a period
   * holding such a row is kept, with every newer one (periods go oldest first, without gaps), and
   * such rows stay in the MINVALUE partition.
   */
  pinned?: string;
  /** Run after each retention run with the boundary before which rows were removed: what else goes with them. */
  afterRetention?(sql: Sql, cutoff: string): Promise<void>;
}

/** A SQL `timestamptz` literal of an instant. */
export function timestampBoundary(at: Date): string {
  return `'${at.toISOString()}'`;
}

/** A SQL `bigint` literal of the smallest id minted at an instant (ADR 0053). */
export function idBoundary(at: Date): string {
  return firstIdAt(at).toString();
}

/** Signals by month of `captured_at`. */
export const SIGNAL_PARTITIONS: PartitionedTable = {
  table: 'signals',
  unit: 'month',
  column: 'captured_at',
  ahead: 3,
  boundary: timestampBoundary,
};

/**
 * Activities by UTC day of arrival: their ids are minted at arrival and time-ordered, so the range
 * of a day's ids is the day (ADR 0053). Pipeline steps update rows in place (fillfactor 50, as the
 * table had); retention never removes an activity still in the pipeline, and the external ids
 * remembered for intake's duplicates go with their activities.
 */
export const ACTIVITY_PARTITIONS: PartitionedTable = {
  table: 'activities',
  unit: 'day',
  column: 'id',
  ahead: 3,
  boundary: idBoundary,
  storage: 'fillfactor = 50',
  pinned: `status = 'queued'`,
  async afterRetention(sql, cutoff) {
    // In batches: a day's external ids are many rows of a plain table.
    for (;;) {
      const rows = await sql(
        `WITH gone AS (
           SELECT e.workspace_id, e.external_id FROM activity_external_ids e
            WHERE e.activity_id < ${cutoff}
              AND NOT EXISTS (SELECT 1 FROM activities a WHERE a.workspace_id = e.workspace_id AND a.id = e.activity_id)
            LIMIT 10000)
         DELETE FROM activity_external_ids e USING gone
          WHERE e.workspace_id = gone.workspace_id AND e.external_id = gone.external_id
         RETURNING 1`,
      );
      if (rows.length < 10_000) return;
    }
  },
};

/** The first instant of the period `at` falls in (UTC). */
export function periodStart(unit: PartitionUnit, at: Date): Date {
  return unit === 'month'
    ? new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1))
    : new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}

/** The start of the period `n` periods after (or before, `n` < 0) the one starting at `start`. */
export function addPeriods(unit: PartitionUnit, start: Date, n: number): Date {
  return unit === 'month'
    ? new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + n, 1))
    : new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate() + n));
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `signals_p202611` for November 2026 by month; `activities_p20261126` by day. */
export function partitionName(spec: Pick<PartitionedTable, 'table' | 'unit'>, start: Date): string {
  const month = `${start.getUTCFullYear()}${pad(start.getUTCMonth() + 1)}`;
  return `${spec.table}_p${spec.unit === 'month' ? month : month + pad(start.getUTCDate())}`;
}

/** The period a partition's name stands for, or null for the catch-alls and anything else. */
export function periodOf(spec: Pick<PartitionedTable, 'table' | 'unit'>, name: string): Date | null {
  const digits = spec.unit === 'month' ? 6 : 8;
  const match = new RegExp(`^${spec.table}_p(\\d{${digits}})$`).exec(name);
  if (!match) return null;
  const [year, month, day] = [match[1].slice(0, 4), match[1].slice(4, 6), match[1].slice(6, 8) || '01'].map(Number);
  const start = new Date(Date.UTC(year, month - 1, day));
  return partitionName(spec, start) === name ? start : null;
}

/** The periods a table has, oldest first, and whether each is still being detached. */
export interface PartitionLayout {
  periods: Array<{ name: string; start: Date; detachPending: boolean }>;
}

/** What `ensurePartitions` must create so that periods cover `now`'s period and `ahead` more. */
export function periodsToCreate(spec: PartitionedTable, layout: PartitionLayout, now: Date): Date[] {
  const current = periodStart(spec.unit, now);
  const last = layout.periods[layout.periods.length - 1];
  let next = last ? addPeriods(spec.unit, last.start, 1) : current;
  const end = addPeriods(spec.unit, current, spec.ahead + 1);
  const created: Date[] = [];
  while (next < end) {
    created.push(next);
    next = addPeriods(spec.unit, next, 1);
  }
  return created;
}

/** Periods wholly older than `retention` periods before `now`'s, oldest first. */
export function expiredPeriods(spec: PartitionedTable, layout: PartitionLayout, now: Date, retention: number): PartitionLayout['periods'] {
  const cutoff = addPeriods(spec.unit, periodStart(spec.unit, now), -retention);
  return layout.periods.filter((p) => addPeriods(spec.unit, p.start, 1) <= cutoff);
}

/** The statements that create a table's catch-alls and its periods from `first` to `last` (inclusive), for a new table. */
export function initialPartitionsSql(spec: PartitionedTable, first: Date, last: Date): string[] {
  const statements = [
    `CREATE TABLE ${spec.table}_min PARTITION OF ${spec.table} FOR VALUES FROM (MINVALUE) TO (${spec.boundary(first)})${storageSql(spec)}`,
  ];
  let start = first;
  while (start <= last) {
    statements.push(createPeriodSql(spec, start));
    start = addPeriods(spec.unit, start, 1);
  }
  statements.push(
    `CREATE TABLE ${spec.table}_max PARTITION OF ${spec.table} FOR VALUES FROM (${spec.boundary(start)}) TO (MAXVALUE)${storageSql(spec)}`,
  );
  return statements;
}

export function createPeriodSql(spec: PartitionedTable, start: Date): string {
  const end = addPeriods(spec.unit, start, 1);
  return `CREATE TABLE ${partitionName(spec, start)} PARTITION OF ${spec.table} FOR VALUES FROM (${spec.boundary(start)}) TO (${spec.boundary(end)})${storageSql(spec)}`;
}

function storageSql(spec: PartitionedTable): string {
  return spec.storage ? ` WITH (${spec.storage})` : '';
}
