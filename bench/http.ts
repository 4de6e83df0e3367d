import { percentile } from './numbers';
import { performance } from 'node:perf_hooks';
/**
 * The HTTP scenarios: the same requests, driven with the same load on the API and on the
 * baseline, after checking that both answer them with the same bodies.
 */
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { Fixtures, PAGE_SIZE } from './fixtures';
import { gcBetween, GcPerRequest, gcPerRequest, GcTotals, readGcTotals } from './gc';
import { cpuSeconds, RssSampler, Service } from './processes';

export interface Scenario {
  key: string;
  title: string;
  /**
   * The API ÷ baseline requests/s the answer is held to: LARGE_ANSWER for the Buyers and Signals
   * lists, SMALL_ANSWER for the small ones (a KB list, one Buyer, a KB write), where the framework's
   * fixed cost per request weighs most; null for the stack's own ceiling.
   */
  min_ratio: number | null;
  /** GET path with query; absent for the KB write chain. */
  path?: string;
}

export interface LoadOptions {
  connections: number;
  /** Measured seconds per scenario and server, in `rounds` equal parts. */
  durationSeconds: number;
  /**
   * The two servers are measured in turns (API, baseline, API, …), so that whatever else the
   * machine does during a scenario falls on both rather than on one.
   */
  rounds: number;
  warmupSeconds: number;
  /** Sent to both servers, so the requests are byte for byte the same. */
  headers: Record<string, string>;
}

export interface LatencySummary {
  count: number;
  p50_ms: number;
  p99_ms: number;
}

export interface LoadResult {
  requests_per_second: number;
  p50_ms: number;
  p99_ms: number;
  /** Non-2xx responses plus socket errors and timeouts. */
  errors: number;
  non_2xx: number;
  socket_errors: number;
  requests: number;
  duration_s: number;
  /** Latency per status code (the KB write chain: 201 is the POST, 204 the DELETE). */
  by_status: Record<string, LatencySummary>;
  /** CPU time of the server process per request during the measured run, in microseconds. */
  cpu_us_per_request: number | null;
  /** Garbage-collection pause of the server process per request during the measured run. */
  gc_per_request?: GcPerRequest | null;
  max_rss_mb?: number;
}

export interface ScenarioResult {
  key: string;
  title: string;
  min_ratio: number | null;
  path: string;
  api: LoadResult;
  baseline: LoadResult;
  /** API ÷ baseline requests per second. */
  ratio: number;
  /**
   * The same ratio for each turn: the API's round i against the baseline's round i. How far they
   * spread is the run's own noise, which a ratio near its target should be read against.
   */
  round_ratios?: number[];
  /** API ÷ baseline CPU time per request (how many times the baseline's work the API spends). */
  cpu_ratio: number | null;
  /**
   * The highest API ÷ baseline ratio the API's stack allows for this answer (see stackCeiling in
   * report.ts); set once the stack's floor has been measured.
   */
  stack_ceiling?: number | null;
}

export const LARGE_ANSWER = 0.8;
export const SMALL_ANSWER = 0.6;

const HEALTH_LIVE: Scenario = { key: 'health_live', title: 'health/live', min_ratio: null, path: '/health/live' };

