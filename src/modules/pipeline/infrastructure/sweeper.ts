import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { WorkspaceContext } from '../../../shared/application/workspace-context';
import { ActivitiesRepository } from '../../activities/activities.repository';
import { PeriodicTask } from '../../../shared/infrastructure/periodic-task';
import { warnAtMostEvery } from '../../../shared/infrastructure/warn-at-most-every';
import { PipelineProducer } from '../pipeline.producer';

const INTERVAL_MS = 30_000;
const STALE_AFTER_MS = 120_000;
const BATCH = 500;

/**
 * Safety net for "nothing acknowledged is ever lost": an activity that has not moved for a while
 * (its job never reached Redis, or Redis lost it) is started again at Resolve. Steps are
 * idempotent, so a job that was merely slow costs one extra pass. An activity started again is
 * marked as touched then: its row does not change until Match, so otherwise every later sweep
 * would start yet another pass while the first still waits behind a backlog.
 */
@Injectable()
export class PipelineSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(PipelineSweeper.name);
  private readonly task = new PeriodicTask(INTERVAL_MS, () => this.sweep(), warnAtMostEvery(this.logger, 'Sweep failed'));

  constructor(
    private readonly activities: ActivitiesRepository,
    private readonly producer: PipelineProducer,
  ) {}

  onApplicationBootstrap(): void {
    this.task.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.task.stop();
  }

  /**
   * Re-queues stale unfinished activities that no live job holds (a long backlog is left alone);
   * returns how many were queued.
   */
  async sweep(staleAfterMs = STALE_AFTER_MS): Promise<number> {
    const stale = await this.activities.unfinishedAcrossWorkspaces(staleAfterMs, BATCH);
    const now = Date.now();
    let requeued = 0;
    for (const activity of stale) {
      if (activity.stage === 'done') continue;
      const job = { workspaceId: activity.workspace_id, activityId: activity.id };
      if (!(await this.producer.requeue(job, now))) continue;
      requeued += 1;
      await this.activities.advance(WorkspaceContext.forPipeline(activity.workspace_id), activity.id, activity.stage, {}, new Date(now));
    }
    if (requeued > 0) this.logger.log(`Re-queued ${requeued} stale activities`);
    return requeued;
  }
}
