/**
 * `npm run bench`: the API under load beside a framework-free baseline doing the same work, then
 * the pipeline benchmark; one report on stdout and in bench/results/<date>.json.
 *
 * Environment (defaults in brackets):
 *   BENCH_DATABASE_URL [postgres://postgres@127.0.0.1:5432/bi_bench_http]   BENCH_RESEED=1 starts from an empty database
 *   BENCH_SIGNALS [1000000]  BENCH_BUYERS [100000]   per workspace; two workspaces, the first is measured
 *   BENCH_DURATION [15]  BENCH_WARMUP [3]   seconds per scenario and server, at 20 connections
 *   BENCH_ROUNDS [3]   the measured seconds in this many turns, API and baseline alternately
 *   BENCH_PROFILE=1   CPU profile of the API (bench/results/profiles)
 *   BENCH_SKIP_FLOOR=1   the stack's floor (an empty route on each layer of the stack)
 *   BENCH_SKIP_PIPELINE=1   BENCH_ACTIVITIES [100000]   the pipeline benchmark
 *   BENCH_SKIP_EVALUATOR=1   the evaluator's cost (bench/evaluator.ts)
 *   BENCH_SKIP_SCALE=1   Signals pages at 20M partitioned beside 1M in one table (bench/scale.ts, its settings there)
 *   REDIS_URL [redis://127.0.0.1:6379]
 */
import { wholeNumber } from './numbers';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { cpus, release, totalmem, type } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { ID_PREFIXES, parseId } from '../src/shared/domain/ids';
import { Fixtures, loadFixtures } from './fixtures';
import { clearRedisPrefix } from './redis';
import {
  BodyMismatch,
  checkSameAnswers,
  ensureIcps,
  LoadOptions,
  LargePageBurst,
  measureLargePageBurst,
  measureLive,
  measureSimulate,
  runScenarios,
  ScenarioResult,
  scenarios,
  SimulateResult,
} from './http';
import type { PipelineBenchResult } from './pipeline';
import { formatEvaluatorBench, runEvaluatorBench } from './evaluator';
import { killChildrenOnExit, RssSampler, Service, startNode, stop, waitUntilServing } from './processes';
import { freePort } from '../test/support/ports';
import { formatProfileSummary, ProfileSummary, summariseProfile } from './profile-summary';
import { evaluateTargets, FloorEntry, HttpSummary, printReport, summariseHttp, writeResults } from './report';
import { FLOOR_STACKS } from './stack-floor';
import { formatScaleBench, readScaleParams, runScaleBench } from './scale';
import { scaleTargets } from './scale-report';
import { BenchWorkspace, createKey, CreatedKey, ensureSeeded } from './seed';

interface Params {
  databaseUrl: string;
  redisUrl: string;
  size: { buyers: number; signals: number };
  load: Omit<LoadOptions, 'headers'>;
  reseed: boolean;
  profile: boolean;
  skipFloor: boolean;
  skipPipeline: boolean;
  skipEvaluator: boolean;
  skipScale: boolean;
  activities: number;
}

const ROOT = join(__dirname, '..');
/** Where `buildServers` puts the baseline and the stack-floor servers. */
const SERVERS = join(ROOT, 'dist-bench', 'bench');
const PROFILE_DIR = join(__dirname, 'results', 'profiles');
/** Fixed, so the deep cursor made here is valid for both servers. */
const CURSOR_SECRET = 'http-benchmark-cursor-secret';

function readParams(env: NodeJS.ProcessEnv): Params {
  return {
    databaseUrl: env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/bi_bench_http',
    redisUrl: env.REDIS_URL || 'redis://127.0.0.1:6379',
    size: { buyers: wholeNumber(env, 'BENCH_BUYERS', 100_000), signals: wholeNumber(env, 'BENCH_SIGNALS', 1_000_000) },
    load: {
      connections: 20,
      durationSeconds: wholeNumber(env, 'BENCH_DURATION', 15),
      rounds: Math.max(1, wholeNumber(env, 'BENCH_ROUNDS', 3)),
      warmupSeconds: wholeNumber(env, 'BENCH_WARMUP', 3),
    },
    reseed: env.BENCH_RESEED === '1',
    profile: env.BENCH_PROFILE === '1',
    skipFloor: env.BENCH_SKIP_FLOOR === '1',
    skipPipeline: env.BENCH_SKIP_PIPELINE === '1',
    skipEvaluator: env.BENCH_SKIP_EVALUATOR === '1',
    skipScale: env.BENCH_SKIP_SCALE === '1',
    activities: wholeNumber(env, 'BENCH_ACTIVITIES', 100_000),
  };
}

