/**
 * Pipeline throughput: N synthetic activities (the demo generator) through intake → resolve →
 * enrich → evaluate → match against the demo knowledge base at twice its size, end to end; then the same number of empty
 * jobs through as many chained BullMQ queues as the pipeline has, on the same machine (the queue's own ceiling), and the
 * ratio of the two.
 *
 *   npm run bench:pipeline                 (BENCH_ACTIVITIES=20000 by default)
 *
 * The workers run as BENCH_WORKERS processes of the production build (`dist/worker.js`, as
 * `npm run start:worker` runs them; default 2, one per core here), while the benchmark's own
 * process takes the activities in, as the API would. BENCH_WORKERS=0 runs them inside it instead.
 *
 * Then the same with events written (the outbox's cost), and with events and one webhook endpoint
 * subscribed to `signal.created` at a local receiver on the same machine (whose CPU the run
 * shares), webhook delivery throughput (every
 * Signal's event queued again at once), and freshness: activities at BENCH_FRESHNESS_RATE per
 * second (200) for BENCH_FRESHNESS_SECONDS (60), each timed from its 202 to its webhook's arrival.
 *
 * Uses its own database (dropped afterwards) and its own Redis prefix.
 */
import 'reflect-metadata';
import { INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Job, Queue, Worker } from 'bullmq';
import { DataSource } from 'typeorm';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../src/config/config';
import { CoreModule } from '../src/core.module';
import { dropDatabase, prepareDatabase } from '../src/database/bootstrap';
import { ActivitiesModule } from '../src/modules/activities/activities.module';
import { ActivitiesRepository } from '../src/modules/activities/activities.repository';
import { ActivitiesService } from '../src/modules/activities/activities.service';
import { KbModule } from '../src/modules/kb/kb.module';
import { kbResourceAt } from '../src/modules/kb/kb-resources';
import { PipelineModule } from '../src/modules/pipeline/pipeline.module';
import { DirectoryRepository } from '../src/modules/directory/directory.repository';
import { demoActivity, demoKnowledgeBase } from '../src/modules/seed/demo-data';
import { loadDemoDirectory } from '../src/modules/seed/demo-seed.service';
import { PipelineProducer } from '../src/modules/pipeline/pipeline.producer';
import { PIPELINE_CONCURRENCY, PIPELINE_QUEUES } from '../src/modules/pipeline/queues';
import { WebhookEndpointsRepository } from '../src/modules/webhooks/webhook-endpoints.repository';
import { WebhookEndpointsService } from '../src/modules/webhooks/webhook-endpoints.service';
import { DELIVERY_BATCH, WebhookQueue } from '../src/modules/webhooks/webhook-queue';
import { WebhooksModule, WebhookWorkersModule } from '../src/modules/webhooks/webhooks.module';
import { WorkspacesModule } from '../src/modules/workspaces/workspaces.module';
import { WorkspacesService } from '../src/modules/workspaces/workspaces.service';
import { requireWorkspace, WorkspaceContext } from '../src/shared/application/workspace-context';
import { redisOptionsFromUrl } from '../src/shared/infrastructure/redis';
import { startNode, stop } from './processes';
import { clearRedisPrefix } from './redis';

