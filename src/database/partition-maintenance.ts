import { Inject, Injectable, Logger, Module, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Client } from 'pg';
import { APP_CONFIG, AppConfig } from '../config/config';
import type { Clock } from '../shared/domain/clock';
import { PeriodicTask } from '../shared/infrastructure/periodic-task';
import { CLOCK } from '../shared/shared.module';
import {
  ACTIVITY_PARTITIONS,
  addPeriods,
  createPeriodSql,
  expiredPeriods,
  PartitionedTable,
  PartitionLayout,
  partitionName,
  periodOf,
  periodsToCreate,
  periodStart,
  SIGNAL_PARTITIONS,
  Sql,
} from './partitions';

export type { Sql } from './partitions';

/** The tables kept partitioned, and how many of their periods each keeps (null: all). */
export const PARTITIONED_TABLES: ReadonlyArray<{ spec: PartitionedTable; retention: (config: AppConfig) => number | null }> = [
  { spec: SIGNAL_PARTITIONS, retention: (config) => config.signalRetentionMonths },
  { spec: ACTIVITY_PARTITIONS, retention: (config) => config.activityRetentionDays },
];

const logger = new Logger('PartitionMaintenance');

/** First key of the advisory locks that serialise maintenance of one table (the second is the table's hash). */
const MAINTENANCE_LOCK = 7_316_504_212;
/** How long a layout change waits for the table's lock before giving up until the next run. */
const LOCK_TIMEOUT = '5s';
const INTERVAL_MS = 60 * 60_000;

export async function readLayout(sql: Sql, spec: PartitionedTable): Promise<PartitionLayout> {
  const rows = await sql(
    `SELECT c.relname AS name, i.inhdetachpending AS pending
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = $1::regclass`,
    [spec.table],
  );
  const periods = rows.flatMap((row) => {
    const start = periodOf(spec, String(row.name));
    return start ? [{ name: String(row.name), start, detachPending: row.pending === true }] : [];
  });
  return { periods: periods.sort((a, b) => a.start.getTime() - b.start.getTime()) };
}

