import { companyInfoTemplate, conform, contactInfoTemplate } from '../buyers/buyer-shape';
import { check, CompanyFacts, ContactFacts } from './domain/checks';
import { DefaultEvaluator, isMatch } from './domain/default-evaluator';
import type { Check } from './domain/checks';
import type { Subject } from './domain/criteria';

export type { Check } from './domain/checks';
export { publicKind } from './domain/checks';
export type { Subject } from './domain/criteria';

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
