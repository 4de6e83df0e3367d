import { describeCriterion } from './domain/checks';
import { stageLabel, TYPE_LABEL } from './domain/company-terms';
import { Criterion, isLabel, linesOf, parseCriteria, sectionsOf, Subject } from './domain/criteria';
import { countryName, stateName } from './domain/geo';
import { NumberRange } from './domain/ranges';
import { FUNCTION_LABEL, industryLabel, TIER_LABEL } from './domain/taxonomy';
import { publicKind } from './profile-judge';

/** Every kind a criterion can have, as the API names them (`publicKind`). */
export const CRITERION_KINDS = [
  'industry',
  'keyword',
  'employees',
  'revenue',
  'country',
  'state',
  'funding_stage',
  'total_funding',
  'founded',
  'company_type',
  'title',
  'function',
  'seniority',
  'exclusion',
] as const;

/** One thing an exclusion rules out: `{"kind": "industry", "value": "Marketing & Advertising"}`. */
export interface ExcludedValue {
  kind: string;
  value: string;
}

/**
 * A range as read: `min` and `max` are null when open. Head counts and founding years are whole
 * numbers, so their bounds are given inclusive; an amount of money keeps a bound the description
 * excluded ("more than $10M") and says so.
 */
export interface ReadRange {
  min: number | null;
  max: number | null;
  min_exclusive: boolean;
  max_exclusive: boolean;
}

/** One criterion of a description as the default evaluator reads it, named the way the API names it. */
export interface CriterionReading {
  kind: string;
  /** The evaluator's name for it, as a reasoning uses it ("funding stage"). */
  label: string;
  /** Only an exclusion is negated: one criterion that rules out everything it names. */
  negated: boolean;
  /** What it asks for, as a person reads it; an exclusion lists each thing it rules out. */
  values: string[] | ExcludedValue[];
  ranges?: ReadRange[];
  /** ISO 4217 code of the amounts as written; amounts are compared without conversion. */
  currency?: string;
  /** Exactly the expectation the evaluator's reasoning states. */
  expected: string;
  /** The default a word was read as ("mid-market, read as 100–999"); null when the description gave it. */
  assumed: string | null;
  /** The same as a sentence ("mid-market read as 100–999 employees"); null without `assumed`. */
  assumption: string | null;
}

