import { Injectable } from '@nestjs/common';
import type { ResolvedIdentity } from '../../shared/domain/identity';
import { domainOf } from '../../shared/domain/identity';
import { DirectoryRepository } from './directory.repository';
import { EnrichmentProvider, EnrichmentResult } from './enrichment-provider';

/**
 * Default enrichment: the person by email, their company by the directory's company domain,
 * else by the company the activity names, else by the email's domain.
 */
@Injectable()
export class DirectoryEnrichmentProvider implements EnrichmentProvider {
  readonly name = 'directory';

  constructor(private readonly directory: DirectoryRepository) {}

  async enrich(identity: ResolvedIdentity, hints: { companyDomain: string }): Promise<EnrichmentResult> {
    const { person, company } = await this.directory.personAndCompany(identity.email || null, [
      hints.companyDomain,
      domainOf(identity.email.split('@')[1]),
    ]);
    return { contact: person?.data ?? null, company };
  }
}
