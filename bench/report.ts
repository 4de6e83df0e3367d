/** The benchmark's report: the table, the targets with pass/fail, and the JSON record. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LargePageBurst, LoadResult, ScenarioResult, SimulateResult } from './http';
import type { PipelineBenchResult } from './pipeline';
import type { FloorStack } from './stack-floor';

/** One layer of the stack answering an empty `GET /health/live` (bench/stack-floor.ts). */
export interface FloorEntry {
  stack: FloorStack;
  result: LoadResult;
}

export interface StackFloor {
  stacks: FloorEntry[];
  /**
   * CPU time per request that NestJS on Express, with two global guards,
   * spends beyond bare `node:http` on a request that does nothing: the least the API can add to
   * any answer of the baseline's.
   */
  overhead_us_per_request: number | null;
}

export interface HttpSummary {
  connections: number;
  scenarios: ScenarioResult[];
  stack_floor: StackFloor | null;
  /** p50 of the deep page ÷ p50 of the first page. */
  deep_to_first_p50: { api: number; baseline: number };
  api_max_rss_mb: number;
  /** p99 of the KB write chain (POST and DELETE together) on the API. */
  kb_write_p99_ms: number;
  /** A draft ICP simulated over the workspace's newest Buyers. */
  simulate?: SimulateResult;
  /** Every connection asking for Buyers pages of 1,000 at once. */
  large_pages?: LargePageBurst;
}

export interface TargetResult {
  target: string;
  value: string;
  pass: boolean;
}

const DEEP_RATIO = 1.2;
const RSS_LIMIT_MB = 300;
const KB_WRITE_P99_MS = 25;
const PIPELINE_PER_SECOND = 1000;
const EVENTS_RATIO = 0.85;
const DELIVERIES_PER_SECOND = 1000;
const FRESHNESS_P99_MS = 2000;
const SIMULATE_MS = 2000;

const round2 = (n: number): number => Math.round(n * 100) / 100;

function scenario(scenarios: ScenarioResult[], key: string): ScenarioResult {
  const found = scenarios.find((s) => s.key === key);
  if (!found) throw new Error(`no scenario ${key}`);
  return found;
}

/**
 * The highest API ÷ baseline ratio of requests per second that the stack allows for an answer
 * the baseline makes with `baselineUs` of CPU: even an API that added nothing of its own (no
 * authentication, rate limit, log line or validation) would spend `overheadUs` more on it.
 * Requests per second follow CPU time per request here, as the servers are CPU-bound; null when
 * either figure is missing.
 */
export function stackCeiling(baselineUs: number | null, overheadUs: number | null): number | null {
  if (baselineUs === null || overheadUs === null || baselineUs <= 0) return null;
  return Math.min(1, round2(baselineUs / (baselineUs + Math.max(0, overheadUs))));
}

/** The floor's overhead: the guarded, intercepted Nest route's CPU per request less bare node:http's. */
export function floorOverhead(stacks: FloorEntry[]): number | null {
  const cpu = (name: FloorStack) => stacks.find((s) => s.stack === name)?.result.cpu_us_per_request ?? null;
  const [bare, full] = [cpu('node-http'), cpu('nest-guards')];
  return bare === null || full === null ? null : full - bare;
}

export function summariseHttp(
  measured: ScenarioResult[],
  connections: number,
  apiMaxRssMb: number,
  floorStacks: FloorEntry[] | null,
): HttpSummary {
  const overhead = floorStacks ? floorOverhead(floorStacks) : null;
  const scenarios = floorStacks
    ? measured.map((s) => ({ ...s, stack_ceiling: stackCeiling(s.baseline.cpu_us_per_request, overhead) }))
    : measured;
  const first = scenario(scenarios, 'signals_first_page');
  const deep = scenario(scenarios, 'signals_deep_page');
  const ratio = (a: LoadResult, b: LoadResult) => (b.p50_ms > 0 ? round2(a.p50_ms / b.p50_ms) : 0);
  return {
    connections,
    scenarios,
    stack_floor: floorStacks ? { stacks: floorStacks, overhead_us_per_request: overhead } : null,
    deep_to_first_p50: { api: ratio(deep.api, first.api), baseline: ratio(deep.baseline, first.baseline) },
    api_max_rss_mb: Math.round(apiMaxRssMb),
    kb_write_p99_ms: scenario(scenarios, 'kb_topic_write').api.p99_ms,
  };
}

/** `rounds 0.70–0.76`: the lowest and highest of a scenario's per-turn ratios, when it had several turns. */
export function roundSpread(ratios: readonly number[] | undefined): string {
  if (!ratios || ratios.length < 2) return '';
  return `rounds ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`;
}