const N = Number(process.env.BENCH_ACTIVITIES ?? 20_000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
const FRESHNESS_RATE = Number(process.env.BENCH_FRESHNESS_RATE ?? 200);
const FRESHNESS_SECONDS = Number(process.env.BENCH_FRESHNESS_SECONDS ?? 60);
const run = randomBytes(3).toString('hex');

@Module({})
class BenchModule {}

interface WebhookFigures {
  delivery: { deliveries: number; seconds: number; per_second: number };
  freshness: {
    activities: number;
    rate_per_second: number;
    seconds: number;
    delivered: number;
    p50_ms: number;
    p99_ms: number;
    max_ms: number;
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function pipelineRate(
  databaseUrl: string,
  redisUrl: string,
  prefix: string,
  N: number,
  workers: number,
  events: boolean,
  endpoint = events,
): Promise<{ seconds: number; processed: number; discarded: number; webhooks: WebhookFigures | null }> {
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: prefix,
    LOG_LEVEL: 'error',
    EVENTS_ENABLED: String(events),
    WEBHOOK_ALLOW_INSECURE_URLS: 'true',
  };
  const config = loadConfig(env);
  const app = await NestFactory.createApplicationContext(
    {
      module: BenchModule,
      imports: [
        CoreModule.forRoot(config),
        WorkspacesModule,
        KbModule,
        ActivitiesModule,
        WebhooksModule,
        ...(workers === 0 ? [PipelineModule, WebhookWorkersModule] : []),
      ],
    },
    { logger: ['error'] },
  );
  const receiver = endpoint ? await startBenchReceiver() : null;
  await app.init();
  const children = Array.from({ length: workers }, (_, k) =>
    startNode(`worker ${k + 1}`, [join(__dirname, '..', 'dist', 'worker.js')], { ...env, NODE_ENV: 'production' }, 0),
  );
  try {
    // Every worker process listens on every queue before the clock starts.
    const producer = app.get(PipelineProducer);
    for (const queue of PIPELINE_QUEUES) {
      await waitUntil(async () => (await producer.queue(queue).getWorkersCount()) >= workers, `${workers} workers on ${queue}`);
    }
    const ws = await app.get(WorkspacesService).createWorkspace('Pipeline bench');
    const ctx = WorkspaceContext.forConsole(ws.workspace_id, 'bench');
    // The demo's people and companies, so enrichment finds them as in the demo.
    await loadDemoDirectory(new DirectoryRepository(app.get(DataSource)));
    for (const record of demoKnowledgeBase(2)) await app.get(kbResourceAt(record.resource).service).create(ctx, record.body);
    if (receiver) await app.get(WebhookEndpointsService).create(ctx, { url: receiver.url, enabled_events: ['signal.created'] });
    const intake = app.get(ActivitiesService);
    const database = app.get(DataSource);
    // Every run starts from a checkpoint: none pays for writing out the pages of the one before
    // it (the server's, not this run's, work). It needs a superuser or pg_checkpoint; without, runs go on.
    await database.query('CHECKPOINT').catch(() => undefined);
    const started = Date.now();
    let first = '';
    let last = '';
    for (let offset = 0; offset < N; offset += 1000) {
      const batch = Array.from({ length: Math.min(1000, N - offset) }, (_, k) => demoActivity(offset + k, N, run));
      const answer = await intake.intake(ctx, { activities: batch });
      first ||= answer.data[0].id.slice(4);
      last = answer.data[answer.data.length - 1].id.slice(4);
    }
    // Done when the pipeline's queues hold no job and the database confirms that no activity is
    // left unfinished (an activity leaves status 'queued' exactly when its stage becomes 'done').
    // Asking the database alone, four times a second, cost about 20 ms of PostgreSQL's time each
    // (no statistics in a fresh database, so a bitmap scan of every activity), slowing the run it measures.
    const workspaceId = requireWorkspace(ctx);
    const queues = PIPELINE_QUEUES.map((name) => producer.queue(name));
    const queued = async () => {
      for (const queue of queues) {
        const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
        if (Object.values(counts).some((count) => count > 0)) return true;
      }
      return false;
    };
    const unfinished = async () => {
      if (await queued()) return true;
      const [row]: Array<{ unfinished: boolean }> = await database.query(
        `SELECT EXISTS (SELECT 1 FROM activities WHERE status = 'queued' AND workspace_id = $1) AS unfinished`,
        [workspaceId],
      );
      return row.unfinished;
    };
    while (await unfinished()) {
      if (process.stderr.isTTY) process.stderr.write(`\rpipeline: ${((Date.now() - started) / 1000).toFixed(0)} s`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const seconds = (Date.now() - started) / 1000;
    const progress = await app.get(ActivitiesRepository).progress(ctx, String(BigInt(first)), String(BigInt(last)));
    const webhooks = receiver ? await webhookFigures(app, ctx, receiver, progress.processed) : null;
    return { seconds, processed: progress.processed, discarded: progress.discarded, webhooks };
  } finally {
    if (process.stderr.isTTY) process.stderr.write('\n');
    await Promise.all(children.map((child) => stop(child)));
    await app.close();
    await receiver?.close();
  }
}

interface BenchReceiver {
  url: string;
  /** Deliveries received so far. */
  count(): number;
  /** First arrival time by Signal id (the number after `sig_`, without leading zeros). */
  arrivals: Map<string, number>;
  close(): Promise<void>;
}

/** A local receiver answering 204 at once, counting deliveries and timing each Signal's first arrival. */
async function startBenchReceiver(): Promise<BenchReceiver> {
  let count = 0;
  const arrivals = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      count += 1;
      // The first `sig_` id of a signal.created body is its Signal's (the event's own id is `evt_`).
      const digits = /"id":"sig_([0-9]+)"/.exec(Buffer.concat(chunks).toString('utf8'))?.[1];
      const signal = digits && String(BigInt(digits));
      if (signal && !arrivals.has(signal)) arrivals.set(signal, Date.now());
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    count: () => count,
    arrivals,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/**
 * With the pipeline's Signals delivered: every Signal's event queued again at once (delivery
 * throughput), then activities at a steady rate timed from their 202 to their webhook.
 */
async function webhookFigures(
  app: INestApplicationContext,
  ctx: WorkspaceContext,
  receiver: BenchReceiver,
  signals: number,
): Promise<WebhookFigures> {
  await waitUntil(() => Promise.resolve(receiver.count() >= signals), `${signals} webhooks`, 300_000);
  const database = app.get(DataSource);
  const eventIds: Array<{ id: string }> = await database.query(
    `SELECT id FROM events WHERE workspace_id = $1 AND type = 'signal.created'`,
    [requireWorkspace(ctx)],
  );
  const [endpoint] = await app.get(WebhookEndpointsRepository).enabled(ctx);
  const before = receiver.count();
  const burstStarted = Date.now();
  const queue = app.get(WebhookQueue);
  // Queued as the dispatcher queues them: DELIVERY_BATCH events to a job.
  const jobs = [];
  for (let k = 0; k < eventIds.length; k += DELIVERY_BATCH) {
    jobs.push({
      workspaceId: requireWorkspace(ctx),
      endpointId: endpoint.id,
      eventIds: eventIds.slice(k, k + DELIVERY_BATCH).map((row) => row.id),
    });
  }
  await queue.add(jobs, { suffix: 'burst' });
  await waitUntil(() => Promise.resolve(receiver.count() >= before + eventIds.length), 'the redeliveries', 300_000);
  const burstSeconds = (Date.now() - burstStarted) / 1000;

  // Freshness: a steady rate, each activity timed from its 202 to its Signal's webhook (activities
  // that make no Signal — a page no Target Page names — are not timed).
  const intake = app.get(ActivitiesService);
  /** Acceptance time by activity id (the number after `act_`, without leading zeros). */
  const accepted = new Map<string, number>();
  receiver.arrivals.clear();
  const total = FRESHNESS_RATE * FRESHNESS_SECONDS;
  const tick = 100;
  const perTick = Math.max(1, Math.round((FRESHNESS_RATE * tick) / 1000));
  const started = Date.now();
  for (let sent = 0; sent < total; sent += perTick) {
    const batch = Array.from({ length: Math.min(perTick, total - sent) }, (_, k) => demoActivity(sent + k, total, `${run}f`));
    const answer = await intake.intake(ctx, { activities: batch });
    const at = Date.now();
    for (const activity of answer.data) accepted.set(String(BigInt(activity.id.slice(4))), at);
    const next = started + ((sent + perTick) / perTick) * tick;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - Date.now())));
  }
  const seconds = (Date.now() - started) / 1000;
  // Done when every activity is finished and no webhook has come for a second (some activities
  // match no target and have no Signal to deliver).
  await waitUntil(
    async () => {
      const [{ unfinished }]: Array<{ unfinished: boolean }> = await database.query(
        `SELECT EXISTS (SELECT 1 FROM activities WHERE stage <> 'done' AND workspace_id = $1) AS unfinished`,
        [requireWorkspace(ctx)],
      );
      return !unfinished;
    },
    'the freshness activities',
    120_000,
  );
  for (let last = -1; last !== receiver.count();) {
    last = receiver.count();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  // Each delivered Signal's activity, to find when that activity was accepted.
  const made: Array<{ id: string; activity_id: string }> = await database.query(
    `SELECT id::text, activity_id::text FROM signals WHERE workspace_id = $1 AND id = ANY($2::bigint[])`,
    [requireWorkspace(ctx), [...receiver.arrivals.keys()]],
  );
  const latencies = made
    .filter((row) => accepted.has(row.activity_id))
    .map((row) => receiver.arrivals.get(row.id)! - accepted.get(row.activity_id)!)
    .sort((a, b) => a - b);
  return {
    delivery: { deliveries: eventIds.length, seconds: burstSeconds, per_second: Math.round(eventIds.length / burstSeconds) },
    freshness: {
      activities: total,
      rate_per_second: Math.round(total / seconds),
      seconds,
      delivered: latencies.length,
      p50_ms: percentile(latencies, 50),
      p99_ms: percentile(latencies, 99),
      max_ms: latencies[latencies.length - 1] ?? 0,
    },
  };
}

async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** N empty jobs through one chained queue per pipeline queue, same concurrency as the pipeline's workers. */
async function rawBullmqRate(redisUrl: string, prefix: string, N: number): Promise<number> {
  const connection = redisOptionsFromUrl(redisUrl);
  const names = PIPELINE_QUEUES.map((name) => `raw-${name}`);
  const queues = names.map((name) => new Queue(name, { connection, prefix }));
  let done = 0;
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const workers = names.map(
    (name, index) =>
      new Worker(
        name,
        async (job: Job) => {
          if (index < names.length - 1) {
            await queues[index + 1].add(names[index + 1], job.data, { jobId: job.id, removeOnComplete: true });
          } else if (++done === N) {
            finish();
          }
        },
        { connection, prefix, concurrency: PIPELINE_CONCURRENCY, removeOnComplete: { count: 0 } },
      ),
  );
  const started = Date.now();
  for (let offset = 0; offset < N; offset += 1000) {
    await queues[0].addBulk(
      Array.from({ length: Math.min(1000, N - offset) }, (_, k) => ({
        name: names[0],
        data: { workspaceId: '1', activityId: String(offset + k) },
        opts: { jobId: `raw_${offset + k}`, removeOnComplete: true },
      })),
    );
  }
  await finished;
  const seconds = (Date.now() - started) / 1000;
  await Promise.all(workers.map((worker) => worker.close()));
  await Promise.all(queues.map(async (queue) => (await queue.obliterate({ force: true }), queue.close())));
  return seconds;
}

export interface PipelineBenchResult {
  date: string;
  activities: number;
  /** Worker processes (0: the workers ran inside the benchmark's process). */
  workers: number;
  /** Jobs each worker runs side by side, per queue (the raw BullMQ run uses the same). */
  concurrency: number;
  /** With events written and one webhook endpoint subscribed to `signal.created`. */
  pipeline: { seconds: number; per_second: number; processed: number; discarded: number };
  /** The same run with EVENTS_ENABLED=false. */
  pipeline_without_events: { seconds: number; per_second: number };
  /** The same run with events written and no webhook endpoint: the outbox alone. */
  pipeline_events_only: { seconds: number; per_second: number };
  /** pipeline ÷ pipeline_without_events activities/s. */
  ratio_events_to_none: number;
  /** pipeline_events_only ÷ pipeline_without_events. */
  ratio_outbox_to_none: number;
  raw_bullmq_four_queues: { seconds: number; per_second: number };
  ratio_pipeline_to_raw: number;
  webhooks: WebhookFigures | null;
}

/** Runs both measurements and prints them; the caller decides where the result is written. */
export async function runPipelineBench(n = N, workers = WORKERS): Promise<PipelineBenchResult> {
  const base = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/buyer_intel');
  base.pathname = `/bi_bench_pipeline_${run}`;
  const databaseUrl = base.toString();
  // The run without events has a database of its own, so that neither run starts with the other's rows.
  base.pathname = `/bi_bench_pipeline_${run}_none`;
  const withoutEventsUrl = base.toString();
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const prefix = `bench-${run}`;
  await prepareDatabase(databaseUrl);
  await prepareDatabase(withoutEventsUrl);
  try {
    const without = await pipelineRate(withoutEventsUrl, redisUrl, `${prefix}-none`, n, workers, false);
    await dropDatabase(withoutEventsUrl);
    await prepareDatabase(withoutEventsUrl);
    const outboxOnly = await pipelineRate(withoutEventsUrl, redisUrl, `${prefix}-outbox`, n, workers, true, false);
    // Dropped now, so that its dirty pages are not written out during the next run.
    await dropDatabase(withoutEventsUrl);
    const pipeline = await pipelineRate(databaseUrl, redisUrl, prefix, n, workers, true);
    const rawSeconds = await rawBullmqRate(redisUrl, prefix, n);
    const result: PipelineBenchResult = {
      date: new Date().toISOString(),
      activities: n,
      workers,
      concurrency: PIPELINE_CONCURRENCY,
      pipeline: {
        seconds: pipeline.seconds,
        per_second: Math.round(n / pipeline.seconds),
        processed: pipeline.processed,
        discarded: pipeline.discarded,
      },
      pipeline_without_events: { seconds: without.seconds, per_second: Math.round(n / without.seconds) },
      pipeline_events_only: { seconds: outboxOnly.seconds, per_second: Math.round(n / outboxOnly.seconds) },
      ratio_events_to_none: Number((without.seconds / pipeline.seconds).toFixed(3)),
      ratio_outbox_to_none: Number((without.seconds / outboxOnly.seconds).toFixed(3)),
      raw_bullmq_four_queues: { seconds: rawSeconds, per_second: Math.round(n / rawSeconds) },
      ratio_pipeline_to_raw: Number((rawSeconds / pipeline.seconds).toFixed(3)),
      webhooks: pipeline.webhooks,
    };
    console.table({
      'pipeline, events and a webhook endpoint': { 'activities/s': result.pipeline.per_second, seconds: pipeline.seconds },
      'pipeline, events, no endpoint': { 'activities/s': result.pipeline_events_only.per_second, seconds: outboxOnly.seconds },
      'pipeline, no events': { 'activities/s': result.pipeline_without_events.per_second, seconds: without.seconds },
      [`raw BullMQ, ${PIPELINE_QUEUES.length} queues`]: { 'activities/s': result.raw_bullmq_four_queues.per_second, seconds: rawSeconds },
    });
    if (result.webhooks) {
      const { delivery, freshness } = result.webhooks;
      console.log(
        `webhooks: ${delivery.per_second} deliveries/s (${delivery.deliveries} queued at once); freshness at ${freshness.rate_per_second} activities/s ` +
          `for ${freshness.seconds.toFixed(0)} s: p50 ${freshness.p50_ms} ms, p99 ${freshness.p99_ms} ms, max ${freshness.max_ms} ms (${freshness.delivered} delivered)`,
      );
    }
    console.log(
      `pipeline with events and an endpoint ÷ without events: ${result.ratio_events_to_none}; events alone ÷ none: ${result.ratio_outbox_to_none}; pipeline ÷ raw BullMQ: ${result.ratio_pipeline_to_raw} (${workers ? `${workers} worker processes` : 'workers in-process'}, ${result.concurrency} jobs per queue each)`,
    );
    return result;
  } finally {
    await dropDatabase(databaseUrl);
    await dropDatabase(withoutEventsUrl);
    await clearRedisPrefix(redisUrl, prefix);
    await clearRedisPrefix(redisUrl, `${prefix}-none`);
    await clearRedisPrefix(redisUrl, `${prefix}-outbox`);
  }
}

async function main(): Promise<void> {
  const result = await runPipelineBench();
  const dir = join(__dirname, 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `pipeline-${result.date.slice(0, 19).replace(/[:T]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`written to ${file}`);
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
