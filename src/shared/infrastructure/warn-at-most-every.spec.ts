import { warnAtMostEvery } from './warn-at-most-every';

describe('warnAtMostEvery', () => {
  afterEach(() => jest.useRealTimers());

  it('logs the first error, then at most one per interval', () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const warn = jest.fn();
    const listener = warnAtMostEvery({ warn }, 'Redis for the queues', 10_000);
    listener(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
    jest.advanceTimersByTime(300);
    listener(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
    jest.advanceTimersByTime(9_000);
    listener(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith('Redis for the queues: connect ECONNREFUSED 127.0.0.1:6379');
    jest.advanceTimersByTime(1_000);
    listener(new Error('Connection is closed.'));
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn).toHaveBeenLastCalledWith('Redis for the queues: Connection is closed.');
  });
});
