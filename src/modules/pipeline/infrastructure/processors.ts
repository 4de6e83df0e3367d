import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, Logger, Optional, Type } from '@nestjs/common';
import { Job, UnrecoverableError } from 'bullmq';
import { EnrichStep } from '../application/enrich.step';
import { EvaluateStep } from '../application/evaluate.step';
import { MatchStep } from '../application/match.step';
import { PipelineStep } from '../application/pipeline-step';
import { ResolveStep } from '../application/resolve.step';
import { MetricsService } from '../../metrics/metrics.service';
import { warnAtMostEvery } from '../../../shared/infrastructure/redis';
import { PipelineProducer } from './pipeline.producer';
import { isPipelineJob, passOf, PIPELINE_WORKER_OPTIONS, PipelineQueue } from './queues';

/**
 * A thin processor: check the payload, run the step, queue the next one with what the step found
 * (the job's own data stays as it came, for a retry). A throw makes BullMQ
 * retry with backoff; a malformed payload is unrecoverable and kept as failed for inspection.
 */
interface StepProcessor extends WorkerHost {
  process(job: Job): Promise<void>;
}

function PipelineProcessor(queue: PipelineQueue, step: Type<PipelineStep>): Type<StepProcessor> {
  @Processor(queue, PIPELINE_WORKER_OPTIONS)
  class PipelineStepProcessor extends WorkerHost implements StepProcessor {
    constructor(
      @Inject(step) private readonly pipelineStep: PipelineStep,
      private readonly producer: PipelineProducer,
      // Absent in the worker process, which serves no /metrics to expose the counts on.
      @Optional() private readonly metrics?: MetricsService,
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

export class ResolveProcessor extends PipelineProcessor('resolve', ResolveStep) {}
export class EnrichProcessor extends PipelineProcessor('enrich', EnrichStep) {}
export class EvaluateProcessor extends PipelineProcessor('evaluate', EvaluateStep) {}
export class MatchProcessor extends PipelineProcessor('match', MatchStep) {}
