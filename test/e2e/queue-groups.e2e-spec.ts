import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { ActivitiesRepository } from '../../src/modules/activities/activities.repository';
import { validateActivityBatch } from '../../src/modules/activities/activity-input';
import { PipelineSweeper } from '../../src/modules/pipeline/infrastructure/sweeper';
import { PipelineProducer } from '../../src/modules/pipeline/pipeline.producer';
import { queueGroupOf, queueGroupPrefixes } from '../../src/modules/pipeline/queue-groups';
import { PIPELINE_QUEUES } from '../../src/modules/pipeline/queues';
import { WorkspaceContext } from '../../src/shared/application/workspace-context';
import { formatId, ID_PREFIXES, IdGenerator } from '../../src/shared/domain/ids';
import { ID_GENERATOR } from '../../src/shared/shared.module';
import {
  activityStatus,
  ingest,
  ingestAndWait,
  listSignals,
  PIPELINE_APP_ENV,
  targetPage,
  uniq,
  websiteActivity,
} from '../support/pipeline';
import { RedisCluster } from '../support/redis-cluster';
import { startTestApp, TestApp, TestWorkspace } from '../support/test-app';
import { waitFor } from '../support/wait';
import { internalId, killAllChildren, startWorker, stopWorker } from '../support/worker-process';

jest.setTimeout(60_000);

/**
 * The pipeline's queues spread over queue groups (QUEUE_GROUPS, ADR 0054): on a three-node Redis
 * Cluster the groups' keys are on different masters and activities of workspaces in every group
 * become Signals; on one Redis the same works; and an activity whose job is in a group no longer
 * served after QUEUE_GROUPS went down is swept into its workspace's new group.
 */
const GROUPS = 3;

interface GroupWorkspace {
  ws: TestWorkspace;
  url: string;
  group: number;
}

/** Workspaces with a target page, at least one in each of `groups` groups, group by group. */
async function workspacesInEveryGroup(t: TestApp, groups = GROUPS): Promise<GroupWorkspace[]> {
  const found = new Map<number, GroupWorkspace>();
  for (let tries = 0; found.size < groups; tries += 1) {
    if (tries >= 100) throw new Error(`No workspace in every one of ${groups} groups after ${tries} tries`);
    const ws = await t.newWorkspace();
    const group = queueGroupOf(internalId(ws.workspace_id), groups);
    if (found.has(group)) continue;
    const url = `https://groups-${uniq()}.example.com/pricing`;
    await targetPage(t, ws, url);
    found.set(group, { ws, url, group });
  }
  return [...found.values()].sort((a, b) => a.group - b.group);
}

/** The groups whose `queue` holds the job of the activity (`act_…`, its first pass). */
async function groupsHolding(t: TestApp, queue: (typeof PIPELINE_QUEUES)[number], activityId: string): Promise<number[]> {
  const producer = t.app.get(PipelineProducer);
  const jobs = await Promise.all(Array.from({ length: producer.groups }, (_, group) => producer.queue(queue, group).getJob(activityId)));
  return jobs.flatMap((job, group) => (job ? [group] : []));
}

