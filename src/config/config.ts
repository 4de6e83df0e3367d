import { randomBytes } from 'node:crypto';

/** Validated process configuration (DESIGN §5). */
export interface AppConfig {
  port: number;
  databaseUrl: string;
  redisUrl: string;
  /**
   * The seed nodes of a Redis Cluster (REDIS_CLUSTER_NODES), or null for a single Redis at
   * `redisUrl`. With a cluster every Redis client is a cluster client, and `redisUrl` gives only
   * the credentials and TLS every node shares.
   */
  redisClusterNodes: RedisNode[] | null;
  cursorSecret: Buffer;
  /** True when CURSOR_SECRET was not set and a random one is in use. */
  cursorSecretGenerated: boolean;
  rateLimit: { limit: number; ttlSeconds: number };
  runWorkers: boolean;
  /**
   * Prefix of every BullMQ key in Redis, so several deployments (or test runs) can share one Redis.
   * On a cluster it is a hash tag (`{bi}`), so that all of a queue's keys are in one slot, as
   * BullMQ's scripts need; a prefix without one is wrapped in braces there.
   */
  queuePrefix: string;
  /**
   * How many queue groups the pipeline's queues are spread over (QUEUE_GROUPS, ADR 0054). With one,
   * the queues are under `queuePrefix` as they always were; with more, group g's queues are
   * under the hash tag `{<tag>-g}` (`queueGroupPrefix`), and a workspace's activities always go to
   * the same group, so that a Redis Cluster's masters share the queue traffic.
   */
  queueGroups: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /**
   * How long a pipeline worker holds a job before another may take it over (a crashed worker's
   * jobs come back after this). Every worker of a queue must use the same value.
   */
  pipelineLockMs: number;
  /** Events older than this are deleted; a feed cursor stays valid at least this long. */
  eventsRetentionDays: number;
  /**
   * Months of Signals kept (by `captured_at`; whole months are dropped, ADR 0052), or null to keep
   * them all (the default).
   */
  signalRetentionMonths: number | null;
  /**
   * Days of activities kept (by arrival; whole days are dropped once every activity of the day is
   * finished, ADR 0053). An activity's status, and its `external_id` as a duplicate, are known that long.
   */
  activityRetentionDays: number;
  /** Whether changes write events (the feed and webhooks); off only where neither is used. */
  eventsEnabled: boolean;
  /** How long an `Idempotency-Key` is remembered (and its answer replayed) after its first use. */
  idempotencyTtlHours: number;
  /** Encrypts webhook signing secrets at rest; every process must use the same value. */
  secretsKey: string;
  /** True when SECRETS_KEY was not set and the built-in development key is in use. */
  secretsKeyDefault: boolean;
  webhooks: {
    /** `http://` and loopback receivers allowed (local development and tests); private addresses never are. */
    allowInsecureUrls: boolean;
    /** The first retry's delay; the later ones keep their proportions to it (5 s: about three days in all). */
    retryBaseMs: number;
  };
  /** How long the service waits for PostgreSQL (ADR 0046). */
  database: DatabaseTimeouts;
  /**
   * Whether statements run as named prepared statements (parsed and planned once per connection).
   * Off behind a pooler that hands each transaction another server connection (PgBouncer in
   * transaction mode), where a name prepared on one connection is unknown on the next.
   */
  preparedStatements: boolean;
  /** Streaming replicas the API's Buyers, Signals and events reads go to (ADR 0050); none by default. */
  replicas: ReplicaConfig;
  /** The web console (docs/console.md, ADR 0058). */
  console: ConsoleConfig;
  /**
   * Express's `trust proxy` (TRUST_PROXY): how many proxies in front of the service to trust for
   * the client's address (`X-Forwarded-For`) and protocol (`X-Forwarded-Proto`); 0 trusts none.
   */
  trustProxyHops: number;
}

export interface ConsoleConfig {
  /** Whether the API process serves the console under `/console` too (CONSOLE_ENABLED). */
  enabled: boolean;
  /** The port of the console's own process, `dist/console.js` (CONSOLE_PORT). */
  port: number;
  /** A session unused this long ends (CONSOLE_SESSION_IDLE_MINUTES). */
  sessionIdleMinutes: number;
  /** A session ends this long after sign-in, used or not (CONSOLE_SESSION_MAX_HOURS). */
  sessionMaxHours: number;
  /** Failed sign-ins allowed per email and per client address within the window, the last one refused 429. */
  signInLimit: number;
  signInWindowSeconds: number;
  /** Where the built UI is (`dist/console-ui` by default). */
  uiDirectory: string | null;
}

