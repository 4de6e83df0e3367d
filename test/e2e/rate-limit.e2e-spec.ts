import { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { getStorageToken } from '@nestjs/throttler';
import type { AddressInfo } from 'node:net';
import { Agent, get as httpGet } from 'node:http';
import request from 'supertest';
import { AppModule } from '../../src/app.module';
import { AppConfig } from '../../src/config/config';
import { createRedisClient } from '../../src/shared/infrastructure/redis';
import { RedisThrottlerStorage } from '../../src/shared/interface/http/rate-limit-storage';
import { expectError } from '../support/assertions';
import { freePort } from '../support/ports';
import { RedisServer, startAppWithPrivateRedis } from '../support/redis-server';
import { apiApplication, startTestApp, TestApp } from '../support/test-app';

const LIMIT = 5;

/** A second API instance on the same database and Redis as `config`'s. */
async function secondInstance(config: AppConfig): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(config)] }).compile();
  const app = apiApplication(moduleRef);
  await app.init();
  return app;
}

describe('per-workspace rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_LIMIT: String(LIMIT), RATE_LIMIT_TTL_S: '60' });
  });
  afterAll(() => t.close());

  it('states the budget on every response and answers 429 rate_limit_exceeded with Retry-After once spent', async () => {
    const ws = await t.newWorkspace();
    for (let i = 1; i <= LIMIT; i++) {
      const res = await t.http.get('/v1/kb/icps').set('Authorization', ws.auth);
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe(String(LIMIT));
      expect(res.headers['x-ratelimit-remaining']).toBe(String(LIMIT - i));
      expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
    }
    const limited = await t.http.get('/v1/kb/icps').set('Authorization', ws.auth);
    expectError(limited, 429, 'rate_limit_exceeded');
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
  });

  it('is one budget for all keys of a workspace, every route and method counting, refused writes too', async () => {
    const ws = await t.newWorkspace();
    const reader = await t.workspaces.createKey(ws.workspace_id, 'read');
    const read = `Bearer ${reader.api_key}`;
    await t.http.post('/v1/kb/topics').set('Authorization', ws.auth).send({ name: 'a', short_name: 'a', description: 'a' }).expect(201);
    await t.http.get('/v1/signals').set('Authorization', read).expect(200);
    expectError(await t.http.post('/v1/kb/topics').set('Authorization', read).send({ name: 'r' }), 403, 'permission_denied');
    await t.http.get('/v1/buyers').set('Authorization', read).expect(200);
    await t.http.delete('/v1/kb/topics/top_0000000000000000001').set('Authorization', ws.auth).expect(404);
    expectError(await t.http.get('/v1/kb/icps').set('Authorization', read), 429, 'rate_limit_exceeded');
    expectError(
      await t.http.post('/v1/kb/topics').set('Authorization', ws.auth).send({ name: 'b', short_name: 'b', description: 'b' }),
      429,
      'rate_limit_exceeded',
    );
    // The refused write wrote nothing: the workspace still has one Topic, seen from a new budget.
    const again = await startTestApp({ DATABASE_URL: t.config.databaseUrl, RATE_LIMIT_LIMIT: String(LIMIT) });
    try {
      const { body } = await again.http.get('/v1/kb/topics').set('Authorization', ws.auth).expect(200);
      expect(body.data.map((topic: { short_name: string }) => topic.short_name)).toEqual(['a']);
    } finally {
      await again.app.close();
    }
  });

  it('counts a request to no route (404) and a wrong method (405) like any other, and limits them too', async () => {
    const ws = await t.newWorkspace();
    const missing = await t.http.get('/v1/no-such-route').set('Authorization', ws.auth);
    expectError(missing, 404, 'not_found');
    expect(missing.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1));
    const wrongMethod = await t.http.put('/v1/kb/icps').set('Authorization', ws.auth);
    expectError(wrongMethod, 405, 'method_not_allowed');
    expect(wrongMethod.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 2));
    const routed = await t.http.get('/v1/kb/icps').set('Authorization', ws.auth).expect(200);
    expect(routed.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 3));
    for (let i = 0; i < 2; i++) await t.http.get('/v1/no-such-route').set('Authorization', ws.auth).expect(404);
    const limited = await t.http.get('/v1/no-such-route').set('Authorization', ws.auth);
    expectError(limited, 429, 'rate_limit_exceeded');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expectError(await t.http.get('/v1/kb/icps').set('Authorization', ws.auth), 429, 'rate_limit_exceeded');
  });

  it('does not let one workspace spend another one’s budget', async () => {
    const noisy = await t.newWorkspace();
    const quiet = await t.newWorkspace();
    for (let i = 0; i <= LIMIT; i++) await t.http.get('/v1/kb/icps').set('Authorization', noisy.auth);
    expect((await t.http.get('/v1/kb/icps').set('Authorization', noisy.auth)).status).toBe(429);
    const res = await t.http.get('/v1/kb/icps').set('Authorization', quiet.auth);
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1));
  });

  it('counts the hits of one turn with one call to Redis, each with its own exact number', async () => {
    const storage = t.app.get<RedisThrottlerStorage>(getStorageToken());
    const sent = jest.spyOn(storage.redis, 'sendCommand');
    try {
      const key = `together-${Date.now()}`;
      const records = await Promise.all(Array.from({ length: 8 }, () => storage.increment(key, 60_000, LIMIT, 60_000, 'default')));
      expect(sent.mock.calls.map(([command]) => command.name)).toEqual(['evalsha']);
      expect(records.map((record) => [record.totalHits, record.isBlocked])).toEqual([
        [1, false],
        [2, false],
        [3, false],
        [4, false],
        [5, false],
        [6, true],
        [7, true],
        [8, true],
      ]);
      expect(records.every((record) => record.timeToExpire > 0 && record.timeToExpire <= 60)).toBe(true);
      expect(records.slice(LIMIT).every((record) => record.timeToBlockExpire > 0)).toBe(true);
      const later = await storage.increment(key, 60_000, LIMIT, 60_000, 'default');
      expect([later.totalHits, later.isBlocked]).toEqual([9, true]);
    } finally {
      sent.mockRestore();
    }
  });

  it('answers parallel HTTP requests within the budget, and no more', async () => {
    const ws = await t.newWorkspace();
    const responses = await Promise.all(Array.from({ length: 8 }, () => t.http.get('/v1/kb/icps').set('Authorization', ws.auth)));
    const ok = responses.filter((res) => res.status === 200);
    expect(ok).toHaveLength(LIMIT);
    expect(ok.map((res) => res.headers['x-ratelimit-remaining']).sort()).toEqual(['0', '1', '2', '3', '4']);
    for (const res of responses.filter((r) => r.status !== 200)) expectError(res, 429, 'rate_limit_exceeded');
  });

  it('is shared by every API instance (the counters live in Redis)', async () => {
    const second = await secondInstance(t.config);
    try {
      const ws = await t.newWorkspace();
      const instances = [t.http, request(second.getHttpServer())];
      for (let i = 0; i < LIMIT; i++) await instances[i % 2].get('/v1/kb/icps').set('Authorization', ws.auth).expect(200);
      expectError(await instances[1].get('/v1/kb/icps').set('Authorization', ws.auth), 429, 'rate_limit_exceeded');
      expectError(await instances[0].get('/v1/kb/icps').set('Authorization', ws.auth), 429, 'rate_limit_exceeded');
    } finally {
      await second.close();
    }
  });

  it('counts from the first request of a new instance: it starts once its store is ready', async () => {
    const connecting = createRedisClient(t.config, { enableOfflineQueue: false });
    const storage = new RedisThrottlerStorage(connecting);
    try {
      expect(connecting.status).not.toBe('ready');
      await storage.onApplicationBootstrap();
      expect(connecting.status).toBe('ready');
    } finally {
      storage.onModuleDestroy();
    }

    const bootstrap = jest.spyOn(RedisThrottlerStorage.prototype, 'onApplicationBootstrap');
    const second = await secondInstance(t.config);
    try {
      expect(bootstrap).toHaveBeenCalledTimes(1);
      const ws = await t.newWorkspace();
      const responses = await Promise.all(
        Array.from({ length: LIMIT + 2 }, () => request(second.getHttpServer()).get('/v1/kb/icps').set('Authorization', ws.auth)),
      );
      expect(responses.map((res) => res.status).sort()).toEqual([...Array<number>(LIMIT).fill(200), 429, 429]);
    } finally {
      bootstrap.mockRestore();
      await second.close();
    }
  });

  it('waits for a Redis that does not answer only up to its bound, then starts and fails open', async () => {
    const unreachable = createRedisClient(
      { redisUrl: `redis://127.0.0.1:${await freePort()}`, redisClusterNodes: null },
      { enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => 200 },
    );
    unreachable.on('error', () => undefined);
    const storage = new RedisThrottlerStorage(unreachable, 300);
    try {
      const started = Date.now();
      await storage.onApplicationBootstrap();
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      expect(unreachable.status).not.toBe('ready');
      await expect(storage.increment('nobody', 60_000, LIMIT, 60_000, 'default')).rejects.toThrow();
    } finally {
      storage.onModuleDestroy();
    }
  });

  it('limits failed authentication per client address, so guessing keys is slow', async () => {
    // The budget is shared with other tests of this file from the same address only for failures.
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i++) {
      statuses.push((await t.http.get('/v1/kb/icps').set('Authorization', `Bearer svc_live_${'x'.repeat(30)}${i}`)).status);
    }
    expect(statuses.slice(0, LIMIT).every((s) => s === 401)).toBe(true);
    const limited = await t.http.get('/v1/kb/icps').set('Authorization', 'Bearer svc_live_guess0000000000000000000000');
    expectError(limited, 429, 'rate_limit_exceeded');
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    // A valid key still works from that address.
    const ws = await t.newWorkspace();
    expect((await t.http.get('/v1/kb/icps').set('Authorization', ws.auth)).status).toBe(200);
  });
});

