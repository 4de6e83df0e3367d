import { resultsFileName } from './report';
import { compareShape, ratioOf, scaleTable, scaleTargets, summariseExplain, summariseLatency } from './scale-report';

const onDb = (p50: number, p99: number, planning: number, execution: number) => ({
  sql: { runs: 100, p50_ms: p50, p99_ms: p99 },
  explain: { runs: 5, planning_ms: planning, execution_ms: execution },
});

describe('scale report', () => {
  it('takes p50 and p99 over every sample, in milliseconds to the microsecond', () => {
    const samples = Array.from({ length: 100 }, (_, i) => (100 - i) / 1000 + 0.00012);
    expect(summariseLatency(samples)).toEqual({ runs: 100, p50_ms: 0.05, p99_ms: 0.099 });
    expect(summariseLatency([])).toEqual({ runs: 0, p50_ms: 0, p99_ms: 0 });
  });

  it('takes the median planning and execution time of the EXPLAIN runs', () => {
    const runs = [0.5, 0.1, 0.3].map((planning_ms, i) => ({ planning_ms, execution_ms: [2, 9, 4][i] }));
    expect(summariseExplain(runs)).toEqual({ runs: 3, planning_ms: 0.3, execution_ms: 4 });
  });

  it('compares each figure as 20M partitioned ÷ 1M single table, and holds p50 to 1.2', () => {
    const within = compareShape('first_page', 'first page', onDb(0.4, 0.8, 0.02, 0.3), onDb(0.44, 1.2, 0.1, 0.3));
    expect(within.ratio).toEqual({ p50: 1.1, p99: 1.5, planning: 5, execution: 1 });
    const over = compareShape('buyer', 'buyer_id', onDb(0.2, 0.4, 0.02, 0.1), onDb(0.5, 0.9, 0.1, 0.4));
    expect(scaleTargets([within, over]).map((t) => [t.value, t.pass])).toEqual([
      ['1.1', true],
      ['2.5', false],
    ]);
    expect(ratioOf(1, 0)).toBe(0);
    expect(scaleTable([within]).split('\n')[2]).toMatch(
      /^first page\s+0\.400\s+0\.800\s+0\.020\s+0\.300\s+0\.440 .* 1\.10\s+1\.50\s+5\.00\s+1\.00$/,
    );
  });

  it("names a part's run apart from the day's full run, so it never replaces it", () => {
    const date = new Date('2026-11-26T15:04:05.678Z');
    expect(resultsFileName(date)).toBe('2026-11-26.json');
    expect(resultsFileName(date, { profiled: true })).toBe('2026-11-26.profile.json');
    expect(resultsFileName(date, { part: 'scale' })).toBe('scale-2026-11-26-15-04-05.json');
  });
});
