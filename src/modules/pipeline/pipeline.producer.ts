import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import { Queue } from 'bullmq';
import { isClusterNodeInfo, isRedisMisconfiguration, RedisTopologyError, withinRedisBound } from '../../shared/infrastructure/redis';
import { warnAtMostEvery } from '../../shared/infrastructure/warn-at-most-every';
import { PIPELINE_JOB_OPTIONS, PipelineJob, pipelineJobId, PipelineQueue } from './queues';

/** Puts activities on a pipeline queue, with deterministic job ids. */
@Injectable()
export class PipelineProducer {
  private readonly queues: Record<PipelineQueue, Queue>;
  /** The last error that showed the queues cannot work as configured, until a probe succeeds. */
  private misconfiguration: Error | null = null;

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

  /** Queues the job; `pass` is the pass its id names (see `pipelineJobId`). */
  async enqueue(queue: PipelineQueue, job: PipelineJob, pass?: string): Promise<void> {
    await this.queues[queue].add(queue, job, { ...PIPELINE_JOB_OPTIONS, jobId: pipelineJobId(job.activityId, pass) });
  }

  /**
   * Starts an activity again at Resolve unless a live job (waiting, delayed or active) of its
   * first pass has it on any queue: jobs carry the activity from step to step, so the step it is
   * at is known to Redis only. The new pass gets a fresh id, as the deterministic one may name
   * finished or failed jobs that are kept. A job is live while its hash exists without
   * `finishedOn` (set on completion and on final failure; a job waiting to be retried has none).
   * `Job.getState` would say the same, but it searches the waiting list, which is slow while a
   * long backlog waits, and Redis does nothing else meanwhile.
   */
  async requeue(job: PipelineJob, now: number): Promise<boolean> {
    const id = pipelineJobId(job.activityId);
    const existing = await Promise.all(Object.values(this.queues).map((queue) => queue.getJob(id)));
    if (existing.some((found) => found && !found.finishedOn)) return false;
    await this.enqueue('resolve', { workspaceId: job.workspaceId, activityId: job.activityId }, `s${now}`);
    return true;
  }

  async enqueueMany(queue: PipelineQueue, jobs: readonly PipelineJob[]): Promise<void> {
    if (jobs.length === 0) return;
    await this.queues[queue].addBulk(
      jobs.map((job) => ({ name: queue, data: job, opts: { ...PIPELINE_JOB_OPTIONS, jobId: pipelineJobId(job.activityId) } })),
    );
  }

  /**
   * `enqueueMany` for a request path: refused at once while Redis is away, given up after the
   * bound (`withinRedisBound`), so the request never waits for Redis to come back.
   */
  async enqueueManyWithinBound(queue: PipelineQueue, jobs: readonly PipelineJob[]): Promise<void> {
    await withinRedisBound(this.queues[queue], () => this.enqueueMany(queue, jobs)).catch((error: unknown) => {
      throw this.noted(error);
    });
  }

  /**
   * Asks Redis within `ms` whether the queues can work: a plain connection must not be talking to
   * a cluster node, and a queue's counts must come back. Null when they do, else the error. One
   * that shows a misconfiguration (a cluster spoken to as one server, `CROSSSLOT`, `MOVED`) is
   * remembered until a probe succeeds.
   */
  async probe(ms?: number): Promise<Error | null> {
    const queue = this.queues.resolve;
    try {
      await withinRedisBound(
        queue,
        async () => {
          const client = await queue.getBackend().client;
          if (!client.isCluster && isClusterNodeInfo(await client.info())) throw new RedisTopologyError();
          await queue.getJobCounts('waiting', 'active');
        },
        ms,
      );
      this.misconfiguration = null;
      return null;
    } catch (error) {
      return this.noted(error);
    }
  }

  /**
   * Null when queueing can work as far as is known; else the misconfiguration that stops it,
   * checked again first (a probe within the request bound), so a corrected setup is seen at once.
   */
  async misconfigured(): Promise<Error | null> {
    if (!this.misconfiguration) return null;
    await this.probe();
    return this.misconfiguration;
  }

  /** The error as an Error, remembered if it shows a misconfiguration. */
  private noted(error: unknown): Error {
    const failure = error instanceof Error ? error : new Error(String(error));
    if (isRedisMisconfiguration(failure)) this.misconfiguration = failure;
    return failure;
  }
}