export function evaluateTargets(http: HttpSummary | null, pipeline: PipelineBenchResult | null): TargetResult[] {
  const targets: TargetResult[] = [];
  if (http) {
    for (const s of http.scenarios) {
      if (s.min_ratio === null) continue;
      const notes = [roundSpread(s.round_ratios), s.stack_ceiling == null ? '' : `stack ≤ ${s.stack_ceiling.toFixed(2)}`].filter(Boolean);
      targets.push({
        target: `${s.title}: API ≥ ${s.min_ratio} × baseline req/s`,
        value: notes.length > 0 ? `${s.ratio} (${notes.join(', ')})` : `${s.ratio}`,
        pass: s.ratio >= s.min_ratio,
      });
    }
    targets.push({
      target: `deep page p50 ≤ ${DEEP_RATIO} × first page p50 (API)`,
      value: `${http.deep_to_first_p50.api}`,
      pass: http.deep_to_first_p50.api <= DEEP_RATIO,
    });
    const errors = http.scenarios.reduce((sum, s) => sum + s.api.errors, 0);
    targets.push({ target: 'zero errors (API, all scenarios)', value: `${errors}`, pass: errors === 0 });
    targets.push({ target: `API RSS < ${RSS_LIMIT_MB} MB`, value: `${http.api_max_rss_mb} MB`, pass: http.api_max_rss_mb < RSS_LIMIT_MB });
    targets.push({
      target: `KB write p99 < ${KB_WRITE_P99_MS} ms`,
      value: `${http.kb_write_p99_ms} ms`,
      pass: http.kb_write_p99_ms < KB_WRITE_P99_MS,
    });
  }
  if (http?.large_pages) {
    targets.push({
      target: `API RSS < ${RSS_LIMIT_MB} MB under a burst of limit=1000 pages`,
      value: `${http.large_pages.max_rss_mb} MB`,
      pass: http.large_pages.max_rss_mb < RSS_LIMIT_MB && http.large_pages.errors === 0,
    });
  }
  if (http?.simulate) {
    targets.push({
      target: `simulate ${http.simulate.buyers} Buyers ≤ ${SIMULATE_MS / 1000} s (p50)`,
      value: `${http.simulate.p50_ms} ms`,
      pass: http.simulate.p50_ms <= SIMULATE_MS,
    });
  }
  if (pipeline) {
    targets.push({
      target: `pipeline ≥ ${PIPELINE_PER_SECOND} activities/s`,
      value: `${pipeline.pipeline.per_second}/s`,
      pass: pipeline.pipeline.per_second >= PIPELINE_PER_SECOND,
    });
    targets.push({
      target: `pipeline with events and a webhook endpoint ≥ ${EVENTS_RATIO} × without events`,
      value: `${pipeline.ratio_events_to_none}`,
      pass: pipeline.ratio_events_to_none >= EVENTS_RATIO,
    });
  }
  if (pipeline?.webhooks) {
    const { delivery, freshness } = pipeline.webhooks;
    targets.push({
      target: `webhook deliveries ≥ ${DELIVERIES_PER_SECOND}/s`,
      value: `${delivery.per_second}/s`,
      pass: delivery.per_second >= DELIVERIES_PER_SECOND,
    });
    targets.push({
      target: `202 → signal.created webhook p99 < ${FRESHNESS_P99_MS / 1000} s at ${freshness.rate_per_second} activities/s`,
      value: `${freshness.p99_ms} ms (p50 ${freshness.p50_ms} ms)`,
      pass: freshness.p99_ms < FRESHNESS_P99_MS && freshness.delivered > 0,
    });
  }
  return targets;
}

