/**
 * How a Buyer is judged against the workspace's active ICPs (company fit) and Personas (person
 * fit). The default engine reads criteria from the descriptions (`DefaultEvaluator`); another
 * engine, an LLM-backed one for instance, only has to implement this interface and be bound to
 * `EVALUATOR`.
 */
import type { SideEvaluation } from '../../buyers/buyer-evaluation';
import type { CompanyInfo, ContactInfo } from '../../buyers/buyer-shape';

/** An active ICP or Persona; `id` is its internal numeric id as a decimal string. */
export interface KbProfile {
  id: string;
  name: string;
  description: string;
  updatedAt?: string;
}

/**
 * `matched: false` always comes with `id: null` and `name: ''`; `reasoning` is a sentence or
 * two a person can read, naming the criteria that matched, failed or had no data. An engine that
 * judges criterion by criterion also reports them (`criteria`, of `profile`: the matched profile,
 * or the closest one), and the reasoning says what they say.
 */
export type EvaluationResult = SideEvaluation;

export interface Evaluator {
  /** `icps` in the workspace's order: among equally good matches the first one wins. */
  evaluateCompany(company: CompanyInfo, icps: readonly KbProfile[]): EvaluationResult;
  evaluatePerson(contact: ContactInfo, company: CompanyInfo, personas: readonly KbProfile[]): EvaluationResult;
}

export const EVALUATOR = Symbol('EVALUATOR');
