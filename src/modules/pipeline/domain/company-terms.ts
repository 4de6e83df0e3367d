/**
 * Funding stages, company types and company sizes, as descriptions and providers spell them
 * ("Series A", "series_a", "Post-IPO Equity"; "Privately Held", "Non-profit", "Government
 * Agency"; "mid-market", "SMBs", "seven-figure revenue"). This file is the vocabulary: the stage
 * ladder and its words, the type words, and the size words with the ranges they are read as.
 */
import type { NumberRange } from './ranges';
import { joinList, PhraseIndex, stem, Token, tokenize } from './text';

// ---------------------------------------------------------------------------------------------
// Funding stages

const SERIES_LETTERS = 'abcdefghij'.split('');

/**
 * The stage ladder: private rounds in the order a company raises them, then IPO. Every stretch a
 * description names ("Seed to Series B", "Series B+", "growth stage") is a slice of it. "angel"
 * sits beside pre-seed and seed; "growth" is a late private round without a letter ("Growth
 * Equity", "pre-IPO"). Private equity, debt, grants and bootstrapping are stages off the ladder: a
 * Buyer can be at one, but no stretch includes it.
 */
export const STAGES: readonly string[] = ['pre_seed', 'angel', 'seed', ...SERIES_LETTERS.map((l) => `series_${l}`), 'growth', 'ipo'];

/** The last private round: open ends ("Series B+", "Series C or later") stop here, before IPO. */
const LAST_PRIVATE = 'growth';

const OTHER_STAGE_LABEL: Record<string, string> = {
  pre_seed: 'Pre-seed',
  angel: 'Angel',
  seed: 'Seed',
  growth: 'Growth',
  ipo: 'IPO/public',
  private_equity: 'Private equity',
  debt: 'Debt',
  grant: 'Grant',
  bootstrapped: 'Bootstrapped',
};

export function stageLabel(stage: string): string {
  const series = /^series_([a-j])$/.exec(stage);
  return series ? `Series ${series[1].toUpperCase()}` : (OTHER_STAGE_LABEL[stage] ?? stage);
}

function slice(from: string, to: string): string[] {
  return STAGES.slice(STAGES.indexOf(from), STAGES.indexOf(to) + 1);
}

interface StageTerm {
  /** As descriptions and providers write it; matched on stems, hyphens and underscores as spaces. */
  phrases: string[];
  stages: string[];
  /** For a word that stands for several rounds, the name a reasoning gives it ("growth stage, read as …"). */
  term?: string;
  /** A stage only in a list (under a "Funding:" label, or a provider's value): in prose the word means something else. */
  listOnly?: boolean;
}

/**
 * Words that name a round or a stretch of rounds. Lettered rounds ("Series A", "series_b",
 * "B round", "Series A-C", "Series B+") are read by `scanStages` itself.
 */
/** The rounds "venture-backed" stands for, and the term a reasoning names. */
export const VENTURE_STAGES: readonly string[] = ['pre_seed', ...slice('seed', LAST_PRIVATE)];
export const VENTURE_TERM = 'venture-backed';

