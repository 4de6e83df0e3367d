import { Logger } from '@nestjs/common';
import { RedisServer, startAppWithPrivateRedis } from '../support/redis-server';
import { startTestApp, TestApp } from '../support/test-app';

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
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const warn = jest.spyOn(Logger.prototype, 'warn');
    try {
      const ws = await t.newWorkspace();
      await redis.stop();
      await t.http.get('/v1/kb/icps').set('Authorization', ws.auth).expect(200);
      const ready = await t.http.get('/health/ready');
      expect(ready.status).toBe(200);
      expect(ready.body.redis).toEqual({ status: 'down', rate_limit: 'off (failing open)' });

      // The log says so, once for all four queues although each one's connection keeps failing,
      // and nothing goes to stderr outside the structured log.
      const queueWarnings = () => warn.mock.calls.filter(([message]) => String(message).startsWith('Redis for the pipeline queues: '));
      for (let i = 0; i < 100 && queueWarnings().length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(queueWarnings()).toHaveLength(1);
      expect(consoleError).not.toHaveBeenCalled();
    } finally {
      consoleError.mockRestore();
      warn.mockRestore();
    }
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
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const warn = jest.spyOn(Logger.prototype, 'warn');
    try {
      await redis.stop();
      const workerWarnings = () => warn.mock.calls.map(([message]) => String(message)).filter((message) => / worker: /.test(message));
      for (let i = 0; i < 100 && workerWarnings().length < 4; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const byWorker = workerWarnings().map((message) => message.split(':', 1)[0]).sort();
      expect(byWorker).toEqual(['The enrich worker', 'The evaluate worker', 'The match worker', 'The resolve worker']);
      expect(consoleError).not.toHaveBeenCalled();
    } finally {
      consoleError.mockRestore();
      warn.mockRestore();
    }
  });
});
