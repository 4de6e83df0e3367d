import Redis, { Cluster } from 'ioredis';
import {
  createRedisClient,
  isClusterNodeInfo,
  isRedisMisconfiguration,
  redisOptionsFromUrl,
  RedisTopologyError,
  RedisUnavailableError,
  withinRedisBound,
} from './redis';

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

describe('createRedisClient', () => {
  it('is one server at REDIS_URL without cluster nodes', () => {
    const client = createRedisClient({ redisUrl: 'redis://127.0.0.1:6390/3', redisClusterNodes: null }, { lazyConnect: true });
    expect(client).toBeInstanceOf(Redis);
    expect(client.options).toMatchObject({ host: '127.0.0.1', port: 6390, db: 3 });
    client.disconnect();
  });

  it('is a cluster client over the seed nodes, each node with the URL credentials and TLS, the cluster with the retry policy', () => {
    const retryStrategy = (attempt: number) => attempt * 100;
    const client = createRedisClient(
      { redisUrl: 'rediss://user:p%40ss@ignored:1/0', redisClusterNodes: [{ host: '10.0.0.1', port: 7000 }] },
      { lazyConnect: true, enableOfflineQueue: false, commandTimeout: 500, retryStrategy },
    );
    expect(client).toBeInstanceOf(Cluster);
    const options = (client as Cluster).options;
    expect(options).toMatchObject({ enableOfflineQueue: false, lazyConnect: true });
    expect(options.redisOptions).toMatchObject({ username: 'user', password: 'p@ss', tls: {}, commandTimeout: 500 });
    expect(options.redisOptions).not.toHaveProperty('host');
    expect(options.clusterRetryStrategy?.(3, undefined)).toBe(300);
    client.disconnect();
  });
});

describe('isRedisMisconfiguration', () => {
  it('is a cluster node behind REDIS_URL, or a cluster refusing keys of other slots', () => {
    expect(isRedisMisconfiguration(new RedisTopologyError())).toBe(true);
    expect(isRedisMisconfiguration(new Error("CROSSSLOT Keys in request don't hash to the same slot"))).toBe(true);
    expect(isRedisMisconfiguration(new Error('MOVED 3999 127.0.0.1:7001'))).toBe(true);
    expect(isRedisMisconfiguration(new RedisUnavailableError('connection reconnecting'))).toBe(false);
    expect(isRedisMisconfiguration(new Error('connect ECONNREFUSED 127.0.0.1:6379'))).toBe(false);
  });

  it('reads cluster_enabled from INFO', () => {
    expect(isClusterNodeInfo('# Cluster\r\ncluster_enabled:1\r\n')).toBe(true);
    expect(isClusterNodeInfo('# Cluster\r\ncluster_enabled:0\r\n')).toBe(false);
  });
});