const STAGE_TERMS: readonly StageTerm[] = [
  { phrases: ['pre seed', 'preseed', 'pre seed stage', 'pre seed round'], stages: ['pre_seed'] },
  { phrases: ['angel round', 'angel stage', 'angel funded', 'angel backed'], stages: ['angel'] },
  { phrases: ['angel'], stages: ['angel'], listOnly: true },
  { phrases: ['seed', 'seed stage', 'seed round', 'seed funded', 'seed funding'], stages: ['seed'] },
  { phrases: ['pre series a'], stages: slice('pre_seed', 'seed'), term: 'pre-Series A' },
  { phrases: ['early stage', 'early stage venture'], stages: slice('pre_seed', 'series_a'), term: 'early stage' },
  { phrases: ['growth stage', 'expansion stage'], stages: slice('series_b', LAST_PRIVATE), term: 'growth stage' },
  { phrases: ['growth', 'expansion'], stages: slice('series_b', LAST_PRIVATE), term: 'growth stage', listOnly: true },
  { phrases: ['late stage', 'late stage venture', 'later stage'], stages: slice('series_c', LAST_PRIVATE), term: 'late stage' },
  { phrases: ['growth equity', 'growth round', 'growth funding', 'pre ipo'], stages: ['growth'] },
  {
    phrases: ['vc backed', 'vc funded', 'venture backed', 'venture funded', 'venture capital backed', 'venture capital funded'],
    stages: [...VENTURE_STAGES],
    term: VENTURE_TERM,
  },
  { phrases: ['ipo', 'post ipo', 'post ipo equity', 'post ipo debt', 'post ipo secondary', 'ipo stage', 'went public'], stages: ['ipo'] },
  { phrases: ['public', 'publicly traded', 'listed', 'publicly listed', 'public company'], stages: ['ipo'], listOnly: true },
  { phrases: ['private equity', 'private equity round'], stages: ['private_equity'], listOnly: true },
  // Said of a company in prose too: "PE-backed or VC-backed".
  { phrases: ['pe backed', 'pe owned', 'private equity backed', 'private equity owned'], stages: ['private_equity'] },
  { phrases: ['debt financing', 'debt', 'venture debt'], stages: ['debt'], listOnly: true },
  { phrases: ['grant'], stages: ['grant'], listOnly: true },
  { phrases: ['bootstrapped', 'self funded'], stages: ['bootstrapped'], listOnly: true },
];

/** After a round, opening it upwards: "Series B and later", "Seed or above", "B and beyond". */
const LATER = new Set(['later', 'onward', 'onwards', 'beyond', 'above', 'plus', 'up', 'higher', 'after']);
/** Alone after a round, opening it upwards: "Series B onwards". */
const ONWARDS = new Set(['onward', 'onwards']);
/** After a round, opening it downwards: "Series A or earlier", "Seed and below". */
const EARLIER = new Set(['earlier', 'below', 'before', 'lower', 'under']);
/** Between two rounds, everything from one to the other: "Seed to Series B", "Series A through C". */
const SPAN = new Set(['to', 'through', 'thru', 'until', 'till']);

/** Words whose stage meaning is safe in running prose. */
const PROSE_STAGES = new PhraseIndex<StageTerm>('stem');
/** Every stage word, for lists under a "Funding:" label and providers' values. */
const LIST_STAGES = new PhraseIndex<StageTerm>('stem');
for (const term of STAGE_TERMS) {
  for (const phrase of term.phrases) {
    LIST_STAGES.add(phrase, term);
    if (!term.listOnly) PROSE_STAGES.add(phrase, term);
  }
}

/**
 * A dash between two stages, "Seed – Series B": the tokenizer drops dashes, so a description is
 * rewritten with `'$1 to $2'` before it is read.
 */
const STAGE_WORD = String.raw`(?:pre[\s-]?seed|seed|angel|series\s+[a-j]|growth|ipo)`;
export const STAGE_DASH = new RegExp(String.raw`\b(${STAGE_WORD})\s*[-‐‑‒–—]\s*(${STAGE_WORD})\b`, 'gi');

/** Words that say a provider does not know the stage: no data, not a failed match. */
const UNKNOWN_STAGE = /\b(?:unknown|undisclosed|not\s+specified|unspecified|n\/?a|none|other)\b/i;

export interface StageHit {
  start: number;
  end: number;
  stages: string[];
  label: string;
  /** Set when a word stood for several rounds ("growth stage"): the reasoning says how it was read. */
  term?: string;
}

/**
 * Stages named in `tokens`: words from `STAGE_TERMS`, and lettered rounds with lists ("Series A
 * and B"), spans ("Series A to C", "Seed to Series B") and open ends ("Series B+", "Series B and
 * later", "at least Series B", "Series A or earlier"). `prose` false reads a list (a "Funding:"
 * value, a provider's value), where list-only words and bare letters ("A, B", "B and beyond") count.
 */
