import { companyInfoTemplate, conform, contactInfoTemplate } from '../buyers/buyer-shape';
import { Check, check, CompanyFacts, ContactFacts } from './domain/checks';
import { DefaultEvaluator, isMatch } from './domain/default-evaluator';
import type { Subject } from './domain/criteria';

export type { Check } from './domain/checks';
export type { Subject } from './domain/criteria';

/**
 * A criterion's kind as the API names it: industry, keyword, employees, revenue, country, state,
 * funding_stage, total_funding, founded, company_type, title, function, seniority, exclusion.
 * An industry criterion made only of words the taxonomy does not know (`onlyKeywords`) is a
 * keyword criterion: it is matched on the words as written.
 */
export function publicKind(kind: Check['kind'], onlyKeywords = false): string {
  if (kind === 'industry' && onlyKeywords) return 'keyword';
  return kind === 'funding' ? 'funding_stage' : kind;
}

/** A Buyer's company and contact, worked out once for any number of profiles. */
export interface BuyerFacts {
  company: CompanyFacts;
  contact: ContactFacts;
}

/** One profile's verdict on one Buyer: each criterion's check, and whether they make a match. */
export interface ProfileVerdict {
  matched: boolean;
  checks: Check[];
}

/**
 * The default evaluator's verdicts one profile at a time, criterion by criterion, for tools that
 * show or compare them (simulating a draft description). The pipeline's own evaluation goes
 * through the `Evaluator` interface; this is the same engine and the same rule (every known
 * criterion passes and at least one is known), opened up.
 */
export class ProfileJudge {
  private readonly evaluator = new DefaultEvaluator();

  /** Stored or partial Buyer data is conformed to the Buyer's shape first, as the evaluator does. */
  facts(company: unknown, contact: unknown): BuyerFacts {
    return {
      company: new CompanyFacts(conform(companyInfoTemplate(), company)),
      contact: new ContactFacts(conform(contactInfoTemplate(), contact)),
    };
  }

  /** `key` names the description for the evaluator's cache of read criteria (an id, or "draft"). */
  judge(subject: Subject, key: string, description: string, buyer: BuyerFacts): ProfileVerdict {
    const criteria = this.evaluator.criteriaOf(subject, { id: key, name: key, description });
    const checks = criteria.map((c) => check(c, buyer.company, subject === 'persona' ? buyer.contact : null));
    return { matched: isMatch(checks), checks };
  }
}