async function machine(databaseUrl: string) {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const postgres = (await client.query<{ server_version: string }>('SHOW server_version')).rows[0].server_version;
    // Without autovacuum, dead row versions pile up for the whole run and every figure suffers.
    const autovacuum = (await client.query<{ autovacuum: string }>('SHOW autovacuum')).rows[0].autovacuum === 'on';
    if (!autovacuum) console.error('warning: PostgreSQL runs with autovacuum off; production runs it on');
    return {
      cpus: cpus().length,
      cpu_model: cpus()[0]?.model ?? 'unknown',
      memory_gb: Math.round(totalmem() / 2 ** 30),
      os: `${type()} ${release()}`,
      node: process.version,
      postgres,
      autovacuum,
    };
  } finally {
    await client.end();
  }
}

/**
 * Compiles the baseline and the stack-floor servers to JavaScript, so that they run as the API
 * does, from compiled code. Under ts-node they would not run as plain Node: ts-node loads Node's
 * `repl`, and with it `domain`, which wraps the construction and every `emit` of each
 * EventEmitter in the process (sockets, requests, responses, pg's connections) — about 3 µs of a
 * small request's CPU time that the baseline would pay and the API not.
 */
function buildServers(): void {
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(__dirname, 'tsconfig.servers.json')], {
    stdio: 'inherit',
  });
}

function startApi(params: Params, port: number, queuePrefix: string): Service {
  const profiling = params.profile ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
  return startNode(
    'API',
    // As production starts it (package.json start:prod, Dockerfile).
    [...profiling, '--max-semi-space-size=16', join(ROOT, 'dist', 'main.js')],
    {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      DATABASE_URL: params.databaseUrl,
      REDIS_URL: params.redisUrl,
      RUN_WORKERS: 'false',
      // The production default: one JSON line per request, written to /dev/null (see startNode).
      LOG_LEVEL: 'info',
      CURSOR_SECRET,
      RATE_LIMIT_LIMIT: '1000000',
      QUEUE_PREFIX: queuePrefix,
    },
    port,
    { discardStdout: true, meterGc: true },
  );
}

function startBaseline(params: Params, port: number, workspace: BenchWorkspace, key: CreatedKey): Service {
  const keyId = parseId(ID_PREFIXES.apiKey, key.key_id);
  if (keyId.kind !== 'ok') throw new Error(`not a key id: ${key.key_id}`);
  return startNode(
    'baseline',
    [join(SERVERS, 'baseline.js')],
    {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      DATABASE_URL: params.databaseUrl,
      CURSOR_SECRET,
      BASELINE_WORKSPACE_ID: workspace.internalId,
      BASELINE_KEY_ID: keyId.value,
    },
    port,
    { meterGc: true },
  );
}

/** The newest .cpuprofile written since `since`. */
function newestProfile(since: number): string | null {
  const files = readdirSync(PROFILE_DIR)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => ({ path: join(PROFILE_DIR, name), mtime: statSync(join(PROFILE_DIR, name)).mtimeMs }))
    .filter((file) => file.mtime >= since)
    .sort((a, b) => b.mtime - a.mtime);
  return files[0]?.path ?? null;
}

interface HttpRun {
  summary: HttpSummary;
  profile: { path: string; summary: ProfileSummary } | null;
}

async function runHttp(params: Params, workspace: BenchWorkspace, key: CreatedKey, fixtures: Fixtures): Promise<HttpRun> {
  const queuePrefix = `bench-http-${randomBytes(4).toString('hex')}`;
  const headers = { authorization: `Bearer ${key.api_key}` };
  const started = Date.now();
  if (params.profile) mkdirSync(PROFILE_DIR, { recursive: true });
  const api = startApi(params, await freePort(), queuePrefix);
  const baseline = startBaseline(params, await freePort(), workspace, key);
  let results: ScenarioResult[];
  let maxRss: number;
  let simulate: SimulateResult;
  let largePages: LargePageBurst;
  try {
    await Promise.all([waitUntilServing(api, '/health/ready'), waitUntilServing(baseline, '/health/live')]);
    await ensureIcps(api, headers);
    const list = scenarios(fixtures);
    console.error('correctness check: the same answer from both servers');
    await checkSameAnswers(api, baseline, list, fixtures, headers);
    const rss = new RssSampler(api.child.pid!);
    results = await runScenarios(api, baseline, list, { ...params.load, headers }, rss);
    maxRss = rss.overallMax;
    console.error('large pages: GET /v1/buyers?limit=1000 on every connection');
    largePages = await measureLargePageBurst(api, { ...params.load, headers }, new RssSampler(api.child.pid!));
    console.error(`  ${largePages.requests_per_second} req/s, p99 ${largePages.p99_ms} ms, max RSS ${largePages.max_rss_mb} MB`);
    console.error('simulate: a draft ICP over the newest 10,000 Buyers');
    simulate = await measureSimulate(api, headers);
    console.error(`  ${simulate.buyers} Buyers, p50 ${simulate.p50_ms} ms, max ${simulate.max_ms} ms`);
  } finally {
    const [apiExit] = await Promise.all([stop(api), stop(baseline)]);
    if (apiExit !== 0) console.error(`the API exited with code ${apiExit} after SIGTERM`);
    await clearRedisPrefix(params.redisUrl, queuePrefix);
  }
  // After the API and the baseline have stopped, so that nothing else runs beside each stack.
  const floor = params.skipFloor ? null : await runStackFloor({ ...params.load, headers });
  const summary: HttpSummary = { ...summariseHttp(results, params.load.connections, maxRss, floor), simulate, large_pages: largePages };
  const profilePath = params.profile ? newestProfile(started) : null;
  if (params.profile && !profilePath) console.error(`no .cpuprofile was written to ${PROFILE_DIR}`);
  return { summary, profile: profilePath ? { path: profilePath, summary: summariseProfile(profilePath) } : null };
}

