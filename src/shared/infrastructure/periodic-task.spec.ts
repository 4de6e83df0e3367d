import { PeriodicTask } from './periodic-task';

describe('PeriodicTask', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('skips ticks while a run is in progress, reports errors, and stop waits for the run', async () => {
    let release: () => void = () => undefined;
    let runs = 0;
    const errors: string[] = [];
    const task = new PeriodicTask(
      10,
      () => {
        runs += 1;
        if (runs === 2) return Promise.reject(new Error('boom'));
        return new Promise<void>((resolve) => (release = resolve));
      },
      (error) => errors.push(error.message),
    );
    task.start();
    await jest.advanceTimersByTimeAsync(50);
    expect(runs).toBe(1);
    release();
    await jest.advanceTimersByTimeAsync(10);
    expect(runs).toBe(2);
    expect(errors).toEqual(['boom']);
    await jest.advanceTimersByTimeAsync(10);
    expect(runs).toBe(3);
    let stopped = false;
    const stopping = task.stop().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(100);
    expect(stopped).toBe(false);
    expect(runs).toBe(3);
    release();
    await stopping;
    expect(stopped).toBe(true);
  });
});
