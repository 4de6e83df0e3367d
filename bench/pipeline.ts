/**
 * Pipeline throughput: N synthetic activities (the demo generator) through intake → resolve →
 * enrich → evaluate → match against the demo knowledge base at twice its size, end to end; then the same number of empty
 * jobs through four chained BullMQ queues on the same machine (the queue's own ceiling), and the
 * ratio of the two.
 *
 *   npm run bench:pipeline                 (BENCH_ACTIVITIES=20000 by default)
 *
 * The workers run as BENCH_WORKERS processes of the production build (`dist/worker.js`, as
 * `npm run start:worker` runs them; default 2, one per core here), while the benchmark's own
 * process takes the activities in, as the API would. BENCH_WORKERS=0 runs them inside it instead.
 *
 * Uses its own database (dropped afterwards) and its own Redis prefix.
 */
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Job, Queue, Worker } from 'bullmq';
import { DataSource } from 'typeorm';
import { randomBytes } from 'node:crypto';
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
import { demoActivity, demoKnowledgeBase } from '../src/modules/seed/demo-data';
import { PipelineProducer } from '../src/modules/pipeline/pipeline.producer';
import { PIPELINE_CONCURRENCY, PIPELINE_QUEUES } from '../src/modules/pipeline/queues';
import { WorkspacesModule } from '../src/modules/workspaces/workspaces.module';
import { WorkspacesService } from '../src/modules/workspaces/workspaces.service';
import { requireWorkspace, WorkspaceContext } from '../src/shared/application/workspace-context';
import { redisOptionsFromUrl } from '../src/shared/infrastructure/redis';
import { startNode, stop } from './processes';
import { clearRedisPrefix } from './redis';

const N = Number(process.env.BENCH_ACTIVITIES ?? 20_000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
const run = randomBytes(3).toString('hex');

@Module({})
class BenchModule {}

async function pipelineRate(
  databaseUrl: string,
  redisUrl: string,
  prefix: string,
  N: number,
  workers: number,
): Promise<{ seconds: number; processed: number; discarded: number }> {
  const env = { ...process.env, DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, LOG_LEVEL: 'error' };
  const config = loadConfig(env);
  const app = await NestFactory.createApplicationContext(
    {
      module: BenchModule,
      imports: [CoreModule.forRoot(config), WorkspacesModule, KbModule, ActivitiesModule, ...(workers === 0 ? [PipelineModule] : [])],
    },
    { logger: ['error'] },
  );
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
    for (const record of demoKnowledgeBase(2)) await app.get(kbResourceAt(record.resource).service).create(ctx, record.body);
    const intake = app.get(ActivitiesService);
    const started = Date.now();
    let first = '';
    let last = '';
    for (let offset = 0; offset < N; offset += 1000) {
      const batch = Array.from({ length: Math.min(1000, N - offset) }, (_, k) => demoActivity(offset + k, N, run));
      const answer = await intake.intake(ctx, { activities: batch });
      first ||= answer.data[0].id.slice(4);
      last = answer.data[answer.data.length - 1].id.slice(4);
    }
    // Ask only whether any activity is unfinished: it stops at the first one found. Counting them
    // all, twice a second, read every unfinished row (and its dead versions) and took up to a
    // third of PostgreSQL's time on 100,000 activities, slowing the run it measures.
    const database = app.get(DataSource);
    const workspaceId = requireWorkspace(ctx);
    for (;;) {
      const [{ unfinished }]: Array<{ unfinished: boolean }> = await database.query(
        `SELECT EXISTS (SELECT 1 FROM activities WHERE stage <> 'done' AND workspace_id = $1) AS unfinished`,
        [workspaceId],
      );
      if (!unfinished) break;
      if (process.stderr.isTTY) process.stderr.write(`\rpipeline: ${((Date.now() - started) / 1000).toFixed(0)} s`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const seconds = (Date.now() - started) / 1000;
    const progress = await app.get(ActivitiesRepository).progress(ctx, String(BigInt(first)), String(BigInt(last)));
    return { seconds, processed: progress.processed, discarded: progress.discarded };
  } finally {
    if (process.stderr.isTTY) process.stderr.write('\n');
    await Promise.all(children.map((child) => stop(child)));
    await app.close();
  }
}

async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** N empty jobs through four chained queues, same concurrency as the pipeline's workers. */
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
  pipeline: { seconds: number; per_second: number; processed: number; discarded: number };
  raw_bullmq_four_queues: { seconds: number; per_second: number };
  ratio_pipeline_to_raw: number;
}

/** Runs both measurements and prints them; the caller decides where the result is written. */
export async function runPipelineBench(n = N, workers = WORKERS): Promise<PipelineBenchResult> {
  const base = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/buyer_intel');
  base.pathname = `/bi_bench_pipeline_${run}`;
  const databaseUrl = base.toString();
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const prefix = `bench-${run}`;
  await prepareDatabase(databaseUrl);
  try {
    const pipeline = await pipelineRate(databaseUrl, redisUrl, prefix, n, workers);
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
      raw_bullmq_four_queues: { seconds: rawSeconds, per_second: Math.round(n / rawSeconds) },
      ratio_pipeline_to_raw: Number((rawSeconds / pipeline.seconds).toFixed(3)),
    };
    console.table({
      pipeline: { 'activities/s': result.pipeline.per_second, seconds: pipeline.seconds },
      'raw BullMQ, 4 queues': { 'activities/s': result.raw_bullmq_four_queues.per_second, seconds: rawSeconds },
    });
    console.log(
      `pipeline ÷ raw BullMQ: ${result.ratio_pipeline_to_raw} (${workers ? `${workers} worker processes` : 'workers in-process'}, ${result.concurrency} jobs per queue each)`,
    );
    return result;
  } finally {
    await dropDatabase(databaseUrl);
    await clearRedisPrefix(redisUrl, prefix);
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
