import { FieldSources, sourcesOf, withSources } from '../buyers/buyer-evaluation';
import type { CompanyInfo, ContactInfo } from '../buyers/buyer-shape';
import { DefaultEvaluator, EvaluationResult, KbProfile } from '../pipeline/evaluator';
import { demoMarket, namesIn, ROLES, slugOf } from './demo-directory';

/** A company of the bulk seed with its ICP evaluation, a row of the `seed_companies` temporary table. */
export interface PoolCompany {
  n: number;
  domain: string;
  company: CompanyInfo;
  first_names: string[];
  last_names: string[];
  first_slugs: string[];
  last_slugs: string[];
  is_icp: boolean;
  icp_id: string | null;
  icp_name: string;
  icp_reasoning: string;
  icp_evaluation: EvaluationResult;
}

/** A role at a company with its Persona evaluation, a row of `seed_roles`. */
export interface PoolRole {
  company_n: number;
  role_n: number;
  title: string;
  function: string;
  seniority: string;
  is_persona: boolean;
  persona_id: string | null;
  persona_name: string;
  persona_reasoning: string;
  persona_evaluation: EvaluationResult;
}

export interface EvaluatedPool {
  companies: PoolCompany[];
  roles: PoolRole[];
  /** Role numbers repeated by how common the role is: a uniform pick from it is a weighted pick of a role. */
  rolePicks: number[];
  /**
   * Whether a role's verdict depends on the company: only when a Persona reads company criteria.
   * When it does not, each role is judged once and stored under company 0.
   */
  byCompany: boolean;
}

/** Persona criteria about the person alone; any other kind (an exclusion, a company size) reads the company too. */
const PERSON_KINDS = new Set(['title', 'function', 'seniority']);

const SEED_SOURCE = { type: 'enrichment', provider: 'seed' } as const;

/**
 * The companies and roles bulk Buyers are drawn from, each judged once by the pipeline's own
 * evaluator against the workspace's active ICPs and Personas: every person of a role at a company
 * gets the same verdict, so the SQL only has to copy it. Roles are the demo directory's, so a
 * title always comes with the function and seniority it implies.
 */
export function evaluatedPool(icps: readonly KbProfile[], personas: readonly KbProfile[], size = 300, seed = 7): EvaluatedPool {
  const evaluator = new DefaultEvaluator();
  const byCompany = personas.some((persona) => evaluator.criteriaOf('persona', persona).some((c) => !PERSON_KINDS.has(c.kind)));
  const companies: PoolCompany[] = [];
  const roles: PoolRole[] = [];
  for (const [index, { domain, ...company }] of demoMarket(size, seed).companies.entries()) {
    const n = index + 1;
    const names = namesIn(company.location.country);
    const companySources = sourcesOf({ company_info: company }, '', SEED_SOURCE);
    const icp = evaluator.evaluateCompany(company, icps);
    companies.push({
      n,
      domain,
      company,
      first_names: [...names.first],
      last_names: [...names.last],
      first_slugs: names.first.map(slugOf),
      last_slugs: names.last.map(slugOf),
      ...sideColumns('icp', icp, companySources),
    });
    if (!byCompany && n > 1) continue;
    for (const [r, role] of ROLES.entries()) {
      const contact = { role: { title: role.title, function: role.function, seniority: role.seniority } } as ContactInfo;
      const sources: FieldSources = { ...companySources, ...sourcesOf({ contact_info: contact }, '', SEED_SOURCE) };
      const persona = evaluator.evaluatePerson(contact, company, personas);
      roles.push({ company_n: byCompany ? n : 0, role_n: r + 1, ...contact.role, ...sideColumns('persona', persona, sources) });
    }
  }
  const rolePicks = ROLES.flatMap((role, r) => Array.from({ length: role.weight }, () => r + 1));
  return { companies, roles, rolePicks, byCompany };
}

/** One side's columns as the pipeline writes them: id and name only on a match. */
function sideColumns<S extends 'icp' | 'persona'>(side: S, result: EvaluationResult, sources: FieldSources) {
  return {
    [`is_${side}`]: result.matched,
    [`${side}_id`]: result.matched ? result.id : null,
    [`${side}_name`]: result.matched ? result.name : '',
    [`${side}_reasoning`]: result.reasoning,
    [`${side}_evaluation`]: withSources(result, sources),
  } as S extends 'icp'
    ? Pick<PoolCompany, 'is_icp' | 'icp_id' | 'icp_name' | 'icp_reasoning' | 'icp_evaluation'>
    : Pick<PoolRole, 'is_persona' | 'persona_id' | 'persona_name' | 'persona_reasoning' | 'persona_evaluation'>;
}
