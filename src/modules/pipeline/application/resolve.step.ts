import { Inject, Injectable } from '@nestjs/common';
import { WorkspaceContext } from '../../../shared/application/workspace-context';
import { Clock } from '../../../shared/domain/clock';
import { CLOCK } from '../../../shared/shared.module';
import { ActivitiesRepository } from '../../activities/activities.repository';
import { DirectoryRepository } from '../../directory/directory.repository';
import { normalizeEmail, normalizeHem, normalizeLinkedinProfile, resolveIdentity } from '../../../shared/domain/identity';
import type { PipelineJob, PipelineQueue } from '../queues';
import { PipelineStep } from './pipeline-step';

/** Resolve: normalise the identity, compute the hashed emails, and key the person. */
@Injectable()
export class ResolveStep extends PipelineStep {
  constructor(
    private readonly activities: ActivitiesRepository,
    private readonly directory: DirectoryRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    super();
  }

  async run(job: PipelineJob): Promise<PipelineQueue | null> {
    delete job.carried;
    const ctx = WorkspaceContext.forPipeline(job.workspaceId);
    const activity = await this.activities.find(ctx, job.activityId);
    if (!activity || activity.stage === 'done') return null;
    const given = activity.payload.identity;
    const email = normalizeEmail(given.email);
    const linkedin = normalizeLinkedinProfile(given.linkedin);
    const hem = normalizeHem(given.hem);
    const directoryEmail = email ? null : await this.directory.emailFor({ linkedin, hem });
    const identity = resolveIdentity({ email, linkedin, hem, directoryEmail });
    if (!identity) {
      await this.activities.advance(
        ctx,
        activity.id,
        activity.stage,
        { stage: 'done', status: 'discarded', discard_reason: 'unresolved_identity' },
        this.clock.now(),
      );
      return null;
    }
    job.carried = { identity, hints: { contact: activity.payload.contact, company: activity.payload.company } };
    return 'enrich';
  }
}