describe('rate limit under concurrency, across API instances', () => {
  const BUDGET = 1_000;
  let t: TestApp;
  let second: INestApplication;
  const agent = new Agent({ keepAlive: true, maxSockets: 20 });
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_LIMIT: String(BUDGET), RATE_LIMIT_TTL_S: '60' });
    second = await secondInstance(t.config);
    await Promise.all([t.app.listen(0, '127.0.0.1'), second.listen(0, '127.0.0.1')]);
  });
  afterAll(async () => {
    agent.destroy();
    await second.close();
    await t.close();
  });

  it('serves exactly the limit: 2,000 requests at 20 connections over two instances, 1,000 answered 200', async () => {
    const ws = await t.newWorkspace();
    const ports = [t.app, second].map((app) => (app.getHttpServer().address() as AddressInfo).port);
    const statuses: number[] = [];
    let sent = 0;
    const get = (port: number) =>
      new Promise<number>((resolve, reject) => {
        httpGet({ host: '127.0.0.1', port, path: '/v1/kb/icps?limit=1', agent, headers: { Authorization: ws.auth } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        }).on('error', reject);
      });
    // 20 connections, ten to each instance, each sending its next request when the last is answered.
    await Promise.all(
      Array.from({ length: 20 }, async (_, connection) => {
        while (sent < 2 * BUDGET) {
          sent += 1;
          statuses.push(await get(ports[connection % 2]));
        }
      }),
    );
    expect(statuses).toHaveLength(2 * BUDGET);
    expect(statuses.filter((status) => status === 200)).toHaveLength(BUDGET);
    expect(statuses.filter((status) => status === 429)).toHaveLength(BUDGET);
  });
});

describe('rate limit when Redis goes away', () => {
  let t: TestApp;
  let redis: RedisServer;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ t, redis, close } = await startAppWithPrivateRedis({ RATE_LIMIT_LIMIT: '3' }));
  });
  afterAll(() => close());

  it('keeps answering without limit headers (fails open) and limits again once Redis is back', async () => {
    const ws = await t.newWorkspace();
    const before = await t.http.get('/v1/kb/icps').set('Authorization', ws.auth);
    expect(before.headers['x-ratelimit-limit']).toBe('3');

    await redis.stop();
    for (let i = 0; i < 5; i++) {
      const res = await t.http.get('/v1/kb/icps').set('Authorization', ws.auth);
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }

    await redis.start();
    let limited = false;
    for (let i = 0; i < 100 && !limited; i++) {
      const res = await t.http.get('/v1/kb/icps').set('Authorization', ws.auth);
      limited = res.status === 429;
      if (!limited) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(limited).toBe(true);
  });
});
