import { Logger } from '@nestjs/common';
import { RedisServer, startAppWithPrivateRedis } from '../support/redis-server';
import { startTestApp, TestApp } from '../support/test-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `body` with the structured log's warnings recorded and stderr watched: `matching` lists
 * the warnings that pass a filter, after waiting (up to 5 s) for `expected` of them and then 1.5 s
 * more, in which a client that keeps failing would warn again if nothing held it back.
 */
async function watchingLogs(body: (logs: { matching(filter: RegExp, expected: number): Promise<string[]>; stderr: jest.SpyInstance }) => Promise<void>) {
  const stderr = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  const warn = jest.spyOn(Logger.prototype, 'warn');
  const warnings = (filter: RegExp) => warn.mock.calls.map(([message]) => String(message)).filter((message) => filter.test(message));
  try {
    await body({
      stderr,
      async matching(filter, expected) {
        for (let i = 0; i < 100 && warnings(filter).length < expected; i++) await sleep(50);
        await sleep(1_500);
        return warnings(filter);
      },
    });
  } finally {
    stderr.mockRestore();
    warn.mockRestore();
  }
}

describe('health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers liveness and readiness without a key and without secrets', async () => {
    const live = await t.http.get('/health/live');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'ok' });
    const ready = await t.http.get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({
      status: 'ok',
      info: { database: { status: 'up' }, migrations: { status: 'up' } },
      redis: { status: 'up', rate_limit: 'on' },
    });
    expect(JSON.stringify(ready.body)).not.toMatch(/postgres:\/\/|redis:\/\/|password|svc_live_/);
  });
});

describe('readiness when Redis goes away', () => {
  let t: TestApp;
  let redis: RedisServer;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ t, redis, close } = await startAppWithPrivateRedis());
  });
  afterAll(() => close());

  it('stays ready (the API keeps serving) and says that Redis is down and rate limiting off', async () => {
    await watchingLogs(async (logs) => {
      const ws = await t.newWorkspace();
      await redis.stop();
      await t.http.get('/v1/kb/icps').set('Authorization', ws.auth).expect(200);
      const ready = await t.http.get('/health/ready');
      expect(ready.status).toBe(200);
      expect(ready.body.redis).toEqual({ status: 'down', rate_limit: 'off (failing open)' });

      // The log says so, once for all four queues although each one's connection keeps failing,
      // and nothing goes to stderr outside the structured log.
      expect(await logs.matching(/^Redis for the pipeline queues: /, 1)).toHaveLength(1);
      expect(logs.stderr).not.toHaveBeenCalled();
    });
  });
});

describe('pipeline workers when Redis goes away', () => {
  let redis: RedisServer;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ redis, close } = await startAppWithPrivateRedis({ RUN_WORKERS: 'true' }));
  });
  afterAll(() => close());

  it('warn in the structured log, once per worker, and never on stderr', async () => {
    await watchingLogs(async (logs) => {
      await redis.stop();
      const byWorker = (await logs.matching(/ worker: /, 4)).map((message) => message.split(':', 1)[0]).sort();
      expect(byWorker).toEqual(['The enrich worker', 'The evaluate worker', 'The match worker', 'The resolve worker']);
      expect(logs.stderr).not.toHaveBeenCalled();
    });
  });
});
