import type { LoadResult, ScenarioResult } from './http';
import { evaluateTargets, FloorEntry, floorOverhead, roundSpread, stackCeiling, summariseHttp } from './report';

function load(requestsPerSecond: number, cpuUs: number | null, p50 = 1): LoadResult {
  return {
    requests_per_second: requestsPerSecond,
    p50_ms: p50,
    p99_ms: p50 * 2,
    errors: 0,
    non_2xx: 0,
    socket_errors: 0,
    requests: requestsPerSecond * 15,
    duration_s: 15,
    by_status: {},
    cpu_us_per_request: cpuUs,
  };
}

function scenario(key: string, api: LoadResult, baseline: LoadResult, minRatio: number | null = 0.8): ScenarioResult {
  return {
    key,
    title: key,
    min_ratio: minRatio,
    path: `/${key}`,
    api,
    baseline,
    ratio: api.requests_per_second / baseline.requests_per_second,
    cpu_ratio: null,
  };
}

const floor = (bare: number | null, full: number | null): FloorEntry[] => [
  { stack: 'node-http', result: load(50_000, bare) },
  { stack: 'express', result: load(9_000, 110) },
  { stack: 'nest', result: load(8_000, 125) },
  { stack: 'nest-guards', result: load(5_500, full) },
];

describe('stackCeiling', () => {
  it('is the share of the CPU that the baseline would spend, once the stack adds its overhead', () => {
    expect(stackCeiling(100, 100)).toBe(0.5);
    expect(stackCeiling(136, 181)).toBe(0.43);
    expect(stackCeiling(1_273, 181)).toBe(0.88);
  });

  it('is 1 when the stack adds nothing, and never above 1', () => {
    expect(stackCeiling(100, 0)).toBe(1);
    expect(stackCeiling(100, -20)).toBe(1);
  });

  it('is unknown without both figures', () => {
    expect(stackCeiling(null, 100)).toBeNull();
    expect(stackCeiling(100, null)).toBeNull();
    expect(stackCeiling(0, 100)).toBeNull();
  });
});

describe('floorOverhead', () => {
  it('is the guarded, intercepted Nest route less bare node:http', () => {
    expect(floorOverhead(floor(17, 198))).toBe(181);
  });

  it('is unknown when either end was not measured', () => {
    expect(floorOverhead(floor(null, 198))).toBeNull();
    expect(floorOverhead(floor(17, null))).toBeNull();
    expect(floorOverhead(floor(17, 198).slice(0, 3))).toBeNull();
  });
});

describe('summariseHttp with the stack floor', () => {
  const measured = [
    scenario('signals_first_page', load(540, 1_960, 36), load(755, 1_273, 26)),
    scenario('signals_deep_page', load(560, 1_720, 35), load(730, 1_240, 27)),
    scenario('kb_icps_list', load(2_100, 490), load(7_000, 136), 0.6),
    scenario('kb_topic_write', load(2_100, 480), load(5_600, 119), null),
  ];

  it('gives every scenario its ceiling and names it in the list targets', () => {
    const summary = summariseHttp(measured, 20, 250, floor(17, 198));
    expect(summary.stack_floor?.overhead_us_per_request).toBe(181);
    expect(summary.scenarios.map((s) => [s.key, s.stack_ceiling])).toEqual([
      ['signals_first_page', 0.88],
      ['signals_deep_page', 0.87],
      ['kb_icps_list', 0.43],
      ['kb_topic_write', 0.4],
    ]);
    const icps = evaluateTargets(summary, null).find((t) => t.target.startsWith('kb_icps_list'));
    expect(icps).toEqual({ target: 'kb_icps_list: API ≥ 0.6 × baseline req/s', value: `${2_100 / 7_000} (stack ≤ 0.43)`, pass: false });
  });

  it('leaves the ceilings out when the floor was not measured', () => {
    const summary = summariseHttp(measured, 20, 250, null);
    expect(summary.stack_floor).toBeNull();
    expect(summary.scenarios.every((s) => s.stack_ceiling === undefined)).toBe(true);
    expect(evaluateTargets(summary, null)[0].value).toBe(`${540 / 755}`);
  });
});

describe('the targets with the turns of a run', () => {
  const turns: ScenarioResult = {
    ...scenario('signals_by_buyer', load(780, 280), load(1_000, 220)),
    ratio: 0.78,
    round_ratios: [0.81, 0.74, 0.79],
  };
  const pages = [
    scenario('signals_first_page', load(540, 1_960), load(755, 1_273)),
    scenario('signals_deep_page', load(560, 1_720), load(730, 1_240)),
    scenario('kb_topic_write', load(2_100, 480), load(5_600, 119), null),
  ];

  it("name the lowest and highest per-turn ratio beside the run's own", () => {
    expect(roundSpread(turns.round_ratios)).toBe('rounds 0.74–0.81');
    const target = evaluateTargets(summariseHttp([...pages, turns], 20, 250, null), null).find((t) =>
      t.target.startsWith('signals_by_buyer'),
    );
    expect(target).toEqual({ target: 'signals_by_buyer: API ≥ 0.8 × baseline req/s', value: '0.78 (rounds 0.74–0.81)', pass: false });
  });

  it('say nothing of the turns when there was only one', () => {
    expect(roundSpread([0.8])).toBe('');
    expect(roundSpread(undefined)).toBe('');
    expect(evaluateTargets(summariseHttp(pages, 20, 250, null), null)[0].value).toBe(`${540 / 755}`);
  });
});
