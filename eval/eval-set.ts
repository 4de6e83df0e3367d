/**
 * The labelled evaluation set (`eval/sets/*.json`, format in `eval/README.md`) and its scoring:
 * every case is one Buyer judged against one description, and agrees when the evaluator's
 * `matched` is the label.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompanyInfo, ContactInfo } from '../src/modules/buyers/buyer-shape';
import type { Evaluator, KbProfile } from '../src/modules/pipeline/domain/evaluator';

export const GROUPS = [
  'negation',
  'seniority_range',
  'function_domain',
  'industry_hierarchy',
  'size_words',
  'funding',
  'geography',
  'general',
] as const;
export type Group = (typeof GROUPS)[number];
export const DIFFICULTIES = ['clear', 'near_miss'] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];
export type Subject = 'icp' | 'persona';

export interface EvalCase {
  id: string;
  group: Group;
  difficulty: Difficulty;
  expected: boolean;
  company: Partial<CompanyInfo>;
  contact?: Partial<ContactInfo>;
  note?: string;
}

export interface EvalDescription {
  id: string;
  subject: Subject;
  style: 'labelled' | 'prose' | 'mixed';
  description: string;
  cases: EvalCase[];
}

export interface CaseResult {
  file: string;
  description: EvalDescription;
  case: EvalCase;
  matched: boolean;
  agrees: boolean;
  reasoning: string;
}

export interface Tally {
  cases: number;
  agreed: number;
}

export interface EvalReport {
  results: CaseResult[];
  overall: Tally;
  byGroup: Record<string, Tally>;
  byDifficulty: Record<string, Tally>;
  bySubject: Record<string, Tally>;
  /** Cases labelled clear and `expected: false` that the evaluator matched: the costliest mistake. */
  clearFalsePositives: CaseResult[];
}

export const SETS_DIR = join(__dirname, 'sets');

/** Reads and checks every set file; a malformed case is an error naming its file and id. */
export function loadSets(dir = SETS_DIR): Array<{ file: string; descriptions: EvalDescription[] }> {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort();
  const ids = new Set<string>();
  return files.map((file) => {
    const descriptions = JSON.parse(readFileSync(join(dir, file), 'utf8')) as EvalDescription[];
    if (!Array.isArray(descriptions)) throw new Error(`${file}: not an array of descriptions`);
    for (const d of descriptions) {
      const where = `${file} ${String(d?.id)}`;
      if (typeof d?.id !== 'string' || ids.has(d.id)) throw new Error(`${where}: missing or repeated id`);
      ids.add(d.id);
      if (d.subject !== 'icp' && d.subject !== 'persona') throw new Error(`${where}: subject must be icp or persona`);
      if (typeof d.description !== 'string' || !d.description.trim()) throw new Error(`${where}: empty description`);
      if (!Array.isArray(d.cases) || d.cases.length === 0) throw new Error(`${where}: no cases`);
      for (const c of d.cases) {
        const at = `${file} ${String(c?.id)}`;
        if (typeof c?.id !== 'string' || ids.has(c.id)) throw new Error(`${at}: missing or repeated id`);
        ids.add(c.id);
        if (!(GROUPS as readonly string[]).includes(c.group)) throw new Error(`${at}: unknown group ${String(c.group)}`);
        if (!(DIFFICULTIES as readonly string[]).includes(c.difficulty)) throw new Error(`${at}: unknown difficulty`);
        if (typeof c.expected !== 'boolean') throw new Error(`${at}: expected must be true or false`);
        if (typeof c.company !== 'object' || c.company === null) throw new Error(`${at}: no company`);
        if (d.subject === 'persona' && typeof c.contact?.role?.title !== 'string')
          throw new Error(`${at}: a Persona case needs contact.role.title`);
      }
    }
    return { file, descriptions };
  });
}

function tally(into: Record<string, Tally>, key: string, agrees: boolean): void {
  const t = (into[key] ??= { cases: 0, agreed: 0 });
  t.cases += 1;
  if (agrees) t.agreed += 1;
}

/** Judges every case with `evaluator`, each description on its own as the workspace's only profile. */
export function score(evaluator: Evaluator, sets: ReturnType<typeof loadSets>): EvalReport {
  const results: CaseResult[] = [];
  const report: EvalReport = {
    results,
    overall: { cases: 0, agreed: 0 },
    byGroup: {},
    byDifficulty: {},
    bySubject: {},
    clearFalsePositives: [],
  };
  for (const { file, descriptions } of sets) {
    for (const description of descriptions) {
      const profile: KbProfile = { id: description.id, name: description.id, description: description.description };
      for (const c of description.cases) {
        const company = c.company as CompanyInfo;
        const outcome =
          description.subject === 'icp'
            ? evaluator.evaluateCompany(company, [profile])
            : evaluator.evaluatePerson((c.contact ?? {}) as ContactInfo, company, [profile]);
        const agrees = outcome.matched === c.expected;
        const result: CaseResult = { file, description, case: c, matched: outcome.matched, agrees, reasoning: outcome.reasoning };
        results.push(result);
        report.overall.cases += 1;
        if (agrees) report.overall.agreed += 1;
        tally(report.byGroup, c.group, agrees);
        tally(report.byDifficulty, c.difficulty, agrees);
        tally(report.bySubject, description.subject, agrees);
        if (!agrees && outcome.matched && c.difficulty === 'clear') report.clearFalsePositives.push(result);
      }
    }
  }
  return report;
}

export function agreement(t: Tally): number {
  return t.cases === 0 ? 1 : t.agreed / t.cases;
}
