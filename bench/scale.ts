/**
 * `npm run bench:scale` (and a part of `npm run bench`): the Signals pages at 20M Signals in the
 * monthly partitions beside the same pages at 1M in the single table they replaced. Each shape's
 * statement is the API's (`signalsPageSql`), run as the API runs it: a named prepared statement on
 * a pg pool, so that PostgreSQL switches to a generic plan after five runs. For each shape and
 * database, in alternating rounds: SQL latency p50/p99, and the planning and execution time of
 * `EXPLAIN (ANALYZE, SUMMARY)` of the same prepared statement once its plan is cached.
 *
 * Environment (defaults in brackets):
 *   BENCH_SCALE_URL [postgres://postgres@127.0.0.1:5432/postgres]   the server; the databases are
 *     bi_bench_1m_single and bi_bench_20m_partitioned, seeded on the first run and reused after
 *   BENCH_SCALE_RESEED=1   seed both again
 *   BENCH_SCALE_SIGNALS [20000000]   Signals in the partitioned database (the single table has 1,000,000)
 *   BENCH_SCALE_ROUNDS [5]   BENCH_SCALE_RUNS [200]   rounds, and runs of each shape per database and round
 */
import { wholeNumber } from './numbers';
import { Pool, PoolClient } from 'pg';
import { SignalFilter, signalsPageSql } from '../src/modules/signals/signals.repository';
import type { KeysetPosition } from '../src/shared/application/pagination';
import { statementConfig } from '../src/shared/infrastructure/prepared-query';
import { formatTable, writeResults } from './report';
import {
  compareShape,
  ScaleShapeResult,
  scaleTable,
  scaleTargets,
  ShapeOnDatabase,
  summariseExplain,
  summariseLatency,
} from './scale-report';
import { ensureScaleDatabase, ScaleDatabase, scaleSpec } from './scale-seed';

export interface ScaleParams {
  serverUrl: string;
  reseed: boolean;
  signals: number;
  rounds: number;
  runs: number;
}

export function readScaleParams(env: NodeJS.ProcessEnv): ScaleParams {
  const whole = (name: string, fallback: number) => wholeNumber(env, name, fallback);
  return {
    serverUrl: env.BENCH_SCALE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
    reseed: env.BENCH_SCALE_RESEED === '1',
    signals: whole('BENCH_SCALE_SIGNALS', 20_000_000),
    rounds: Math.max(1, whole('BENCH_SCALE_ROUNDS', 5)),
    runs: Math.max(10, whole('BENCH_SCALE_RUNS', 200)),
  };
}

const PAGE_SIZE = 100;
/** The deep page starts after this row of the large workspace, on both databases. */
const DEEP_ROW = 500_000;
/** The Buyer page: a Buyer with about this many Signals, so both databases read a page as full. */
const BUYER_SIGNALS = 100;
const DAY_MS = 86_400_000;
/** EXPLAIN runs after the plan cache has settled (a generic plan from the sixth run). */
const SETTLE_RUNS = 6;
const EXPLAIN_RUNS = 5;

interface Shape {
  key: string;
  title: string;
  filter: SignalFilter;
  after: KeysetPosition | null;
}

/** The five shapes, with each database's own deep cursor, Buyer and week. */
async function shapesOf(pool: Pool, workspaceId: string): Promise<Shape[]> {
  const deep = await pool.query<{ at: Date; id: string }>(
    `SELECT captured_at AS at, id FROM signals WHERE workspace_id = $1 ORDER BY captured_at DESC, id DESC OFFSET $2 LIMIT 1`,
    [workspaceId, DEEP_ROW - 1],
  );
  if (deep.rows.length === 0) throw new Error(`the measured workspace has fewer than ${DEEP_ROW} Signals`);
  const buyer = await pool.query<{ id: string }>(
    `SELECT id FROM buyers WHERE workspace_id = $1 ORDER BY abs(signal_count_total - $2), id LIMIT 1`,
    [workspaceId, BUYER_SIGNALS],
  );
  const newest = await pool.query<{ at: Date }>('SELECT max(captured_at) AS at FROM signals WHERE workspace_id = $1', [workspaceId]);
  // A week two months back: a full week of Signals in both databases, in a month of its own.
  const weekEnd = new Date(newest.rows[0].at.getTime() - 60 * DAY_MS);
  return [
    { key: 'first_page', title: 'first page', filter: { order: 'desc' }, after: null },
    { key: 'deep_page', title: `after row ${DEEP_ROW.toLocaleString('en')}`, filter: { order: 'desc' }, after: deep.rows[0] },
    { key: 'buyer', title: 'buyer_id', filter: { order: 'desc', buyerId: buyer.rows[0].id }, after: null },
    { key: 'type_trigger', title: 'type + trigger', filter: { order: 'desc', type: 'website', trigger: 'visited_page' }, after: null },
    {
      key: 'week',
      title: 'captured_after + captured_before (a week)',
      filter: { order: 'desc', capturedAfter: new Date(weekEnd.getTime() - 7 * DAY_MS), capturedBefore: weekEnd },
      after: null,
    },
  ];
}