export function scenarios(fixtures: Fixtures): Scenario[] {
  const limit = `limit=${PAGE_SIZE}`;
  return [
    { key: 'signals_first_page', title: 'signals first page', min_ratio: LARGE_ANSWER, path: `/v1/signals?${limit}` },
    {
      key: 'signals_deep_page',
      title: `signals deep, after row ${(fixtures.deepPages * PAGE_SIZE).toLocaleString('en-US')}`,
      min_ratio: LARGE_ANSWER,
      path: `/v1/signals?${limit}&cursor=${encodeURIComponent(fixtures.deepCursor)}`,
    },
    {
      key: 'signals_filtered',
      title: 'signals type+trigger+after',
      min_ratio: LARGE_ANSWER,
      path: `/v1/signals?type=website&trigger=visited_page&captured_after=${fixtures.capturedAfter}&${limit}`,
    },
    {
      key: 'signals_by_buyer',
      title: 'signals by buyer',
      min_ratio: LARGE_ANSWER,
      path: `/v1/signals?buyer_id=${fixtures.busyBuyerId}&${limit}`,
    },
    { key: 'buyers_list', title: 'buyers list', min_ratio: LARGE_ANSWER, path: `/v1/buyers?${limit}` },
    { key: 'buyer_by_id', title: 'buyer by id', min_ratio: SMALL_ANSWER, path: `/v1/buyers/${fixtures.busyBuyerId}` },
    { key: 'kb_icps_list', title: 'kb icps list', min_ratio: SMALL_ANSWER, path: '/v1/kb/icps' },
    { key: 'kb_topic_write', title: 'kb topic POST+DELETE', min_ratio: SMALL_ANSWER },
    HEALTH_LIVE,
  ];
}

/** The largest Buyers page there is, asked for by every connection at once. */
const LARGE_PAGES: Scenario = { key: 'buyers_large_pages', title: 'buyers limit=1000', min_ratio: null, path: '/v1/buyers?limit=1000' };

export interface LargePageBurst {
  requests_per_second: number;
  p99_ms: number;
  errors: number;
  /** The API's peak RSS during the burst. */
  max_rss_mb: number;
}

/**
 * A burst of the largest Buyers pages at the scenarios' connections: what must not push the
 * API towards its memory limit. The API's RSS is sampled throughout (a sampler of its own, so
 * the figure is this burst's alone).
 */
export async function measureLargePageBurst(service: Service, options: LoadOptions, rss: RssSampler): Promise<LargePageBurst> {
  const result = combineRounds([await measureRound(service, LARGE_PAGES, options, options.durationSeconds, rss)]);
  return {
    requests_per_second: result.requests_per_second,
    p99_ms: result.p99_ms,
    errors: result.errors,
    max_rss_mb: result.max_rss_mb ?? 0,
  };
}

/** `GET /health/live` under the scenarios' load: how the stack's floor is measured. */
export function measureLive(service: Service, options: LoadOptions): Promise<LoadResult> {
  return measure(service, HEALTH_LIVE, options);
}

/* ---- correctness ---- */

export class BodyMismatch extends Error {}

interface Fetched {
  status: number;
  body: string;
}

async function fetchText(service: Service, path: string, init: RequestInit = {}): Promise<Fetched> {
  const response = await fetch(`${service.baseUrl}${path}`, init);
  return { status: response.status, body: await response.text() };
}

function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const excerpt = (s: string) => JSON.stringify(s.slice(Math.max(0, i - 60), i + 60));
  return `first difference at character ${i} (lengths ${a.length} and ${b.length}):\n  api:      ${excerpt(a)}\n  baseline: ${excerpt(b)}`;
}

function assertSame(what: string, api: Fetched, baseline: Fetched): void {
  if (api.status !== baseline.status) {
    throw new BodyMismatch(
      `${what}: status ${api.status} from the API, ${baseline.status} from the baseline\n  api: ${api.body.slice(0, 300)}`,
    );
  }
  if (api.body !== baseline.body) throw new BodyMismatch(`${what}: bodies differ; ${firstDifference(api.body, baseline.body)}`);
}

/** The API accepts the hand-made deep cursor and its page starts at the expected row. */
async function checkDeepCursor(api: Service, fixtures: Fixtures, path: string, headers: Record<string, string>): Promise<void> {
  const answer = await fetchText(api, path, { headers });
  const first = answer.status === 200 ? (JSON.parse(answer.body) as { data: Array<{ id: string }> }).data[0]?.id : undefined;
  if (first !== fixtures.deepFirstSignalId) {
    throw new BodyMismatch(
      `deep cursor: expected status 200 starting with ${fixtures.deepFirstSignalId}, got ${answer.status} ` +
        `${first ?? answer.body.slice(0, 300)}`,
    );
  }
}

