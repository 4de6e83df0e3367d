import { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { PassThrough } from 'node:stream';
import request from 'supertest';
import { AppModule } from '../../src/app.module';
import { AppConfig } from '../../src/config/config';
import { dropDatabase, prepareDatabase } from '../../src/database/bootstrap';
import { PipelineProducer } from '../../src/modules/pipeline/pipeline.producer';
import { PIPELINE_QUEUES } from '../../src/modules/pipeline/queues';
import { ingestAndWait, targetPage, uniq, websiteActivity } from '../support/pipeline';
import { RedisServer, startAppWithPrivateRedis } from '../support/redis-server';
import { apiApplication, deleteQueueKeys, startTestApp, testConfig, TestApp } from '../support/test-app';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a text exposition, comments left out. */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`Not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[name] = value;
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the sample with exactly these labels, or undefined when there is none. */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels);
  const found = samples.find(
    (s) => s.name === name && Object.keys(s.labels).length === wanted.length && wanted.every(([k, v]) => s.labels[k] === v),
  );
  return found?.value;
}

async function until<T>(probe: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await probe();
    if (result !== undefined) return result;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// The structured logger is process-wide (the first application's settings win), so the app that
// logs to a readable stream is built first, before any other in this file.
describe('metrics scrapes in the request log', () => {
  let config: AppConfig;
  let app: INestApplication;
  const lines: string[] = [];

  beforeAll(async () => {
    config = testConfig({ LOG_LEVEL: 'info' });
    await prepareDatabase(config.databaseUrl);
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(config, stream)] }).compile();
    app = apiApplication(moduleRef);
    await app.init();
  });
  afterAll(async () => {
    await app.close();
    await dropDatabase(config.databaseUrl);
    await deleteQueueKeys(config);
  });

  it('are not logged, while other requests are', async () => {
    const http = request(app.getHttpServer());
    const scrape = await http.get('/metrics');
    expect(scrape.status).toBe(200);
    const withQuery = await http.get('/metrics?name[]=x');
    expect(withQuery.status).toBe(200);
    const other = await http.get('/v1/kb/icps');
    expect(other.status).toBe(401);
    const ids = (entry: Record<string, any>) => entry.req?.id as string | undefined;
    await until(
      () => (lines.some((line) => ids(JSON.parse(line)) === other.headers['x-request-id']) ? true : undefined),
      'the log line of the unauthenticated request',
    );
    const logged = lines.map((line) => JSON.parse(line) as Record<string, any>);
    expect(logged.filter((entry) => entry.req?.url?.startsWith('/metrics'))).toEqual([]);
    expect(logged.map(ids)).not.toContain(scrape.headers['x-request-id']);
  });
});

describe('metrics', () => {
  let t: TestApp;
  const scrape = async (app: TestApp = t): Promise<Sample[]> => {
    const res = await app.http.get('/metrics');
    expect(res.status).toBe(200);
    return parse(res.text);
  };

  beforeAll(async () => {
    t = await startTestApp({ RUN_WORKERS: 'true' });
  });
  afterAll(() => t.close());

  it('answers in the Prometheus text format without a key, with the process metrics prefixed bi_', async () => {
    const res = await t.http.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const samples = parse(res.text);
    expect(value(samples, 'bi_process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(value(samples, 'bi_process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(value(samples, 'bi_nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(samples.filter((s) => !s.name.startsWith('bi_')).map((s) => s.name)).toEqual([]);
    expect(res.text).toContain('# TYPE bi_http_requests_total counter');
    expect(res.text).toContain('# TYPE bi_http_request_duration_seconds histogram');
  });

  it('counts requests by method, route pattern and status, never by the URL with its ids', async () => {
    const ws = await t.newWorkspace();
    const before = await scrape();
    const page = await targetPage(t, ws, `https://${uniq()}.example.com/pricing`);
    expect(page.id).toMatch(/^tpg_[0-9]+$/);
    await t.http.get(`/v1/kb/target-pages/${page.id}`).set('Authorization', ws.auth).expect(200);
    await t.http.get(`/v1/kb/target-pages/${page.id}`).set('Authorization', ws.auth).expect(200);
    const missing = await t.http.get('/v1/kb/target-pages/tpg_999999999').set('Authorization', ws.auth);
    expect(missing.status).toBe(404);
    await t.http.get('/v1/nothing/here/12345').set('Authorization', ws.auth).expect(404);
    await t.http.get('/v1/kb/icps').expect(401);
    const after = await scrape();

    const delta = (name: string, labels: Record<string, string>) => (value(after, name, labels) ?? 0) - (value(before, name, labels) ?? 0);
    const expected: Array<[Record<string, string>, number]> = [
      [{ method: 'POST', route: '/v1/kb/target-pages', status: '201' }, 1],
      [{ method: 'GET', route: '/v1/kb/target-pages/:id', status: '200' }, 2],
      [{ method: 'GET', route: '/v1/kb/target-pages/:id', status: String(missing.status) }, 1],
      [{ method: 'GET', route: 'unmatched', status: '404' }, 1],
      [{ method: 'GET', route: 'unmatched', status: '401' }, 1],
    ];
    for (const [labels, count] of expected) {
      expect({ labels, count: delta('bi_http_requests_total', labels) }).toEqual({ labels, count });
      expect({ labels, count: delta('bi_http_request_duration_seconds_count', labels) }).toEqual({ labels, count });
      expect(value(after, 'bi_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(
        value(after, 'bi_http_request_duration_seconds_count', labels),
      );
    }
    // The scrape before this one is counted too, under its own route.
    expect(value(after, 'bi_http_requests_total', { method: 'GET', route: '/metrics', status: '200' })).toBeGreaterThanOrEqual(1);

    const routes = new Set(after.filter((s) => s.name === 'bi_http_requests_total').map((s) => s.labels.route));
    for (const route of routes) {
      expect(route).not.toContain(page.id.slice('tpg_'.length));
      expect(route).not.toMatch(/tpg_|12345|999999999|nothing/);
      expect(route === 'unmatched' || /^\/[a-z0-9/:_-]*$/.test(route)).toBe(true);
    }
  });

  it('reports the jobs of each pipeline queue by state', async () => {
    const samples = await scrape();
    for (const queue of PIPELINE_QUEUES) {
      for (const state of ['waiting', 'active', 'delayed', 'failed', 'completed']) {
        expect({ queue, state, value: value(samples, 'bi_queue_jobs', { queue, state }) }).toEqual({
          queue,
          state,
          value: expect.any(Number),
        });
      }
    }
    expect(samples.filter((s) => s.name === 'bi_queue_jobs')).toHaveLength(PIPELINE_QUEUES.length * 5);
  });

  it('counts the completed jobs of every pipeline step once an activity has gone through', async () => {
    const ws = await t.newWorkspace();
    const host = `${uniq()}.example.com`;
    await targetPage(t, ws, `https://${host}/pricing`);
    const before = await scrape();
    const [status] = await ingestAndWait(t, ws, [websiteActivity('visited_page', `https://${host}/pricing`)]);
    expect(status.status).toBe('processed');

    // The last step marks the activity processed just before its job counts as completed.
    const after = await until(async () => {
      const samples = await scrape();
      const done = PIPELINE_QUEUES.every(
        (queue) =>
          (value(samples, 'bi_pipeline_jobs_total', { queue, outcome: 'completed' }) ?? 0) -
            (value(before, 'bi_pipeline_jobs_total', { queue, outcome: 'completed' }) ?? 0) >=
          1,
      );
      return done ? samples : undefined;
    }, 'a completed job on every pipeline queue');
    // Counted from the scrape before, so that jobs other tests ran (or failed) do not matter.
    const delta = (queue: string, outcome: string) =>
      (value(after, 'bi_pipeline_jobs_total', { queue, outcome }) ?? 0) -
      (value(before, 'bi_pipeline_jobs_total', { queue, outcome }) ?? 0);
    for (const queue of PIPELINE_QUEUES) {
      expect({ queue, completed: delta(queue, 'completed') }).toEqual({ queue, completed: 1 });
      expect({ queue, failed: delta(queue, 'failed') }).toEqual({ queue, failed: 0 });
      expect(value(after, 'bi_queue_jobs', { queue, state: 'completed' })).toBeGreaterThanOrEqual(1);
    }
  });

  it('counts a job that fails as failed for its step', async () => {
    const failed = (samples: Sample[]) => value(samples, 'bi_pipeline_jobs_total', { queue: 'enrich', outcome: 'failed' }) ?? 0;
    const kept = (samples: Sample[]) => value(samples, 'bi_queue_jobs', { queue: 'enrich', state: 'failed' }) ?? 0;
    const before = await scrape();
    await t.app
      .get(PipelineProducer)
      .queue('enrich')
      .add('enrich', { malformed: true }, { attempts: 1, jobId: `bad-${uniq()}` });
    const samples = await until(async () => {
      const found = await scrape();
      return failed(found) > failed(before) ? found : undefined;
    }, 'a failed enrich job');
    expect(failed(samples) - failed(before)).toBe(1);
    await until(async () => (kept(await scrape()) > kept(before) ? true : undefined), 'the failed job in the enrich queue counts');
  });

  it('reports the database pool: total, idle and waiting connections', async () => {
    const ws = await t.newWorkspace();
    await t.http.get('/v1/kb/icps').set('Authorization', ws.auth).expect(200);
    const samples = await scrape();
    const total = value(samples, 'bi_db_pool_connections', { state: 'total' });
    const idle = value(samples, 'bi_db_pool_connections', { state: 'idle' });
    const waiting = value(samples, 'bi_db_pool_connections', { state: 'waiting' });
    expect(total).toBeGreaterThanOrEqual(1);
    expect(total).toBeLessThanOrEqual(20);
    expect(idle).toBeGreaterThanOrEqual(0);
    expect(idle).toBeLessThanOrEqual(total!);
    expect(waiting).toBe(0);
  });

  it('carries no keys and no connection URLs', async () => {
    const ws = await t.newWorkspace();
    await t.http.get('/v1/kb/icps').set('Authorization', ws.auth).expect(200);
    await t.http.get(`/v1/kb/icps?api_key=${ws.api_key}`).expect(401);
    const res = await t.http.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.text).toContain('bi_http_requests_total');
    expect(res.text).not.toMatch(/svc_live_|postgres:\/\/|redis:\/\//);
    expect(res.text).not.toContain(ws.api_key.slice('svc_live_'.length));
    expect(res.text).not.toContain(new URL(t.config.databaseUrl).pathname.slice(1));
  });

  it('keeps one registry per application: another instance in the same process counts apart', async () => {
    const before = await scrape();
    const other = await startTestApp();
    try {
      for (let i = 0; i < 3; i++) await other.http.get('/health/live').expect(200);
      const theirs = await scrape(other);
      expect(value(theirs, 'bi_http_requests_total', { method: 'GET', route: '/health/live', status: '200' })).toBe(3);
      expect(value(theirs, 'bi_process_cpu_user_seconds_total')).toBeGreaterThan(0);
    } finally {
      await other.close();
    }
    const ours = await scrape();
    const live = { method: 'GET', route: '/health/live', status: '200' };
    expect(value(ours, 'bi_http_requests_total', live) ?? 0).toBe(value(before, 'bi_http_requests_total', live) ?? 0);
  });
});

describe('metrics when Redis is away', () => {
  let t: TestApp;
  let redis: RedisServer;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ t, redis, close } = await startAppWithPrivateRedis());
  });
  afterAll(() => close());

  it('still answers, promptly, without queue counts', async () => {
    const up = parse((await t.http.get('/metrics').expect(200)).text);
    expect(up.filter((s) => s.name === 'bi_queue_jobs')).toHaveLength(PIPELINE_QUEUES.length * 5);
    await redis.stop();
    const started = Date.now();
    const res = await t.http.get('/metrics');
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(3_000);
    const samples = parse(res.text);
    expect(samples.filter((s) => s.name === 'bi_queue_jobs')).toEqual([]);
    expect(value(samples, 'bi_http_requests_total', { method: 'GET', route: '/metrics', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(value(samples, 'bi_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(0);
  });
});
