import { combineRounds, Round, roundRatios } from './http';

function round(latencies: Record<number, number[]>, extra: Partial<Round> = {}, seconds = 5): Round {
  const map = new Map(Object.entries(latencies).map(([status, times]) => [Number(status), times]));
  const requests = [...map.values()].reduce((n, times) => n + times.length, 0);
  const non2xx = [...map].filter(([status]) => status >= 300).reduce((n, [, times]) => n + times.length, 0);
  return { load: { latencies: map, requests, duration_s: seconds, non_2xx: non2xx, socket_errors: 0 }, cpu_s: 0.01, ...extra };
}

describe('combineRounds', () => {
  it('takes requests/s over the seconds of every round, and percentiles over every response', () => {
    const result = combineRounds([round({ 200: [1, 2, 3, 4] }), round({ 200: [10, 20, 30, 40] }, {}, 3)]);
    expect(result.requests).toBe(8);
    expect(result.duration_s).toBe(8);
    expect(result.requests_per_second).toBe(1);
    // Percentiles of the merged responses, not an average of each round's.
    expect(result.p50_ms).toBe(4);
    expect(result.p99_ms).toBe(40);
    expect(result.by_status).toEqual({ '200': { count: 8, p50_ms: 4, p99_ms: 40 } });
  });

  it('counts errors of every round, and keeps them out of the latency percentiles', () => {
    const result = combineRounds([round({ 200: [1, 1], 500: [90] }), round({ 200: [2], 404: [80] })]);
    expect(result.errors).toBe(2);
    expect(result.non_2xx).toBe(2);
    expect(result.p99_ms).toBe(2);
    expect(Object.keys(result.by_status)).toEqual(['200', '404', '500']);
  });

  it('divides the CPU and GC of all rounds by all their requests', () => {
    const result = combineRounds([
      round({ 200: [1, 1, 1, 1] }, { cpu_s: 0.004, gc: { young_ms: 0.2, other_ms: 0 } }),
      round({ 200: [1, 1, 1, 1] }, { cpu_s: 0.012, gc: { young_ms: 0.2, other_ms: 0.4 } }),
    ]);
    expect(result.cpu_us_per_request).toBe(2000);
    expect(result.gc_per_request).toEqual({ total_us: 100, young_us: 50 });
  });

  it('leaves a figure unknown when one round could not read it', () => {
    const result = combineRounds([
      round({ 200: [1] }, { cpu_s: null, gc: null }),
      round({ 200: [1] }, { gc: { young_ms: 1, other_ms: 0 } }),
    ]);
    expect(result.cpu_us_per_request).toBeNull();
    expect(result.gc_per_request).toBeNull();
  });

  it('reports GC only for a metered server, and the highest RSS of the rounds sampled', () => {
    const unmetered = combineRounds([round({ 200: [1] })]);
    expect(unmetered).not.toHaveProperty('gc_per_request');
    expect(unmetered).not.toHaveProperty('max_rss_mb');
    expect(combineRounds([round({ 200: [1] }, { max_rss_mb: 210 }), round({ 200: [1] }, { max_rss_mb: 250 })]).max_rss_mb).toBe(250);
  });
});

describe('roundRatios', () => {
  // `round(…, {}, seconds)` with n latencies is n requests in that many seconds.
  const rounds = (...perRound: Array<[number, number]>) =>
    perRound.map(([requests, seconds]) => round({ 200: Array(requests).fill(1) }, {}, seconds));

  it('is the API ÷ baseline requests per second of each pair of turns, in their order', () => {
    expect(roundRatios(rounds([80, 1], [90, 2]), rounds([100, 1], [50, 1]))).toEqual([0.8, 0.9]);
  });

  it('leaves out a turn whose baseline answered nothing or did not run', () => {
    expect(roundRatios(rounds([80, 1], [90, 1], [70, 1]), rounds([0, 1], [100, 1]))).toEqual([0.9]);
  });
});