const CURRENCY_CODE: Record<string, string> = { $: 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY', 'CHF ': 'CHF', CA$: 'CAD', A$: 'AUD' };

/** Whole numbers: an excluded bound is the next number in. */
function wholeRange(r: NumberRange): ReadRange {
  return {
    min: r.min === null ? null : r.minExclusive ? Math.floor(r.min) + 1 : r.min,
    max: r.max === null ? null : r.maxExclusive ? Math.ceil(r.max) - 1 : r.max,
    min_exclusive: false,
    max_exclusive: false,
  };
}

function amountRange(r: NumberRange): ReadRange {
  return { min: r.min, max: r.max, min_exclusive: r.min !== null && r.minExclusive, max_exclusive: r.max !== null && r.maxExclusive };
}

const fn = (f: string) => FUNCTION_LABEL[f] ?? f;

/** Each thing an exclusion rules out, kind by kind in the order the criteria themselves come. */
function excludedValues(x: Extract<Criterion, { kind: 'exclusion' }>): ExcludedValue[] {
  const of = (kind: string, values: string[]) => values.map((value) => ({ kind, value }));
  return [
    ...of('industry', x.concepts.map(industryLabel)),
    ...of(
      'keyword',
      x.keywords.map((k) => k.text),
    ),
    ...of('country', x.countries.map(countryName)),
    ...of('state', x.states.map(stateName)),
    ...of(publicKind('funding'), x.stages.map(stageLabel)),
    ...of(
      'company_type',
      x.types.map((t) => TYPE_LABEL[t] ?? t),
    ),
    ...of(
      'title',
      x.titles.map((p) => p.text),
    ),
    ...of('function', x.functions.map(fn)),
    ...of(
      'seniority',
      x.tiers.map((t) => TIER_LABEL[t]),
    ),
  ];
}

/** The expectation of a criterion stated outright, without the words it was read from. */
const stated = (c: Criterion) => describeCriterion({ ...c, assumed: undefined } as Criterion).expected;

/** The values and ranges of a criterion; a range kind lists each range as the reasoning writes it. */
function valuesOf(c: Criterion): Pick<CriterionReading, 'values' | 'ranges' | 'currency'> {
  switch (c.kind) {
    case 'industry':
      return { values: [...c.concepts.map(industryLabel), ...c.keywords.map((k) => k.text)] };
    case 'employees':
      return { values: c.ranges.map((r) => stated({ ...c, ranges: [r] })), ranges: c.ranges.map(wholeRange) };
    case 'founded':
      return { values: [c.text], ranges: c.ranges.map(wholeRange) };
    case 'revenue':
    case 'total_funding':
      return {
        values: c.ranges.map((r) => stated({ ...c, ranges: [r] })),
        ranges: c.ranges.map(amountRange),
        currency: CURRENCY_CODE[c.currency] ?? c.currency.trim(),
      };
    case 'country':
      return { values: c.countries.map(countryName) };
    case 'state':
      return { values: c.states.map(stateName) };
    case 'funding':
      return { values: c.stages.map(stageLabel) };
    case 'company_type':
      return { values: c.types.map((t) => TYPE_LABEL[t] ?? t) };
    case 'title':
      return { values: c.patterns.map((p) => p.text) };
    case 'function':
      return { values: [...c.functions.map(fn), ...c.keywords.map((k) => k.text)] };
    case 'seniority':
      return { values: c.tiers.map((t) => TIER_LABEL[t]) };
    case 'exclusion':
      return { values: excludedValues(c) };
  }
}

/** "mid-market read as 100–999 employees", "growth stage read as Series B or a later private round". */
function assumptionOf(c: Criterion, shown: string): string | null {
  const words = 'assumed' in c ? c.assumed : undefined;
  if (words === undefined) return null;
  switch (c.kind) {
    case 'employees':
      return `${words} read as ${shown} employees`;
    case 'revenue':
      return `${words} read as revenue of ${shown}`;
    case 'total_funding':
      return `${words} read as total funding of ${shown}`;
    default:
      return `${words} read as ${shown}`;
  }
}

function reading(c: Criterion): CriterionReading {
  const { label, expected, assumed } = describeCriterion(c);
  return {
    kind: publicKind(c.kind, c.kind === 'industry' && c.concepts.length === 0),
    label,
    negated: c.kind === 'exclusion',
    ...valuesOf(c),
    expected,
    assumed: assumed ?? null,
    assumption: assumed === undefined ? null : assumptionOf(c, stated(c)),
  };
}

/** Whether the words before a colon ("Industries", "Company size") are a label the evaluator reads. */
export function isCriteriaLabel(words: string): boolean {
  return isLabel(words);
}

/**
 * The headings of a description that stand alone on their line, each with the stretch of text the
 * evaluator reads under it (`sectionsOf`): from the end of the heading's line to the end of the last
 * line under it (`from` when there is none). `text` is the heading's line.
 */
export function criteriaHeadings(description: string): Array<{ text: string; from: number; to: number }> {
  const lines = linesOf(description);
  return sectionsOf(lines.map((line) => line.text)).map((section) => {
    const heading = lines[section.heading];
    const last = section.items.length === 0 ? heading : lines[section.items[section.items.length - 1]];
    return { text: heading.text, from: heading.end, to: last.end };
  });
}

/**
 * The criteria the default evaluator reads in a description, in its order, as the API shows them.
 * Not cached: callers that read the same text again keep the result. An unreadable description
 * has no criteria, as it has none for the evaluator.
 */
export function readCriteria(subject: Subject, description: string): CriterionReading[] {
  let criteria: Criterion[];
  try {
    criteria = parseCriteria(description, subject);
  } catch {
    criteria = [];
  }
  return criteria.map(reading);
}