export interface ReplicaConfig {
  /** Connection URLs, one per replica, in the order given. */
  urls: string[];
  /** A replica further behind the primary than this, or not answering, is skipped. */
  maxLagSeconds: number;
}

export interface RedisNode {
  host: string;
  port: number;
}

export interface DatabaseTimeouts {
  /** A connection, new or a free one from the pool, not obtained within this fails. */
  connectTimeoutMs: number;
  /** Bound on each statement's answer in the API process (its inline workers included). */
  queryTimeoutMs: number;
  /** The same bound in worker processes, whose batches run longer. */
  workerQueryTimeoutMs: number;
}

/** The defaults of `DatabaseTimeouts`, also used where no configuration is at hand (tests, ormconfig.ts). */
export const DATABASE_TIMEOUT_DEFAULTS: Readonly<DatabaseTimeouts> = {
  connectTimeoutMs: 5_000,
  queryTimeoutMs: 5_000,
  workerQueryTimeoutMs: 16_000,
};

/** Used when SECRETS_KEY is unset, so a development setup works; production must set its own. */
const DEVELOPMENT_SECRETS_KEY = 'development-only-secrets-key-do-not-use-in-production';

export const APP_CONFIG = Symbol('APP_CONFIG');

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[0-9]+$/.test(raw.trim())) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw.trim());
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function url(env: NodeJS.ProcessEnv, name: string, fallback: string, protocols: string[]): string {
  const raw = env[name] === undefined || env[name] === '' ? fallback : env[name].trim();
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, 'must be a URL');
  }
  if (!protocols.includes(parsed.protocol)) throw new ConfigError(name, `must use ${protocols.join(' or ')}`);
  return raw;
}

/** A comma-separated list of PostgreSQL URLs (empty when unset); each one must parse. */
function urlList(env: NodeJS.ProcessEnv, name: string): string[] {
  const raw = (env[name] ?? '').trim();
  if (raw === '') return [];
  const urls = raw.split(',').map((part) => part.trim());
  if (urls.some((part) => part === '')) throw new ConfigError(name, 'must be a comma-separated list of URLs without empty entries');
  return urls.map((part) => url({ [name]: part }, name, part, ['postgres:', 'postgresql:']));
}

function boolean(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = raw.trim().toLowerCase();
  if (['true', '1', 'yes'].includes(value)) return true;
  if (['false', '0', 'no'].includes(value)) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

/** `host:port,host:port,…` (an IPv6 host in brackets), or null when unset. */
function redisClusterNodes(env: NodeJS.ProcessEnv): RedisNode[] | null {
  const raw = (env.REDIS_CLUSTER_NODES ?? '').trim();
  if (raw === '') return null;
  return raw.split(',').map((entry) => {
    const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):([0-9]{1,5})$/.exec(entry.trim());
    const port = match ? Number(match[2]) : 0;
    if (!match || port < 1 || port > 65535) {
      throw new ConfigError('REDIS_CLUSTER_NODES', `must be a comma-separated list of host:port, got "${entry.trim()}"`);
    }
    return { host: match[1].replace(/^\[|\]$/g, ''), port };
  });
}

/**
 * Letters, digits, `_` and `-`, with at most one hash tag in braces (`{bi}`, `bi-{eu}`). On a
 * cluster, a prefix without a hash tag becomes one.
 */
function queuePrefix(env: NodeJS.ProcessEnv, cluster: boolean): string {
  const raw = (env.QUEUE_PREFIX ?? '').trim() || 'bi';
  if (!/^[A-Za-z0-9_-]*(\{[A-Za-z0-9_-]+\})?[A-Za-z0-9_-]*$/.test(raw) || raw.length > 64) {
    throw new ConfigError('QUEUE_PREFIX', 'must be 1-64 letters, digits, _ or -, with at most one {hash tag}');
  }
  return cluster && !raw.includes('{') ? `{${raw}}` : raw;
}

