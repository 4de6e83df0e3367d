import { DataSource } from 'typeorm';
import { dropDatabase } from '../../src/database/bootstrap';
import { ActivitiesRepository } from '../../src/modules/activities/activities.repository';
import { validateActivityBatch } from '../../src/modules/activities/activity-input';
import { PipelineSweeper } from '../../src/modules/pipeline/infrastructure/sweeper';
import { QueueConnection } from '../../src/modules/pipeline/queue-connection';
import { PIPELINE_QUEUES } from '../../src/modules/pipeline/queues';
import { WorkspaceContext } from '../../src/shared/application/workspace-context';
import { formatId, ID_PREFIXES, IdGenerator } from '../../src/shared/domain/ids';
import { ID_GENERATOR } from '../../src/shared/shared.module';
import { activityStatus, ingestAndWait, listSignals, PIPELINE_APP_ENV, targetPage, uniq, websiteActivity } from '../support/pipeline';
import { RedisCluster } from '../support/redis-cluster';
import { startTestApp, TestApp, testConfig } from '../support/test-app';
import { waitFor } from '../support/wait';
import { internalId, killAllChildren, startWorker, stopWorker } from '../support/worker-process';

jest.setTimeout(60_000);

/**
 * The service on a real three-node Redis Cluster (REDIS_CLUSTER_NODES): the pipeline, the sweeper,
 * metrics, readiness and an exact rate limit, with keys on every node; and what a setup that
 * speaks to a cluster node as one server gets instead of quiet failures.
 */
const cluster = new RedisCluster();
let t: TestApp;

beforeAll(async () => {
  await cluster.start();
  t = await startTestApp({ ...PIPELINE_APP_ENV, REDIS_CLUSTER_NODES: cluster.nodes });
});

afterAll(async () => {
  await t?.close();
  await cluster.stop();
});

async function pricingWorkspace() {
  const ws = await t.newWorkspace();
  const url = `https://cluster-${uniq()}.example.com/pricing`;
  await targetPage(t, ws, url);
  return { ws, url };
}

describe('on a Redis Cluster', () => {
  it('hash-tags the queue prefix, so that each queue lives in one slot', () => {
    expect(t.config.queuePrefix).toMatch(/^\{test-[^{}]+\}$/);
  });

  it('turns ingested activities into Signals through the queues on the cluster', async () => {
    const { ws, url } = await pricingWorkspace();
    const statuses = await ingestAndWait(t, ws, [
      websiteActivity('visited_page', url),
      websiteActivity('visited_page', `${url}?utm_source=cluster`),
    ]);
    expect(statuses.map((s) => s.status)).toEqual(['processed', 'processed']);
    expect(await listSignals(t, ws)).toHaveLength(2);
    const keys = await cluster.keysByNode(`${t.config.queuePrefix}:resolve:*`);
    expect([...keys.values()].flat().length).toBeGreaterThan(0);
  });

  it('sweeps a stored activity that never reached the queues', async () => {
    const { ws, url } = await pricingWorkspace();
    const workspaceId = internalId(ws.workspace_id);
    const id = t.app.get<IdGenerator>(ID_GENERATOR).next();
    const [input] = validateActivityBatch({ activities: [websiteActivity('visited_page', url)] });
    await t.app.get(ActivitiesRepository).insertBatch(WorkspaceContext.forPipeline(workspaceId), [{ id, input }], new Date());

    expect(await t.app.get(PipelineSweeper).sweep(0)).toBeGreaterThanOrEqual(1);
    const done = await waitFor(
      () => activityStatus(t, ws, formatId(ID_PREFIXES.activity, id)),
      (s) => s.status !== 'queued',
      { what: 'the swept activity to be processed' },
    );
    expect(done).toMatchObject({ status: 'processed', signal_id: expect.stringMatching(/^sig_\d{19}$/) });
  });

  it('shows the queue gauges in /metrics', async () => {
    const res = await t.http.get('/metrics').expect(200);
    for (const queue of PIPELINE_QUEUES) {
      for (const state of ['waiting', 'active', 'delayed', 'failed', 'completed']) {
        expect(res.text).toMatch(new RegExp(`^bi_queue_jobs\\{queue="${queue}",state="${state}"\\} \\d+$`, 'm'));
      }
    }
  });

  it('is ready, with Redis up and rate limiting on', async () => {
    const ready = await t.http.get('/health/ready').expect(200);
    expect(ready.body.redis).toEqual({ status: 'up', rate_limit: 'on' });
  });
});

