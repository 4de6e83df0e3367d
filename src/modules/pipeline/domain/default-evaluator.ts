/**
 * The default, explainable evaluator: criteria are read from each profile's description and
 * checked one by one against the Buyer, and the reasoning says which matched, which failed and
 * which had no data.
 *
 * A profile matches when every criterion the Buyer has data for passes and at least one does.
 * Among matching profiles the one with the most passed criteria wins (it says more about the
 * Buyer); ties go to the earlier profile in the order given.
 */
import { LruCache } from '../../../shared/domain/lru-cache';
import { CompanyInfo, companyInfoTemplate, conform, ContactInfo, contactInfoTemplate } from '../../buyers/buyer-shape';
import type { CriterionVerdict } from '../../buyers/buyer-evaluation';
import { Check, check, CompanyFacts, ContactFacts, fieldsRead, publicKind } from './checks';
import { Criterion, parseCriteria, Subject } from './criteria';
import { EvaluationResult, Evaluator, KbProfile } from './evaluator';
import { joinList } from './text';

export interface DefaultEvaluatorOptions {
  /** Replaceable so tests can count parses. */
  parse?: (description: string, subject: Subject) => Criterion[];
  /** Parsed descriptions kept; the least recently used go first. */
  cacheSize?: number;
}

interface Scored {
  profile: KbProfile;
  criteria: Criterion[];
  checks: Check[];
  /** The fields each check read, in the same order. */
  fields: string[][];
  passed: Check[];
  failed: Check[];
  unknown: Check[];
  matched: boolean;
}

/** Buyer reasoning is stored and shown in lists; a profile with hundreds of criteria must not flood it. */
export const MAX_REASONING_LENGTH = 2_000;

const NOUN: Record<Subject, { profile: string; buyer: string }> = {
  icp: { profile: 'ICP', buyer: 'the company' },
  persona: { profile: 'Persona', buyer: 'the contact' },
};

/** A profile matches when every criterion the Buyer has data for passes and at least one does. */
export function isMatch(checks: readonly Check[]): boolean {
  return checks.some((c) => c.status === 'passed') && !checks.some((c) => c.status === 'failed');
}

export class DefaultEvaluator implements Evaluator {
  private readonly parse: (description: string, subject: Subject) => Criterion[];
  private readonly cache: LruCache<string, Criterion[]>;

  constructor(options: DefaultEvaluatorOptions = {}) {
    this.parse = options.parse ?? parseCriteria;
    this.cache = new LruCache(options.cacheSize ?? 2_000);
  }

  evaluateCompany(company: CompanyInfo, icps: readonly KbProfile[]): EvaluationResult {
    return this.evaluate('icp', icps, new CompanyFacts(conform(companyInfoTemplate(), company)), null);
  }

  evaluatePerson(contact: ContactInfo, company: CompanyInfo, personas: readonly KbProfile[]): EvaluationResult {
    const companyFacts = new CompanyFacts(conform(companyInfoTemplate(), company));
    return this.evaluate('persona', personas, companyFacts, new ContactFacts(conform(contactInfoTemplate(), contact)));
  }

