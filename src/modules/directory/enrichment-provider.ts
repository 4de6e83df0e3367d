import type { ResolvedIdentity } from '../../shared/domain/identity';

/** What a provider knows about a person and their company, in any partial shape (conformed later). */
export interface EnrichmentResult {
  contact: unknown;
  company: unknown;
}

/**
 * Enrichment source for the Enrich step. The default reads the imported directory; a paid data
 * API can be plugged in by providing another implementation under ENRICHMENT_PROVIDER.
 */
export interface EnrichmentProvider {
  /** Names the provider where a Buyer's evaluation says a value came from ("directory"). */
  readonly name?: string;
  enrich(identity: ResolvedIdentity, hints: { companyDomain: string }): Promise<EnrichmentResult>;
}

export const ENRICHMENT_PROVIDER = Symbol('ENRICHMENT_PROVIDER');
