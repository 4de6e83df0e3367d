import { Backoff, ReconnectLoop } from './reconnect-loop';

describe('Backoff', () => {
  it('doubles from the first delay up to the cap, and starts again after a reset', () => {
    const backoff = new Backoff({ initialMs: 500, maxMs: 10_000, jitter: 0.2 }, () => 0);
    expect(Array.from({ length: 8 }, () => backoff.next())).toEqual([500, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000, 10_000]);
    backoff.reset();
    expect(backoff.next()).toBe(500);
  });

  it('shortens each delay by up to the jitter, never past the cap', () => {
    const backoff = new Backoff({ initialMs: 500, maxMs: 10_000, jitter: 0.2 }, () => 1);
    expect(Array.from({ length: 7 }, () => backoff.next())).toEqual([400, 800, 1_600, 3_200, 6_400, 8_000, 8_000]);
  });

  it('stays at the cap however long it runs', () => {
    const backoff = new Backoff({ initialMs: 500, maxMs: 10_000, jitter: 0 });
    for (let i = 0; i < 2_000; i++) backoff.next();
    expect(backoff.next()).toBe(10_000);
  });
});

/** A connect function the test settles by hand, one attempt after another. */
function connections() {
  const attempts: Array<{ resolve(): void; reject(error: Error): void; lost(error: Error): void }> = [];
  const connect = (lost: (error: Error) => void) =>
    new Promise<void>((resolve, reject) => {
      attempts.push({ resolve, reject, lost });
    });
  return { attempts, connect };
}

function events() {
  return { down: jest.fn<void, [Error]>(), back: jest.fn<void, [number]>(), attempt: jest.fn<void, [number]>() };
}

/** Lets the loop see a settled attempt (its handlers run on the microtask queue). */
const settle = () => Promise.resolve().then(() => undefined);

describe('ReconnectLoop', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const noJitter = () => new Backoff({ initialMs: 500, maxMs: 10_000, jitter: 0 });

  /** A loop on hand-settled attempts, without jitter, started once. */
  function startedLoop() {
    const { attempts, connect } = connections();
    const on = events();
    const loop = new ReconnectLoop(connect, on, noJitter());
    loop.start();
    return { attempts, on, loop };
  }

  it('makes one attempt however often it is started', async () => {
    const { attempts, loop } = startedLoop();
    for (let i = 0; i < 100; i++) loop.start();
    expect(attempts).toHaveLength(1);
    attempts[0].resolve();
    await settle();
    expect(loop.up).toBe(true);
    loop.start();
    expect(attempts).toHaveLength(1);
  });

  it('retries a failure after the backoff, one attempt at a time, and reports the outage once', async () => {
    const { attempts, on, loop } = startedLoop();
    attempts[0].resolve();
    await settle();

    // The connection is lost, and every attempt fails for 20 s.
    attempts[0].lost(new Error('terminating connection due to administrator command'));
    const startedAt = Date.now();
    const times: number[] = [];
    while (Date.now() - startedAt < 20_000) {
      const count = attempts.length;
      for (let i = 0; i < 50; i++) loop.start(); // requests arriving meanwhile
      jest.advanceTimersByTime(100);
      if (attempts.length > count) {
        times.push(Date.now() - startedAt);
        expect(attempts).toHaveLength(count + 1);
        attempts.at(-1)!.reject(new Error('connect ECONNREFUSED'));
        await settle();
      }
    }
    expect(times).toEqual([500, 1_500, 3_500, 7_500, 15_500]);
    expect(on.down).toHaveBeenCalledTimes(1);
    expect(on.down.mock.calls[0][0].message).toBe('terminating connection due to administrator command');
    expect(on.back).not.toHaveBeenCalled();
    expect(loop.up).toBe(false);

    // Back at the next attempt (25.5 s after the loss): reported once, with how long it took.
    jest.advanceTimersByTime(25_500 - (Date.now() - startedAt));
    expect(attempts).toHaveLength(7);
    attempts[6].resolve();
    await settle();
    expect(loop.up).toBe(true);
    expect(on.back).toHaveBeenCalledTimes(1);
    expect(on.back).toHaveBeenCalledWith(25_500);
    expect(on.attempt.mock.calls.map(([n]) => n)).toEqual([1, 1, 2, 3, 4, 5, 6]);

    // A later loss is a new outage, retried from the first delay again.
    attempts[6].lost(new Error('gone again'));
    expect(on.down).toHaveBeenCalledTimes(2);
    jest.advanceTimersByTime(499);
    expect(attempts).toHaveLength(7);
    jest.advanceTimersByTime(1);
    expect(attempts).toHaveLength(8);
  });

  it('counts one failure however many ways an attempt reports it', async () => {
    const { attempts, on } = startedLoop();
    attempts[0].lost(new Error('error event'));
    attempts[0].lost(new Error('end event'));
    attempts[0].reject(new Error('rejection'));
    await settle();
    expect(on.down).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(10_000);
    // One retry was scheduled, not three.
    expect(attempts).toHaveLength(2);
  });

  it('makes no attempt once stopped', async () => {
    const { attempts, loop } = startedLoop();
    attempts[0].reject(new Error('refused'));
    await settle();
    loop.stop();
    jest.advanceTimersByTime(60_000);
    expect(attempts).toHaveLength(1);
  });

  it('ignores the outcome of the attempt running when it is stopped', async () => {
    const { attempts, loop } = startedLoop();
    loop.stop();
    attempts[0].resolve();
    await settle();
    expect(loop.up).toBe(false);
    loop.start();
    expect(attempts).toHaveLength(1);
  });

  it('treats a connect function that throws as a failed attempt', async () => {
    const on = events();
    let calls = 0;
    const loop = new ReconnectLoop(
      () => {
        calls += 1;
        throw new Error('bad configuration');
      },
      on,
      noJitter(),
    );
    loop.start();
    await settle();
    expect(on.down).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(500);
    expect(calls).toBe(2);
    loop.stop();
  });
});
