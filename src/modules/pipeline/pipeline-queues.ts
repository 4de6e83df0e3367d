import { Logger, OnApplicationShutdown } from '@nestjs/common';
import { ConnectionOptions, Queue } from 'bullmq';
import { AppConfig } from '../../config/config';
import { warnAtMostEvery } from '../../shared/infrastructure/warn-at-most-every';
import { queueGroupOf, queueGroupPrefixes } from './queue-groups';
import { PIPELINE_QUEUES, PipelineQueue } from './queues';

/**
 * The pipeline's queues: the steps' queues once per queue group (QUEUE_GROUPS, ADR 0054),
 * each group under its own prefix, all on the process's queue connection. It closes them on
 * shutdown, after the workers (which close before the application shuts down, see
 * `PipelineWorkers`) and before the connection they share (whose module is imported by this
 * one, so Nest shuts it down after). Made by a factory from the configuration (PipelineQueueModule).
 */
export class PipelineQueues implements OnApplicationShutdown {
  /** The key prefix of each group, group 0 first. */
  readonly prefixes: readonly string[];
  /** Group g's queues at index g. */
  private readonly byGroup: ReadonlyArray<Record<PipelineQueue, Queue>>;

  constructor(
    config: Pick<AppConfig, 'queuePrefix' | 'queueGroups'>,
    /** What every queue and worker of the pipeline connects with (`QueueConnection.options`). */
    readonly connection: ConnectionOptions,
  ) {
    this.prefixes = queueGroupPrefixes(config.queuePrefix, config.queueGroups);
    // While Redis is away every queue's connection fails again and again; one warning now and then.
    const warn = warnAtMostEvery(new Logger('PipelineQueues'), 'Redis for the pipeline queues');
    this.byGroup = this.prefixes.map((prefix) => {
      const queues = Object.fromEntries(PIPELINE_QUEUES.map((name) => [name, new Queue(name, { connection, prefix })])) as Record<
        PipelineQueue,
        Queue
      >;
      for (const queue of Object.values(queues)) queue.on('error', warn);
      return queues;
    });
  }

  get groups(): number {
    return this.byGroup.length;
  }

  /** The group a workspace's activities go to. */
  groupOf(workspaceId: string): number {
    return queueGroupOf(workspaceId, this.groups);
  }

  queue(name: PipelineQueue, group = 0): Queue {
    const queues = this.byGroup[group];
    if (!queues) throw new RangeError(`No queue group ${group}: there are ${this.groups}`);
    return queues[name];
  }

  /** Every queue of every group. */
  all(): Queue[] {
    return this.byGroup.flatMap((queues) => Object.values(queues));
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.all().map((queue) => queue.close()));
  }
}
