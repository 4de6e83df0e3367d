import { BeforeApplicationShutdown, Logger, OnModuleInit, Provider, Type } from '@nestjs/common';
import { Job, UnrecoverableError, Worker } from 'bullmq';
import { EnrichStep } from '../application/enrich.step';
import { EvaluateStep } from '../application/evaluate.step';
import { MatchStep } from '../application/match.step';
import { PipelineStep } from '../application/pipeline-step';
import { ResolveStep } from '../application/resolve.step';
import { MetricsService } from '../../metrics/metrics.service';
import { warnAtMostEvery } from '../../../shared/infrastructure/warn-at-most-every';
import { PipelineProducer } from '../pipeline.producer';
import { PipelineQueues } from '../pipeline-queues';
import { APP_CONFIG, AppConfig } from '../../../config/config';
import { isPipelineJob, passOf, PIPELINE_QUEUES, pipelineWorkerOptions, PipelineQueue } from '../queues';

/**
 * A thin processor: check the payload, run the step, queue the next one with what the step found
 * (the job's own data stays as it came, for a retry) on the next queue of the same group. A throw
 * makes BullMQ retry with backoff; a malformed payload is unrecoverable and kept as failed for
 * inspection.
 */
export class PipelineStepProcessor {
  constructor(
    readonly queue: PipelineQueue,
    readonly group: number,
    private readonly pipelineStep: PipelineStep,
    private readonly producer: PipelineProducer,
    // Absent in the worker process, which serves no /metrics to expose the counts on.
    private readonly metrics?: MetricsService,
  ) {}

  async process(job: Job): Promise<void> {
    try {
      await this.runStep(job);
    } catch (error) {
      this.metrics?.recordPipelineJob(this.queue, 'failed');
      throw error;
    }
    this.metrics?.recordPipelineJob(this.queue, 'completed');
  }

  private async runStep(job: Job): Promise<void> {
    if (!isPipelineJob(job.data)) throw new UnrecoverableError('Malformed pipeline job payload');
    const data = { ...job.data };
    const next = await this.pipelineStep.run(data);
    if (!next) return;
    // The next step's job keeps this pass's id; going back to Resolve starts a new pass.
    const pass = this.queue !== 'resolve' && next === 'resolve' ? `r${Date.now()}` : passOf(job.id, data.activityId);
    await this.producer.enqueue(next, data, pass, this.group);
  }
}

/** A worker of one step's queue in one group. */
export interface PipelineWorker {
  queue: PipelineQueue;
  group: number;
  worker: Worker;
}

/**
 * The pipeline's BullMQ workers: one per step and queue group, so that every worker process serves
 * every group, each with the same options (`pipelineWorkerOptions`). They start with the module
 * and close, letting the jobs in hand finish, before the application shuts down: before the
 * queues they queue the next steps on, the database their steps use, and the connection.
 */
export class PipelineWorkers implements OnModuleInit, BeforeApplicationShutdown {
  private started: PipelineWorker[] = [];

  constructor(
    private readonly queues: PipelineQueues,
    private readonly lockMs: number,
    private readonly processors: readonly PipelineStepProcessor[],
  ) {}

  onModuleInit(): void {
    const options = pipelineWorkerOptions(this.lockMs);
    this.started = this.processors.map((processor) => {
      const { queue, group } = processor;
      const worker = new Worker(queue, (job: Job) => processor.process(job), {
        ...options,
        connection: this.queues.connection,
        prefix: this.queues.prefixes[group],
      });
      const label = this.queues.groups === 1 ? `The ${queue} worker` : `The ${queue} worker of group ${group}`;
      worker.on('error', warnAtMostEvery(new Logger(`${queue}Worker`), label));
      return { queue, group, worker };
    });
  }

  /** Every worker, group by group, each group's in step order. */
  all(): readonly PipelineWorker[] {
    return this.started;
  }

  /** The worker of a step's queue in a group. */
  worker(queue: PipelineQueue, group = 0): Worker {
    const found = this.started.find((entry) => entry.queue === queue && entry.group === group);
    if (!found) throw new RangeError(`No ${queue} worker for group ${group}`);
    return found.worker;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.started.map(({ worker }) => worker.close()));
  }
}

/**
 * Each pipeline queue and the step its workers run, in pipeline order: the one place a step is
 * registered (`pipeline.module.ts` provides the classes). `checkSteps` holds it to `PIPELINE_QUEUES`.
 */
export const PIPELINE_STEPS = [
  ['resolve', ResolveStep],
  ['enrich', EnrichStep],
  ['evaluate', EvaluateStep],
  ['match', MatchStep],
] as const satisfies ReadonlyArray<readonly [PipelineQueue, Type<PipelineStep>]>;

/** Every queue of `PIPELINE_QUEUES` has its step, in the same order; a queue without one would never be worked. */
export function checkSteps(steps: ReadonlyArray<readonly [string, unknown]>, queues: readonly string[] = PIPELINE_QUEUES): void {
  const stepQueues = steps.map(([queue]) => queue);
  if (stepQueues.join() !== queues.join()) {
    throw new Error(`The pipeline steps' queues (${stepQueues.join(', ')}) are not PIPELINE_QUEUES (${queues.join(', ')})`);
  }
}

/** The workers, made from the configuration (lock time) and the queue groups. */
export function pipelineWorkersProvider(): Provider {
  checkSteps(PIPELINE_STEPS);
  return {
    provide: PipelineWorkers,
    inject: [
      APP_CONFIG,
      PipelineQueues,
      PipelineProducer,
      { token: MetricsService, optional: true },
      ...PIPELINE_STEPS.map(([, step]) => step),
    ],
    useFactory: (
      config: AppConfig,
      queues: PipelineQueues,
      producer: PipelineProducer,
      metrics: MetricsService | undefined,
      ...steps: PipelineStep[]
    ) => {
      const processors = Array.from({ length: queues.groups }, (_, group) =>
        PIPELINE_STEPS.map(([queue], i) => new PipelineStepProcessor(queue, group, steps[i], producer, metrics)),
      ).flat();
      return new PipelineWorkers(queues, config.pipelineLockMs, processors);
    },
  };
}
