/**
 * Pipeline throughput: N synthetic activities through intake → resolve → enrich → evaluate →
 * match against a knowledge base of realistic size, end to end; then the same number of empty
 * jobs through four chained BullMQ queues on the same machine (the queue's own ceiling), and the
 * ratio of the two.
 *
 *   npm run bench:pipeline                 (BENCH_ACTIVITIES=20000 by default)
 *
 * Uses its own database (dropped afterwards) and its own Redis prefix.
 */
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Job, Queue, Worker } from 'bullmq';
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
import { CompetitorsService } from '../src/modules/kb/competitors/competitors.module';
import { ExclusionsService } from '../src/modules/kb/exclusions/exclusions.module';
import { IcpsService } from '../src/modules/kb/icps/icps.module';
import { PersonasService } from '../src/modules/kb/personas/personas.module';
import { ProductsService } from '../src/modules/kb/products/products.module';
import { TargetFormsService } from '../src/modules/kb/target-forms/target-forms.module';
import { TargetPagesService } from '../src/modules/kb/target-pages/target-pages.module';
import { TopicsService } from '../src/modules/kb/topics/topics.module';
import { PipelineModule } from '../src/modules/pipeline/pipeline.module';
import { PIPELINE_QUEUES, PIPELINE_WORKER_OPTIONS } from '../src/modules/pipeline/infrastructure/queues';
import { WorkspacesModule } from '../src/modules/workspaces/workspaces.module';
import { WorkspacesService } from '../src/modules/workspaces/workspaces.service';
import { WorkspaceContext } from '../src/shared/application/workspace-context';
import { redisOptionsFromUrl } from '../src/shared/infrastructure/redis';

const N = Number(process.env.BENCH_ACTIVITIES ?? 20_000);
const run = randomBytes(3).toString('hex');

@Module({})
class BenchModule {}

const INDUSTRIES = ['Financial Services', 'Insurance', 'Computer Software', 'Retail', 'Hospital & Health Care', 'Logistics and Supply Chain'];
const COUNTRIES = ['Germany', 'France', 'United Kingdom', 'United States', 'Netherlands', 'Spain'];
const TITLES = ['CFO', 'VP Finance', 'CTO', 'Head of Engineering', 'Software Engineer', 'Chief Revenue Officer', 'Marketing Manager'];

function activity(i: number) {
  const person = i % Math.max(1, Math.floor(N / 10));
  const company = person % 500;
  const common = {
    external_id: `bench-${run}-${i}`,
    occurred_at: new Date(Date.now() - (i % 100_000) * 60_000).toISOString().slice(0, 19) + 'Z',
    identity: { email: `person${person}@company${company}.com` },
    contact: { name: { first: `P${person}`, last: 'Bench' }, role: { title: TITLES[person % TITLES.length] } },
    company: {
      name: `Company ${company}`,
      website: `https://company${company}.com`,
      industries: [INDUSTRIES[company % INDUSTRIES.length]],
      employee_count: 20 + ((company * 37) % 3000),
      location: { country: COUNTRIES[company % COUNTRIES.length] },
    },
    attribution: { type: 'paid', source: 'google', source_name: 'Google Ads', source_logo: '' },
  };
  switch (i % 6) {
    case 0:
    case 1:
    case 2:
      return {
        ...common,
        type: 'website',
        trigger: i % 6 === 2 ? 'filled_form' : 'visited_page',
        website: {
          url: `https://www.example.com/${i % 6 === 2 ? 'forms' : 'page'}-${i % 25}/?utm_source=google&gclid=g${i}`,
          session: { id: `s${i}`, duration_secs: 120 },
          device: { browser: 'Chrome', os: 'macOS' },
        },
      };
    case 3:
      return { ...common, type: 'market', trigger: 'researched_topic', market: { topic: `Topic ${i % 12}`, company_website: '' } };
    case 4:
      return { ...common, type: 'market', trigger: 'evaluated_competitor', market: { topic: '', company_website: `https://rival${i % 25}.com` } };
    default:
      return { ...common, type: 'linkedin', trigger: 'reacted_post', linkedin: { url: `https://www.linkedin.com/company/rival${i % 25}`, reaction_type: 'like' } };
  }
}