interface Target {
  db: ScaleDatabase;
  pool: Pool;
  shapes: Shape[];
  samples: Map<string, number[]>;
  explains: Map<string, Array<{ planning_ms: number; execution_ms: number }>>;
}

async function open(db: ScaleDatabase): Promise<Target> {
  // One connection: the runs are sequential, and each prepares its statements once.
  const pool = new Pool({ connectionString: db.url, max: 1 });
  return { db, pool, shapes: await shapesOf(pool, db.workspace.internalId), samples: new Map(), explains: new Map() };
}

/** `runs` runs of the API's statement, named as the API names it; milliseconds each. */
async function timeShape(pool: Pool, shape: Shape, workspaceId: string, runs: number): Promise<number[]> {
  const { sql, params } = signalsPageSql(workspaceId, shape.filter, shape.after, PAGE_SIZE);
  const config = statementConfig(sql, params, true);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await pool.query(config);
    times.push(performance.now() - started);
  }
  return times;
}

/** EXPLAIN (ANALYZE, SUMMARY) of the statement prepared once and run until its plan is cached. */
async function explainShape(client: PoolClient, shape: Shape, workspaceId: string, runs: number) {
  const { sql, params } = signalsPageSql(workspaceId, shape.filter, shape.after, PAGE_SIZE);
  const name = `scale_${shape.key}`;
  // EXECUTE takes no bound parameters: the values go in as literals, typed by the prepared statement.
  const args = params.map((value) => client.escapeLiteral(value instanceof Date ? value.toISOString() : String(value))).join(', ');
  await client.query(`PREPARE ${name} AS ${sql}`);
  try {
    for (let i = 0; i < SETTLE_RUNS; i++) await client.query(`EXECUTE ${name}(${args})`);
    const times: Array<{ planning_ms: number; execution_ms: number }> = [];
    for (let i = 0; i < runs; i++) {
      const { rows } = await client.query<{ 'QUERY PLAN': Array<{ 'Planning Time': number; 'Execution Time': number }> }>(
        `EXPLAIN (ANALYZE, SUMMARY, FORMAT JSON) EXECUTE ${name}(${args})`,
      );
      const [plan] = rows[0]['QUERY PLAN'];
      times.push({ planning_ms: plan['Planning Time'], execution_ms: plan['Execution Time'] });
    }
    return times;
  } finally {
    await client.query(`DEALLOCATE ${name}`);
  }
}

async function measureRound(target: Target, runs: number, warm: boolean): Promise<void> {
  const workspaceId = target.db.workspace.internalId;
  for (const shape of target.shapes) {
    // The first round warms each statement (prepared, generic plan, pages cached) before it counts.
    if (warm) await timeShape(target.pool, shape, workspaceId, 20);
    const times = await timeShape(target.pool, shape, workspaceId, runs);
    target.samples.set(shape.key, [...(target.samples.get(shape.key) ?? []), ...times]);
  }
  const client = await target.pool.connect();
  try {
    for (const shape of target.shapes) {
      const explains = await explainShape(client, shape, workspaceId, EXPLAIN_RUNS);
      target.explains.set(shape.key, [...(target.explains.get(shape.key) ?? []), ...explains]);
    }
  } finally {
    client.release();
  }
}

function onDatabase(target: Target, key: string): ShapeOnDatabase {
  return { sql: summariseLatency(target.samples.get(key) ?? []), explain: summariseExplain(target.explains.get(key) ?? []) };
}

