/**
 * The scale benchmark's two databases, made once and reused: 1M Signals in the single table as it
 * was before Signals were partitioned (every migration run, then the partitioning reverted), and
 * 20M Signals in the monthly partitions, spread over two years. Both hold several workspaces; the
 * first and largest is the one measured. Buyers come from `seed bulk`; Signals from its own
 * set-based statement, drawing Buyers with uneven weights, so that a Buyer has from a few Signals
 * to a few hundred.
 */
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dropDatabase, ensureDatabase, runMigrations } from '../src/database/bootstrap';
import { dataSourceOptions } from '../src/database/data-source';
import { SignalsByMonth1764633600000 } from '../src/database/migrations/1764633600000-signals-by-month';
import { addPeriods, initialPartitionsSql, periodStart, SIGNAL_PARTITIONS } from '../src/database/partitions';
import { insertSignalsParams } from '../src/modules/seed/bulk-seed.service';
import { INSERT_SIGNALS, REFRESH_BUYER_SUMMARIES } from '../src/modules/seed/bulk-seed.sql';
import { formatId, ID_PREFIXES, parseId } from '../src/shared/domain/ids';
import { BenchWorkspace, cli } from './seed';

export interface ScaleWorkspaceSize {
  buyers: number;
  signals: number;
}

export interface ScaleDatabaseSpec {
  /** `1m_single` or `20m_partitioned`: the database is `bi_bench_<key>`. */
  key: string;
  partitioned: boolean;
  /** Timestamps are spread over this many days back from now. */
  days: number;
  /** The first is the one measured. */
  workspaces: ScaleWorkspaceSize[];
}

export interface SeedTimes {
  buyers_s: number;
  signals_s: number;
  summaries_s: number;
  vacuum_analyze_s: number;
  total_s: number;
}

export interface ScaleDatabase {
  spec: ScaleDatabaseSpec;
  url: string;
  workspace: BenchWorkspace;
  /** How long seeding took, when this database was seeded (this run or an earlier one). */
  seed: SeedTimes;
  seededThisRun: boolean;
}

/** Two years of Signals; the large workspace holds 60 % of them, four smaller ones 10 % each. */
export function scaleSpec(key: string, partitioned: boolean, totalSignals: number, signalsPerBuyer = 40): ScaleDatabaseSpec {
  const shares = [0.6, 0.1, 0.1, 0.1, 0.1];
  return {
    key,
    partitioned,
    days: 730,
    workspaces: shares.map((share) => {
      const signals = Math.round(totalSignals * share);
      return { buyers: Math.round(signals / signalsPerBuyer), signals };
    }),
  };
}

const BATCH = 50_000;
const SESSIONS = 2;
/** A Buyer's weight is log-uniform between 1 and this: Signals per Buyer from a few to a few hundred. */
const MAX_WEIGHT = 128;

/**
 * The seed's pool (`INSERT_SIGNALS` draws Buyers from it by position), each Buyer repeated by a
 * weight fixed by its id, so every session draws with the same weights.
 */
const CREATE_WEIGHTED_BUYER_POOL = `
CREATE TEMPORARY TABLE seed_buyer_pool AS
SELECT b.id AS buyer_id, row_number() OVER () AS n
  FROM (SELECT id, ceil(exp((abs(hashint8(id)) % 1000000) / 1000000.0 * ln(${MAX_WEIGHT})))::int AS weight
          FROM buyers WHERE workspace_id = $1) b
 CROSS JOIN LATERAL generate_series(1, b.weight)`;

const MARKER = 'bench_scale_seed';

const between = (from: number, to: number) => Math.round((to - from) / 100) / 10;

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The database as seeded earlier for exactly this spec, or null. */
async function existing(url: string, spec: ScaleDatabaseSpec): Promise<{ workspace: BenchWorkspace; seed: SeedTimes } | null> {
  try {
    return await withClient(url, async (client) => {
      const { rows } = await client.query<{ spec: ScaleDatabaseSpec; workspace_id: string; seed: SeedTimes }>(
        `SELECT spec, workspace_id, seed FROM ${MARKER}`,
      );
      if (rows.length !== 1 || JSON.stringify(rows[0].spec) !== JSON.stringify(spec)) return null;
      const { workspace_id, seed } = rows[0];
      return { workspace: { id: formatId(ID_PREFIXES.workspace, workspace_id), internalId: workspace_id, name: 'scale-0' }, seed };
    });
  } catch {
    return null;
  }
}