async function seedKb(app: Awaited<ReturnType<typeof NestFactory.createApplicationContext>>, ctx: WorkspaceContext) {
  for (let i = 0; i < 20; i++) {
    await app.get(TargetPagesService).create(ctx, { name: `Page ${i}`, short_name: `page-${i}`, url: `example.com/page-${i}`, description: 'Visits matter' });
    await app.get(CompetitorsService).create(ctx, { name: `Rival ${i}`, short_name: `rival-${i}`, domain: `rival${i}.com`, linkedin: `https://www.linkedin.com/company/rival${i}` });
  }
  for (let i = 0; i < 10; i++) {
    await app.get(TargetFormsService).create(ctx, { name: `Form ${i}`, short_name: `form-${i}`, url: `example.com/forms-${i}`, description: 'Submissions matter' });
    await app.get(TopicsService).create(ctx, { name: `Topic ${i}`, short_name: `topic-${i}`, description: 'A topic' });
    await app.get(ProductsService).create(ctx, { name: `Product ${i}`, short_name: `product-${i}`, description: 'A product' });
    await app.get(IcpsService).create(ctx, {
      name: `ICP ${i}`, short_name: `icp-${i}`,
      description: `Industries: ${INDUSTRIES[i % INDUSTRIES.length]}. Employees: ${50 + i * 10}-${1000 + i * 100}. Countries: ${COUNTRIES[i % COUNTRIES.length]}, ${COUNTRIES[(i + 1) % COUNTRIES.length]}.`,
    });
    await app.get(PersonasService).create(ctx, { name: `Persona ${i}`, short_name: `persona-${i}`, description: `Titles: ${TITLES[i % TITLES.length]}. Seniority: C-level, VP, Director.` });
  }
  for (let i = 0; i < 5; i++) {
    await app.get(ExclusionsService).create(ctx, { name: `Excluded ${i}`, short_name: `excluded-${i}`, domain: `company${400 + i}.com`, description: 'Existing customer' });
  }
}

async function pipelineRate(databaseUrl: string, prefix: string): Promise<{ seconds: number; processed: number; discarded: number }> {
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl, QUEUE_PREFIX: prefix, LOG_LEVEL: 'error' });
  const app = await NestFactory.createApplicationContext(
    {
      module: BenchModule,
      imports: [CoreModule.forRoot(config), WorkspacesModule, KbModule, ActivitiesModule, PipelineModule],
    },
    { logger: ['error'] },
  );
  await app.init();
  try {
    const ws = await app.get(WorkspacesService).createWorkspace('Pipeline bench');
    const ctx = WorkspaceContext.forConsole(ws.workspace_id, 'bench');
    await seedKb(app, ctx);
    const intake = app.get(ActivitiesService);
    const started = Date.now();
    let first = '';
    let last = '';
    for (let offset = 0; offset < N; offset += 1000) {
      const batch = Array.from({ length: Math.min(1000, N - offset) }, (_, k) => activity(offset + k));
      const answer = await intake.intake(ctx, { activities: batch });
      first ||= answer.data[0].id.slice(4);
      last = answer.data[answer.data.length - 1].id.slice(4);
    }
    const repository = app.get(ActivitiesRepository);
    for (;;) {
      const progress = await repository.progress(ctx, String(BigInt(first)), String(BigInt(last)));
      if (progress.pending === 0) {
        return { seconds: (Date.now() - started) / 1000, processed: progress.processed, discarded: progress.discarded };
      }
      if (process.stderr.isTTY) process.stderr.write(`\rpipeline: ${progress.processed + progress.discarded}/${N}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    if (process.stderr.isTTY) process.stderr.write('\n');
    await app.close();
  }
}

/** N empty jobs through four chained queues, same concurrency as the pipeline's workers. */
async function rawBullmqRate(redisUrl: string, prefix: string): Promise<number> {
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
        { connection, prefix, concurrency: PIPELINE_WORKER_OPTIONS.concurrency, removeOnComplete: { count: 0 } },
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

async function main(): Promise<void> {
  const base = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/buyer_intel');
  base.pathname = `/bi_bench_pipeline_${run}`;
  const databaseUrl = base.toString();
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const prefix = `bench-${run}`;
  await prepareDatabase(databaseUrl);
  try {
    const pipeline = await pipelineRate(databaseUrl, prefix);
    const rawSeconds = await rawBullmqRate(redisUrl, prefix);
    const result = {
      date: new Date().toISOString(),
      activities: N,
      pipeline: {
        seconds: pipeline.seconds,
        per_second: Math.round(N / pipeline.seconds),
        processed: pipeline.processed,
        discarded: pipeline.discarded,
      },
      raw_bullmq_four_queues: { seconds: rawSeconds, per_second: Math.round(N / rawSeconds) },
      ratio_pipeline_to_raw: Number((rawSeconds / pipeline.seconds).toFixed(3)),
    };
    console.table({
      pipeline: { 'activities/s': result.pipeline.per_second, seconds: pipeline.seconds },
      'raw BullMQ, 4 queues': { 'activities/s': result.raw_bullmq_four_queues.per_second, seconds: rawSeconds },
    });
    console.log(`pipeline ÷ raw BullMQ: ${result.ratio_pipeline_to_raw}`);
    const dir = join(__dirname, 'results');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `pipeline-${result.date.slice(0, 19).replace(/[:T]/g, '-')}.json`);
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`written to ${file}`);
  } finally {
    await dropDatabase(databaseUrl);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
