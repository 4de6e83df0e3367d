import { WorkspaceContext } from '../../../shared/application/workspace-context';
import type { ActivityEntity } from '../../activities/activity.entity';
import { ActivitiesRepository } from '../../activities/activities.repository';
import type { PipelineJob, PipelineQueue, PipelineStage } from '../infrastructure/queues';

/** The queue that handles an activity at `stage`, or null once it is done. */
export function queueFor(stage: PipelineStage): PipelineQueue | null {
  return stage === 'done' ? null : stage;
}

/**
 * One pipeline step. `run` loads the activity and does the step only if the activity is still at
 * this step's stage; a repeated, retried or re-delivered job finds it moved on and just passes it
 * to the queue of its current stage (where the deterministic job id makes a second add a no-op).
 * Returns the queue that should get the activity next, or null.
 */
export abstract class PipelineStep {
  abstract readonly stage: PipelineQueue;
  /** Extra columns the step reads with the activity, in the same statement (see `ActivitiesRepository.find`). */
  protected readonly extraColumns: string = '';

  constructor(protected readonly activities: ActivitiesRepository) {}

  async run(job: PipelineJob): Promise<PipelineQueue | null> {
    const ctx = WorkspaceContext.forPipeline(job.workspaceId);
    const activity = await this.activities.find(ctx, job.activityId, this.extraColumns);
    if (!activity) return null;
    if (activity.stage !== this.stage) return queueFor(activity.stage);
    return this.process(ctx, activity);
  }

  protected abstract process(ctx: WorkspaceContext, activity: ActivityEntity): Promise<PipelineQueue | null>;
}