/** Ids and timestamps of a created record differ between the two servers; the rest may not. */
function withoutIdentity(body: string): string {
  const record = JSON.parse(body) as Record<string, unknown>;
  return JSON.stringify({ ...record, id: '…', created_at: '…', updated_at: '…' });
}

async function checkWriteChain(api: Service, baseline: Service, headers: Record<string, string>): Promise<void> {
  const body = JSON.stringify({
    name: 'Bench check',
    short_name: `bench-check-${randomBytes(4).toString('hex')}`,
    description: 'Correctness check',
  });
  const answers: Fetched[] = [];
  // One after the other: both write the same workspace, and the short name is free again once deleted.
  for (const service of [api, baseline]) {
    const created = await fetchText(service, '/v1/kb/topics', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body,
    });
    const id = created.status === 201 ? (JSON.parse(created.body) as { id: string }).id : 'none';
    const deleted = await fetchText(service, `/v1/kb/topics/${id}`, { method: 'DELETE', headers });
    answers.push({ status: created.status, body: created.status === 201 ? withoutIdentity(created.body) : created.body }, deleted);
  }
  assertSame('POST /v1/kb/topics', answers[0], answers[2]);
  assertSame('DELETE /v1/kb/topics/{id}', answers[1], answers[3]);
}

/** Throws BodyMismatch unless both servers answer every scenario identically. */
export async function checkSameAnswers(
  api: Service,
  baseline: Service,
  list: Scenario[],
  fixtures: Fixtures,
  headers: Record<string, string>,
): Promise<void> {
  for (const scenario of list) {
    if (!scenario.path) continue;
    const [a, b] = [await fetchText(api, scenario.path, { headers }), await fetchText(baseline, scenario.path, { headers })];
    if (a.status !== 200) throw new BodyMismatch(`${scenario.title}: the API answered ${a.status}: ${a.body.slice(0, 300)}`);
    assertSame(scenario.title, a, b);
    if (scenario.key === 'signals_deep_page') await checkDeepCursor(api, fixtures, scenario.path, headers);
    console.error(`  same answer: ${scenario.title} (${a.body.length} bytes)`);
  }
  await checkWriteChain(api, baseline, headers);
  console.error('  same answer: kb topic POST + DELETE (ids and timestamps aside)');
}

/** ~10 ICPs in the workspace, created through the API, so the KB list is not empty. */
export async function ensureIcps(api: Service, headers: Record<string, string>, count = 10): Promise<void> {
  const listed = await fetchText(api, '/v1/kb/icps', { headers });
  const existing = new Set((JSON.parse(listed.body) as { data: Array<{ short_name: string }> }).data.map((icp) => icp.short_name));
  for (let i = 1; i <= count; i++) {
    const shortName = `bench-icp-${i}`;
    if (existing.has(shortName)) continue;
    const created = await fetchText(api, '/v1/kb/icps', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: `Bench ICP ${i}`,
        short_name: shortName,
        description: `Mid-market companies, segment ${i}, buying analytics software.`,
      }),
    });
    if (created.status !== 201) throw new Error(`creating ICP ${shortName}: ${created.status} ${created.body}`);
  }
}

/** One simulation of a draft ICP over the workspace's newest Buyers: its answer time and size. */
export interface SimulateResult {
  buyers: number;
  runs: number;
  p50_ms: number;
  max_ms: number;
}

/**
 * `POST /v1/kb/icps/{id}/simulate` with `limit` Buyers, one request at a time (the server does
 * the whole evaluation in one request), after one unmeasured run.
 */