export function scanStages(tokens: readonly Token[], consumed: boolean[], prose: boolean): StageHit[] {
  const hits: StageHit[] = [];
  const index = prose ? PROSE_STAGES : LIST_STAGES;
  for (let i = 0; i < tokens.length; i++) {
    if (consumed[i] || tokens[i].boundary) continue;
    let hit: StageHit | null = null;
    if (tokens[i].word === 'series') hit = readSeries(tokens, i, i + 1, consumed);
    else if (isRoundLetter(tokens, i, prose)) hit = readSeries(tokens, i, i, consumed);
    if (!hit) {
      const found = index.longestAt(tokens, i, { consumed });
      if (found) {
        const words = tokens.slice(found.start, found.end).map((t) => t.word);
        hit = { start: found.start, end: found.end, stages: found.value.stages, label: found.value.term ?? words.join(' ') };
        if (found.value.term) hit.term = found.value.term;
        const open =
          found.value.stages.length === 1 && STAGES.includes(found.value.stages[0])
            ? openEnd(tokens, found.end, found.value.stages[0])
            : null;
        if (open) hit = { start: found.start, end: open.end, stages: open.stages, label: describeStages(open.stages) };
      }
    }
    if (!hit) continue;
    hit = withPrefix(tokens, hit, consumed);
    for (let k = hit.start; k < hit.end; k++) consumed[k] = true;
    hits.push(hit);
    i = hit.end - 1;
  }
  return joinSpans(tokens, hits, consumed);
}

/** A letter as a round without "Series": "B round" anywhere, "A, B" or "B and beyond" in a list. */
function isRoundLetter(tokens: readonly Token[], i: number, prose: boolean): boolean {
  const t = tokens[i];
  if (!/^[A-J]$/.test(t.text)) return false;
  const next = tokens[i + 1];
  const previous = tokens[i - 1];
  // "A round of funding" opening a sentence is the article.
  if (next && (next.word === 'round' || next.word === 'rounds'))
    return !prose || t.text !== 'A' || (previous !== undefined && !previous.boundary);
  if (prose) return false;
  const alone = (n: Token | undefined) =>
    !n || n.boundary || ['and', 'or', 'to', 'through', 'thru'].includes(n.word) || ONWARDS.has(n.word);
  return (!previous || previous.boundary || previous.word === 'and' || previous.word === 'or') && alone(next);
}

function letterAt(tokens: readonly Token[], i: number, consumed: boolean[]): string | null {
  const t = tokens[i];
  if (!t || t.boundary || consumed[i]) return null;
  return /^[a-j]$/.test(t.word) ? t.word : null;
}

/** Lettered rounds from `at`: "A", "A and B", "A, B or C", "A to C", "B+", "B and later", "C round". */
function readSeries(tokens: readonly Token[], start: number, at: number, consumed: boolean[]): StageHit | null {
  const first = letterAt(tokens, at, consumed);
  if (!first) return null;
  const stages = new Set<string>([`series_${first}`]);
  let last = first;
  let i = at + 1;
  for (;;) {
    const t = tokens[i];
    if (!t) break;
    const open = openEnd(tokens, i, `series_${last}`);
    if (open) {
      for (const s of open.stages) stages.add(s);
      i = open.end;
      break;
    }
    const span = SPAN.has(t.word);
    const list = t.word === 'and' || t.word === 'or' || t.word === ',';
    if (!span && !list) break;
    const skip = tokens[i + 1]?.word === 'series' ? 2 : 1;
    const next = letterAt(tokens, i + skip, consumed);
    if (!next) break;
    if (span) for (const s of slice(`series_${last}`, `series_${next}`)) stages.add(s);
    stages.add(`series_${next}`);
    last = next;
    i += skip + 1;
  }
  if (tokens[i]?.word === 'round' || tokens[i]?.word === 'rounds') i++;
  const ordered = STAGES.filter((s) => stages.has(s));
  return { start, end: i, stages: ordered, label: describeStages(ordered) };
}

