import { Client } from 'pg';
import { ActivitiesRepository } from '../../src/modules/activities/activities.repository';
import { validateActivityBatch } from '../../src/modules/activities/activity-input';
import { EnrichStep } from '../../src/modules/pipeline/application/enrich.step';
import { EvaluateStep } from '../../src/modules/pipeline/application/evaluate.step';
import { MatchStep } from '../../src/modules/pipeline/application/match.step';
import { ResolveStep } from '../../src/modules/pipeline/application/resolve.step';
import { PipelineProducer } from '../../src/modules/pipeline/pipeline.producer';
import { PIPELINE_QUEUES, PipelineJob, PipelineQueue } from '../../src/modules/pipeline/queues';
import { PipelineSweeper } from '../../src/modules/pipeline/infrastructure/sweeper';
import { WorkspaceContext } from '../../src/shared/application/workspace-context';
import { formatId, ID_PREFIXES, IdGenerator } from '../../src/shared/domain/ids';
import { ID_GENERATOR } from '../../src/shared/shared.module';
import { unique } from '../support/kb-resources';
import { startTestApp, TestApp, TestWorkspace } from '../support/test-app';
import { waitFor } from '../support/wait';
import { activityProgress, internalId, killAllChildren, startWorker, stopWorker, WorkerProcess } from '../support/worker-process';

jest.setTimeout(60_000);

/** App with the pipeline workers inline: the steps, the producer and the sweeper are at hand. */
let inline: TestApp;
let inlineDb: Client;
/** API only (RUN_WORKERS=false): separate `dist/worker.js` processes do the work. */
let api: TestApp;
let apiDb: Client;

beforeAll(async () => {
  [inline, api] = await Promise.all([startTestApp({ RUN_WORKERS: 'true' }), startTestApp({ RUN_WORKERS: 'false' })]);
  inlineDb = new Client({ connectionString: inline.config.databaseUrl });
  apiDb = new Client({ connectionString: api.config.databaseUrl });
  await Promise.all([inlineDb.connect(), apiDb.connect()]);
});

afterAll(async () => {
  jest.restoreAllMocks();
  await killAllChildren();
  await Promise.all([inlineDb?.end(), apiDb?.end()]);
  await Promise.all([inline?.close(), api?.close()]);
});

interface TargetWorkspace {
  ws: TestWorkspace;
  url: string;
}

/** A workspace with one Target Page; visits to `url` match it. */
async function targetWorkspace(t: TestApp): Promise<TargetWorkspace> {
  const ws = await t.newWorkspace(`Robustness ${unique()}`);
  const n = unique();
  const url = `https://www.acme-${n}.com/pricing`;
  await t.http
    .post('/v1/kb/target-pages')
    .set('Authorization', ws.auth)
    .send({ name: `Pricing ${n}`, short_name: `pricing-${n}`, url, description: 'The pricing page' })
    .expect(201);
  return { ws, url };
}

function visit(email: string, url: string, occurredAt: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'website', trigger: 'visited_page', occurred_at: occurredAt, identity: { email }, website: { url }, ...extra };
}

/** `2026-01-01T00:00:00Z` plus `i` minutes. */
function minute(i: number): string {
  return new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString().replace('.000Z', 'Z');
}

