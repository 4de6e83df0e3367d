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