/** "+", "onwards", "and later", "or earlier" right after the round `from`, at `i`. */
function openEnd(tokens: readonly Token[], i: number, from: string): { stages: string[]; end: number } | null {
  const t = tokens[i];
  if (!t) return null;
  if (t.word === '+' || ONWARDS.has(t.word)) return { stages: slice(from, LAST_PRIVATE), end: i + 1 };
  const next = tokens[i + 1];
  if ((t.word === 'and' || t.word === 'or') && next && !next.boundary) {
    if (LATER.has(next.word)) return { stages: slice(from, LAST_PRIVATE), end: i + 2 };
    if (EARLIER.has(next.word)) return { stages: slice('pre_seed', from), end: i + 2 };
  }
  return null;
}

/** "at least Series B" opens a single round upwards, "up to Series B" downwards. */
function withPrefix(tokens: readonly Token[], hit: StageHit, consumed: boolean[]): StageHit {
  if (hit.stages.length !== 1 || !STAGES.includes(hit.stages[0]) || hit.start < 2) return hit;
  const [a, b] = [tokens[hit.start - 2], tokens[hit.start - 1]];
  if (consumed[hit.start - 2] || consumed[hit.start - 1] || a.boundary || b.boundary) return hit;
  const prefix = `${a.word} ${b.word}`;
  const stages = prefix === 'at least' ? slice(hit.stages[0], LAST_PRIVATE) : prefix === 'up to' ? slice('pre_seed', hit.stages[0]) : null;
  return stages ? { start: hit.start - 2, end: hit.end, stages, label: describeStages(stages) } : hit;
}

/** "Seed to Series B", "from pre-seed through Series A", "between Seed and Series B": one stretch of the ladder. */
function joinSpans(tokens: readonly Token[], hits: StageHit[], consumed: boolean[]): StageHit[] {
  const out: StageHit[] = [];
  for (const hit of hits) {
    const previous = out[out.length - 1];
    const between = previous ? tokens.slice(previous.end, hit.start) : [];
    const span =
      between.length === 1 && (SPAN.has(between[0].word) || (between[0].word === 'and' && tokens[previous.start - 1]?.word === 'between'));
    const rungs = (h: StageHit) => h.stages.map((s) => STAGES.indexOf(s));
    if (previous && span && [...rungs(previous), ...rungs(hit)].every((r) => r >= 0)) {
      const low = Math.min(...rungs(previous), ...rungs(hit));
      const high = Math.max(...rungs(previous), ...rungs(hit));
      const stages = STAGES.slice(low, high + 1);
      consumed[previous.end] = true;
      out[out.length - 1] = { start: previous.start, end: hit.end, stages, label: describeStages(stages) };
    } else {
      out.push(hit);
    }
  }
  return out;
}

/**
 * Stages as a reasoning shows them, stretches of the ladder shortened: "Series A or Series B",
 * "Pre-seed to Series A", "Series B or a later private round".
 */
export function describeStages(stages: readonly string[]): string {
  const rungs = STAGES.filter((s) => stages.includes(s));
  const parts: string[] = [];
  for (let k = 0; k < rungs.length;) {
    let end = k;
    while (end + 1 < rungs.length && STAGES.indexOf(rungs[end + 1]) === STAGES.indexOf(rungs[end]) + 1) end++;
    if (end - k >= 2) {
      parts.push(
        rungs[end] === LAST_PRIVATE
          ? `${stageLabel(rungs[k])} or a later private round`
          : `${stageLabel(rungs[k])} to ${stageLabel(rungs[end])}`,
      );
    } else {
      parts.push(...rungs.slice(k, end + 1).map(stageLabel));
    }
    k = end + 1;
  }
  parts.push(...stages.filter((s) => !STAGES.includes(s)).map(stageLabel));
  return joinList(parts, 'or');
}

/**
 * A Buyer's `latest_funding_stage`: the stage, `null` when the provider says it does not know,
 * or `'other'` for a real value outside the stage list (a grant, a corporate round).
 */
export function stageOf(value: string): string | null {
  const text = value.trim();
  if (!text) return null;
  const tokens = tokenize(text.replace(/_/g, ' '));
  const hits = scanStages(tokens, new Array<boolean>(tokens.length).fill(false), false);
  const found = hits.flatMap((h) => h.stages);
  if (found.length > 0) return found[found.length - 1];
  return UNKNOWN_STAGE.test(text) ? null : 'other';
}