async function intake(t: TestApp, ws: TestWorkspace, activities: unknown[]): Promise<Array<{ id: string; status: string }>> {
  const res = await t.http.post('/ingest/v1/activities').set('Authorization', ws.auth).send({ activities });
  if (res.status !== 202) throw new Error(`intake answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

async function status(t: TestApp, ws: TestWorkspace, activityId: string): Promise<Record<string, unknown>> {
  const res = await t.http.get(`/ingest/v1/activities/${activityId}`).set('Authorization', ws.auth).expect(200);
  return res.body;
}

async function waitDone(t: TestApp, ws: TestWorkspace, activityId: string): Promise<Record<string, unknown>> {
  return waitFor(
    () => status(t, ws, activityId),
    (s) => s.status !== 'queued',
    { what: `${activityId} to finish` },
  );
}

/** Everything the pipeline writes for a workspace, to compare before and after repeated work. */
async function snapshot(db: Client, ws: TestWorkspace) {
  const workspaceId = internalId(ws.workspace_id);
  // One connection runs one query at a time.
  const signals = await db.query('SELECT id, buyer_id, activity_id, captured_at FROM signals WHERE workspace_id = $1 ORDER BY id', [
    workspaceId,
  ]);
  const buyers = await db.query(
    `SELECT id, person_key, signal_count_total, signal_count_website, signal_count_market, signal_count_linkedin,
            first_signal_id, last_signal_id, updated_at
       FROM buyers WHERE workspace_id = $1 ORDER BY id`,
    [workspaceId],
  );
  const activities = await db.query(
    'SELECT id, stage, status, signal_id, buyer_id, updated_at FROM activities WHERE workspace_id = $1 ORDER BY id',
    [workspaceId],
  );
  return { signals: signals.rows, buyers: buyers.rows, activities: activities.rows };
}

async function apiBuyer(t: TestApp, ws: TestWorkspace, buyerId: string): Promise<Record<string, any>> {
  const res = await t.http.get(`/v1/buyers/${buyerId}`).set('Authorization', ws.auth).expect(200);
  return res.body;
}

async function apiSignalsOf(t: TestApp, ws: TestWorkspace, buyerId: string): Promise<Array<Record<string, any>>> {
  const res = await t.http.get(`/v1/signals?buyer_id=${buyerId}&limit=1000`).set('Authorization', ws.auth).expect(200);
  return res.body.data;
}

/** Stores activities durably without queueing them (as intake does before it talks to Redis). */
async function storeUnqueued(t: TestApp, ws: TestWorkspace, raw: unknown[]): Promise<PipelineJob[]> {
  const workspaceId = internalId(ws.workspace_id);
  const ids = t.app.get<IdGenerator>(ID_GENERATOR);
  const batch = validateActivityBatch({ activities: raw }).map((input) => ({ id: ids.next(), input }));
  const inserted = await t.app.get(ActivitiesRepository).insertBatch(WorkspaceContext.forPipeline(workspaceId), batch, new Date());
  expect(inserted.size).toBe(raw.length);
  return batch.map((a) => ({ workspaceId, activityId: a.id }));
}

/** Waits until the BullMQ job `jobId` of `queue` has completed. */
async function waitJobCompleted(t: TestApp, queue: PipelineQueue, jobId: string): Promise<void> {
  const q = t.app.get(PipelineProducer).queue(queue);
  await waitFor(
    async () => {
      const job = await q.getJob(jobId);
      return job ? await job.getState() : 'absent';
    },
    (state) => state === 'completed',
    { what: `${queue} job ${jobId} to complete` },
  );
}

/**
 * The jobs of the workspace's activities that are still to run or running (waiting, delayed,
 * active), over the pipeline's queues, as `queue:id`. A step queues the next one before its own job
 * completes, so none of these means that nothing more will happen to the workspace's activities.
 */
async function liveJobsOf(t: TestApp, ws: TestWorkspace): Promise<string[]> {
  const producer = t.app.get(PipelineProducer);
  const workspaceId = internalId(ws.workspace_id);
  const jobs = await Promise.all(
    PIPELINE_QUEUES.map((queue) => producer.queue(queue).getJobs(['waiting', 'delayed', 'active', 'prioritized', 'waiting-children'])),
  );
  return jobs
    .flat()
    .filter((job) => job && (job.data as PipelineJob).workspaceId === workspaceId)
    .map((job) => `${job.queueName}:${job.id}`);
}

/** Jobs a worker holds right now, over the pipeline's queues. */
async function activeJobs(t: TestApp): Promise<number> {
  const producer = t.app.get(PipelineProducer);
  const counts = await Promise.all(PIPELINE_QUEUES.map((q) => producer.queue(q).getActiveCount()));
  return counts.reduce((a, b) => a + b, 0);
}

/** The Buyer-side invariants: every Buyer's counters equal its Signals, and they add up. */
async function expectCountersMatchSignals(db: Client, ws: TestWorkspace, expectedSignals: number): Promise<void> {
  const workspaceId = internalId(ws.workspace_id);
  const rows = (
    await db.query(
      `SELECT b.id, b.signal_count_total AS total, b.signal_count_website AS website,
              (SELECT count(*)::int FROM signals s WHERE s.workspace_id = b.workspace_id AND s.buyer_id = b.id) AS signals
         FROM buyers b WHERE b.workspace_id = $1`,
      [workspaceId],
    )
  ).rows;
  for (const row of rows) {
    expect({ buyer: row.id, total: row.total, website: row.website }).toEqual({ buyer: row.id, total: row.signals, website: row.signals });
  }
  expect(rows.reduce((sum, row) => sum + row.total, 0)).toBe(expectedSignals);
}

describe('idempotent steps (inline workers)', () => {
  test('running every step again, once and concurrently, after an activity was processed changes nothing', async () => {
    const { ws, url } = await targetWorkspace(inline);
    const [accepted] = await intake(inline, ws, [visit(`once-${unique()}@acme.com`, url, minute(1))]);
    const done = await waitDone(inline, ws, accepted.id);
    expect(done).toMatchObject({ status: 'processed', signal_id: expect.stringMatching(/^sig_\d{19}$/) });
    const before = await snapshot(inlineDb, ws);
    expect(before.signals).toHaveLength(1);

    const job: PipelineJob = { workspaceId: internalId(ws.workspace_id), activityId: internalId(accepted.id) };
    // What Match's job carried, as the activity's row now holds it.
    const stored = (
      await inlineDb.query('SELECT identity, contact_info, company_info, evaluation FROM activities WHERE id = $1', [job.activityId])
    ).rows[0];
    expect(stored.identity).toMatchObject({ personKey: expect.stringMatching(/^email:once-/) });
    const carried = (): PipelineJob => ({ ...job, carried: structuredClone(stored) });
    const steps = [inline.app.get(ResolveStep), inline.app.get(EnrichStep), inline.app.get(EvaluateStep), inline.app.get(MatchStep)];
    // Resolve and Match find it finished; Enrich and Evaluate, given nothing to carry on with, send it back to Resolve.
    const expected = [null, 'resolve', 'resolve', null];
    expect(await Promise.all(steps.map((step) => step.run({ ...job })))).toEqual(expected);
    expect(await steps[3].run(carried())).toBeNull();
    const concurrent = await Promise.all(steps.flatMap((step) => [step.run({ ...job }), step.run({ ...job }), step.run({ ...job })]));
    expect(concurrent).toEqual(expected.flatMap((next) => [next, next, next]));
    expect(await Promise.all([carried(), carried(), carried()].map((copy) => steps[3].run(copy)))).toEqual([null, null, null]);

    expect(await snapshot(inlineDb, ws)).toEqual(before);
    const buyer = await apiBuyer(inline, ws, done.buyer_id as string);
    expect(buyer.signal_count).toEqual({ total: 1, website: 1, market: 0, linkedin: 0 });
    expect(await apiSignalsOf(inline, ws, done.buyer_id as string)).toHaveLength(1);
  });

  test('steps run several times concurrently on fresh activities take effect once each', async () => {
    const { ws, url } = await targetWorkspace(inline);
    const email = `race-${unique()}@acme.com`;
    // Three activities of one person, stored but never queued: only the calls below process them.
    const jobs = await storeUnqueued(inline, ws, [
      visit(email, url, minute(30)),
      visit(email, url, minute(10)),
      visit(email, url, minute(20)),
    ]);
    const resolve = inline.app.get(ResolveStep);
    const enrich = inline.app.get(EnrichStep);
    const evaluate = inline.app.get(EvaluateStep);
    const match = inline.app.get(MatchStep);
    const copies = 5;
    const everyJob = <T>(run: (job: PipelineJob) => Promise<T>) =>
      Promise.all(jobs.flatMap((job) => Array.from({ length: copies }, () => run(job))));

    expect(await everyJob((job) => resolve.run(job))).toEqual(Array(jobs.length * copies).fill('enrich'));
    expect(await everyJob((job) => enrich.run(job))).toEqual(Array(jobs.length * copies).fill('evaluate'));
    expect(await everyJob((job) => evaluate.run(job))).toEqual(Array(jobs.length * copies).fill('match'));
    expect(await everyJob((job) => match.run(job))).toEqual(Array(jobs.length * copies).fill(null));

    const after = await snapshot(inlineDb, ws);
    expect(after.signals).toHaveLength(3);
    expect(after.buyers).toHaveLength(1);
    expect(after.activities.map((a) => [a.stage, a.status])).toEqual(Array(3).fill(['done', 'processed']));
    expect(new Set(after.activities.map((a) => a.signal_id)).size).toBe(3);
    expect(after.signals.map((s) => s.activity_id).sort()).toEqual(jobs.map((j) => j.activityId).sort());

    const buyerId = formatId(ID_PREFIXES.buyer, after.buyers[0].id);
    const buyer = await apiBuyer(inline, ws, buyerId);
    expect(buyer.signal_count).toEqual({ total: 3, website: 3, market: 0, linkedin: 0 });
    // First and last Signal follow captured_at (minutes 10 and 30), whatever order the steps ran in.
    const signalOf = (job: PipelineJob) => formatId(ID_PREFIXES.signal, after.activities.find((a) => a.id === job.activityId)!.signal_id);
    expect(buyer.first_signal_id).toBe(signalOf(jobs[1]));
    expect(buyer.last_signal_id).toBe(signalOf(jobs[0]));
    expect(await apiSignalsOf(inline, ws, buyerId)).toHaveLength(3);
  });

  test('whole pipelines racing on one fresh activity write one Signal', async () => {
    const { ws, url } = await targetWorkspace(inline);
    const [job] = await storeUnqueued(inline, ws, [visit(`chain-${unique()}@acme.com`, url, minute(5))]);
    const steps = {
      resolve: inline.app.get(ResolveStep),
      enrich: inline.app.get(EnrichStep),
      evaluate: inline.app.get(EvaluateStep),
      match: inline.app.get(MatchStep),
    };
    // Each driver follows the activity wherever the step it ran says it should go next.
    const drive = async () => {
      let next: PipelineQueue | null = 'resolve';
      let hops = 0;
      while (next && hops++ < 10) next = await steps[next].run(job);
      return next;
    };
    expect(await Promise.all(Array.from({ length: 6 }, drive))).toEqual(Array(6).fill(null));

    const after = await snapshot(inlineDb, ws);
    expect(after.signals).toHaveLength(1);
    expect(after.buyers).toHaveLength(1);
    expect(after.buyers[0].signal_count_total).toBe(1);
    expect(after.activities[0]).toMatchObject({ stage: 'done', status: 'processed', signal_id: after.signals[0].id });
  });

  test('re-adding a processed activity’s job, with its own id or another attempt suffix, creates nothing new', async () => {
    const { ws, url } = await targetWorkspace(inline);
    const [accepted] = await intake(inline, ws, [visit(`requeue-${unique()}@acme.com`, url, minute(2))]);
    const done = await waitDone(inline, ws, accepted.id);
    expect(done.status).toBe('processed');
    const before = await snapshot(inlineDb, ws);

    const producer = inline.app.get(PipelineProducer);
    const job: PipelineJob = { workspaceId: internalId(ws.workspace_id), activityId: internalId(accepted.id) };
    await producer.enqueue('resolve', job);
    await producer.enqueueMany('resolve', [job]);
    await producer.enqueue('resolve', job, 'again1');
    await producer.enqueue('enrich', job, 'again2');
    await producer.enqueue('evaluate', job, 'again3');
    await producer.enqueue('match', job, 'again4');
    await producer.enqueue('match', job, 'again4');
    for (const [queue, suffix] of [
      ['resolve', 'again1'],
      ['enrich', 'again2'],
      ['evaluate', 'again3'],
      ['match', 'again4'],
    ] as const) {
      await waitJobCompleted(inline, queue, `${accepted.id}-${suffix}`);
    }
    await waitJobCompleted(inline, 'resolve', accepted.id);

    expect(await snapshot(inlineDb, ws)).toEqual(before);
    const buyer = await apiBuyer(inline, ws, done.buyer_id as string);
    expect(buyer.signal_count.total).toBe(1);
  });

  test('an activity left at a later stage by an earlier version, its job carrying only ids, is started again and finished', async () => {
    const { ws, url } = await targetWorkspace(inline);
    const [job] = await storeUnqueued(inline, ws, [visit(`legacy-${unique()}@acme.com`, url, minute(4))]);
    const publicId = formatId(ID_PREFIXES.activity, job.activityId);
    // An earlier version stored each step's result and moved the stage on; its jobs named the activity only.
    await inlineDb.query(`UPDATE activities SET stage = 'evaluate' WHERE id = $1`, [job.activityId]);
    await inline.app.get(PipelineProducer).enqueue('evaluate', job);
    const done = await waitDone(inline, ws, publicId);
    expect(done).toMatchObject({ status: 'processed', signal_id: expect.stringMatching(/^sig_/) });
    await waitJobCompleted(inline, 'evaluate', publicId);
    // The new pass at Resolve has ids of its own, kept by its later steps' jobs.
    const enriched = await inline.app.get(PipelineProducer).queue('enrich').getJobs(['completed']);
    expect(enriched.map((j) => j.id).filter((id) => id?.startsWith(`${publicId}-r`))).toHaveLength(1);
    const after = await snapshot(inlineDb, ws);
    expect(after.signals).toHaveLength(1);
    expect(after.activities[0]).toMatchObject({ stage: 'done', status: 'processed' });
  });

  test('the same job queued many times on a fresh activity, at every stage, yields one Signal', async () => {
    const { ws, url } = await targetWorkspace(inline);
    const [job] = await storeUnqueued(inline, ws, [visit(`flood-${unique()}@acme.com`, url, minute(3))]);
    const producer = inline.app.get(PipelineProducer);
    const publicId = formatId(ID_PREFIXES.activity, job.activityId);
    await Promise.all([
      producer.enqueue('resolve', job),
      producer.enqueue('resolve', job),
      producer.enqueueMany('resolve', [job, job]),
      producer.enqueue('resolve', job, 'x1'),
      producer.enqueue('resolve', job, 'x2'),
      producer.enqueue('enrich', job, 'x3'),
      producer.enqueue('match', job, 'x4'),
    ]);
    const done = await waitDone(inline, ws, publicId);
    expect(done.status).toBe('processed');
    await waitJobCompleted(inline, 'resolve', publicId);
    await waitJobCompleted(inline, 'resolve', `${publicId}-x1`);
    await waitJobCompleted(inline, 'resolve', `${publicId}-x2`);
    await waitJobCompleted(inline, 'enrich', `${publicId}-x3`);
    await waitJobCompleted(inline, 'match', `${publicId}-x4`);
    await waitJobCompleted(inline, 'match', publicId);

    const after = await snapshot(inlineDb, ws);
    expect(after.signals).toHaveLength(1);
    expect(after.buyers).toHaveLength(1);
    expect(after.buyers[0].signal_count_total).toBe(1);
    expect(formatId(ID_PREFIXES.signal, after.signals[0].id)).toBe(done.signal_id);
  });

  test('the same activity ingested twice under one external_id is stored and signalled once', async () => {
    const { ws, url } = await targetWorkspace(inline);
    const externalId = `ext-${unique()}`;
    const activity = visit(`dup-${unique()}@acme.com`, url, minute(4), { external_id: externalId });
    const [first] = await intake(inline, ws, [activity]);
    expect(first.status).toBe('queued');
    const [second] = await intake(inline, ws, [activity]);
    expect(second).toEqual({ id: first.id, status: 'duplicate' });
    const inOneBatch = await intake(inline, ws, [activity, activity]);
    expect(inOneBatch).toEqual([
      { id: first.id, status: 'duplicate' },
      { id: first.id, status: 'duplicate' },
    ]);

    const done = await waitDone(inline, ws, first.id);
    expect(done.status).toBe('processed');
    // Once no job of the workspace is left to run, any stray one has run too; the counts must still be one.
    await waitFor(
      () => liveJobsOf(inline, ws),
      (live) => live.length === 0,
      { what: "the workspace's jobs to finish" },
    );
    const after = await snapshot(inlineDb, ws);
    expect(after.activities).toHaveLength(1);
    expect(after.signals).toHaveLength(1);
    expect((await apiBuyer(inline, ws, done.buyer_id as string)).signal_count.total).toBe(1);
  });
});

describe('nothing acknowledged is lost when Redis refuses the job', () => {
  test('the intake still answers 202, the activity waits as queued, and a sweep gets it processed', async () => {
    const { ws, url } = await targetWorkspace(inline);
    const spy = jest.spyOn(PipelineProducer.prototype, 'enqueueMany').mockRejectedValueOnce(new Error('Connection is closed.'));
    let accepted: { id: string; status: string };
    try {
      const res = await inline.http
        .post('/ingest/v1/activities')
        .set('Authorization', ws.auth)
        .send({ activities: [visit(`lost-${unique()}@acme.com`, url, minute(6))] });
      expect(res.status).toBe(202);
      expect(res.body.data).toEqual([{ id: expect.stringMatching(/^act_\d{19}$/), status: 'queued' }]);
      accepted = res.body.data[0];
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }

    // The job never reached Redis, so the running workers leave the activity where it is, while
    // another activity, accepted after it, goes all the way through.
    const other = await targetWorkspace(inline);
    const [later] = await intake(inline, other.ws, [visit(`later-${unique()}@acme.com`, other.url, minute(6))]);
    expect((await waitDone(inline, other.ws, later.id)).status).toBe('processed');
    expect(await liveJobsOf(inline, ws)).toEqual([]);
    expect(await status(inline, ws, accepted.id)).toMatchObject({
      id: accepted.id,
      status: 'queued',
      signal_id: null,
      buyer_id: null,
      discard_reason: null,
      near_miss: null,
    });
    expect(await inline.app.get(PipelineProducer).queue('resolve').getJob(accepted.id)).toBeUndefined();
    const row = (await inlineDb.query('SELECT stage, status FROM activities WHERE id = $1', [internalId(accepted.id)])).rows[0];
    expect(row).toEqual({ stage: 'resolve', status: 'queued' });

    expect(await inline.app.get(PipelineSweeper).sweep(0)).toBeGreaterThanOrEqual(1);
    const done = await waitDone(inline, ws, accepted.id);
    expect(done).toMatchObject({ status: 'processed', signal_id: expect.stringMatching(/^sig_\d{19}$/) });
    const after = await snapshot(inlineDb, ws);
    expect(after.signals).toHaveLength(1);
    expect(after.buyers[0].signal_count_total).toBe(1);
  });
});

describe('a job still waiting its turn', () => {
  test('is left alone by the sweep: the activity gets no second job', async () => {
    const { ws, url } = await targetWorkspace(inline);
    const [job] = await storeUnqueued(inline, ws, [visit(`waiting-${unique()}@acme.com`, url, minute(8))]);
    const publicId = formatId(ID_PREFIXES.activity, job.activityId);
    const resolveQueue = inline.app.get(PipelineProducer).queue('resolve');
    // A retry waiting out its backoff looks like this: a live job that has not finished.
    await resolveQueue.add('resolve', job, { jobId: publicId, delay: 60_000 });

    await inline.app.get(PipelineSweeper).sweep(0);
    const live = await resolveQueue.getJobs(['waiting', 'delayed', 'active', 'prioritized']);
    expect(live.map((j) => j.id).filter((id) => id?.startsWith(publicId))).toEqual([publicId]);

    // Let it through now, so the activity ends like any other.
    await (await resolveQueue.getJob(publicId))!.promote();
    expect((await waitDone(inline, ws, publicId)).status).toBe('processed');
  });
});

describe('a job that ran out of attempts', () => {
  test('a later sweep queues the activity again once the outage is over', async () => {
    const { ws, url } = await targetWorkspace(inline);
    const [job] = await storeUnqueued(inline, ws, [visit(`outage-${unique()}@acme.com`, url, minute(7))]);
    const publicId = formatId(ID_PREFIXES.activity, job.activityId);
    const row = (await inlineDb.query('SELECT updated_at FROM activities WHERE id = $1', [job.activityId])).rows[0];
    const sweepJobId = `${publicId}-s${new Date(row.updated_at).getTime()}`;
    const resolveQueue = inline.app.get(PipelineProducer).queue('resolve');

    // An outage: the sweep's job for this activity fails until it has no attempts left (one here,
    // eight in production; the end state is the same: a failed job kept under that id).
    const outage = jest.spyOn(ResolveStep.prototype, 'run').mockRejectedValue(new Error('Connection terminated unexpectedly'));
    try {
      await resolveQueue.add('resolve', job, { jobId: sweepJobId, attempts: 1, removeOnFail: { age: 7 * 24 * 3600 } });
      await waitFor(
        async () => (await resolveQueue.getJob(sweepJobId))?.getState(),
        (state) => state === 'failed',
        { what: 'the job to fail' },
      );
    } finally {
      outage.mockRestore();
    }
    expect((await status(inline, ws, publicId)).status).toBe('queued');

    // The database is back; the activity has not moved, so the sweep must queue it again.
    expect(await inline.app.get(PipelineSweeper).sweep(0)).toBeGreaterThanOrEqual(1);
    await waitFor(
      () => status(inline, ws, publicId),
      (s) => s.status !== 'queued',
      { timeoutMs: 8_000 },
    ).catch(() => undefined);
    expect(await status(inline, ws, publicId)).toMatchObject({ status: 'processed', signal_id: expect.stringMatching(/^sig_/) });
  });
});

describe('an activity the sweep has started again', () => {
  test('is not started again by the next sweep while its new pass waits', async () => {
    const { ws, url } = await targetWorkspace(inline);
    const [job] = await storeUnqueued(inline, ws, [visit(`resweep-${unique()}@acme.com`, url, minute(9))]);
    const publicId = formatId(ID_PREFIXES.activity, job.activityId);
    // Untouched for ten minutes, with no job on any queue: the sweep's to start again.
    await inlineDb.query(
      `UPDATE activities SET created_at = now() - interval '10 minutes', updated_at = now() - interval '10 minutes' WHERE id = $1`,
      [job.activityId],
    );
    const resolveQueue = inline.app.get(PipelineProducer).queue('resolve');
    const passes = async () =>
      (await resolveQueue.getJobs(['waiting', 'delayed', 'active', 'prioritized', 'completed', 'failed']))
        .map((j) => j.id)
        .filter((id) => id?.startsWith(`${publicId}-s`));

    // The new pass is held up (as behind a backlog): Resolve fails for now, so its job stays live.
    const held = jest.spyOn(ResolveStep.prototype, 'run').mockRejectedValue(new Error('busy'));
    try {
      const sweeper = inline.app.get(PipelineSweeper);
      expect(await sweeper.sweep(60_000)).toBeGreaterThanOrEqual(1);
      expect(await passes()).toHaveLength(1);
      await sweeper.sweep(60_000);
      expect(await passes()).toHaveLength(1);
    } finally {
      held.mockRestore();
    }
    expect((await waitDone(inline, ws, publicId)).status).toBe('processed');
  });
});

describe('separate worker processes', () => {
  const PERSONS = 30;

  function batchFor(url: string, count: number, tag: string): Record<string, unknown>[] {
    return Array.from({ length: count }, (_, i) => visit(`${tag}-${i % PERSONS}@acme.com`, url, minute(i)));
  }

  async function expectAllProcessedOnce(ws: TestWorkspace, count: number): Promise<void> {
    const workspaceId = internalId(ws.workspace_id);
    const activities = (await apiDb.query('SELECT id, stage, status, signal_id FROM activities WHERE workspace_id = $1', [workspaceId]))
      .rows;
    expect(activities).toHaveLength(count);
    expect(activities.filter((a) => a.stage === 'done' && a.status === 'processed' && a.signal_id !== null)).toHaveLength(count);
    expect(new Set(activities.map((a) => a.signal_id)).size).toBe(count);

    const signals = (await apiDb.query('SELECT id, activity_id FROM signals WHERE workspace_id = $1', [workspaceId])).rows;
    expect(signals).toHaveLength(count);
    const signalByActivity = new Map(signals.map((s) => [s.activity_id, s.id]));
    expect(signalByActivity.size).toBe(count);
    for (const a of activities) expect(signalByActivity.get(a.id)).toBe(a.signal_id);
    // Each Signal has exactly one signal.created event, and no event names a Signal that does not exist.
    const events = (
      await apiDb.query(`SELECT data->>'id' AS signal_id FROM events WHERE workspace_id = $1 AND type = 'signal.created'`, [workspaceId])
    ).rows.map((row) => BigInt(row.signal_id as string).toString());
    expect(events.sort()).toEqual(signals.map((signal) => String(signal.id)).sort());

    const buyers = (await apiDb.query('SELECT count(*)::int AS n FROM buyers WHERE workspace_id = $1', [workspaceId])).rows[0].n;
    expect(buyers).toBe(PERSONS);
    await expectCountersMatchSignals(apiDb, ws, count);
  }

  test('a worker killed (SIGKILL) mid-batch loses nothing and double-counts nothing once another worker takes over', async () => {
    const { ws, url } = await targetWorkspace(api);
    const COUNT = 300;
    const accepted = await intake(api, ws, batchFor(url, COUNT, `kill-${unique()}`));
    expect(accepted.filter((a) => a.status === 'queued')).toHaveLength(COUNT);

    const first = startWorker(api.config);
    await waitFor(
      () => activityProgress(apiDb, ws.workspace_id),
      (p) => p.processed >= 30 || first.hasExited(),
      { intervalMs: 5, what: 'the first Signals' },
    );
    expect(await activeJobs(api)).toBeGreaterThan(0);
    const killed = await stopWorker(first, 'SIGKILL');
    expect(killed).toEqual({ code: null, signal: 'SIGKILL' });
    const atKill = await activityProgress(apiDb, ws.workspace_id);
    // The kill really happened mid-batch.
    expect(atKill.processed).toBeGreaterThan(0);
    expect(atKill.processed).toBeLessThan(COUNT);

    const second = startWorker(api.config);
    try {
      const final = await waitFor(
        () => activityProgress(apiDb, ws.workspace_id),
        (p) => p.pending === 0 || second.hasExited(),
        { timeoutMs: 30_000, intervalMs: 100, what: 'every activity to finish after the restart' },
      );
      if (second.hasExited()) throw new Error(`The second worker exited: ${second.output()}`);
      expect(final).toEqual({ total: COUNT, processed: COUNT, discarded: 0, pending: 0 });
      await expectAllProcessedOnce(ws, COUNT);
    } finally {
      await stopWorker(second, 'SIGKILL');
    }
  });

  test('a worker stopped with SIGTERM while jobs run exits 0 promptly; another worker finishes everything exactly once', async () => {
    const { ws, url } = await targetWorkspace(api);
    const COUNT = 200;
    await intake(api, ws, batchFor(url, COUNT, `term-${unique()}`));

    const first: WorkerProcess = startWorker(api.config);
    const beforeStop = await waitFor(
      () => activityProgress(apiDb, ws.workspace_id),
      (p) => p.processed >= 20 || first.hasExited(),
      { intervalMs: 5, what: 'the first Signals' },
    );
    expect(first.hasExited()).toBe(false);
    // The worker is stopped while the batch is still in progress, with jobs in hand.
    expect(beforeStop.processed).toBeLessThan(COUNT);
    expect(await activeJobs(api)).toBeGreaterThan(0);
    const signalledAt = Date.now();
    const exit = await stopWorker(first, 'SIGTERM', 15_000);
    const tookMs = Date.now() - signalledAt;

    const second = startWorker(api.config);
    try {
      const final = await waitFor(
        () => activityProgress(apiDb, ws.workspace_id),
        (p) => p.pending === 0 || second.hasExited(),
        { timeoutMs: 30_000, intervalMs: 100, what: 'every activity to finish after the graceful stop' },
      );
      if (second.hasExited()) throw new Error(`The second worker exited: ${second.output()}`);
      expect(final).toEqual({ total: COUNT, processed: COUNT, discarded: 0, pending: 0 });
      await expectAllProcessedOnce(ws, COUNT);
    } finally {
      await stopWorker(second, 'SIGKILL');
    }

    // Asserted last so that the data checks above report on their own.
    expect(exit).not.toBeNull();
    expect(tookMs).toBeLessThan(5_000);
    expect(exit).toEqual({ code: 0, signal: null });
  });
});