export async function measureSimulate(api: Service, headers: Record<string, string>, limit = 10_000, runs = 5): Promise<SimulateResult> {
  const listed = await fetchText(api, '/v1/kb/icps?limit=1', { headers });
  const [icp] = (JSON.parse(listed.body) as { data: Array<{ id: string }> }).data;
  const body = JSON.stringify({
    description: 'Software and financial services companies with 100 to 5,000 employees in the US, Germany or the UK. No agencies.',
    limit,
  });
  const post = async () => {
    const started = performance.now();
    const res = await fetchText(api, `/v1/kb/icps/${icp.id}/simulate`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body,
    });
    if (res.status !== 200) throw new Error(`simulate: ${res.status} ${res.body}`);
    return { ms: performance.now() - started, evaluated: (JSON.parse(res.body) as { evaluated: number }).evaluated };
  };
  await post();
  const times: number[] = [];
  let evaluated = 0;
  for (let i = 0; i < runs; i++) {
    const run = await post();
    times.push(run.ms);
    evaluated = run.evaluated;
  }
  const sorted = Float64Array.from(times).sort();
  return { buyers: evaluated, runs, p50_ms: round2(percentile(sorted, 0.5)), max_ms: round2(sorted[sorted.length - 1]) };
}

/* ---- load ---- */

const round2 = (n: number): number => Math.round(n * 100) / 100;

function summarise(latencies: number[]): LatencySummary {
  const sorted = Float64Array.from(latencies).sort();
  return { count: sorted.length, p50_ms: round2(percentile(sorted, 0.5)), p99_ms: round2(percentile(sorted, 0.99)) };
}

/**
 * POST a Topic, then DELETE the one just created, on every connection in turn. Short names are
 * unique per request: they must be unique among active Topics, and both servers share the table.
 */
function topicWriteChain(headers: Record<string, string>): autocannon.Request[] {
  const run = randomBytes(3).toString('hex');
  let n = 0;
  type Context = { topicId?: string };
  return [
    {
      method: 'POST',
      path: '/v1/kb/topics',
      headers: { ...headers, 'content-type': 'application/json' },
      setupRequest: (request) => {
        n += 1;
        return {
          ...request,
          body: JSON.stringify({
            name: `Bench topic ${n}`,
            short_name: `bench-${run}-${n}`,
            description: 'Created and deleted by the HTTP benchmark',
          }),
        };
      },
      onResponse: (status, body, context) => {
        (context as Context).topicId = status === 201 ? (JSON.parse(body) as { id: string }).id : undefined;
      },
    },
    {
      method: 'DELETE',
      path: '/v1/kb/topics/',
      setupRequest: (request, context) => ({ ...request, path: `/v1/kb/topics/${(context as Context).topicId ?? 'none'}` }),
    },
  ];
}

/** What one autocannon run saw: the latency of every response by status, and the counts. */
export interface RawLoad {
  latencies: Map<number, number[]>;
  requests: number;
  duration_s: number;
  non_2xx: number;
  socket_errors: number;
}

/**
 * One autocannon run. Latencies are taken from each response with sub-millisecond precision
 * (autocannon's own histogram keeps whole milliseconds, too coarse for p50s of a few ms).
 */
function load(service: Service, scenario: Scenario, options: LoadOptions, seconds: number): Promise<RawLoad> {
  return new Promise((resolve, reject) => {
    const byStatus = new Map<number, number[]>();
    const target = scenario.path
      ? { url: `${service.baseUrl}${scenario.path}` }
      : { url: service.baseUrl, requests: topicWriteChain(options.headers) };
    const instance = autocannon(
      { ...target, connections: options.connections, duration: seconds, headers: options.headers },
      (error, result) => {
        if (error) return reject(error instanceof Error ? error : new Error(String(error)));
        resolve({
          latencies: byStatus,
          requests: result.requests.total,
          duration_s: result.duration,
          non_2xx: result.non2xx,
          socket_errors: result.errors,
        });
      },
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      const times = byStatus.get(status) ?? [];
      if (times.length === 0) byStatus.set(status, times);
      times.push(ms);
    });
  });
}

function settleGcMeter(service: Service): Promise<void> {
  return service.gcFile ? new Promise((resolve) => setTimeout(resolve, 150)) : Promise.resolve();
}

