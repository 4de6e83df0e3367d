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

/** How long a request waits for Redis before it answers without it. */
export const REDIS_REQUEST_BOUND_MS = 1_000;

/** Redis did not take a command within the bound; the error filter answers it `503`. */
export class RedisUnavailableError extends Error {
  /** Read as a connection fault by the HTTP error filter, like a refused or timed-out socket. */
  readonly code = 'ETIMEDOUT';

  constructor(reason: string) {
    super(`Redis is unavailable: ${reason}`);
    this.name = 'RedisUnavailableError';
  }
}

/** The part of a BullMQ queue the bound needs: its Redis backend's client (public API). */
interface QueueConnection {
  getBackend(): { readonly client: Promise<{ status: string }> };
}

/**
 * Runs a command on a queue's Redis from a request path, within `ms`. Queue connections keep
 * commands in an offline queue while Redis is away and retry them for as long as it takes (what
 * workers need), so a request awaiting one would hang until Redis is back: here a connection that
 * is not ready refuses at once, and a command that does not finish in time is given up (it may
 * still run later — callers use deterministic job ids, so a late add changes nothing).
 */
export async function withinRedisBound<T>(queue: QueueConnection, command: () => Promise<T>, ms = REDIS_REQUEST_BOUND_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisUnavailableError(`no answer within ${ms} ms`)), ms);
    timer.unref();
  });
  const run = async (): Promise<T> => {
    const client = await queue.getBackend().client;
    if (client.status !== 'ready') throw new RedisUnavailableError(`connection ${client.status}`);
    return command();
  };
  const attempt = run();
  // The command is abandoned, not cancelled: its late failure must not surface as unhandled.
  attempt.catch(() => undefined);
  return Promise.race([attempt, timeout]).finally(() => clearTimeout(timer));
}