/** Reads and validates the environment; throws ConfigError naming the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const secret = env.CURSOR_SECRET;
  if (secret !== undefined && secret !== '' && Buffer.byteLength(secret) < 16) {
    throw new ConfigError('CURSOR_SECRET', 'must be at least 16 characters');
  }
  const secretsKey = env.SECRETS_KEY ?? '';
  if (secretsKey !== '' && Buffer.byteLength(secretsKey) < 32) throw new ConfigError('SECRETS_KEY', 'must be at least 32 characters');
  const logLevel = (env.LOG_LEVEL || 'info').trim().toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  }
  const clusterNodes = redisClusterNodes(env);
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    databaseUrl: url(env, 'DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/buyer_intel', ['postgres:', 'postgresql:']),
    redisUrl: url(env, 'REDIS_URL', 'redis://127.0.0.1:6379', ['redis:', 'rediss:']),
    redisClusterNodes: clusterNodes,
    cursorSecret: secret ? Buffer.from(secret) : randomBytes(32),
    cursorSecretGenerated: !secret,
    rateLimit: {
      limit: integer(env, 'RATE_LIMIT_LIMIT', 600, 1, 1_000_000),
      ttlSeconds: integer(env, 'RATE_LIMIT_TTL_S', 60, 1, 86_400),
    },
    runWorkers: boolean(env, 'RUN_WORKERS', true),
    queuePrefix: queuePrefix(env, clusterNodes !== null),
    queueGroups: integer(env, 'QUEUE_GROUPS', 1, 1, 64),
    logLevel: logLevel as AppConfig['logLevel'],
    pipelineLockMs: integer(env, 'PIPELINE_LOCK_MS', 30_000, 1_000, 600_000),
    eventsRetentionDays: integer(env, 'EVENTS_RETENTION_DAYS', 30, 1, 3650),
    eventsEnabled: boolean(env, 'EVENTS_ENABLED', true),
    signalRetentionMonths: integer(env, 'SIGNAL_RETENTION_MONTHS', 0, 0, 1_200) || null,
    activityRetentionDays: integer(env, 'ACTIVITY_RETENTION_DAYS', 30, 1, 3650),
    idempotencyTtlHours: integer(env, 'IDEMPOTENCY_TTL_HOURS', 24, 1, 720),
    secretsKey: secretsKey || DEVELOPMENT_SECRETS_KEY,
    secretsKeyDefault: !secretsKey,
    webhooks: {
      allowInsecureUrls: boolean(env, 'WEBHOOK_ALLOW_INSECURE_URLS', false),
      retryBaseMs: integer(env, 'WEBHOOK_RETRY_BASE_MS', 5_000, 1, 600_000),
    },
    database: {
      connectTimeoutMs: integer(env, 'DATABASE_CONNECT_TIMEOUT_MS', DATABASE_TIMEOUT_DEFAULTS.connectTimeoutMs, 500, 60_000),
      queryTimeoutMs: integer(env, 'DATABASE_QUERY_TIMEOUT_MS', DATABASE_TIMEOUT_DEFAULTS.queryTimeoutMs, 1_000, 600_000),
      workerQueryTimeoutMs: integer(
        env,
        'DATABASE_WORKER_QUERY_TIMEOUT_MS',
        DATABASE_TIMEOUT_DEFAULTS.workerQueryTimeoutMs,
        1_000,
        600_000,
      ),
    },
    preparedStatements: boolean(env, 'DATABASE_PREPARED_STATEMENTS', true),
    replicas: {
      urls: urlList(env, 'DATABASE_REPLICA_URLS'),
      maxLagSeconds: integer(env, 'REPLICA_MAX_LAG_S', 5, 1, 3_600),
    },
    console: {
      enabled: boolean(env, 'CONSOLE_ENABLED', true),
      port: integer(env, 'CONSOLE_PORT', 3001, 0, 65535),
      sessionIdleMinutes: integer(env, 'CONSOLE_SESSION_IDLE_MINUTES', 30, 1, 1_440),
      sessionMaxHours: integer(env, 'CONSOLE_SESSION_MAX_HOURS', 12, 1, 720),
      signInLimit: integer(env, 'CONSOLE_SIGNIN_LIMIT', 10, 1, 1_000),
      signInWindowSeconds: integer(env, 'CONSOLE_SIGNIN_WINDOW_S', 900, 1, 86_400),
      uiDirectory: (env.CONSOLE_UI_DIR ?? '').trim() || null,
    },
    trustProxyHops: integer(env, 'TRUST_PROXY', 0, 0, 10),
  };
}
