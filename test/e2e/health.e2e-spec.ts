import { Logger } from '@nestjs/common';
import type { EventEmitter } from 'node:events';
import { PipelineProducer } from '../../src/modules/pipeline/pipeline.producer';
import type { WorkerHost } from '@nestjs/bullmq';
import { PipelineWorkers } from '../../src/modules/pipeline/infrastructure/processors';
import { PIPELINE_QUEUES } from '../../src/modules/pipeline/queues';
import { WEBHOOK_PROCESSOR } from '../../src/modules/webhooks/webhook-delivery.processor';
import { RedisServer, startAppWithPrivateRedis } from '../support/redis-server';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

/** How many times each client has failed again after a warning, before its warnings are counted. */
const FAILURES_AFTER_WARNING = 2;

/**
 * Runs `body` with the structured log's warnings recorded, stderr watched, and the `error` events
 * of `clients` (the queues or workers whose Redis connection fails) counted. `matching` waits (up
 * to 10 s) for `expected` warnings that pass a filter, then until every client has failed again
 * FAILURES_AFTER_WARNING times, each a failure that would have been warned of again had nothing
 * held it back, and lists the warnings that pass the filter.
 */
async function watchingLogs(
  clients: EventEmitter[],
  body: (logs: { matching(filter: RegExp, expected: number): Promise<string[]>; stderr: jest.SpyInstance }) => Promise<void>,
) {
  const stderr = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  const warn = jest.spyOn(Logger.prototype, 'warn');
  const warnings = (filter: RegExp) => warn.mock.calls.map(([message]) => String(message)).filter((message) => filter.test(message));
  const failures = clients.map(() => 0);
  const counters = clients.map((client, i) => {
    const count = () => (failures[i] += 1);
    client.on('error', count);
    return count;
  });
  try {
    await body({
      stderr,
      async matching(filter, expected) {
        await waitFor(
          () => warnings(filter).length,
          (n) => n >= expected,
          { timeoutMs: 10_000, what: `${expected} warnings matching ${filter}` },
        );
        const atWarning = [...failures];
        await waitFor(
          () => [...failures],
          (now) => now.every((n, i) => n >= atWarning[i] + FAILURES_AFTER_WARNING),
          { timeoutMs: 15_000, what: `every client to fail ${FAILURES_AFTER_WARNING} more times` },
        );
        return warnings(filter);
      },
    });
  } finally {
    clients.forEach((client, i) => client.off('error', counters[i]));
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
    const queues = PIPELINE_QUEUES.map((name) => t.app.get(PipelineProducer).queue(name));
    await watchingLogs(queues, async (logs) => {
      const ws = await t.newWorkspace();
      await redis.stop();
      await t.http.get('/v1/kb/icps').set('Authorization', ws.auth).expect(200);
      const ready = await t.http.get('/health/ready');
      expect(ready.status).toBe(200);
      expect(ready.body.redis).toEqual({
        status: 'down',
        rate_limit: 'off (failing open)',
        error: expect.stringContaining('Redis is unavailable'),
      });

      // The log says so, once for all the queues although each one's connection keeps failing,
      // and nothing goes to stderr outside the structured log.
      expect(await logs.matching(/^Redis for the pipeline queues: /, 1)).toHaveLength(1);
      expect(logs.stderr).not.toHaveBeenCalled();
    });
  });
});

describe('pipeline workers when Redis goes away', () => {
  let t: TestApp;
  let redis: RedisServer;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ t, redis, close } = await startAppWithPrivateRedis({ RUN_WORKERS: 'true' }));
  });
  afterAll(() => close());

  it('warn in the structured log, once per worker, and never on stderr', async () => {
    const pipelineWorkers = t.app
      .get(PipelineWorkers)
      .all()
      .map((entry) => entry.worker);
    const workers = [...pipelineWorkers, t.app.get<WorkerHost>(WEBHOOK_PROCESSOR).worker];
    await watchingLogs(workers, async (logs) => {
      await redis.stop();
      const byWorker = (await logs.matching(/ worker: /, 5)).map((message) => message.split(':', 1)[0]).sort();
      expect(byWorker).toEqual([
        'The enrich worker',
        'The evaluate worker',
        'The match worker',
        'The resolve worker',
        'The webhook worker',
      ]);
      expect(logs.stderr).not.toHaveBeenCalled();
    });
  });
});