/** An empty `GET /health/live` on each layer of the API's stack in turn (bench/stack-floor.ts). */
async function runStackFloor(load: LoadOptions): Promise<FloorEntry[]> {
  const entries: FloorEntry[] = [];
  for (const stack of FLOOR_STACKS) {
    const port = await freePort();
    const service = startNode(
      `floor ${stack}`,
      [join(SERVERS, 'stack-floor.js')],
      {
        ...process.env,
        NODE_ENV: 'production',
        FLOOR_STACK: stack,
        PORT: String(port),
      },
      port,
      { meterGc: true },
    );
    try {
      await waitUntilServing(service, '/health/live');
      console.error(`stack floor: ${stack}`);
      const result = await measureLive(service, load);
      console.error(`  ${result.requests_per_second} req/s, ${result.cpu_us_per_request} µs CPU/request`);
      entries.push({ stack, result });
    } finally {
      await stop(service);
    }
  }
  return entries;
}

async function runPipeline(params: Params): Promise<PipelineBenchResult | null> {
  if (params.skipPipeline) return null;
  console.error(`pipeline benchmark: ${params.activities} activities`);
  const { runPipelineBench } = await import('./pipeline');
  return runPipelineBench(params.activities);
}

async function main(): Promise<void> {
  killChildrenOnExit();
  const params = readParams(process.env);
  const date = new Date();
  buildServers();
  const { workspaces, seeded } = await ensureSeeded(params.databaseUrl, params.size, params.reseed);
  const [workspace] = workspaces;
  const key = await createKey(params.databaseUrl, workspace);
  const fixtures = await loadFixtures(params.databaseUrl, workspace, CURSOR_SECRET, params.size.signals);
  const http = await runHttp(params, workspace, key, fixtures);
  const pipeline = await runPipeline(params);
  const evaluator = params.skipEvaluator ? null : runEvaluatorBench();
  const scale = params.skipScale ? null : await runScaleBench(readScaleParams(process.env));
  const targets = [...evaluateTargets(http.summary, pipeline), ...(scale ? scaleTargets(scale.shapes) : [])];

  printReport(http.summary, pipeline, targets);
  if (evaluator) console.log(`\n${formatEvaluatorBench(evaluator)}`);
  if (scale) console.log(`\n${formatScaleBench(scale)}`);
  if (http.profile) {
    const { summary } = http.profile;
    const short = { ...summary, functions: summary.functions.slice(0, 10), packages: summary.packages.slice(0, 10) };
    console.log(`\nCPU profile of the API: ${http.profile.path}\n${formatProfileSummary(short)}`);
  }
  const file = writeResults(
    {
      date: date.toISOString(),
      machine: await machine(params.databaseUrl),
      parameters: {
        database: new URL(params.databaseUrl).pathname.slice(1),
        workspaces: workspaces.map((w) => ({ name: w.name, id: w.id })),
        benchmarked_workspace: workspace.id,
        buyers_per_workspace: params.size.buyers,
        signals_per_workspace: params.size.signals,
        seeded_this_run: seeded,
        connections: params.load.connections,
        duration_s: params.load.durationSeconds,
        rounds: params.load.rounds,
        warmup_s: params.load.warmupSeconds,
        profiled: params.profile,
        fixtures: {
          deep_pages: fixtures.deepPages,
          captured_after: fixtures.capturedAfter,
          busy_buyer_id: fixtures.busyBuyerId,
          busy_buyer_signals: fixtures.busyBuyerSignals,
        },
      },
      http: http.summary,
      targets,
      pipeline,
      evaluator,
      scale,
      profile: http.profile,
    },
    date,
    { profiled: params.profile },
  );
  console.log(`\nwritten to ${file}`);
}

main().catch((error: unknown) => {
  if (error instanceof BodyMismatch) {
    console.error(
      `\nCORRECTNESS CHECK FAILED — the API and the baseline answer differently, so the comparison would not be fair:\n${error.message}`,
    );
  } else {
    console.error(error);
  }
  process.exit(1);
});
