import { inspect } from 'node:util';
import { ConfigError, loadConfig } from './config';

function configError(env: NodeJS.ProcessEnv): ConfigError {
  let thrown: unknown;
  try {
    loadConfig(env);
  } catch (error) {
    thrown = error;
  }
  if (!(thrown instanceof ConfigError)) {
    throw new Error(`expected a ConfigError for ${JSON.stringify(env)}, got ${thrown === undefined ? 'none' : inspect(thrown)}`);
  }
  return thrown;
}

describe('loadConfig', () => {
  describe('defaults (DESIGN §5)', () => {
    const config = loadConfig({});

    it('uses the documented defaults', () => {
      expect(config.port).toBe(3000);
      expect(config.databaseUrl).toBe('postgres://postgres@127.0.0.1:5432/buyer_intel');
      expect(config.redisUrl).toBe('redis://127.0.0.1:6379');
      expect(config.rateLimit).toEqual({ limit: 600, ttlSeconds: 60 });
      expect(config.runWorkers).toBe(true);
      expect(config.logLevel).toBe('info');
      expect(config.pipelineLockMs).toBe(30_000);
      expect(config.eventsRetentionDays).toBe(30);
      expect(config.signalRetentionMonths).toBeNull();
      expect(config.activityRetentionDays).toBe(30);
      expect(config.eventsEnabled).toBe(true);
      expect(config.idempotencyTtlHours).toBe(24);
      expect(config.secretsKeyDefault).toBe(true);
      expect(config.webhooks).toEqual({ allowInsecureUrls: false, retryBaseMs: 5_000 });
      expect(config.database).toEqual({ connectTimeoutMs: 5_000, queryTimeoutMs: 5_000, workerQueryTimeoutMs: 16_000 });
      expect(config.preparedStatements).toBe(true);
      expect(config.replicas).toEqual({ urls: [], maxLagSeconds: 5 });
    });

    it('generates a random cursor secret and says so', () => {
      expect(config.cursorSecretGenerated).toBe(true);
      expect(Buffer.isBuffer(config.cursorSecret)).toBe(true);
      expect(config.cursorSecret.length).toBeGreaterThanOrEqual(16);
      const other = loadConfig({});
      expect(other.cursorSecret.equals(config.cursorSecret)).toBe(false);
    });

    it('treats empty variables as unset', () => {
      const fromEmpty = loadConfig({
        PORT: '',
        DATABASE_URL: '',
        REDIS_URL: '',
        CURSOR_SECRET: '',
        RATE_LIMIT_LIMIT: '',
        RATE_LIMIT_TTL_S: '',
        RUN_WORKERS: '',
        LOG_LEVEL: '',
      });
      expect(fromEmpty).toMatchObject({
        port: 3000,
        databaseUrl: 'postgres://postgres@127.0.0.1:5432/buyer_intel',
        redisUrl: 'redis://127.0.0.1:6379',
        cursorSecretGenerated: true,
        rateLimit: { limit: 600, ttlSeconds: 60 },
        runWorkers: true,
        logLevel: 'info',
      });
    });

    it('reads process.env when called without an argument', () => {
      const saved = process.env.PORT;
      process.env.PORT = '4321';
      try {
        expect(loadConfig().port).toBe(4321);
      } finally {
        if (saved === undefined) delete process.env.PORT;
        else process.env.PORT = saved;
      }
    });
  });

  describe('values that are set', () => {
    it('reads every variable', () => {
      const config = loadConfig({
        PORT: '8080',
        DATABASE_URL: 'postgresql://app:pw@db.internal:5433/other',
        REDIS_URL: 'rediss://cache.internal:6380/2',
        CURSOR_SECRET: 'a-secret-of-at-least-16-bytes',
        RATE_LIMIT_LIMIT: '100',
        RATE_LIMIT_TTL_S: '10',
        RUN_WORKERS: 'false',
        LOG_LEVEL: 'debug',
        PIPELINE_LOCK_MS: '5000',
        EVENTS_RETENTION_DAYS: '7',
        SIGNAL_RETENTION_MONTHS: '12',
        ACTIVITY_RETENTION_DAYS: '90',
        EVENTS_ENABLED: 'false',
        IDEMPOTENCY_TTL_HOURS: '48',
        SECRETS_KEY: 'k'.repeat(32),
        WEBHOOK_ALLOW_INSECURE_URLS: 'true',
        WEBHOOK_RETRY_BASE_MS: '100',
        DATABASE_CONNECT_TIMEOUT_MS: '2000',
        DATABASE_QUERY_TIMEOUT_MS: '3000',
        DATABASE_WORKER_QUERY_TIMEOUT_MS: '60000',
      });
      expect(config.port).toBe(8080);
      expect(config.databaseUrl).toBe('postgresql://app:pw@db.internal:5433/other');
      expect(config.redisUrl).toBe('rediss://cache.internal:6380/2');
      expect(config.cursorSecret.equals(Buffer.from('a-secret-of-at-least-16-bytes'))).toBe(true);
      expect(config.cursorSecretGenerated).toBe(false);
      expect(config.rateLimit).toEqual({ limit: 100, ttlSeconds: 10 });
      expect(config.runWorkers).toBe(false);
      expect(config.logLevel).toBe('debug');
      expect(config.pipelineLockMs).toBe(5_000);
      expect(config.eventsRetentionDays).toBe(7);
      expect(config.signalRetentionMonths).toBe(12);
      expect(config.activityRetentionDays).toBe(90);
      expect(config.eventsEnabled).toBe(false);
      expect(config.idempotencyTtlHours).toBe(48);
      expect(config).toMatchObject({ secretsKey: 'k'.repeat(32), secretsKeyDefault: false });
      expect(config.webhooks).toEqual({ allowInsecureUrls: true, retryBaseMs: 100 });
      expect(config.database).toEqual({ connectTimeoutMs: 2_000, queryTimeoutMs: 3_000, workerQueryTimeoutMs: 60_000 });
    });

    it('reads replica URLs as a comma-separated list, their lag bound and the prepared-statement switch', () => {
      const config = loadConfig({
        DATABASE_REPLICA_URLS: ' postgres://app:pw@replica-1:5432/bi , postgresql://replica-2/bi',
        REPLICA_MAX_LAG_S: '30',
        DATABASE_PREPARED_STATEMENTS: 'false',
      });
      expect(config.replicas).toEqual({ urls: ['postgres://app:pw@replica-1:5432/bi', 'postgresql://replica-2/bi'], maxLagSeconds: 30 });
      expect(config.preparedStatements).toBe(false);
    });

    it('accepts a cursor secret of exactly 16 bytes', () => {
      const config = loadConfig({ CURSOR_SECRET: '0123456789abcdef' });
      expect(config.cursorSecret.length).toBe(16);
      expect(config.cursorSecretGenerated).toBe(false);
    });

    it.each([
      ['true', true],
      ['TRUE', true],
      ['1', true],
      ['yes', true],
      ['false', false],
      ['False', false],
      ['0', false],
      ['no', false],
    ])('reads RUN_WORKERS=%s as %s', (raw, expected) => {
      expect(loadConfig({ RUN_WORKERS: raw }).runWorkers).toBe(expected);
    });

    it.each(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])('accepts LOG_LEVEL=%s', (level) => {
      expect(loadConfig({ LOG_LEVEL: level }).logLevel).toBe(level);
    });

    it('accepts LOG_LEVEL in upper case', () => {
      expect(loadConfig({ LOG_LEVEL: 'WARN' }).logLevel).toBe('warn');
    });

    it('tolerates surrounding whitespace in numbers', () => {
      expect(loadConfig({ PORT: ' 3001 ' }).port).toBe(3001);
    });
  });

  describe('Redis Cluster', () => {
    it('is off by default, with the prefix as given', () => {
      expect(loadConfig({}).redisClusterNodes).toBeNull();
      expect(loadConfig({ QUEUE_PREFIX: 'bi-eu' }).queuePrefix).toBe('bi-eu');
      expect(loadConfig({ QUEUE_PREFIX: '{bi}' }).queuePrefix).toBe('{bi}');
    });

    it('reads the seed nodes, IPv6 in brackets', () => {
      expect(loadConfig({ REDIS_CLUSTER_NODES: ' 10.0.0.1:7000, redis-b.internal:7001,[::1]:7002 ' }).redisClusterNodes).toEqual([
        { host: '10.0.0.1', port: 7000 },
        { host: 'redis-b.internal', port: 7001 },
        { host: '::1', port: 7002 },
      ]);
    });

    it('makes the queue prefix a hash tag on a cluster, keeping one that is already there', () => {
      expect(loadConfig({ REDIS_CLUSTER_NODES: 'h:7000' }).queuePrefix).toBe('{bi}');
      expect(loadConfig({ REDIS_CLUSTER_NODES: 'h:7000', QUEUE_PREFIX: 'bi-eu' }).queuePrefix).toBe('{bi-eu}');
      expect(loadConfig({ REDIS_CLUSTER_NODES: 'h:7000', QUEUE_PREFIX: 'bi-{eu}' }).queuePrefix).toBe('bi-{eu}');
    });
  });

  describe('queue groups', () => {
    it('are one by default, as before there were groups', () => {
      expect(loadConfig({}).queueGroups).toBe(1);
      expect(loadConfig({ QUEUE_GROUPS: '' }).queueGroups).toBe(1);
    });

    it('reads QUEUE_GROUPS, with or without a cluster', () => {
      expect(loadConfig({ QUEUE_GROUPS: '8' }).queueGroups).toBe(8);
      expect(loadConfig({ QUEUE_GROUPS: ' 3 ', REDIS_CLUSTER_NODES: 'h:7000' }).queueGroups).toBe(3);
      expect(loadConfig({ QUEUE_GROUPS: '64' }).queueGroups).toBe(64);
    });
  });

  describe('the console', () => {
    it('is on in the API process by default, with its own port, session and sign-in limits', () => {
      expect(loadConfig({}).console).toEqual({
        enabled: true,
        port: 3001,
        sessionIdleMinutes: 30,
        sessionMaxHours: 12,
        signInLimit: 10,
        signInWindowSeconds: 900,
        uiDirectory: null,
      });
      expect(loadConfig({}).trustProxyHops).toBe(0);
    });

    it('reads its settings', () => {
      const config = loadConfig({
        CONSOLE_ENABLED: 'false',
        CONSOLE_PORT: '4001',
        CONSOLE_SESSION_IDLE_MINUTES: '5',
        CONSOLE_SESSION_MAX_HOURS: '1',
        CONSOLE_SIGNIN_LIMIT: '3',
        CONSOLE_SIGNIN_WINDOW_S: '60',
        CONSOLE_UI_DIR: ' /srv/console ',
        TRUST_PROXY: '1',
      });
      expect(config.console).toEqual({
        enabled: false,
        port: 4001,
        sessionIdleMinutes: 5,
        sessionMaxHours: 1,
        signInLimit: 3,
        signInWindowSeconds: 60,
        uiDirectory: '/srv/console',
      });
      expect(config.trustProxyHops).toBe(1);
    });

    it.each([
      ['CONSOLE_ENABLED', 'maybe'],
      ['CONSOLE_PORT', '70000'],
      ['CONSOLE_SESSION_IDLE_MINUTES', '0'],
      ['CONSOLE_SESSION_MAX_HOURS', '721'],
      ['CONSOLE_SIGNIN_LIMIT', '0'],
      ['CONSOLE_SIGNIN_WINDOW_S', 'x'],
      ['TRUST_PROXY', 'true'],
    ])('%s=%p stops start-up naming the variable', (name, value) => {
      expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`Invalid configuration: ${name} `));
    });
  });

  describe('bad values stop start-up with a ConfigError naming the variable', () => {
    it.each([
      ['PORT', 'abc'],
      ['PORT', '-1'],
      ['PORT', '3000.5'],
      ['PORT', '65536'],
      ['PORT', '1e3'],
      ['PORT', '0x50'],
      ['DATABASE_URL', 'not a url'],
      ['DATABASE_URL', 'mysql://root@127.0.0.1:3306/db'],
      ['DATABASE_URL', 'redis://127.0.0.1:6379'],
      ['REDIS_URL', 'localhost:6379'],
      ['REDIS_URL', 'http://127.0.0.1:6379'],
      ['REDIS_URL', 'postgres://127.0.0.1:5432/x'],
      ['CURSOR_SECRET', 'short'],
      ['CURSOR_SECRET', '0123456789abcde'],
      ['RATE_LIMIT_LIMIT', '0'],
      ['RATE_LIMIT_LIMIT', 'many'],
      ['RATE_LIMIT_LIMIT', '-5'],
      ['RATE_LIMIT_LIMIT', '10.5'],
      ['RATE_LIMIT_TTL_S', '0'],
      ['RATE_LIMIT_TTL_S', '1m'],
      ['RATE_LIMIT_TTL_S', '86401'],
      ['RUN_WORKERS', 'maybe'],
      ['RUN_WORKERS', 'on?'],
      ['LOG_LEVEL', 'verbose'],
      ['LOG_LEVEL', 'loud'],
      ['PIPELINE_LOCK_MS', '999'],
      ['PIPELINE_LOCK_MS', '600001'],
      ['PIPELINE_LOCK_MS', '30s'],
      ['ACTIVITY_RETENTION_DAYS', '0'],
      ['ACTIVITY_RETENTION_DAYS', '3651'],
      ['ACTIVITY_RETENTION_DAYS', '30d'],
      ['IDEMPOTENCY_TTL_HOURS', '0'],
      ['IDEMPOTENCY_TTL_HOURS', '721'],
      ['IDEMPOTENCY_TTL_HOURS', '1d'],
      ['SIGNAL_RETENTION_MONTHS', '1201'],
      ['SIGNAL_RETENTION_MONTHS', '12m'],
      ['DATABASE_CONNECT_TIMEOUT_MS', '499'],
      ['DATABASE_CONNECT_TIMEOUT_MS', '5s'],
      ['DATABASE_QUERY_TIMEOUT_MS', '999'],
      ['DATABASE_QUERY_TIMEOUT_MS', '600001'],
      ['DATABASE_QUERY_TIMEOUT_MS', '0'],
      ['DATABASE_WORKER_QUERY_TIMEOUT_MS', '999'],
      ['DATABASE_WORKER_QUERY_TIMEOUT_MS', 'none'],
      ['QUEUE_GROUPS', '0'],
      ['QUEUE_GROUPS', '65'],
      ['QUEUE_GROUPS', '-1'],
      ['QUEUE_GROUPS', '2.5'],
      ['QUEUE_GROUPS', 'four'],
      ['QUEUE_PREFIX', 'bi:eu'],
      ['QUEUE_PREFIX', '{}'],
      ['QUEUE_PREFIX', '{bi}{eu}'],
      ['QUEUE_PREFIX', 'b{i'],
      ['REDIS_CLUSTER_NODES', '127.0.0.1'],
      ['REDIS_CLUSTER_NODES', '127.0.0.1:7000,'],
      ['REDIS_CLUSTER_NODES', 'redis://127.0.0.1:7000'],
      ['REDIS_CLUSTER_NODES', '127.0.0.1:70000'],
    ])('%s=%s', (variable, value) => {
      const error = configError({ [variable]: value });
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe('ConfigError');
      expect(error.variable).toBe(variable);
      expect(error.message).toContain(variable);
    });

    it.each([
      ['a URL that does not parse', 'postgres://replica-1/bi,not a url'],
      ['another protocol', 'postgres://replica-1/bi,mysql://replica-2/bi'],
      ['an empty entry', 'postgres://replica-1/bi,,postgres://replica-2/bi'],
    ])('refuses DATABASE_REPLICA_URLS with %s', (_, value) => {
      expect(configError({ DATABASE_REPLICA_URLS: value }).variable).toBe('DATABASE_REPLICA_URLS');
    });

    it.each(['0', '3601', 'soon'])('refuses REPLICA_MAX_LAG_S=%s', (value) => {
      expect(configError({ REPLICA_MAX_LAG_S: value }).variable).toBe('REPLICA_MAX_LAG_S');
    });

    it('does not echo a database password or a cursor secret in the message', () => {
      expect(configError({ DATABASE_URL: 'mysql://root:s3cr3t-pw@db:3306/x' }).message).not.toContain('s3cr3t-pw');
      expect(configError({ DATABASE_REPLICA_URLS: 'mysql://root:s3cr3t-pw@db:3306/x' }).message).not.toContain('s3cr3t-pw');
      expect(configError({ CURSOR_SECRET: 'tiny-secret' }).message).not.toContain('tiny-secret');
    });

    it('names the bad variable even when the others are valid', () => {
      const error = configError({ PORT: '8080', DATABASE_URL: 'postgres://x@h/db', RATE_LIMIT_TTL_S: 'soon' });
      expect(error.variable).toBe('RATE_LIMIT_TTL_S');
    });
  });
});
