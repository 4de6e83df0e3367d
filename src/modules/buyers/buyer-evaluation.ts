/**
 * A Buyer's evaluation as data: each criterion of the matched (or closest) ICP and Persona with
 * its verdict, the Buyer's value it was checked against, and where that value came from.
 */

/** Where a Buyer's field got its value: the activity's own hints, or an enrichment provider. */
export type FieldSource = { type: 'activity'; activity_id: string } | { type: 'enrichment'; provider: string };

/** Per field path ("company_info.industries", "contact_info.role.title"), its source. */
export type FieldSources = Record<string, FieldSource>;

export type Verdict = 'pass' | 'fail' | 'unknown';

export interface CriterionVerdict {
  /** As the API names kinds: industry, employees, revenue, country, state, funding_stage… */
  kind: string;
  label: string;
  status: Verdict;
  /** What the profile asks for, as the reasoning quotes it. */
  expected: string;
  /** The Buyer's value it was checked against; `''` when the Buyer has none. */
  value: string;
  /** The Buyer fields the value was read from, as the evaluator reports them; replaced by `source` when stored. */
  fields?: string[];
  /** The source of the first of `fields` that has one; null when unknown (no value, or data from before sources were kept). */
  source?: FieldSource | null;
}

/** The profile a verdict is about: the matched one, or else the closest. `id` is internal. */
export interface JudgedProfile {
  id: string;
  name: string;
}

/** One side (ICP or Persona) of an evaluation as the pipeline stores it. */
export interface SideEvaluation {
  matched: boolean;
  id: string | null;
  name: string;
  reasoning: string;
  /** The matched profile, or the closest when none matched; absent from engines that do not report criteria. */
  profile?: JudgedProfile | null;
  criteria?: CriterionVerdict[];
}

export interface BuyerEvaluation {
  icp: SideEvaluation;
  persona: SideEvaluation;
}

/** A Buyer's latest evaluation, and the activity (internal id) it was made for. */
export interface StoredBuyerEvaluation extends BuyerEvaluation {
  activity_id: string | null;
}

/** A leaf the way `mergeKnown` sees it: a non-empty list, or a value that is not empty, zero or false. */
function isKnown(value: unknown): boolean {
  return Array.isArray(value) ? value.length > 0 : value !== '' && value !== 0 && value !== false && value !== undefined && value !== null;
}

/** Every known leaf of `value` under `prefix`, attributed to `source`. */
export function sourcesOf(value: unknown, prefix: string, source: FieldSource, into: FieldSources = {}): FieldSources {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value)) sourcesOf(child, prefix ? `${prefix}.${key}` : key, source, into);
  } else if (isKnown(value)) {
    into[prefix] = source;
  }
  return into;
}

/** One side's verdict rows with the source of each value looked up (a value that is empty has none), as stored. */
export function withSources(side: SideEvaluation, sources: FieldSources): SideEvaluation {
  if (!side.criteria) return side;
  const criteria = side.criteria.map(({ fields, ...row }) => {
    const field = row.value ? fields?.find((f) => sources[f] !== undefined) : undefined;
    return { ...row, source: field ? sources[field] : null };
  });
  return { ...side, criteria };
}