/** One measured run on one server: what the load saw and what the server spent on it. */
export interface Round {
  load: RawLoad;
  /** CPU seconds of the server process; null when /proc could not be read. */
  cpu_s: number | null;
  /** Collections during the run; null when the server's GC meter could not be read, undefined when it has none. */
  gc?: GcTotals | null;
  /** Peak RSS during the run, for a sampled server. */
  max_rss_mb?: number;
}

async function measureRound(service: Service, scenario: Scenario, options: LoadOptions, seconds: number, rss?: RssSampler): Promise<Round> {
  rss?.start();
  try {
    // The GC meter rewrites its file every 100 ms: each reading waits for a record that covers
    // everything before it, so neither what came before nor the run's last collections are misplaced.
    await settleGcMeter(service);
    const [cpuBefore, gcBefore] = [cpuSeconds(service.child.pid!), readGcTotals(service.gcFile)];
    const measured = await load(service, scenario, options, seconds);
    await settleGcMeter(service);
    const [cpuAfter, gcAfter] = [cpuSeconds(service.child.pid!), readGcTotals(service.gcFile)];
    return {
      load: measured,
      cpu_s: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
      ...(service.gcFile ? { gc: gcBetween(gcBefore, gcAfter) } : {}),
      ...(rss ? { max_rss_mb: Math.round(rss.stop()) } : {}),
    };
  } catch (error) {
    rss?.stop();
    throw error;
  }
}

/**
 * One server's rounds of a scenario as one result: requests over the seconds of all rounds,
 * percentiles over every response, CPU and GC over every request. A figure one round could not
 * read is unknown for the whole.
 */
export function combineRounds(rounds: Round[]): LoadResult {
  const latencies = new Map<number, number[]>();
  for (const round of rounds) {
    for (const [status, times] of round.load.latencies) latencies.set(status, [...(latencies.get(status) ?? []), ...times]);
  }
  const sum = (f: (round: Round) => number) => rounds.reduce((total, round) => total + f(round), 0);
  const requests = sum((r) => r.load.requests);
  const duration = sum((r) => r.load.duration_s);
  const ok = summarise([...latencies].filter(([status]) => status >= 200 && status < 300).flatMap(([, times]) => times));
  const cpu = rounds.every((r) => r.cpu_s !== null) ? sum((r) => r.cpu_s!) : null;
  const metered = rounds.some((r) => r.gc !== undefined);
  const gc = rounds.every((r) => r.gc) ? { young_ms: sum((r) => r.gc!.young_ms), other_ms: sum((r) => r.gc!.other_ms) } : null;
  const rss = rounds.filter((r) => r.max_rss_mb !== undefined).map((r) => r.max_rss_mb!);
  return {
    requests_per_second: duration > 0 ? Math.round(requests / duration) : 0,
    p50_ms: ok.p50_ms,
    p99_ms: ok.p99_ms,
    errors: sum((r) => r.load.non_2xx + r.load.socket_errors),
    non_2xx: sum((r) => r.load.non_2xx),
    socket_errors: sum((r) => r.load.socket_errors),
    requests,
    duration_s: round2(duration),
    by_status: Object.fromEntries([...latencies].sort(([a], [b]) => a - b).map(([status, times]) => [String(status), summarise(times)])),
    cpu_us_per_request: cpu === null || requests === 0 ? null : Math.round((cpu * 1e6) / requests),
    ...(metered ? { gc_per_request: gcPerRequest(gc, requests) } : {}),
    ...(rss.length > 0 ? { max_rss_mb: Math.max(...rss) } : {}),
  };
}

/** API ÷ baseline requests per second of each pair of turns (see `ScenarioResult.round_ratios`). */
export function roundRatios(api: Round[], baseline: Round[]): number[] {
  const rate = (round: Round) => (round.load.duration_s > 0 ? round.load.requests / round.load.duration_s : 0);
  return api.flatMap((round, i) => (baseline[i] && rate(baseline[i]) > 0 ? [round2(rate(round) / rate(baseline[i]))] : []));
}

