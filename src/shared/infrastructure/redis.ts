import type { RedisOptions } from 'bullmq';
import Redis, { Cluster, type RedisOptions as ClientOptions } from 'ioredis';
import type { AppConfig } from '../../config/config';

/** A client of the configured Redis: one server, or a cluster (REDIS_CLUSTER_NODES). */
export type RedisClient = Redis | Cluster;

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
 * A client of the configured Redis with `options` on each of its connections: the server at
 * `REDIS_URL`, or with `REDIS_CLUSTER_NODES` a cluster client that learns the cluster from those
 * seed nodes and connects to every node with `REDIS_URL`'s credentials and TLS (a cluster has
 * database 0 only). `retryStrategy` and `enableOfflineQueue` apply to the cluster as a whole.
 */
export function createRedisClient(config: Pick<AppConfig, 'redisUrl' | 'redisClusterNodes'>, options: ClientOptions = {}): RedisClient {
  const fromUrl = redisOptionsFromUrl(config.redisUrl);
  if (!config.redisClusterNodes) return new Redis({ ...fromUrl, ...options });
  const { retryStrategy, enableOfflineQueue, lazyConnect, ...perNode } = options;
  const { host: _host, port: _port, db: _db, ...shared } = fromUrl;
  return new Cluster(config.redisClusterNodes, {
    redisOptions: { ...shared, ...perNode },
    ...(retryStrategy ? { clusterRetryStrategy: (attempt: number) => retryStrategy(attempt) ?? null } : {}),
    ...(enableOfflineQueue === undefined ? {} : { enableOfflineQueue }),
    ...(lazyConnect === undefined ? {} : { lazyConnect }),
  });
}

/** Whether a server's `INFO` says it is a node of a Redis Cluster. */
export function isClusterNodeInfo(info: string): boolean {
  return /^cluster_enabled:1\s*$/m.test(info);
}

/** The configuration names one Redis, and that Redis is a cluster node. */
export class RedisTopologyError extends Error {
  constructor() {
    super('REDIS_URL points at a Redis Cluster node (cluster_enabled:1); set REDIS_CLUSTER_NODES=host:port,… to use the cluster');
    this.name = 'RedisTopologyError';
  }
}

/**
 * Start-up check for a configuration without REDIS_CLUSTER_NODES: throws RedisTopologyError when
 * `REDIS_URL` is a node of a Redis Cluster, where a plain client reaches only that node's slots.
 * A Redis that does not answer within `timeoutMs` is not checked (readiness reports it).
 */
export async function refuseClusterNodeWithoutCluster(redisUrl: string, timeoutMs = 1_000): Promise<void> {
  const client = new Redis({
    ...redisOptionsFromUrl(redisUrl),
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  let clusterNode = false;
  try {
    await client.connect();
    clusterNode = isClusterNodeInfo(await client.info('cluster'));
  } catch {
    return;
  } finally {
    client.disconnect();
  }
  if (clusterNode) throw new RedisTopologyError();
}

/**
 * Whether an error means the service talks to a cluster the wrong way (a plain client on a
 * cluster node, or keys of one command in different slots): retrying does not help, only a change
 * of configuration does.
 */
export function isRedisMisconfiguration(error: unknown): boolean {
  return error instanceof RedisTopologyError || (error instanceof Error && /^(CROSSSLOT|MOVED|ASK) /.test(error.message));
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
