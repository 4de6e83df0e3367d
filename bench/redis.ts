import Redis from 'ioredis';

/** Removes the run's queue keys and rate-limit counters (`{prefix:rl:…}:hits`) from the shared Redis. */
export async function clearRedisPrefix(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true });
  await redis.connect();
  try {
    for (const match of [`${prefix}:*`, `{${prefix}:*`]) {
      for await (const keys of redis.scanStream({ match, count: 1000 })) {
        if ((keys as string[]).length > 0) await redis.del(...(keys as string[]));
      }
    }
  } finally {
    redis.disconnect();
  }
}