  /**
   * Cached by subject, id and description: ICP 7 and Persona 7 are different records, and an
   * edited description must be read afresh.
   */
  criteriaOf(subject: Subject, profile: KbProfile): Criterion[] {
    const description = typeof profile.description === 'string' ? profile.description : '';
    const key = `${subject}\u0000${String(profile.id)}\u0000${description}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    let criteria: Criterion[];
    try {
      criteria = this.parse(description, subject);
    } catch {
      // An unreadable description is a profile without criteria, not a failed pipeline job.
      criteria = [];
    }
    this.cache.set(key, criteria);
    return criteria;
  }

  private evaluate(
    subject: Subject,
    profiles: readonly KbProfile[],
    company: CompanyFacts,
    contact: ContactFacts | null,
  ): EvaluationResult {
    const noun = NOUN[subject];
    const list = (Array.isArray(profiles) ? profiles : []).filter((p): p is KbProfile => p !== null && typeof p === 'object');
    if (list.length === 0) return noMatch(`No ${noun.profile} matched: there are no active ${noun.profile}s.`);

    const scored: Scored[] = list.map((profile) => {
      const criteria = this.criteriaOf(subject, profile);
      const checks = criteria.map((c) => check(c, company, contact));
      const fields = criteria.map((c) => fieldsRead(c, company, contact));
      const passed = checks.filter((c) => c.status === 'passed');
      const failed = checks.filter((c) => c.status === 'failed');
      const unknown = checks.filter((c) => c.status === 'unknown');
      return { profile, criteria, checks, fields, passed, failed, unknown, matched: isMatch(checks) };
    });

    const best = scored
      .filter((s) => s.matched)
      .reduce<Scored | null>((a, b) => (a === null || b.passed.length > a.passed.length ? b : a), null);
    if (best) {
      const unknown = best.unknown.length > 0 ? `; no data for ${joinList(best.unknown.map((c) => c.label))}` : '';
      return {
        matched: true,
        id: String(best.profile.id),
        name: nameOf(best.profile),
        reasoning: cap(
          `Matched ${noun.profile} ${title(best.profile)} on ${joinList(best.passed.map(passedPhrase), 'and', 20)}${unknown}.`,
        ),
        ...verdicts(best),
      };
    }

    const readable = scored.filter((s) => s.criteria.length > 0);
    if (readable.length === 0) {
      const names = joinList(list.map(title));
      const plural = list.length > 1;
      return noMatch(
        `No ${noun.profile} matched: the description${plural ? 's' : ''} of ${names} ${plural ? 'have' : 'has'} no criteria the evaluator can read.`,
      );
    }
    const closest = readable.reduce((a, b) =>
      b.passed.length > a.passed.length || (b.passed.length === a.passed.length && b.failed.length < a.failed.length) ? b : a,
    );
    if (closest.failed.length === 0) {
      return noMatch(
        `No ${noun.profile} matched: too little data about ${noun.buyer} (the closest, ${title(closest.profile)}, needs ${joinList(closest.unknown.map((c) => c.label))}).`,
        closest,
      );
    }
    const parts = [`${joinList(closest.failed.map(failedPhrase), 'and', 20)} did not match`];
    if (closest.passed.length > 0) parts.push(`${joinList(closest.passed.map(passedPhrase), 'and', 20)} did`);
    if (closest.unknown.length > 0) parts.push(`no data for ${joinList(closest.unknown.map((c) => c.label))}`);
    return noMatch(`No ${noun.profile} matched. Closest: ${title(closest.profile)}, where ${parts.join('; ')}.`, closest);
  }
}

const nameOf = (profile: KbProfile) => (typeof profile.name === 'string' ? profile.name : '');

const VERDICT = { passed: 'pass', failed: 'fail', unknown: 'unknown' } as const;

/** The profile's checks as rows: what the reasoning says, as data. */
function verdicts(scored: Scored): { profile: { id: string; name: string }; criteria: CriterionVerdict[] } {
  return {
    profile: { id: String(scored.profile.id), name: nameOf(scored.profile) },
    criteria: scored.checks.map((c, k) => ({
      kind: publicKind(c.kind),
      label: c.label,
      status: VERDICT[c.status],
      expected: c.expected,
      value: c.actual,
      fields: scored.fields[k],
    })),
  };
}

function title(profile: KbProfile): string {
  const name = typeof profile.name === 'string' && profile.name.trim() ? profile.name.trim() : `#${String(profile.id)}`;
  return `"${name}"`;
}

function passedPhrase(c: Check): string {
  if (c.kind === 'exclusion') return `no exclusion applying (${c.expected})`;
  return c.assumed ? `${c.label} ${c.actual} (${c.assumed})` : `${c.label} ${c.actual}`;
}

function failedPhrase(c: Check): string {
  if (c.kind === 'exclusion') return `exclusion ${c.expected} (${c.actual})`;
  return `${c.label} ${c.actual} (expected ${c.expected})`;
}

function cap(text: string): string {
  return text.length <= MAX_REASONING_LENGTH ? text : `${text.slice(0, MAX_REASONING_LENGTH - 1)}…`;
}

/** `closest`, when there is one, is the profile the reasoning names and whose criteria it reports. */
function noMatch(reasoning: string, closest?: Scored): EvaluationResult {
  return {
    matched: false,
    id: null,
    name: '',
    reasoning: cap(reasoning),
    ...(closest ? verdicts(closest) : { profile: null, criteria: [] }),
  };
}