describe('queue groups on a Redis Cluster', () => {
  const cluster = new RedisCluster();
  let t: TestApp;
  let prefix: string;

  beforeAll(async () => {
    await cluster.start();
    // Which master a hash tag is on follows from its hash. The prefix is one whose three groups'
    // tags are on three different masters (as an operator checks with CLUSTER KEYSLOT), so that
    // the test shows each group's keys on its own master.
    for (let tries = 0; ; tries += 1) {
      if (tries >= 200) throw new Error('No prefix found whose groups are on three masters');
      const candidate = `test-${process.pid}-${randomBytes(4).toString('hex')}`;
      const nodes = await Promise.all(queueGroupPrefixes(candidate, GROUPS).map((p) => cluster.nodeOfKey(`${p}:resolve:id`)));
      if (new Set(nodes).size === GROUPS) {
        prefix = candidate;
        break;
      }
    }
    t = await startTestApp({ ...PIPELINE_APP_ENV, REDIS_CLUSTER_NODES: cluster.nodes, QUEUE_GROUPS: String(GROUPS), QUEUE_PREFIX: prefix });
  });

  afterAll(async () => {
    await killAllChildren();
    await t?.close();
    await cluster.stop();
  });

  it('names each group by its own hash tag', () => {
    expect(t.config.queuePrefix).toBe(`{${prefix}}`);
    expect(queueGroupPrefixes(t.config.queuePrefix, t.config.queueGroups)).toEqual([0, 1, 2].map((g) => `{${prefix}-${g}}`));
  });

  it("turns activities of workspaces in every group into Signals, each on its workspace's group, with queue keys on every master", async () => {
    const workspaces = await workspacesInEveryGroup(t);
    const results = await Promise.all(
      workspaces.map(async ({ ws, url, group }) => ({
        ws,
        group,
        statuses: await ingestAndWait(t, ws, [
          websiteActivity('visited_page', url),
          websiteActivity('visited_page', `${url}?utm_source=groups`),
        ]),
      })),
    );
    for (const { ws, group, statuses } of results) {
      expect(statuses.map((s) => s.status)).toEqual(['processed', 'processed']);
      expect(await listSignals(t, ws)).toHaveLength(2);
      // Every step of the activity ran in its workspace's group, and in no other.
      for (const queue of PIPELINE_QUEUES) expect(await groupsHolding(t, queue, statuses[0].id)).toEqual([group]);
    }

    const nodesWithKeys = new Set<number>();
    for (const groupPrefix of queueGroupPrefixes(t.config.queuePrefix, GROUPS)) {
      const byNode = await cluster.keysByNode(`${groupPrefix}:*`);
      const holding = [...byNode].filter(([, keys]) => keys.length > 0).map(([port]) => port);
      // All of a group's keys are on the master of its tag.
      expect(holding).toEqual([await cluster.nodeOfKey(`${groupPrefix}:x`)]);
      nodesWithKeys.add(holding[0]);
    }
    expect(nodesWithKeys.size).toBeGreaterThan(1);
    expect(nodesWithKeys.size).toBe(GROUPS);
  });

  it('sweeps a stored activity that never reached the queues onto its workspace group', async () => {
    const [, , { ws, url, group }] = await workspacesInEveryGroup(t);
    const id = t.app.get<IdGenerator>(ID_GENERATOR).next();
    const [input] = validateActivityBatch({ activities: [websiteActivity('visited_page', url)] });
    await t.app
      .get(ActivitiesRepository)
      .insertBatch(WorkspaceContext.forPipeline(internalId(ws.workspace_id)), [{ id, input }], new Date());

    expect(await t.app.get(PipelineSweeper).sweep(0)).toBeGreaterThanOrEqual(1);
    const publicId = formatId(ID_PREFIXES.activity, id);
    const done = await waitFor(
      () => activityStatus(t, ws, publicId),
      (s) => s.status !== 'queued',
      { what: 'the swept activity to be processed' },
    );
    expect(done).toMatchObject({ status: 'processed', signal_id: expect.stringMatching(/^sig_\d{19}$/) });
    const producer = t.app.get(PipelineProducer);
    const swept = await producer.queue('match', group).getJobs(['completed']);
    expect(swept.some((job) => job.data.activityId === String(id))).toBe(true);
  });

  it('shows the queue gauges summed over the groups, and per group, in /metrics', async () => {
    const res = await t.http.get('/metrics').expect(200);
    for (const queue of PIPELINE_QUEUES) {
      for (const state of ['waiting', 'active', 'delayed', 'failed', 'completed']) {
        expect(res.text).toMatch(new RegExp(`^bi_queue_jobs\\{queue="${queue}",state="${state}"\\} \\d+$`, 'm'));
        for (let group = 0; group < GROUPS; group += 1) {
          expect(res.text).toMatch(new RegExp(`^bi_queue_group_jobs\\{group="${group}",queue="${queue}",state="${state}"\\} \\d+$`, 'm'));
        }
      }
    }
    const value = (pattern: RegExp) => [...res.text.matchAll(pattern)].reduce((sum, match) => sum + Number(match[1]), 0);
    const total = value(/^bi_queue_jobs\{queue="match",state="completed"\} (\d+)$/gm);
    expect(total).toBeGreaterThan(0);
    expect(value(/^bi_queue_group_jobs\{group="\d+",queue="match",state="completed"\} (\d+)$/gm)).toBe(total);
  });

  it('is ready, having read every group', async () => {
    const ready = await t.http.get('/health/ready').expect(200);
    expect(ready.body.redis).toEqual({ status: 'up', rate_limit: 'on' });
  });

  describe('a worker process (dist/worker.js: build first)', () => {
    let api: TestApp;

    beforeAll(async () => {
      api = await startTestApp({ REDIS_CLUSTER_NODES: cluster.nodes, QUEUE_GROUPS: String(GROUPS) });
    });

    afterAll(async () => {
      await killAllChildren();
      await api?.close();
    });

    it('serves every group, and stops cleanly on SIGTERM', async () => {
      const worker = startWorker(api.config);
      const workspaces = await workspacesInEveryGroup(api);
      const statuses = await Promise.all(
        workspaces.map(({ ws, url }) => ingestAndWait(api, ws, [websiteActivity('visited_page', url)], 20_000)),
      );
      expect(statuses.flat().map((s) => s.status)).toEqual(['processed', 'processed', 'processed']);
      expect(await stopWorker(worker, 'SIGTERM')).toEqual({ code: 0, signal: null });
      expect(worker.output()).not.toMatch(/CROSSSLOT|MOVED/);
    });
  });
});