// ---------------------------------------------------------------------------------------------
// Company types

export const TYPE_LABEL: Record<string, string> = {
  public: 'public',
  private: 'private',
  nonprofit: 'nonprofit',
  government: 'government',
  education: 'educational',
  partnership: 'partnership',
  self_employed: 'self-employed',
};

const ORG_NOUNS = [
  'company',
  'firm',
  'corporation',
  'business',
  'organization',
  'organisation',
  'enterprise',
  'entity',
  'org',
  'corp',
  'institution',
];

/** Type words that are safe in running prose: "public" alone is too common to mean listed. */
export const PROSE_TYPES = new PhraseIndex<string>('stem');
/** Type words under a "Company type:" label, or in a Buyer's `company_type`. */
export const LIST_TYPES = new PhraseIndex<string>('stem');
const type = (id: string, phrases: string[], proseToo = true) => {
  for (const p of phrases) {
    LIST_TYPES.add(p, id);
    if (proseToo) PROSE_TYPES.add(p, id);
  }
};
type('public', ['public', 'listed', 'public limited company', 'plc'], false);
type('public', [
  'publicly traded',
  'publicly listed',
  'publicly held',
  'publicly quoted',
  'stock exchange listed',
  ...ORG_NOUNS.flatMap((n) => [`public ${n}`, `listed ${n}`, `publicly traded ${n}`]),
]);
type('private', ['private', 'private limited company'], false);
type('private', ['privately held', 'privately owned', 'private held', ...ORG_NOUNS.map((n) => `private ${n}`)]);
type('nonprofit', [
  'nonprofit',
  'nonprofits',
  'non profit',
  'not for profit',
  'npo',
  'ngo',
  'charity',
  'charities',
  'charitable',
  'charitable organization',
  'charitable organisation',
  'nonprofit organization',
  'nonprofit organisation',
  'nongovernmental organization',
  'nongovernmental organisation',
]);
type('government', [
  'government',
  'governments',
  'governmental',
  'government agency',
  'government agencies',
  'government body',
  'government bodies',
  'government entity',
  'government entities',
  'government organization',
  'government organisation',
  'public sector',
  'state owned',
  'state owned enterprise',
  'federal agencies',
  'public administration',
]);
type('education', ['educational', 'educational institution', 'educational institutions', 'education institution'], false);
type('partnership', ['partnership'], false);
type('self_employed', ['self employed', 'sole proprietorship', 'self owned', 'freelance'], false);

/** A Buyer's `company_type` ("Privately Held", "Public Company", "Non Profit"), or null when unrecognised. */
export function companyTypeOf(value: string): string | null {
  const text = value.trim().replace(/_/g, ' ');
  if (!text) return null;
  const hits = LIST_TYPES.scan(tokenize(text));
  return hits.length > 0 ? hits[0].value : null;
}

// ---------------------------------------------------------------------------------------------
// Company sizes

/** Size words name a head count or an amount of revenue (money raised, after "raised"). */
export type SizeMeasure = 'employees' | 'revenue' | 'funding';

interface SizeTerm {
  /** The name a reasoning gives it: "employees 250 (mid-market, read as 100–999)". */
  label: string;
  measure: 'employees' | 'revenue';
  range: NumberRange;
  /** As written; matched on stems, hyphens as spaces ("mid-sized", "mid sized", "7-figure"). */
  phrases: string[];
  /**
   * `adjective`: a size only before a company noun or an industry, possibly through other size
   * words ("small law firms", "small and mid-sized businesses"); not in "small teams".
   * `market`: also the name of a market; before a product word ("enterprise software", "SMB
   * lending", "startup accelerators") it says whom a company sells to, not how big it is.
   * `amount`: money, unless a deal word follows ("seven-figure deals").
   */
  use?: 'adjective' | 'market' | 'amount';
}

