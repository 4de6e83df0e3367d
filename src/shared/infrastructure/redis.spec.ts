import { redisOptionsFromUrl, RedisUnavailableError, warnAtMostEvery, withinRedisBound } from './redis';

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

describe('redisOptionsFromUrl', () => {
  it('reads host, port, credentials, database and TLS from the URL', () => {
    expect(redisOptionsFromUrl('rediss://user:p%40ss@cache.internal:6380/2')).toMatchObject({
      host: 'cache.internal',
      port: 6380,
      username: 'user',
      password: 'p@ss',
      db: 2,
      tls: {},
      maxRetriesPerRequest: null,
    });
    expect(redisOptionsFromUrl('redis://127.0.0.1:6379')).toMatchObject({ host: '127.0.0.1', port: 6379, db: 0 });
  });
});

describe('withinRedisBound', () => {
  const queue = (status: string) => ({ getBackend: () => ({ client: Promise.resolve({ status }) }) });

  it('runs the command on a ready connection and answers with its result', async () => {
    await expect(withinRedisBound(queue('ready'), () => Promise.resolve(42), 1_000)).resolves.toBe(42);
  });

  it('refuses at once, without running the command, when the connection is not ready', async () => {
    const command = jest.fn(() => Promise.resolve(42));
    await expect(withinRedisBound(queue('reconnecting'), command, 60_000)).rejects.toThrow(RedisUnavailableError);
    expect(command).not.toHaveBeenCalled();
  });

  it('gives up on a command that does not finish within the bound, as a connection fault', async () => {
    const error = await withinRedisBound(queue('ready'), () => new Promise<never>(() => undefined), 20).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedisUnavailableError);
    expect((error as RedisUnavailableError).code).toBe('ETIMEDOUT');
  });

  it('gives up when the connection itself never comes', async () => {
    const never = { getBackend: () => ({ client: new Promise<{ status: string }>(() => undefined) }) };
    await expect(withinRedisBound(never, () => Promise.resolve(42), 20)).rejects.toThrow('no answer within 20 ms');
  });
});
