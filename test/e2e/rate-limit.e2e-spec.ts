import { Test } from '@nestjs/testing';
import { getStorageToken } from '@nestjs/throttler';
import Redis from 'ioredis';
import request from 'supertest';
import { AppModule } from '../../src/app.module';
import { expectError } from '../support/assertions';
import { RedisServer, startAppWithPrivateRedis } from '../support/redis-server';
import { RateLimiter } from '../../src/shared/interface/http/rate-limiter';
import { apiApplication, startTestApp, TestApp } from '../support/test-app';

const LIMIT = 5;

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

  it('is one budget for all keys of a workspace, every endpoint and method counting, unknown routes too', async () => {
    const ws = await t.newWorkspace();
    const reader = await t.workspaces.createKey(ws.workspace_id, 'read');
    await t.http.post('/v1/kb/topics').set('Authorization', ws.auth).send({ name: 'a', short_name: 'a', description: 'a' }).expect(201);
    await t.http.get('/v1/signals').set('Authorization', `Bearer ${reader.api_key}`).expect(200);
    await t.http.get('/v1/no-such-route').set('Authorization', ws.auth).expect(404);
    await t.http.get('/v1/buyers').set('Authorization', `Bearer ${reader.api_key}`).expect(200);
    await t.http.delete('/v1/kb/topics/top_0000000000000000001').set('Authorization', ws.auth).expect(404);
    expectError(await t.http.get('/v1/kb/icps').set('Authorization', `Bearer ${reader.api_key}`), 429, 'rate_limit_exceeded');
    expectError(
      await t.http.post('/v1/kb/topics').set('Authorization', ws.auth).send({ name: 'b', short_name: 'b', description: 'b' }),
      429,
      'rate_limit_exceeded',
    );
    // The refused write wrote nothing.
    const other = await t.newWorkspace();
    expect((await t.http.get('/v1/kb/topics').set('Authorization', other.auth)).status).toBe(200);
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

  it('counts requests that arrive together exactly, with one call to Redis for them', async () => {
    const limiter = t.app.get(RateLimiter);
    const storage = t.app.get<{ redis: Redis }>(getStorageToken());
    const sent = jest.spyOn(storage.redis, 'sendCommand');
    try {
      const subject = `ws:together-${Date.now()}`;
      const states = await Promise.all(Array.from({ length: 8 }, () => limiter.hit(subject)));
      expect(sent.mock.calls.map(([command]) => command.name)).toEqual(['evalsha']);
      expect(states.map((state) => [state!.remaining, state!.blocked])).toEqual([
        [4, false], [3, false], [2, false], [1, false], [0, false], [0, true], [0, true], [0, true],
      ]);
      expect(states.every((state) => state!.limit === LIMIT && state!.reset > 0)).toBe(true);
      const after = await limiter.hit(subject);
      expect([after!.blocked, after!.retryAfter > 0]).toEqual([true, true]);
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
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(t.config)] }).compile();
    const second = apiApplication(moduleRef);
    await second.init();
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

describe('rate limit of a busy workspace', () => {
  const BUSY_LIMIT = 10_000;
  // 1 % of the limit: the most hits one process reserves at a time.
  const MOST_RESERVED = BUSY_LIMIT / 100;
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_LIMIT: String(BUSY_LIMIT), RATE_LIMIT_TTL_S: '60' });
  });
  afterAll(() => t.close());

  it('counts every hit of one process exactly, most of them from hits reserved in Redis beforehand', async () => {
    const limiter = t.app.get(RateLimiter);
    const storage = t.app.get<{ redis: Redis }>(getStorageToken());
    const sent = jest.spyOn(storage.redis, 'sendCommand');
    try {
      const subject = `ws:busy-${Date.now()}`;
      const remaining: number[] = [];
      for (let i = 0; i < BUSY_LIMIT; i++) {
        const state = (await limiter.hit(subject))!;
        if (state.blocked || state.limit !== BUSY_LIMIT || state.reset <= 0 || state.reset > 60) throw new Error(`hit ${i + 1}: ${JSON.stringify(state)}`);
        remaining.push(state.remaining);
      }
      expect(remaining).toEqual(Array.from({ length: BUSY_LIMIT }, (_, i) => BUSY_LIMIT - i - 1));
      const over = await limiter.hit(subject);
      expect([over!.blocked, over!.remaining, over!.retryAfter > 0]).toEqual([true, 0, true]);
      // 1, 1+1, 1+2, 1+4, … 1+64, then 1+100 at a time.
      expect(sent.mock.calls.length).toBeLessThan(120);
      const client = new Redis(t.config.redisUrl);
      try {
        const counted = await client.get(`{${t.config.queuePrefix}:rl:${subject}:workspace}:hits`);
        expect(Number(counted)).toBe(BUSY_LIMIT + 1);
      } finally {
        client.disconnect();
      }
    } finally {
      sent.mockRestore();
    }
  });

  it('keeps at most 10,000 keys’ reservations, and still counts every key beyond them', async () => {
    const limiter = t.app.get(RateLimiter);
    const storage = t.app.get<{ reservations: Map<string, unknown> }>(getStorageToken());
    const run = `many-${Date.now()}`;
    for (let start = 0; start < 10_050; start += 1_000) {
      const subjects = Array.from({ length: Math.min(1_000, 10_050 - start) }, (_, i) => `ip:${run}-${start + i}`);
      const states = await Promise.all(subjects.map((subject) => limiter.hit(subject)));
      expect(states.every((state) => state !== null && state.remaining === BUSY_LIMIT - 1 && !state.blocked)).toBe(true);
    }
    expect(storage.reservations.size).toBeLessThanOrEqual(10_000);
    const again = await limiter.hit(`ip:${run}-10049`);
    expect(again!.remaining).toBe(BUSY_LIMIT - 2);
  });

  it('shares the budget between processes: never more than the limit, at most 1 % each refused early', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(t.config)] }).compile();
    const second = apiApplication(moduleRef);
    await second.init();
    try {
      const limiters = [t.app.get(RateLimiter), second.get(RateLimiter)];
      const subject = `ws:shared-${Date.now()}`;
      let allowed = 0;
      const blocked = [false, false];
      for (let i = 0; !(blocked[0] && blocked[1]) && i < 2 * BUSY_LIMIT; i++) {
        const which = Math.floor(i / 7) % 2;
        const state = (await limiters[which].hit(subject))!;
        if (state.blocked) blocked[which] = true;
        else if (!blocked[which]) allowed += 1;
        else throw new Error('allowed again after a refusal within the window');
      }
      expect(blocked).toEqual([true, true]);
      expect(allowed).toBeLessThanOrEqual(BUSY_LIMIT);
      expect(allowed).toBeGreaterThanOrEqual(BUSY_LIMIT - 2 * MOST_RESERVED);
    } finally {
      await second.close();
    }
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

  it('sends the limiter script by its hash, and whole only when Redis has forgotten it', async () => {
    const ws = await t.newWorkspace();
    const storage = t.app.get<{ redis: Redis }>(getStorageToken());
    const sent = jest.spyOn(storage.redis, 'sendCommand');
    const client = new Redis(redis.url);
    const hit = async () => {
      sent.mockClear();
      const res = await t.http.get('/v1/kb/icps').set('Authorization', ws.auth);
      return { remaining: res.headers['x-ratelimit-remaining'], commands: sent.mock.calls.map(([command]) => command.name) };
    };
    try {
      await hit();
      expect(await hit()).toEqual({ remaining: '1', commands: ['evalsha'] });
      await client.script('FLUSH');
      expect(await hit()).toEqual({ remaining: '0', commands: ['evalsha', 'eval'] });
    } finally {
      sent.mockRestore();
      client.disconnect();
    }
  });

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
