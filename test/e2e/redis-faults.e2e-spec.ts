import { PipelineSweeper } from '../../src/modules/pipeline/infrastructure/sweeper';
import { createKb, uniq, waitForActivities, websiteActivity } from '../support/pipeline';
import { RedisServer, startAppWithPrivateRedis } from '../support/redis-server';
import { TestApp, TestWorkspace } from '../support/test-app';

/** How long any request may take while Redis is away (the bound is 1 s; the rest is slack). */
const ANSWER_WITHIN_MS = 2_000;

async function timed<T>(request: () => PromiseLike<T>): Promise<{ res: T; ms: number }> {
  const started = Date.now();
  const res = await request();
  return { res, ms: Date.now() - started };
}

describe('requests while Redis is away', () => {
  let t: TestApp;
  let redis: RedisServer;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ t, redis, close } = await startAppWithPrivateRedis({ RUN_WORKERS: 'true' }));
  });
  afterAll(() => close());
  // Each test starts with Redis up and every connection of the app back on it.
  afterEach(async () => {
    await redis.start();
    await pollUntil(async () => (await t.http.get('/health/ready')).body.redis?.status === 'up');
  });

  it('answers intake 202 at once, and every stored activity is processed exactly once after Redis returns', async () => {
    const ws = await t.newWorkspace();
    const page = `example-${uniq()}.com/pricing`;
    await createKb(t, ws, 'target-pages', { name: 'Pricing', short_name: `p${uniq()}`, url: page, description: 'Pricing' });
    await redis.stop();

    // No external_id: nothing but the answer tells the client that these were taken.
    const activities = Array.from({ length: 5 }, () => websiteActivity('visited_page', `https://${page}`));
    const key = `batch-${uniq()}`;
    const send = () => t.http.post('/ingest/v1/activities').set('Authorization', ws.auth).set('Idempotency-Key', key).send({ activities });
    const { res, ms } = await timed(send);
    expect(res.status).toBe(202);
    expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
    const ids = (res.body.data as Array<{ id: string; status: string }>).map((entry) => {
      expect(entry.status).toBe('queued');
      return entry.id;
    });
    // A client that gave up waiting retries with the same key: the stored answer, nothing new.
    const retried = await send();
    expect(retried.status).toBe(202);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(retried.body).toEqual(res.body);

    await redis.start();
    // The sweeper queues what Redis did not take (it runs every minute; here at once).
    await pollUntil(async () => (await t.app.get(PipelineSweeper).sweep(0)) >= 0 && (await processed(t, ws, ids)));
    const statuses = await waitForActivities(t, ws, ids);
    expect(statuses.map((s) => s.status)).toEqual(Array(5).fill('processed'));

    // Exactly once: one Signal per activity, one Buyer per person with one Signal each.
    const signals = await t.http.get('/v1/signals?limit=100').set('Authorization', ws.auth);
    expect(signals.body.data).toHaveLength(5);
    const buyers = await t.http.get('/v1/buyers?limit=100').set('Authorization', ws.auth);
    expect(buyers.body.data).toHaveLength(5);
    for (const buyer of buyers.body.data) expect(buyer.signal_count.total).toBe(1);
  });

  it('answers every other route within the bound, with its documented outcome', async () => {
    const ws = await t.newWorkspace();
    const icp = await createKb(t, ws, 'icps', { name: 'ICP', short_name: `i${uniq()}`, description: 'SaaS companies' });
    await redis.stop();

    const expectations: Array<[string, () => PromiseLike<{ status: number; body: any }>, number]> = [
      // The rate limit fails open: reads and writes are served.
      ['KB list', () => t.http.get('/v1/kb/icps').set('Authorization', ws.auth), 200],
      ['KB create', () => t.http.post('/v1/kb/topics').set('Authorization', ws.auth).send(topic()), 201],
      ['KB update', () => t.http.patch(`/v1/kb/icps/${icp.id}`).set('Authorization', ws.auth).send({ name: 'Renamed' }), 200],
      ['Buyers', () => t.http.get('/v1/buyers').set('Authorization', ws.auth), 200],
      ['Signals', () => t.http.get('/v1/signals').set('Authorization', ws.auth), 200],
      ['Events', () => t.http.get('/v1/events').set('Authorization', ws.auth), 200],
      ['Webhook endpoints', () => t.http.get('/v1/webhook-endpoints').set('Authorization', ws.auth), 200],
      // Readiness stays up (the API serves) and says Redis is down; metrics skip the queue gauges.
      ['readiness', () => t.http.get('/health/ready'), 200],
      ['metrics', () => t.http.get('/metrics'), 200],
    ];
    for (const [what, request, status] of expectations) {
      const { res, ms } = await timed(request);
      expect({ what, status: res.status }).toEqual({ what, status });
      expect({ what, fast: ms < ANSWER_WITHIN_MS }).toEqual({ what, fast: true });
    }

    // A redelivery can only be done by queuing it: 503 with Retry-After, at once.
    const events = await t.http.get('/v1/events?limit=1').set('Authorization', ws.auth);
    const { res, ms } = await timed(() => t.http.post(`/v1/events/${events.body.data[0].id}/redeliver`).set('Authorization', ws.auth));
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('service_unavailable');
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
  });
});

function topic(): Record<string, string> {
  return { name: 'Topic', short_name: `t${uniq()}`, description: 'A topic' };
}

async function processed(t: TestApp, ws: TestWorkspace, ids: string[]): Promise<boolean> {
  for (const id of ids) {
    const res = await t.http.get(`/ingest/v1/activities/${id}`).set('Authorization', ws.auth);
    if (res.body.status === 'queued') return false;
  }
  return true;
}

async function pollUntil(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Not done within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
