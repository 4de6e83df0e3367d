import type { RedisOptions } from 'bullmq';

/** Connection options from a `redis://` / `rediss://` URL, as BullMQ takes them. */
export function redisOptionsFromUrl(url: string): RedisOptions {
  const parsed = new URL(url);
  const db = parsed.pathname.replace(/^\//, '');
  return {
    host: parsed.hostname || '127.0.0.1',
    port: parsed.port ? Number(parsed.port) : 6379,
    username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    db: db ? Number(db) : 0,
    ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
    // BullMQ workers block on Redis; they must not give up on a command.
    maxRetriesPerRequest: null,
  };
}

/**
 * An `error` listener for Redis clients, queues and workers that logs one warning per interval
 * at most: a client that lost Redis retries every few hundred milliseconds, and each attempt
 * fails again. Without a listener BullMQ writes every such error to stderr, outside the
 * structured log.
 */
export function warnAtMostEvery(logger: { warn(message: string): void }, label: string, intervalMs = 10_000): (error: Error) => void {
  let last = Number.NEGATIVE_INFINITY;
  return (error: Error) => {
    const now = Date.now();
    if (now - last < intervalMs) return;
    last = now;
    logger.warn(`${label}: ${error.message}`);
  };
}