describe('queue groups on one Redis', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ ...PIPELINE_APP_ENV, QUEUE_GROUPS: String(GROUPS) });
  });

  afterAll(() => t?.close());

  it('turn activities of workspaces in every group into Signals, with every group in its own keys', async () => {
    const workspaces = await workspacesInEveryGroup(t);
    const statuses = await Promise.all(workspaces.map(({ ws, url }) => ingestAndWait(t, ws, [websiteActivity('visited_page', url)])));
    expect(statuses.flat().map((s) => s.status)).toEqual(['processed', 'processed', 'processed']);
    for (const { ws } of workspaces) expect(await listSignals(t, ws)).toHaveLength(1);
    for (const [i, { group }] of workspaces.entries()) expect(await groupsHolding(t, 'match', statuses[i][0].id)).toEqual([group]);

    const redis = new Redis(t.config.redisUrl);
    try {
      for (const groupPrefix of queueGroupPrefixes(t.config.queuePrefix, GROUPS)) {
        expect(groupPrefix).toMatch(/^\{test-[^{}]+-\d\}$/);
        expect((await redis.keys(`${groupPrefix}:match:*`)).length).toBeGreaterThan(0);
      }
      // No pipeline queue under the undivided prefix (which the webhook queue and rate limits keep).
      const undivided = await redis.keys(`${t.config.queuePrefix}:*`);
      expect(undivided.filter((key) => PIPELINE_QUEUES.some((queue) => key.startsWith(`${t.config.queuePrefix}:${queue}:`)))).toEqual([]);
    } finally {
      redis.disconnect();
    }
  });

  it('is ready', async () => {
    const ready = await t.http.get('/health/ready').expect(200);
    expect(ready.body.redis).toEqual({ status: 'up', rate_limit: 'on' });
  });
});

describe('when QUEUE_GROUPS goes down', () => {
  let before: TestApp;
  let after: TestApp;

  beforeAll(async () => {
    // Accepts activities without working them: their jobs wait in the three groups.
    before = await startTestApp({ QUEUE_GROUPS: String(GROUPS) });
    // The same database and prefix, with two groups and workers: group 2 is no longer served.
    after = await startTestApp({
      ...PIPELINE_APP_ENV,
      QUEUE_GROUPS: '2',
      DATABASE_URL: before.config.databaseUrl,
      QUEUE_PREFIX: before.config.queuePrefix,
    });
  });

  afterAll(async () => {
    await after?.close();
    await before?.close();
  });

  it('an activity whose job waits in a group no longer served is swept into its workspace group, and processed once', async () => {
    const workspaces = await workspacesInEveryGroup(before);
    const { ws, url } = workspaces[2];
    const [id] = await ingest(before, ws, [websiteActivity('visited_page', url)]);
    expect(await groupsHolding(before, 'resolve', id)).toEqual([2]);

    // The stranded job is not run, and is not taken for a live one: the sweep starts the activity
    // again in the group it has now.
    expect(await after.app.get(PipelineSweeper).sweep(0)).toBeGreaterThanOrEqual(1);
    const done = await waitFor(
      () => activityStatus(after, ws, id),
      (s) => s.status !== 'queued',
      { what: 'the swept activity to be processed' },
    );
    expect(done.status).toBe('processed');
    expect(await listSignals(after, ws)).toHaveLength(1);
    const newGroup = queueGroupOf(internalId(ws.workspace_id), 2);
    const matched = await after.app.get(PipelineProducer).queue('match', newGroup).getJobs(['completed']);
    expect(matched.filter((job) => job.data.activityId === internalId(id))).toHaveLength(1);
  });
});
