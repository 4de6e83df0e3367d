import { Inject, Injectable } from '@nestjs/common';
import { FieldSource, sourcesOf } from '../../buyers/buyer-evaluation';
import { companyInfoTemplate, conform, contactInfoTemplate, mergeKnown } from '../../buyers/buyer-shape';
import { keptSources } from '../domain/checks';
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
    const foundContact = conform(contactInfoTemplate(), found.contact);
    const foundCompany = conform(companyInfoTemplate(), found.company);
    const contact = mergeKnown(foundContact, contactHints);
    const company = mergeKnown(foundCompany, companyHints);
    if (!contact.email.work && identity.email) contact.email = { work: identity.email, is_valid: true };
    if (!contact.social.linkedin && identity.linkedin) contact.social = { ...contact.social, linkedin: identity.linkedin };
    // Sources follow the merge: a hint wins over the provider's value.
    const provider: FieldSource = { type: 'enrichment', provider: this.provider.name ?? 'enrichment' };
    const activity: FieldSource = { type: 'activity', activity_id: job.activityId };
    const sources = sourcesOf({ contact_info: foundContact, company_info: foundCompany }, '', provider);
    sourcesOf({ contact_info: contactHints, company_info: companyHints }, '', activity, sources);
    job.carried = { identity, contact_info: contact, company_info: company, sources: keptSources(sources) };
    return 'evaluate';
  }
}