describe('a worker process on a Redis Cluster (dist/worker.js: build first)', () => {
  let api: TestApp;

  beforeAll(async () => {
    api = await startTestApp({ REDIS_CLUSTER_NODES: cluster.nodes });
  });

  afterAll(async () => {
    await killAllChildren();
    await api?.close();
  });

  it('processes what the API queued, and stops cleanly on SIGTERM', async () => {
    const worker = startWorker(api.config);
    const ws = await api.newWorkspace();
    const url = `https://cluster-${uniq()}.example.com/pricing`;
    await targetPage(api, ws, url);
    const [status] = await ingestAndWait(api, ws, [websiteActivity('visited_page', url)], 20_000);
    expect(status.status).toBe('processed');
    expect(await stopWorker(worker, 'SIGTERM')).toEqual({ code: 0, signal: null });
    expect(worker.output()).not.toMatch(/CROSSSLOT|MOVED/);
  });
});

describe('the rate limit on a Redis Cluster', () => {
  let limited: TestApp;

  beforeAll(async () => {
    limited = await startTestApp({ REDIS_CLUSTER_NODES: cluster.nodes, RATE_LIMIT_LIMIT: '3', RATE_LIMIT_TTL_S: '60' });
  });

  afterAll(() => limited?.close());

  it('is exact per workspace, and the workspaces counters spread over the nodes', async () => {
    const workspaces = await Promise.all(Array.from({ length: 12 }, () => limited.newWorkspace()));
    const [first] = workspaces;
    const statuses = await Promise.all(
      Array.from({ length: 4 }, () =>
        limited.http
          .get('/v1/kb/icps')
          .set('Authorization', first.auth)
          .then((res) => res.status),
      ),
    );
    expect(statuses.sort()).toEqual([200, 200, 200, 429]);

    for (const ws of workspaces.slice(1)) await limited.http.get('/v1/kb/icps').set('Authorization', ws.auth).expect(200);
    const prefix = limited.config.queuePrefix.replace(/[{}]/g, '');
    const keys = await cluster.keysByNode(`${prefix}:rl:*`);
    const nodesWithKeys = [...keys.values()].filter((found) => found.length > 0);
    expect(nodesWithKeys.length).toBeGreaterThan(1);
    expect([...keys.values()].flat()).toContain(`${prefix}:rl:{ws:${internalId(first.workspace_id)}}:default:hits`);
  });
});

describe('a Redis Cluster node named as one server', () => {
  it('stops start-up with a message that says what to set', async () => {
    const config = testConfig({ REDIS_URL: `redis://127.0.0.1:${cluster.ports[0]}` });
    await expect(QueueConnection.open(config)).rejects.toThrow(/REDIS_URL points at a Redis Cluster node.*REDIS_CLUSTER_NODES/);
  });

  it('stops a worker process at start-up, saying what to set (dist/worker.js: build first)', async () => {
    const config = testConfig({ REDIS_URL: `redis://127.0.0.1:${cluster.ports[0]}` });
    try {
      const worker = startWorker(config);
      expect(await worker.exited).toEqual({ code: 1, signal: null });
      expect(worker.output()).toMatch(/REDIS_URL points at a Redis Cluster node.*set REDIS_CLUSTER_NODES/);
    } finally {
      // The worker made its database before it stopped.
      await dropDatabase(config.databaseUrl);
    }
  });

  describe('found only after start-up (Redis was not answering then)', () => {
    const lone = new RedisCluster();
    let misconfigured: TestApp;

    beforeAll(async () => {
      await lone.reservePorts(1);
      misconfigured = await startTestApp({ REDIS_URL: `redis://127.0.0.1:${lone.ports[0]}` });
      await lone.start(1);
    });

    afterAll(async () => {
      await misconfigured?.close();
      await lone.stop();
    });

    it('is not ready, with the reason; ingest answers 503 and stores nothing instead of claiming queued', async () => {
      const ready = await waitFor(
        () => misconfigured.http.get('/health/ready'),
        (res) => res.status === 503,
        { what: 'readiness to fail on the cluster node' },
      );
      expect(ready.body).toMatchObject({
        status: 'error',
        info: { database: { status: 'up' }, migrations: { status: 'up' } },
        redis: {
          status: 'misconfigured',
          error: expect.stringMatching(/^The pipeline queues cannot work: REDIS_URL points at a Redis Cluster node .*REDIS_CLUSTER_NODES/),
        },
      });

      const ws = await misconfigured.newWorkspace();
      const res = await misconfigured.http
        .post('/ingest/v1/activities')
        .set('Authorization', ws.auth)
        .send({ activities: [websiteActivity('visited_page', 'https://example.com/pricing')] });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('service_unavailable');
      const stored = await misconfigured.app
        .get(DataSource)
        .query('SELECT count(*)::int AS n FROM activities WHERE workspace_id = $1', [internalId(ws.workspace_id)]);
      expect(stored).toEqual([{ n: 0 }]);
    });
  });
});
