import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/config';
import { PeriodicTask } from '../shared/infrastructure/periodic-task';
import { isUnavailable } from '../shared/infrastructure/postgres-errors';
import { preparedQuery, statementConfig } from '../shared/infrastructure/prepared-query';
import { POOL_SIZE } from './data-source';
import { PG_TYPES } from './pg-types';
import { DatabaseWorkload, pgTimeouts } from './timeouts';

/** The workload of the process's DataSource (`DatabaseModule.forRoot`); replicas serve only the API's. */
export const DATABASE_WORKLOAD = Symbol('DATABASE_WORKLOAD');

/** How often each replica's lag is measured. */
export const LAG_INTERVAL_MS = 1_000;
/** Positions of the primary kept per replica: an hour of a busy primary at one a second. */
const MAX_SAMPLES = 3_600;
/** A replica that cancelled a statement because it conflicted with replaying the primary's changes. */
const RECOVERY_CONFLICT = '40001';

/** `X/Y`, PostgreSQL's text of a WAL position (`pg_lsn`), as one number. */
export function lsnValue(text: string): bigint {
  const match = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(text);
  if (!match) throw new Error(`Not a WAL position: ${text}`);
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

/**
 * How far one replica is behind, in seconds: how long ago the primary had written a WAL position
 * the replica has not replayed yet (0 when it has replayed everything the primary had written at
 * the last sample). Unlike the age of the last replayed transaction, this does not grow while the
 * primary is idle, and it grows while the replica's replay is paused or its stream is cut.
 */
export class LagTracker {
  /** The primary's WAL positions, oldest first, each with when it was read (ms). */
  private readonly samples: Array<{ at: number; lsn: bigint }> = [];

  /** The primary had written up to `lsn` by `at`. */
  primaryAt(at: number, lsn: bigint): void {
    const last = this.samples[this.samples.length - 1];
    if (last && lsn <= last.lsn) return;
    // Full: the newest sample takes the new position but keeps its older time, so the lag is
    // overstated rather than understated.
    if (last && this.samples.length >= MAX_SAMPLES) last.lsn = lsn;
    else this.samples.push({ at, lsn });
  }

  /** The replica has replayed up to `lsn`; its lag at `now`. */
  replayedTo(lsn: bigint, now: number): number {
    while (this.samples.length > 0 && this.samples[0].lsn <= lsn) this.samples.shift();
    return this.samples.length > 0 ? Math.max(0, now - this.samples[0].at) / 1000 : 0;
  }
}

export type ReplicaState = 'up' | 'lagging' | 'down';

export interface ReplicaStatus {
  /** `host:port/database`, without credentials. */
  replica: string;
  /** `up`: serving reads; `lagging`: answering but further behind than `REPLICA_MAX_LAG_S`; `down`: not answering or not a standby. */
  state: ReplicaState;
  /** The last measured lag; null before the first measurement or while down. */
  lag_seconds: number | null;
}

/** A replica's name for health, metrics and logs: its address and database, never its credentials. */
function replicaName(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
}

class Replica {
  readonly lag = new LagTracker();
  /** The last successful measurement; cleared when the replica fails. */
  measured: { at: number; lagSeconds: number } | null = null;
  state: ReplicaState = 'down';

  constructor(
    readonly name: string,
    readonly pool: Pool,
  ) {}

  /**
   * Whether reads may go here at `now`: answering, and behind by at most `maxLagSeconds` even if
   * the primary has been writing ever since the last measurement (its age is added).
   */
  usable(now: number, maxLagSeconds: number): boolean {
    return this.measured !== null && this.measured.lagSeconds + (now - this.measured.at) / 1000 <= maxLagSeconds;
  }
}

/**
 * Where the read routes' statements go (ADR 0050). With `DATABASE_REPLICA_URLS` set, the API
 * process opens one pool per replica (the API's timeouts, `application_name` `bi-api-replica`)
 * and measures each one's lag every second against the primary's WAL position; `query` runs on
 * a replica that answers and is at most `REPLICA_MAX_LAG_S` behind (in turn when there are
 * several), and on the primary otherwise, or when the replica fails the statement because it is
 * unavailable. Only repositories of reads that tolerate a few seconds' staleness use it; anything
 * read after its own write stays on the primary through `preparedQuery`. Other processes, and the
 * API without replicas, open nothing and run every read on the primary.
 */
@Injectable()
export class ReplicaReads implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ReplicaReads.name);
  private readonly replicas: Replica[];
  private readonly maxLagSeconds: number;
  private readonly named: boolean;
  /** One measuring task per replica, so a replica that hangs delays no other's measurement. */
  private readonly tasks: PeriodicTask[];
  private next = 0;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(DATABASE_WORKLOAD) workload: DatabaseWorkload,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    this.maxLagSeconds = config.replicas.maxLagSeconds;
    this.named = config.preparedStatements;
    const urls = workload === 'api' ? config.replicas.urls : [];
    this.replicas = urls.map((url) => {
      const pool = new Pool({
        connectionString: url,
        max: POOL_SIZE,
        application_name: 'bi-api-replica',
        ...pgTimeouts(config.database, 'api'),
        types: PG_TYPES,
      });
      const replica = new Replica(replicaName(url), pool);
      // An idle connection that breaks (the replica restarts) is dropped by the pool; the next
      // measurement notices the replica is away.
      pool.on('error', (error) => this.logger.debug(`Replica ${replica.name}: idle connection lost: ${error.message}`));
      return replica;
    });
    this.tasks = this.replicas.map(
      (replica) =>
        new PeriodicTask(
          LAG_INTERVAL_MS,
          () => this.measure(replica),
          (error) => this.failed(replica, error),
        ),
    );
  }

  /** Runs a read statement on a replica fit to serve it, else on the primary; values as `preparedQuery`'s. */
  async query<Row = Record<string, unknown>>(text: string, values: readonly unknown[]): Promise<{ rows: Row[]; rowCount: number | null }> {
    const replica = this.pick();
    if (replica) {
      try {
        const { rows, rowCount } = await replica.pool.query(statementConfig(text, values, this.named));
        return { rows: rows as Row[], rowCount };
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (isUnavailable(error)) this.failed(replica, error as Error);
        else if (code !== RECOVERY_CONFLICT) throw error;
      }
    }
    return preparedQuery<Row>(this.dataSource.manager, text, values);
  }

  /** Each replica's state and last measured lag, in the order configured (empty without replicas). */
  status(): ReplicaStatus[] {
    const now = Date.now();
    return this.replicas.map((replica) => ({
      replica: replica.name,
      // A measurement that has not come back for a while counts against the replica as lag.
      state: replica.state === 'up' && !replica.usable(now, this.maxLagSeconds) ? 'lagging' : replica.state,
      lag_seconds: replica.measured ? Math.round(replica.measured.lagSeconds * 1000) / 1000 : null,
    }));
  }

  onApplicationBootstrap(): void {
    for (const task of this.tasks) task.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.tasks.map((task) => task.stop()));
    await Promise.all(this.replicas.map((replica) => replica.pool.end()));
  }

  private pick(): Replica | undefined {
    const now = Date.now();
    for (let i = 0; i < this.replicas.length; i++) {
      const replica = this.replicas[(this.next + i) % this.replicas.length];
      if (replica.usable(now, this.maxLagSeconds)) {
        this.next = (this.next + i + 1) % this.replicas.length;
        return replica;
      }
    }
    return undefined;
  }

  /** One measurement: the primary's WAL position, then how much of it `replica` has replayed. */
  private async measure(replica: Replica): Promise<void> {
    const at = Date.now();
    // Without the primary's position (it does not answer) the samples so far still tell the lag.
    const primary = await this.dataSource.query<Array<{ lsn: string }>>('SELECT pg_current_wal_lsn()::text AS lsn').then(
      (rows) => lsnValue(rows[0].lsn),
      () => null,
    );
    if (primary !== null) replica.lag.primaryAt(at, primary);
    const { rows } = await replica.pool.query<{ standby: boolean; replayed: string | null }>(
      'SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replayed',
    );
    const { standby, replayed } = rows[0];
    if (!standby || replayed === null) throw new Error('it is not a standby (it replays no WAL)');
    const now = Date.now();
    replica.measured = { at: now, lagSeconds: replica.lag.replayedTo(lsnValue(replayed), now) };
    this.setState(replica, replica.usable(now, this.maxLagSeconds) ? 'up' : 'lagging');
  }

  /** Not used again until a measurement succeeds. */
  private failed(replica: Replica, error: Error): void {
    replica.measured = null;
    this.setState(replica, 'down', error.message);
  }

  private setState(replica: Replica, state: ReplicaState, reason?: string): void {
    if (replica.state === state) return;
    const was = replica.state;
    replica.state = state;
    if (state === 'up') this.logger.log(`Replica ${replica.name} serves reads (was ${was})`);
    else if (state === 'lagging')
      this.logger.warn(`Replica ${replica.name} is more than ${this.maxLagSeconds} s behind; reads go to the primary`);
    else this.logger.warn(`Replica ${replica.name} is out of use; reads go to the primary: ${reason ?? 'unknown'}`);
  }
}
