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

describe('LagTracker', () => {
  it('is 0 while the replica has replayed what the primary had written', () => {
    const lag = new LagTracker();
    lag.primaryAt(1_000, 100n);
    expect(lag.replayedTo(100n, 1_200)).toBe(0);
    lag.primaryAt(2_000, 150n);
    expect(lag.replayedTo(160n, 2_100)).toBe(0);
  });

  it('counts from the first position the replica has not replayed, and not while the primary is idle', () => {
    const lag = new LagTracker();
    lag.primaryAt(1_000, 100n);
    expect(lag.replayedTo(100n, 1_100)).toBe(0);
    // Idle primary for a minute: same position, no lag.
    lag.primaryAt(61_000, 100n);
    expect(lag.replayedTo(100n, 61_100)).toBe(0);
    // The primary writes; the replica's replay is paused.
    lag.primaryAt(62_000, 200n);
    lag.primaryAt(63_000, 300n);
    expect(lag.replayedTo(100n, 63_500)).toBe(1.5);
    lag.primaryAt(64_000, 300n);
    expect(lag.replayedTo(100n, 66_000)).toBe(4);
    // Replay resumes: past the first unreplayed position, then caught up.
    expect(lag.replayedTo(250n, 66_500)).toBe(3.5);
    expect(lag.replayedTo(300n, 67_000)).toBe(0);
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
