import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import { Queue } from 'bullmq';
import { warnAtMostEvery } from '../../../shared/infrastructure/redis';
import { PIPELINE_JOB_OPTIONS, PipelineJob, pipelineJobId, PipelineQueue } from './queues';

/** Puts activities on a pipeline queue, with deterministic job ids. */
@Injectable()
export class PipelineProducer {
  private readonly queues: Record<PipelineQueue, Queue>;

  constructor(
    @InjectQueue('resolve') resolve: Queue,
    @InjectQueue('enrich') enrich: Queue,
    @InjectQueue('evaluate') evaluate: Queue,
    @InjectQueue('match') match: Queue,
  ) {
    this.queues = { resolve, enrich, evaluate, match };
    // While Redis is away every queue's connection fails again and again; one warning now and then.
    const warn = warnAtMostEvery(new Logger('PipelineQueues'), 'Redis for the pipeline queues');
    for (const queue of Object.values(this.queues)) queue.on('error', warn);
  }

  queue(name: PipelineQueue): Queue {
    return this.queues[name];
  }

  async enqueue(queue: PipelineQueue, job: PipelineJob, attempt?: string): Promise<void> {
    await this.queues[queue].add(queue, job, { ...PIPELINE_JOB_OPTIONS, jobId: pipelineJobId(job.activityId, attempt) });
  }

  /**
   * Queues an activity again unless a live job (waiting, delayed or active) already has it. The
   * new job gets a fresh id: the deterministic one may name a finished or failed job that is kept.
   * A job is live while its hash exists without `finishedOn` (set on completion and on final
   * failure; a job waiting to be retried has none). `Job.getState` would say the same, but it
   * searches the waiting list, which is slow while a long backlog waits, and Redis does nothing
   * else meanwhile.
   */
  async requeue(queue: PipelineQueue, job: PipelineJob, now: number): Promise<boolean> {
    const existing = await this.queues[queue].getJob(pipelineJobId(job.activityId));
    if (existing && !existing.finishedOn) return false;
    await this.enqueue(queue, job, `s${now}`);
    return true;
  }

  async enqueueMany(queue: PipelineQueue, jobs: readonly PipelineJob[]): Promise<void> {
    if (jobs.length === 0) return;
    await this.queues[queue].addBulk(
      jobs.map((job) => ({ name: queue, data: job, opts: { ...PIPELINE_JOB_OPTIONS, jobId: pipelineJobId(job.activityId) } })),
    );
  }
}