/** A plain fixed-width table: first column left-aligned, the rest right-aligned. */
export function formatTable(header: string[], rows: Array<Array<string | number>>): string {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((row) => row[i].length)));
  const line = (row: string[]) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [line(cells[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

export function httpTable(http: HttpSummary): string {
  return formatTable(
    [
      'scenario',
      'API req/s',
      'p50 ms',
      'p99 ms',
      'err',
      'base req/s',
      'p50 ms',
      'p99 ms',
      'err',
      'API÷base',
      'CPU µs/req API',
      'base',
      'API÷base',
      'GC µs/req API',
      'base',
      'stack ≤',
    ],
    http.scenarios.map((s) => [
      s.title,
      s.api.requests_per_second,
      s.api.p50_ms,
      s.api.p99_ms,
      s.api.errors,
      s.baseline.requests_per_second,
      s.baseline.p50_ms,
      s.baseline.p99_ms,
      s.baseline.errors,
      s.ratio.toFixed(2),
      s.api.cpu_us_per_request ?? '-',
      s.baseline.cpu_us_per_request ?? '-',
      s.cpu_ratio?.toFixed(2) ?? '-',
      s.api.gc_per_request?.total_us ?? '-',
      s.baseline.gc_per_request?.total_us ?? '-',
      s.stack_ceiling?.toFixed(2) ?? '-',
    ]),
  );
}

export function floorTable(floor: StackFloor): string {
  return formatTable(
    ['stack floor: empty GET /health/live', 'req/s', 'p50 ms', 'p99 ms', 'err', 'CPU µs/req', 'GC µs/req'],
    floor.stacks.map(({ stack, result: r }) => [
      stack,
      r.requests_per_second,
      r.p50_ms,
      r.p99_ms,
      r.errors,
      r.cpu_us_per_request ?? '-',
      r.gc_per_request?.total_us ?? '-',
    ]),
  );
}

export function printReport(http: HttpSummary | null, pipeline: PipelineBenchResult | null, targets: TargetResult[]): void {
  const out: string[] = [];
  if (http) {
    out.push(httpTable(http), '');
    if (http.stack_floor) {
      out.push(floorTable(http.stack_floor), '');
      out.push(
        `the stack adds ${http.stack_floor.overhead_us_per_request ?? '?'} µs of CPU to a request before the API does anything; ` +
          '"stack ≤" is the ratio an API doing nothing else could reach',
        '',
      );
    }
    out.push(`deep page p50 ÷ first page p50: API ${http.deep_to_first_p50.api}, baseline ${http.deep_to_first_p50.baseline}`);
    out.push(`API max RSS: ${http.api_max_rss_mb} MB`);
    out.push(`KB write p99 at ${http.connections} connections: ${http.kb_write_p99_ms} ms`);
    if (http.large_pages) {
      const burst = http.large_pages;
      out.push(
        `limit=1000 Buyers pages at ${http.connections} connections: ${burst.requests_per_second} req/s, p99 ${burst.p99_ms} ms, ` +
          `${burst.errors} errors, API max RSS ${burst.max_rss_mb} MB`,
      );
    }
    if (http.simulate)
      out.push(`simulate a draft ICP over ${http.simulate.buyers} Buyers: p50 ${http.simulate.p50_ms} ms, max ${http.simulate.max_ms} ms`);
  }
  if (pipeline) {
    out.push(
      `pipeline: ${pipeline.pipeline.per_second} activities/s end to end with events and a webhook endpoint, ` +
        `${pipeline.pipeline_without_events.per_second}/s without events (ratio ${pipeline.ratio_events_to_none}; ` +
        `events alone ${pipeline.pipeline_events_only.per_second}/s, ratio ${pipeline.ratio_outbox_to_none}), ` +
        `raw BullMQ ${pipeline.raw_bullmq_four_queues.per_second}/s, ratio ${pipeline.ratio_pipeline_to_raw} (${pipeline.activities} activities)`,
    );
  }
  if (pipeline?.webhooks) {
    const { delivery, freshness } = pipeline.webhooks;
    out.push(
      `webhooks: ${delivery.per_second} deliveries/s; 202 → webhook at ${freshness.rate_per_second} activities/s: ` +
        `p50 ${freshness.p50_ms} ms, p99 ${freshness.p99_ms} ms, max ${freshness.max_ms} ms (${freshness.delivered} timed)`,
    );
  }
  out.push(
    '',
    formatTable(
      ['target', 'value', 'result'],
      targets.map((t) => [t.target, t.value, t.pass ? 'pass' : 'FAIL']),
    ),
  );
  console.log(out.join('\n'));
}

/**
 * The record's file name in bench/results: <YYYY-MM-DD>.json for a full run. A profiled run goes
 * to <YYYY-MM-DD>.profile.json instead: its numbers carry the profiler's overhead, and must not
 * replace the day's clean ones. A run of one part alone (`part`, e.g. `scale`) goes to
 * <part>-<YYYY-MM-DD-HH-MM-SS>.json, as the pipeline's does, and never replaces a full run's file.
 */
export function resultsFileName(date: Date, { profiled = false, part }: { profiled?: boolean; part?: string } = {}): string {
  const iso = date.toISOString();
  if (part) return `${part}-${iso.slice(0, 19).replace(/[:T]/g, '-')}.json`;
  return `${iso.slice(0, 10)}${profiled ? '.profile' : ''}.json`;
}

/** Writes the record to bench/results (`resultsFileName`) and returns the path. */
export function writeResults(record: object, date: Date, options: { profiled?: boolean; part?: string } = {}): string {
  const dir = join(__dirname, 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, resultsFileName(date, options));
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
  return file;
}