const employees = (min: number, max: number | null): NumberRange => ({ min, max, minExclusive: false, maxExclusive: false });
const money = (min: number, below: number): NumberRange => ({ min, max: below, minExclusive: false, maxExclusive: true });

/**
 * Size words without numbers and the ranges they are read as, the product's documented defaults:
 * startup 1–50 employees, SMB / small business 1–99, mid-market 100–999, enterprise 1,000+;
 * "N-figure" revenue is the amounts with N digits (seven-figure: $1M to under $10M). Written-out
 * forms combine: "small and medium-sized businesses" is SMB plus mid-market, 1–999.
 */
const SIZE_TERMS: readonly SizeTerm[] = [
  { label: 'startup', measure: 'employees', range: employees(1, 50), use: 'market', phrases: ['startup', 'start up', 'start ups'] },
  { label: 'SMB', measure: 'employees', range: employees(1, 99), use: 'market', phrases: ['smb', 'sme', 'small business'] },
  {
    label: 'SMB',
    measure: 'employees',
    range: employees(1, 99),
    phrases: ['small company', 'small firm', 'small organization', 'small organisation', 'small enterprise', 'mom and pop'],
  },
  {
    label: 'SMB',
    measure: 'employees',
    range: employees(1, 99),
    use: 'adjective',
    phrases: ['small', 'smaller', 'small sized', 'small size'],
  },
  {
    label: 'mid-market',
    measure: 'employees',
    range: employees(100, 999),
    phrases: ['mid market', 'midmarket', 'middle market', 'mid sized', 'midsized', 'mid size', 'midsize', 'medium sized', 'medium size'],
  },
  {
    label: 'mid-market',
    measure: 'employees',
    range: employees(100, 999),
    phrases: ['medium business', 'medium company', 'medium enterprise', 'medium firm', 'medium organization', 'medium organisation'],
  },
  { label: 'mid-market', measure: 'employees', range: employees(100, 999), use: 'adjective', phrases: ['medium'] },
  {
    label: 'enterprise',
    measure: 'employees',
    range: employees(1000, null),
    use: 'market',
    phrases: ['enterprise', 'enterprise level', 'enterprise sized', 'enterprise size'],
  },
  {
    label: 'enterprise',
    measure: 'employees',
    range: employees(1000, null),
    phrases: [
      'large enterprise',
      'large corporate',
      'multinationals',
      'fortune 50',
      'fortune 100',
      'fortune 500',
      'fortune 1000',
      'fortune global 500',
      'global 2000',
      'forbes global 2000',
      's and p 500',
      'ftse 100',
      'ftse 250',
    ],
  },
  {
    label: 'enterprise',
    measure: 'employees',
    range: employees(1000, null),
    use: 'adjective',
    phrases: ['large', 'larger', 'big', 'bigger', 'large sized', 'multinational'],
  },
  { label: 'six-figure', measure: 'revenue', range: money(1e5, 1e6), use: 'amount', phrases: ['six figure', '6 figure'] },
  { label: 'seven-figure', measure: 'revenue', range: money(1e6, 1e7), use: 'amount', phrases: ['seven figure', '7 figure'] },
  { label: 'eight-figure', measure: 'revenue', range: money(1e7, 1e8), use: 'amount', phrases: ['eight figure', '8 figure'] },
  { label: 'nine-figure', measure: 'revenue', range: money(1e8, 1e9), use: 'amount', phrases: ['nine figure', '9 figure'] },
];

