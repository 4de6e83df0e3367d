import { Inject, Injectable } from '@nestjs/common';
import { WorkspaceContext } from '../../../shared/application/workspace-context';
import { Clock } from '../../../shared/domain/clock';
import { CLOCK } from '../../../shared/shared.module';
import { ActivitiesRepository } from '../../activities/activities.repository';
import type { ActivityEntity } from '../../activities/activity.entity';
import { companyInfoTemplate, conform, contactInfoTemplate, mergeKnown } from '../../buyers/buyer-shape';
import { ENRICHMENT_PROVIDER, EnrichmentProvider } from '../../directory/enrichment-provider';
import { domainOf } from '../domain/identity';
import type { PipelineQueue } from '../infrastructure/queues';
import { PipelineStep } from './pipeline-step';

/** Enrich: the provider's person and company, with the activity's own hints winning over them. */
@Injectable()
export class EnrichStep extends PipelineStep {
  readonly stage = 'enrich' as const;

  constructor(
    activities: ActivitiesRepository,
    @Inject(ENRICHMENT_PROVIDER) private readonly provider: EnrichmentProvider,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    super(activities);
  }

  protected async process(ctx: WorkspaceContext, activity: ActivityEntity): Promise<PipelineQueue | null> {
    const identity = activity.identity!;
    const contactHints = conform(contactInfoTemplate(), activity.payload.contact);
    const companyHints = conform(companyInfoTemplate(), activity.payload.company);
    const found = await this.provider.enrich(identity, { companyDomain: domainOf(companyHints.website) });
    const contact = mergeKnown(conform(contactInfoTemplate(), found.contact), contactHints);
    const company = mergeKnown(conform(companyInfoTemplate(), found.company), companyHints);
    if (!contact.email.work && identity.email) contact.email = { work: identity.email, is_valid: true };
    if (!contact.social.linkedin && identity.linkedin) contact.social = { ...contact.social, linkedin: identity.linkedin };
    await this.activities.advance(ctx, activity.id, 'enrich', { stage: 'evaluate', contact_info: contact, company_info: company }, this.clock.now());
    return 'evaluate';
  }
}