/**
 * The Signals table's shape, once every migration has run: for the single table, the partitioning
 * reverted (the schema before it), with the migrations after it reverted first (on a new, empty
 * database they take no time). After this, the CLI must not touch the database: it migrates first.
 */
async function shapeSignals(url: string, spec: ScaleDatabaseSpec): Promise<void> {
  if (spec.partitioned) return addPastMonths(url, spec.days);
  const dataSource = new DataSource({ ...dataSourceOptions(url), extra: { max: 1 } });
  await dataSource.initialize();
  try {
    const target = new SignalsByMonth1764633600000().name;
    const ran = await dataSource.query<Array<{ name: string }>>(`SELECT name FROM migrations ORDER BY id DESC`);
    const depth = ran.findIndex((migration) => migration.name === target);
    if (depth < 0) throw new Error(`${target} has not run`);
    for (let k = 0; k <= depth; k++) await dataSource.undoLastMigration({ transaction: 'each' });
  } finally {
    await dataSource.destroy();
  }
}

/**
 * A new database's partitions start at the current month; a deployment that has run for two years
 * has a partition for each of its months. The (still empty) catch-all for older rows is remade to
 * end where the oldest month starts, and the months up to the current one are added.
 */
async function addPastMonths(url: string, days: number): Promise<void> {
  const spec = SIGNAL_PARTITIONS;
  const current = periodStart(spec.unit, new Date());
  const first = periodStart(spec.unit, new Date(Date.now() - (days + 1) * 86_400_000));
  // The catch-all and the months before the current one: initialPartitionsSql's, less its MAXVALUE partition.
  const statements = initialPartitionsSql(spec, first, addPeriods(spec.unit, current, -1)).slice(0, -1);
  await withClient(url, async (client) => {
    await client.query('BEGIN');
    await client.query(`DROP TABLE ${spec.table}_min`);
    for (const statement of statements) await client.query(statement);
    await client.query('COMMIT');
  });
}

/**
 * Runs `work` with the Signals table's indexes other than its primary key dropped, then builds
 * them again from their own definitions, two at a time: at 20M rows, building an index once is
 * several times faster than keeping it up to date through every batch.
 */
async function withoutSecondaryIndexes<T>(url: string, work: () => Promise<T>): Promise<T> {
  const { rows } = await withClient(url, (client) =>
    client.query<{ name: string; definition: string }>(
      `SELECT indexrelid::regclass::text AS name, pg_get_indexdef(indexrelid) AS definition
         FROM pg_index WHERE indrelid = 'signals'::regclass AND NOT indisprimary ORDER BY 1`,
    ),
  );
  await withClient(url, async (client) => {
    for (const index of rows) await client.query(`DROP INDEX ${index.name}`);
  });
  const result = await work();
  const pending = [...rows];
  await Promise.all(
    Array.from({ length: SESSIONS }, () =>
      withClient(url, async (client) => {
        await client.query(`SET maintenance_work_mem = '512MB'; SET statement_timeout = 0`);
        for (let index = pending.shift(); index; index = pending.shift()) {
          // A partitioned table's index is defined ON ONLY the parent; built on the parent, it is built on every partition.
          await client.query(index.definition.replace(' ON ONLY ', ' ON '));
        }
      }),
    ),
  );
  return result;
}

async function seedSignals(url: string, workspaceId: string, total: number, days: number): Promise<number> {
  const clients = await Promise.all(
    Array.from({ length: SESSIONS }, async () => {
      const client = new Client({ connectionString: url });
      await client.connect();
      await client.query(`SET work_mem = '256MB'; SET jit = off; SET synchronous_commit = off`);
      await client.query(CREATE_WEIGHTED_BUYER_POOL, [workspaceId]);
      await client.query('ANALYZE seed_buyer_pool');
      return client;
    }),
  );
  let claimed = 0;
  let done = 0;
  try {
    await Promise.all(
      clients.map(async (client) => {
        while (claimed < total) {
          const count = Math.min(BATCH, total - claimed);
          claimed += count;
          const { rowCount } = await client.query(INSERT_SIGNALS, insertSignalsParams(workspaceId, count, days));
          const inserted = rowCount ?? 0;
          if (inserted === 0) throw new Error('no Signals could be inserted');
          // Rows lost to an id collision are claimed again.
          claimed -= count - inserted;
          done += inserted;
          if (done % 1_000_000 < inserted) console.error(`  ${done.toLocaleString('en')} / ${total.toLocaleString('en')} Signals`);
        }
      }),
    );
    return done;
  } finally {
    await Promise.all(clients.map((client) => client.end()));
  }
}