/** Nouns an `adjective` size word can describe; industries ("small law firms") count too. */
const COMPANY_NOUNS = new Set(
  [
    ...ORG_NOUNS,
    'account',
    'customer',
    'client',
    'brand',
    'player',
    'vendor',
    'provider',
    'shop',
    'store',
    'operator',
    'group',
    'merchant',
    'seller',
    'manufacturer',
    'retailer',
    'producer',
    'supplier',
    'distributor',
    'practice',
    'agency',
    'bank',
    'insurer',
    'lender',
    'publisher',
    'employer',
    'corporate',
  ].map(stem),
);
/** Product words after a `market` size word: the market served, not the company's size. */
const MARKET_PRODUCTS = new Set(
  [
    'software',
    'saas',
    'tech',
    'technology',
    'solution',
    'platform',
    'app',
    'application',
    'tool',
    'tooling',
    'product',
    'cloud',
    'security',
    'cybersecurity',
    'information',
    'data',
    'ai',
    'analytics',
    'sales',
    'marketing',
    'lending',
    'loan',
    'banking',
    'payment',
    'payroll',
    'insurance',
    'accounting',
    'crm',
    'erp',
    'hr',
    'grade',
    'ready',
    'class',
    'architecture',
    'resource',
    'search',
    'risk',
    'edition',
    'plan',
    'pricing',
    'license',
    'licence',
    'accelerator',
    'incubator',
    'studio',
    'ecosystem',
    'program',
    'programme',
    'community',
    'event',
    'competition',
    'investor',
    'hub',
  ].map(stem),
);
/** Deal words: after a size word, a deal's size, not the company's ("seven-figure deals", "enterprise contracts"). */
const DEAL_WORDS = new Set(
  ['deal', 'contract', 'budget', 'salary', 'salaries', 'spend', 'acv', 'ticket', 'check', 'cheque', 'price', 'opportunity'].map(stem),
);
/** After an `adjective` size word and an industry, the noun it describes is not a company ("small finance teams"). */
const NOT_COMPANY_NOUNS = new Set(
  ['team', 'department', 'function', 'unit', 'office', 'budget', 'margin', 'volume', 'share', 'model', 'project', 'role'].map(stem),
);
/** Verbs that make a size word the size of someone's customers ("vendors selling to SMBs"), unless "we" sell. */
const SERVES = new Set([
  'sell',
  'sells',
  'selling',
  'serve',
  'serves',
  'serving',
  'service',
  'services',
  'servicing',
  'supply',
  'supplies',
  'supplying',
]);
const WE = new Set(['we', 'our', 'us', 'i']);
/** Between size words: a list ("SMB and mid-market", "SMB + mid-market") or a span ("mid-market to enterprise"). */
const SIZE_JOINS = new Set(['and', 'or', ',', '/', '+', 'plus', 'to', 'through', 'thru']);
const SIZE_SPANS = new Set(['to', 'through', 'thru']);
/** Before an amount word, money raised rather than revenue: "raised seven figures". */
const RAISED = new Set(['raised', 'raise', 'raising', 'funding', 'funded']);

const SIZE_INDEX = new PhraseIndex<SizeTerm>('stem');
for (const term of SIZE_TERMS) for (const phrase of term.phrases) SIZE_INDEX.add(phrase, term);

export interface SizeHit {
  start: number;
  /** Exclusive. */
  end: number;
  measure: SizeMeasure;
  range: NumberRange;
  /** "mid-market", "mid-market to enterprise". */
  label: string;
}

/**
 * Size words in `tokens` and the ranges they stand for. `industryAt` gives the length of an
 * industry phrase starting at a token (0 for none): a word that starts a longer industry phrase
 * belongs to the industry ("enterprise software", "big data"), and an industry after an adjective
 * is what the adjective describes ("large banks").
 */