async function inTransaction<T>(sql: Sql, spec: PartitionedTable, work: () => Promise<T>): Promise<T> {
  await sql('BEGIN');
  try {
    await sql(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
    await sql('SELECT pg_advisory_xact_lock($1::bigint # hashtext($2))', [MAINTENANCE_LOCK, spec.table]);
    const result = await work();
    await sql('COMMIT');
    return result;
  } catch (error) {
    await sql('ROLLBACK');
    throw error;
  }
}

/**
 * Creates the periods from the newest one up to `ahead` periods after `now`'s, in one short
 * transaction: the MAXVALUE partition is detached, the periods created, any of its rows that now
 * belong to a period moved there, and it is attached again from the new end. Returns the names
 * created. Safe to run from several processes at once.
 */
export async function ensurePartitions(sql: Sql, spec: PartitionedTable, now: Date): Promise<string[]> {
  // Most runs find nothing to do, and take no lock.
  if (periodsToCreate(spec, await readLayout(sql, spec), now).length === 0) return [];
  return inTransaction(sql, spec, async () => {
    const starts = periodsToCreate(spec, await readLayout(sql, spec), now);
    if (starts.length === 0) return [];
    const end = spec.boundary(addPeriods(spec.unit, starts[starts.length - 1], 1));
    const max = `${spec.table}_max`;
    await sql(`ALTER TABLE ${spec.table} DETACH PARTITION ${max}`);
    for (const start of starts) await sql(createPeriodSql(spec, start));
    await sql(`WITH moved AS (DELETE FROM ${max} WHERE ${spec.column} < ${end} RETURNING *) INSERT INTO ${spec.table} SELECT * FROM moved`);
    await sql(`ALTER TABLE ${spec.table} ATTACH PARTITION ${max} FOR VALUES FROM (${end}) TO (MAXVALUE)`);
    return starts.map((start) => partitionName(spec, start));
  });
}

/**
 * Retention: each period wholly older than `retention` periods before `now`'s is detached
 * without blocking reads and writes (`DETACH … CONCURRENTLY`, finished if an earlier run was
 * interrupted) and dropped, with any period a crashed run detached but did not drop. The MINVALUE
 * partition then takes over their range (rows arriving there from before the retention — a late
 * activity — are deleted on each run), so that no value is ever without a partition for longer
 * than the moment between the detach and that change. A period holding a row the table pins
 * (`pinned`) stops the run there: it and the newer ones stay until a later run finds it free.
 * Returns the names dropped.
 */
export async function dropExpired(sql: Sql, spec: PartitionedTable, now: Date, retention: number): Promise<string[]> {
  const lock = [MAINTENANCE_LOCK, `${spec.table}:retention`];
  const [{ locked }] = await sql('SELECT pg_try_advisory_lock($1::bigint # hashtext($2)) AS locked', lock);
  if (locked !== true) return [];
  try {
    const dropped: string[] = [];
    for (const period of expiredPeriods(spec, await readLayout(sql, spec), now, retention)) {
      if (!period.detachPending && (await holdsPinned(sql, spec, period.name))) {
        logger.warn(`${period.name} is past retention but holds rows still in use (${spec.pinned}); kept until they are not`);
        break;
      }
      await sql(`ALTER TABLE ${spec.table} DETACH PARTITION ${period.name} ${period.detachPending ? 'FINALIZE' : 'CONCURRENTLY'}`);
      await sql(`DROP TABLE ${period.name}`);
      dropped.push(period.name);
    }
    for (const name of await detachedPeriods(sql, spec)) {
      const start = periodOf(spec, name);
      if (start && expiredPeriods(spec, { periods: [{ name, start, detachPending: false }] }, now, retention).length > 0) {
        await sql(`DROP TABLE ${name}`);
        dropped.push(name);
      }
    }
    const cutoff = addPeriods(spec.unit, periodStart(spec.unit, now), -retention);
    await extendMinimum(sql, spec, cutoff);
    await spec.afterRetention?.(sql, spec.boundary(cutoff));
    return dropped;
  } finally {
    await sql('SELECT pg_advisory_unlock($1::bigint # hashtext($2))', lock);
  }
}

async function holdsPinned(sql: Sql, spec: PartitionedTable, name: string): Promise<boolean> {
  if (!spec.pinned) return false;
  const [{ held }] = await sql(`SELECT EXISTS (SELECT 1 FROM ${name} WHERE ${spec.pinned}) AS held`);
  return held === true;
}

/** Tables named as periods of `spec` that are not (or no longer) its partitions. */
async function detachedPeriods(sql: Sql, spec: PartitionedTable): Promise<string[]> {
  const rows = await sql(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname LIKE $1 AND NOT c.relispartition`,
    [`${spec.table}_p%`],
  );
  return rows.map((row) => String(row.name)).filter((name) => periodOf(spec, name) !== null);
}

/** The MINVALUE partition reaches the oldest period again (if periods were dropped), without the rows older than `cutoff`. */
async function extendMinimum(sql: Sql, spec: PartitionedTable, cutoff: Date): Promise<void> {
  const min = `${spec.table}_min`;
  const [oldest] = (await readLayout(sql, spec)).periods;
  if (oldest && (await endsBefore(sql, spec, min, oldest.start))) {
    await inTransaction(sql, spec, async () => {
      await sql(`ALTER TABLE ${spec.table} DETACH PARTITION ${min}`);
      await sql(expiredRowsSql(spec, min, cutoff));
      await sql(`ALTER TABLE ${spec.table} ATTACH PARTITION ${min} FOR VALUES FROM (MINVALUE) TO (${spec.boundary(oldest.start)})`);
    });
  }
  await sql(expiredRowsSql(spec, min, cutoff));
}

function expiredRowsSql(spec: PartitionedTable, name: string, cutoff: Date): string {
  return `DELETE FROM ${name} WHERE ${spec.column} < ${spec.boundary(cutoff)}${spec.pinned ? ` AND NOT (${spec.pinned})` : ''}`;
}

/** Whether partition `name` ends before the period starting at `start` (its upper bound, as the catalogue has it, compared in SQL). */
async function endsBefore(sql: Sql, spec: PartitionedTable, name: string, start: Date): Promise<boolean> {
  const [{ bound, type }] = await sql(
    `SELECT pg_get_expr(c.relpartbound, c.oid) AS bound, format_type(a.atttypid, a.atttypmod) AS type
       FROM pg_class c JOIN pg_attribute a ON a.attrelid = $2::regclass AND a.attname = $3
      WHERE c.oid = $1::regclass`,
    [name, spec.table, spec.column],
  );
  const upper = / TO \((.+)\)$/.exec(String(bound))?.[1];
  if (upper === undefined || upper === 'MAXVALUE') return false;
  const [{ before }] = await sql(`SELECT (${upper})::${String(type)} < ${spec.boundary(start)} AS before`);
  return before === true;
}

/** Runs `work` on a connection of its own, without the pools' statement timeouts (a detach may wait for running queries). */
export async function withMaintenanceClient<T>(
  config: Pick<AppConfig, 'databaseUrl' | 'database'>,
  work: (sql: Sql) => Promise<T>,
): Promise<T> {
  const client = new Client({ connectionString: config.databaseUrl, connectionTimeoutMillis: config.database.connectTimeoutMs });
  await client.connect();
  try {
    return await work(async (text, values) => (await client.query(text, values)).rows as Array<Record<string, unknown>>);
  } finally {
    await client.end();
  }
}

/** What start-up does after the migrations: every partitioned table has its periods up to `ahead`. */
export async function ensureAllPartitions(sql: Sql, now: Date): Promise<void> {
  for (const { spec } of PARTITIONED_TABLES) await ensurePartitions(sql, spec, now);
}

/**
 * Partition maintenance on a timer, in the processes that run workers: every hour, periods are
 * created ahead and, where a retention is set, expired ones are dropped. Start-up does the first
 * (`prepareDatabase`), so a process that starts finds its periods ready.
 */
@Injectable()
export class PartitionMaintenance implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(PartitionMaintenance.name);
  private readonly task = new PeriodicTask(
    INTERVAL_MS,
    () => this.run(),
    (error) => this.logger.warn(`Partition maintenance failed: ${error.message}`),
  );

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.task.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.task.stop();
  }

  /** One run; the partitions created and dropped. */
  async run(): Promise<{ created: string[]; dropped: string[] }> {
    const now = this.clock.now();
    return withMaintenanceClient(this.config, async (sql) => {
      const created: string[] = [];
      const dropped: string[] = [];
      for (const { spec, retention } of PARTITIONED_TABLES) {
        created.push(...(await ensurePartitions(sql, spec, now)));
        const periods = retention(this.config);
        if (periods !== null) dropped.push(...(await dropExpired(sql, spec, now, periods)));
      }
      if (created.length > 0) this.logger.log(`Created partitions ${created.join(', ')}`);
      if (dropped.length > 0) this.logger.log(`Dropped partitions past retention: ${dropped.join(', ')}`);
      return { created, dropped };
    });
  }
}

/** Partition maintenance, run by the processes that run workers. */
@Module({
  providers: [PartitionMaintenance],
  exports: [PartitionMaintenance],
})
export class PartitionMaintenanceModule {}
