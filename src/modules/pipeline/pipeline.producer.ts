import { Injectable } from '@nestjs/common';
import { Queue } from 'bullmq';
import { isClusterNodeInfo, isRedisMisconfiguration, RedisTopologyError, withinRedisBound } from '../../shared/infrastructure/redis';
import { PipelineQueues } from './pipeline-queues';
import { PIPELINE_JOB_OPTIONS, PIPELINE_QUEUES, PipelineJob, pipelineJobId, PipelineQueue } from './queues';

/**
 * Puts activities on the pipeline's queues, with deterministic job ids: a new activity on its
 * workspace's queue group (ADR 0054), a later step's job on the group its earlier step ran in.
 */
@Injectable()
export class PipelineProducer {
  /** The last error that showed the queues cannot work as configured, until a probe succeeds. */
  private misconfiguration: Error | null = null;

  constructor(private readonly queues: PipelineQueues) {}

  /** How many queue groups there are (QUEUE_GROUPS). */
  get groups(): number {
    return this.queues.groups;
  }

  /** A step's queue in a group (the only one, 0, by default). */
  queue(name: PipelineQueue, group = 0): Queue {
    return this.queues.queue(name, group);
  }

  /**
   * Queues the job; `pass` is the pass its id names (see `pipelineJobId`). A worker passes the group
   * it serves, so that an activity's pass stays in one group even if QUEUE_GROUPS changed since it
   * started; otherwise the job goes to its workspace's group.
   */
  async enqueue(queue: PipelineQueue, job: PipelineJob, pass?: string, group = this.queues.groupOf(job.workspaceId)): Promise<void> {
    await this.queue(queue, group).add(queue, job, { ...PIPELINE_JOB_OPTIONS, jobId: pipelineJobId(job.activityId, pass) });
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
    if (await this.hasLiveJob(job)) return false;
    await this.enqueue('resolve', { workspaceId: job.workspaceId, activityId: job.activityId }, `s${now}`);
    return true;
  }

  /**
   * Whether a live job of the activity's first pass is on a queue of its workspace's group, or,
   * failing that, of any other group served (where it was queued before QUEUE_GROUPS changed, and
   * where it will still be run). A group no longer served is not looked at: its jobs are not run,
   * so the activity is started again in its workspace's group.
   */
  private async hasLiveJob(job: PipelineJob): Promise<boolean> {
    const id = pipelineJobId(job.activityId);
    const own = this.queues.groupOf(job.workspaceId);
    const liveIn = async (groups: number[]): Promise<boolean> => {
      const existing = await Promise.all(groups.flatMap((group) => PIPELINE_QUEUES.map((name) => this.queue(name, group).getJob(id))));
      return existing.some((found) => found && !found.finishedOn);
    };
    if (await liveIn([own])) return true;
    const others = Array.from({ length: this.groups }, (_, group) => group).filter((group) => group !== own);
    return others.length > 0 && liveIn(others);
  }

  /** Queues new activities, each on its workspace's group (one bulk add per group). */
  async enqueueMany(queue: PipelineQueue, jobs: readonly PipelineJob[]): Promise<void> {
    await Promise.all([...this.byGroup(jobs)].map(([group, batch]) => this.addBulk(queue, group, batch)));
  }

  /**
   * `enqueueMany` for a request path: refused at once while a group's Redis is away, given up
   * after the bound (`withinRedisBound`), so the request never waits for Redis to come back.
   */
  async enqueueManyWithinBound(queue: PipelineQueue, jobs: readonly PipelineJob[]): Promise<void> {
    await Promise.all(
      [...this.byGroup(jobs)].map(([group, batch]) => withinRedisBound(this.queue(queue, group), () => this.enqueueMany(queue, batch))),
    ).catch((error: unknown) => {
      throw this.noted(error);
    });
  }

  private byGroup(jobs: readonly PipelineJob[]): Map<number, PipelineJob[]> {
    const groups = new Map<number, PipelineJob[]>();
    for (const job of jobs) {
      const group = this.queues.groupOf(job.workspaceId);
      const batch = groups.get(group);
      if (batch) batch.push(job);
      else groups.set(group, [job]);
    }
    return groups;
  }

  private async addBulk(queue: PipelineQueue, group: number, jobs: readonly PipelineJob[]): Promise<void> {
    if (jobs.length === 0) return;
    await this.queue(queue, group).addBulk(
      jobs.map((job) => ({ name: queue, data: job, opts: { ...PIPELINE_JOB_OPTIONS, jobId: pipelineJobId(job.activityId) } })),
    );
  }

  /**
   * Asks Redis within `ms` whether the queues can work: a plain connection must not be talking to
   * a cluster node, and every group's counts must come back (on a cluster, the groups' keys are on
   * different masters). Null when they do, else the first error. One that shows a
   * misconfiguration (a cluster spoken to as one server, `CROSSSLOT`, `MOVED`) is remembered until
   * a probe succeeds.
   */
  async probe(ms?: number): Promise<Error | null> {
    try {
      await Promise.all(
        Array.from({ length: this.groups }, (_, group) => {
          const queue = this.queue('resolve', group);
          return withinRedisBound(
            queue,
            async () => {
              const client = await queue.getBackend().client;
              if (group === 0 && !client.isCluster && isClusterNodeInfo(await client.info())) throw new RedisTopologyError();
              await queue.getJobCounts('waiting', 'active');
            },
            ms,
          );
        }),
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