async function seed(url: string, spec: ScaleDatabaseSpec): Promise<{ workspace: BenchWorkspace; seed: SeedTimes }> {
  await dropDatabase(url);
  await ensureDatabase(url);
  await runMigrations(url);
  const started = performance.now();
  const workspaces: BenchWorkspace[] = [];
  for (const [i, size] of spec.workspaces.entries()) {
    const name = `scale-${i}`;
    const { workspace_id } = await cli<{ workspace_id: string }>(url, ['workspace', 'create', '--name', name]);
    await cli(url, [
      'seed',
      'bulk',
      '--workspace',
      workspace_id,
      '--buyers',
      String(size.buyers),
      '--signals',
      '0',
      '--days',
      String(spec.days),
    ]);
    const parsed = parseId(ID_PREFIXES.workspace, workspace_id);
    if (parsed.kind !== 'ok') throw new Error(`not a workspace id: ${workspace_id}`);
    workspaces.push({ id: workspace_id, internalId: parsed.value, name });
  }
  const buyersDone = performance.now();
  await shapeSignals(url, spec);
  await withoutSecondaryIndexes(url, async () => {
    for (const [i, size] of spec.workspaces.entries()) {
      console.error(`${spec.key}: ${workspaces[i].name}, ${size.signals.toLocaleString('en')} Signals`);
      await seedSignals(url, workspaces[i].internalId, size.signals, spec.days);
    }
  });
  const signalsDone = performance.now();
  await withClient(url, async (client) => {
    await client.query(`SET work_mem = '256MB'; SET jit = off; SET statement_timeout = 0`);
    await client.query('ANALYZE signals');
    for (const workspace of workspaces) await client.query(REFRESH_BUYER_SUMMARIES, [workspace.internalId]);
  });
  const summariesDone = performance.now();
  await withClient(url, (client) => client.query('VACUUM (ANALYZE)'));
  const seedTimes: SeedTimes = {
    buyers_s: between(started, buyersDone),
    signals_s: between(buyersDone, signalsDone),
    summaries_s: between(signalsDone, summariesDone),
    vacuum_analyze_s: between(summariesDone, performance.now()),
    total_s: between(started, performance.now()),
  };
  await withClient(url, async (client) => {
    await client.query(`CREATE TABLE ${MARKER} (spec jsonb NOT NULL, workspace_id bigint NOT NULL, seed jsonb NOT NULL)`);
    await client.query(`INSERT INTO ${MARKER} VALUES ($1, $2, $3)`, [
      JSON.stringify(spec),
      workspaces[0].internalId,
      JSON.stringify(seedTimes),
    ]);
  });
  return { workspace: workspaces[0], seed: seedTimes };
}

/** The database of `spec` on the server of `baseUrl`, seeded unless it already is (or `reseed`). */
export async function ensureScaleDatabase(baseUrl: string, spec: ScaleDatabaseSpec, reseed: boolean): Promise<ScaleDatabase> {
  const url = new URL(baseUrl);
  url.pathname = `/bi_bench_${spec.key}`;
  const found = reseed ? null : await existing(url.toString(), spec);
  if (found) {
    console.error(`${spec.key}: already seeded (${found.seed.total_s} s when it was)`);
    return { spec, url: url.toString(), ...found, seededThisRun: false };
  }
  console.error(`${spec.key}: seeding ${spec.workspaces.reduce((n, w) => n + w.signals, 0).toLocaleString('en')} Signals`);
  const made = await seed(url.toString(), spec);
  console.error(`${spec.key}: seeded in ${made.seed.total_s} s`);
  return { spec, url: url.toString(), ...made, seededThisRun: true };
}