export interface ScaleBenchResult {
  databases: Array<{
    database: string;
    partitioned: boolean;
    signals: number;
    workspaces: ScaleDatabase['spec']['workspaces'];
    measured_workspace: string;
    partitions: number;
    size_gb: number;
    seeded_this_run: boolean;
    seed: ScaleDatabase['seed'];
  }>;
  rounds: number;
  runs_per_round: number;
  shapes: ScaleShapeResult[];
}

async function describe(target: Target): Promise<ScaleBenchResult['databases'][number]> {
  const { rows } = await target.pool.query<{ partitions: number; bytes: string }>(
    `SELECT (SELECT count(*)::int FROM pg_inherits WHERE inhparent = 'signals'::regclass) AS partitions,
            pg_database_size(current_database()) AS bytes`,
  );
  const { spec } = target.db;
  return {
    database: new URL(target.db.url).pathname.slice(1),
    partitioned: spec.partitioned,
    signals: spec.workspaces.reduce((n, w) => n + w.signals, 0),
    workspaces: spec.workspaces,
    measured_workspace: target.db.workspace.id,
    partitions: rows[0].partitions,
    size_gb: Math.round(Number(rows[0].bytes) / 2 ** 27) / 8,
    seeded_this_run: target.db.seededThisRun,
    seed: target.db.seed,
  };
}

export async function runScaleBench(params: ScaleParams): Promise<ScaleBenchResult> {
  const reference = await ensureScaleDatabase(params.serverUrl, scaleSpec('1m_single', false, 1_000_000), params.reseed);
  const scaled = await ensureScaleDatabase(
    params.serverUrl,
    scaleSpec(`${Math.round(params.signals / 1_000_000)}m_partitioned`, true, params.signals),
    params.reseed,
  );
  return measureDatabases(reference, scaled, params);
}

/** The five shapes on both databases, in alternating rounds. */
export async function measureDatabases(
  reference: ScaleDatabase,
  scaled: ScaleDatabase,
  params: Pick<ScaleParams, 'rounds' | 'runs'>,
): Promise<ScaleBenchResult> {
  const targets = [await open(reference), await open(scaled)];
  try {
    for (let round = 0; round < params.rounds; round++) {
      // A, B, then B, A: neither database always goes first.
      const order = round % 2 === 0 ? targets : [...targets].reverse();
      for (const target of order) await measureRound(target, params.runs, round < 2);
      console.error(`scale: round ${round + 1} of ${params.rounds}`);
    }
    const [a, b] = targets;
    return {
      databases: [await describe(a), await describe(b)],
      rounds: params.rounds,
      runs_per_round: params.runs,
      shapes: a.shapes.map((shape) => compareShape(shape.key, shape.title, onDatabase(a, shape.key), onDatabase(b, shape.key))),
    };
  } finally {
    await Promise.all(targets.map((t) => t.pool.end()));
  }
}

export function formatScaleBench(result: ScaleBenchResult): string {
  const seeds = result.databases.map(
    (d) =>
      `${d.database}: ${d.signals.toLocaleString('en')} Signals, ${d.partitions || 'no'} partitions, ${d.size_gb} GB; ` +
      `seeded in ${d.seed.total_s} s (Buyers ${d.seed.buyers_s} s, Signals ${d.seed.signals_s} s, summaries ${d.seed.summaries_s} s, ` +
      `VACUUM ANALYZE ${d.seed.vacuum_analyze_s} s)${d.seeded_this_run ? '' : ', on an earlier run'}`,
  );
  const targets = scaleTargets(result.shapes);
  return [
    scaleTable(result.shapes),
    `(${result.rounds} rounds of ${result.runs_per_round} runs per shape and database; plan/exec: medians of EXPLAIN (ANALYZE, SUMMARY) of the prepared statement)`,
    ...seeds,
    '',
    formatTable(
      ['target', 'value', 'result'],
      targets.map((t) => [t.target, t.value, t.pass ? 'pass' : 'FAIL']),
    ),
  ].join('\n');
}

async function main(): Promise<void> {
  const date = new Date();
  const result = await runScaleBench(readScaleParams(process.env));
  console.log(formatScaleBench(result));
  const file = writeResults({ date: date.toISOString(), scale: result, targets: scaleTargets(result.shapes) }, date, { part: 'scale' });
  console.log(`\nwritten to ${file}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
