import { LagTracker, lsnValue } from './replica-reads';

describe('lsnValue', () => {
  it('reads PostgreSQL WAL positions in order, across the 32-bit halves', () => {
    expect(lsnValue('0/0')).toBe(0n);
    expect(lsnValue('0/3000148')).toBe(0x3000148n);
    expect(lsnValue('1/0')).toBe(1n << 32n);
    expect(lsnValue('16/B374D848')).toBe((0x16n << 32n) + 0xb374d848n);
    expect(lsnValue('1/0') > lsnValue('0/FFFFFFFF')).toBe(true);
  });

  it('refuses anything else', () => {
    expect(() => lsnValue('')).toThrow('Not a WAL position');
    expect(() => lsnValue('0-1')).toThrow('Not a WAL position');
    expect(() => lsnValue('G/1')).toThrow('Not a WAL position');
  });
});

/** The primary had written up to a position at a time (ms), or the replica has replayed up to one and is so many seconds behind. */
type Step = { primary: bigint; at: number } | { replayed: bigint; at: number; lag: number };

/** Runs `steps` on one tracker, checking the lag at each replay reading. */
function expectLags(steps: Step[]): void {
  const tracker = new LagTracker();
  for (const step of steps) {
    if ('primary' in step) tracker.primaryAt(step.at, step.primary);
    else expect([step, tracker.replayedTo(step.replayed, step.at)]).toEqual([step, step.lag]);
  }
}

describe('LagTracker', () => {
  it('is 0 while the replica has replayed what the primary had written', () => {
    expectLags([
      { primary: 100n, at: 1_000 },
      { replayed: 100n, at: 1_200, lag: 0 },
      { primary: 150n, at: 2_000 },
      { replayed: 160n, at: 2_100, lag: 0 },
    ]);
  });

  it('counts from the first position the replica has not replayed, and not while the primary is idle', () => {
    expectLags([
      { primary: 100n, at: 1_000 },
      { replayed: 100n, at: 1_100, lag: 0 },
      // Idle primary for a minute: same position, no lag.
      { primary: 100n, at: 61_000 },
      { replayed: 100n, at: 61_100, lag: 0 },
      // The primary writes; the replica's replay is paused.
      { primary: 200n, at: 62_000 },
      { primary: 300n, at: 63_000 },
      { replayed: 100n, at: 63_500, lag: 1.5 },
      { primary: 300n, at: 64_000 },
      { replayed: 100n, at: 66_000, lag: 4 },
      // Replay resumes: past the first unreplayed position, then caught up.
      { replayed: 250n, at: 66_500, lag: 3.5 },
      { replayed: 300n, at: 67_000, lag: 0 },
    ]);
  });

  it('overstates rather than understates the lag once it holds an hour of positions', () => {
    const lag = new LagTracker();
    for (let i = 0; i < 3_600; i++) lag.primaryAt(i * 1_000, BigInt(i + 1));
    // Full: the newest sample keeps its time (3,599 s) and takes the newer position.
    lag.primaryAt(4_000_000, 10_000n);
    expect(lag.replayedTo(3_600n, 4_000_000)).toBe(4_000 - 3_599);
    expect(lag.replayedTo(10_000n, 4_000_000)).toBe(0);
  });
});
