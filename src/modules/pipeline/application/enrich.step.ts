import { Inject, Injectable } from '@nestjs/common';
import { companyInfoTemplate, conform, contactInfoTemplate, mergeKnown } from '../../buyers/buyer-shape';
import { ENRICHMENT_PROVIDER, EnrichmentProvider } from '../../directory/enrichment-provider';
import { domainOf } from '../../../shared/domain/identity';
import { carriedWith, PipelineJob, PipelineQueue } from '../queues';
import { PipelineStep, restart } from './pipeline-step';

/** Enrich: the provider's person and company, with the activity's own hints winning over them. */
@Injectable()
export class EnrichStep extends PipelineStep {
  constructor(@Inject(ENRICHMENT_PROVIDER) private readonly provider: EnrichmentProvider) {
    super();
  }

  async run(job: PipelineJob): Promise<PipelineQueue | null> {
    const carried = carriedWith(job);
    if (!carried) return restart(job);
    const { identity } = carried;
    const contactHints = conform(contactInfoTemplate(), carried.hints?.contact);
    const companyHints = conform(companyInfoTemplate(), carried.hints?.company);
    const found = await this.provider.enrich(identity, { companyDomain: domainOf(companyHints.website) });
    const contact = mergeKnown(conform(contactInfoTemplate(), found.contact), contactHints);
    const company = mergeKnown(conform(companyInfoTemplate(), found.company), companyHints);
    if (!contact.email.work && identity.email) contact.email = { work: identity.email, is_valid: true };
    if (!contact.social.linkedin && identity.linkedin) contact.social = { ...contact.social, linkedin: identity.linkedin };
    job.carried = { identity, contact_info: contact, company_info: company };
    return 'evaluate';
  }
}
