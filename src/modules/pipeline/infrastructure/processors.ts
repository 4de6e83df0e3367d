import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, Provider, Type } from '@nestjs/common';
import { Job, UnrecoverableError } from 'bullmq';
import { EnrichStep } from '../application/enrich.step';
import { EvaluateStep } from '../application/evaluate.step';
import { MatchStep } from '../application/match.step';
import { PipelineStep } from '../application/pipeline-step';
import { ResolveStep } from '../application/resolve.step';
import { MetricsService } from '../../metrics/metrics.service';
import { warnAtMostEvery } from '../../../shared/infrastructure/warn-at-most-every';
import { PipelineProducer } from '../pipeline.producer';
import { APP_CONFIG, AppConfig } from '../../../config/config';
import { isPipelineJob, passOf, pipelineWorkerOptions, PipelineQueue } from '../queues';

/**
 * A thin processor: check the payload, run the step, queue the next one with what the step found
 * (the job's own data stays as it came, for a retry). A throw makes BullMQ
 * retry with backoff; a malformed payload is unrecoverable and kept as failed for inspection.
 */
interface StepProcessor extends WorkerHost {
  process(job: Job): Promise<void>;
}

/**
 * The processor class of a queue. Its worker options come from the validated configuration, so
 * the class is made when the provider is (see `pipelineProcessors`).
 */
function PipelineProcessor(queue: PipelineQueue, lockMs: number): Type<StepProcessor> {
  @Processor(queue, pipelineWorkerOptions(lockMs))
  class PipelineStepProcessor extends WorkerHost implements StepProcessor {
    constructor(
      private readonly pipelineStep: PipelineStep,
      private readonly producer: PipelineProducer,
      // Absent in the worker process, which serves no /metrics to expose the counts on.
      private readonly metrics?: MetricsService,
    ) {
      super();
    }

    private readonly warnOfError = warnAtMostEvery(new Logger(`${queue}Worker`), `The ${queue} worker`);

    @OnWorkerEvent('error')
    onWorkerError(error: Error): void {
      this.warnOfError(error);
    }

    async process(job: Job): Promise<void> {
      try {
        await this.runStep(job);
      } catch (error) {
        this.metrics?.recordPipelineJob(queue, 'failed');
        throw error;
      }
      this.metrics?.recordPipelineJob(queue, 'completed');
    }

    private async runStep(job: Job): Promise<void> {
      if (!isPipelineJob(job.data)) throw new UnrecoverableError('Malformed pipeline job payload');
      const data = { ...job.data };
      const next = await this.pipelineStep.run(data);
      if (!next) return;
      // The next step's job keeps this pass's id; going back to Resolve starts a new pass.
      const pass = queue !== 'resolve' && next === 'resolve' ? `r${Date.now()}` : passOf(job.id, data.activityId);
      await this.producer.enqueue(next, data, pass);
    }
  }
  Object.defineProperty(PipelineStepProcessor, 'name', { value: `${queue[0].toUpperCase()}${queue.slice(1)}Processor` });
  return PipelineStepProcessor;
}

const STEPS: ReadonlyArray<readonly [PipelineQueue, Type<PipelineStep>]> = [
  ['resolve', ResolveStep],
  ['enrich', EnrichStep],
  ['evaluate', EvaluateStep],
  ['match', MatchStep],
];

/** The provider token of a queue's processor (`app.get(processorToken('match'))`). */
export function processorToken(queue: PipelineQueue): string {
  return `${queue}Processor`;
}

/**
 * One processor per queue, as factory providers: @nestjs/bullmq finds a processor made by a
 * factory by its instance's class, and the factory has the configuration the worker options need.
 */
export function pipelineProcessors(): Provider[] {
  return STEPS.map(([queue, step]) => ({
    provide: processorToken(queue),
    inject: [APP_CONFIG, step, PipelineProducer, { token: MetricsService, optional: true }],
    useFactory: (config: AppConfig, pipelineStep: PipelineStep, producer: PipelineProducer, metrics?: MetricsService) =>
      new (PipelineProcessor(queue, config.pipelineLockMs))(pipelineStep, producer, metrics),
  }));
}