/** The scenario's warm-up on one server, not recorded; RSS is sampled during it. */
async function warm(service: Service, scenario: Scenario, options: LoadOptions, rss?: RssSampler): Promise<void> {
  if (options.warmupSeconds <= 0) return;
  rss?.start();
  try {
    await load(service, scenario, options, options.warmupSeconds);
  } finally {
    rss?.stop();
  }
}

/** Warm-up, then one measured run of the whole duration. */
async function measure(service: Service, scenario: Scenario, options: LoadOptions): Promise<LoadResult> {
  await warm(service, scenario, options);
  return combineRounds([await measureRound(service, scenario, options, options.durationSeconds)]);
}

/**
 * Every scenario once on each server before any is measured. A freshly started process needs
 * several seconds of load before its JIT and heap settle (a new API's CPU per Signals page falls
 * by a quarter over its first nine seconds), which the per-scenario warm-up alone left to the
 * first scenario to pay. The API's RSS is sampled throughout.
 */
async function warmUp(api: Service, baseline: Service, list: Scenario[], options: LoadOptions, apiRss: RssSampler): Promise<void> {
  if (options.warmupSeconds <= 0) return;
  console.error(`warm-up: every scenario for ${options.warmupSeconds} s on each server`);
  for (const scenario of list) await warm(api, scenario, options, apiRss);
  for (const scenario of list) await warm(baseline, scenario, options);
}

function describe(name: string, r: LoadResult): string {
  const cpu = r.cpu_us_per_request === null ? '' : `, ${r.cpu_us_per_request} µs CPU/request`;
  const gc = r.gc_per_request ? `, ${r.gc_per_request.total_us} µs GC/request` : '';
  return `${name} ${r.requests_per_second} req/s, p50 ${r.p50_ms} ms, p99 ${r.p99_ms} ms, ${r.errors} errors${cpu}${gc}`;
}

/**
 * Each scenario: its warm-up on each server, then the measured seconds in `rounds` turns, API and
 * baseline alternately, each server's turns combined into one result.
 */
export async function runScenarios(
  api: Service,
  baseline: Service,
  list: Scenario[],
  options: LoadOptions,
  apiRss: RssSampler,
): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  await warmUp(api, baseline, list, options, apiRss);
  const seconds = options.durationSeconds / options.rounds;
  for (const scenario of list) {
    console.error(`scenario: ${scenario.title}`);
    await warm(api, scenario, options, apiRss);
    await warm(baseline, scenario, options);
    const apiRounds: Round[] = [];
    const baselineRounds: Round[] = [];
    for (let i = 0; i < options.rounds; i++) {
      apiRounds.push(await measureRound(api, scenario, options, seconds, apiRss));
      baselineRounds.push(await measureRound(baseline, scenario, options, seconds));
    }
    const apiResult = combineRounds(apiRounds);
    console.error(`  ${describe('api', apiResult)}`);
    const baselineResult = combineRounds(baselineRounds);
    console.error(`  ${describe('baseline', baselineResult)}`);
    results.push({
      key: scenario.key,
      title: scenario.title,
      min_ratio: scenario.min_ratio,
      path: scenario.path ?? 'POST /v1/kb/topics, DELETE /v1/kb/topics/{id}',
      api: apiResult,
      baseline: baselineResult,
      ratio: baselineResult.requests_per_second > 0 ? round2(apiResult.requests_per_second / baselineResult.requests_per_second) : 0,
      round_ratios: roundRatios(apiRounds, baselineRounds),
      cpu_ratio:
        apiResult.cpu_us_per_request !== null && baselineResult.cpu_us_per_request
          ? round2(apiResult.cpu_us_per_request / baselineResult.cpu_us_per_request)
          : null,
    });
  }
  return results;
}