export function scanSizes(
  tokens: readonly Token[],
  consumed: boolean[],
  industryAt: (tokens: readonly Token[], i: number) => number,
): SizeHit[] {
  const found: Array<{ start: number; end: number; term: SizeTerm }> = [];
  for (let i = 0; i < tokens.length; i++) {
    const hit = SIZE_INDEX.longestAt(tokens, i, { consumed });
    if (!hit || industryAt(tokens, i) > hit.end - hit.start) continue;
    found.push({ start: hit.start, end: hit.end, term: hit.value });
    i = hit.end - 1;
  }
  // Words joined by "and", "or", "+", "to"… are read together: what follows the last one decides.
  const groups: Array<{ hits: typeof found; joins: string[] }> = [];
  for (const hit of found) {
    const group = groups[groups.length - 1];
    const previous = group?.hits[group.hits.length - 1];
    // Right after another size word, it is the noun: "mid-sized enterprises", "SMB startups".
    if (previous && previous.end === hit.start) continue;
    const between = previous ? tokens.slice(previous.end, hit.start) : [];
    if (group && between.length === 1 && SIZE_JOINS.has(between[0].word)) {
      group.hits.push(hit);
      group.joins.push(between[0].word);
    } else {
      groups.push({ hits: [hit], joins: [] });
    }
  }
  const out: SizeHit[] = [];
  for (const { hits, joins } of groups) {
    const last = hits[hits.length - 1];
    const next = tokens[last.end];
    const nextStem = next && !next.boundary ? next.stem : '';
    if (DEAL_WORDS.has(nextStem)) continue;
    if (hits.some((h) => h.term.use === 'market') && MARKET_PRODUCTS.has(nextStem)) continue;
    if (servedByOthers(tokens, hits[0].start)) continue;
    const described = last.term.use !== 'adjective' || describesCompany(tokens, last.end, industryAt);
    let previous: SizeHit | null = null;
    hits.forEach((hit, k) => {
      if (hit.term.use === 'adjective' && !described) {
        previous = null;
        return;
      }
      const measure = hit.term.measure === 'revenue' && raisedBefore(tokens, hits[0].start) ? 'funding' : hit.term.measure;
      const own: SizeHit = { start: hit.start, end: hit.end, measure, range: hit.term.range, label: hit.term.label };
      for (let t = hit.start; t < hit.end; t++) consumed[t] = true;
      if (previous && previous.measure === measure && SIZE_SPANS.has(joins[k - 1])) {
        const merged: SizeHit = {
          start: previous.start,
          end: hit.end,
          measure,
          range: hull(previous.range, own.range),
          label: previous.label === own.label ? own.label : `${previous.label} to ${own.label}`,
        };
        out[out.length - 1] = merged;
        previous = merged;
      } else {
        out.push(own);
        previous = own;
      }
    });
  }
  return out;
}

/**
 * Whether a company noun or an industry follows, after at most one other word ("small B2B
 * software companies", "large US banks"), and the industry is not itself describing a
 * non-company noun ("small finance teams").
 */
function describesCompany(tokens: readonly Token[], at: number, industryAt: (tokens: readonly Token[], i: number) => number): boolean {
  for (let i = at; i < Math.min(tokens.length, at + 2); i++) {
    const t = tokens[i];
    if (t.boundary) return false;
    if (COMPANY_NOUNS.has(t.stem)) return true;
    const industry = industryAt(tokens, i);
    if (industry > 0) {
      const after = tokens[i + industry];
      return !after || after.boundary || !NOT_COMPANY_NOUNS.has(after.stem);
    }
  }
  return false;
}

/** "Vendors selling to SMBs", "fintechs serving startups": the customers' size; "we sell to SMBs" is ours. */
function servedByOthers(tokens: readonly Token[], at: number): boolean {
  for (let i = at - 1; i >= Math.max(0, at - 3); i--) {
    if (tokens[i].boundary) return false;
    if (!SERVES.has(tokens[i].word)) continue;
    for (let k = i - 1; k >= Math.max(0, i - 4); k--) {
      if (tokens[k].boundary) break;
      if (WE.has(tokens[k].word)) return false;
    }
    return true;
  }
  return false;
}

function raisedBefore(tokens: readonly Token[], at: number): boolean {
  for (let i = at - 1; i >= Math.max(0, at - 4); i--) {
    if (tokens[i].boundary) return false;
    if (RAISED.has(tokens[i].word)) return true;
  }
  return false;
}

/** Everything from the lower range to the higher one. */
function hull(a: NumberRange, b: NumberRange): NumberRange {
  const [low, high] = (a.min ?? -Infinity) <= (b.min ?? -Infinity) ? [a, b] : [b, a];
  const top = low.max === null || high.max === null ? null : Math.max(low.max, high.max);
  const topExclusive = top === null ? false : top === high.max ? high.maxExclusive : low.maxExclusive;
  return { min: low.min, max: top, minExclusive: low.minExclusive, maxExclusive: topExclusive };
}
