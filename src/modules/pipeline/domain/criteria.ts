/**
 * Reads an ICP or Persona description, written by a person, into criteria. Both labelled
 * criteria ("Employees: 50-1000. Countries: Germany, France") and prose ("B2B software companies
 * with 100 to 2,000 employees in the UK or Ireland") work, mixed freely.
 *
 * Rules where people write loosely:
 * - A labelled criterion wins over the same kind found in prose for ranges (one head-count range
 *   is meant, and the label is the deliberate one); lists (industries, countries, stages, titles)
 *   are the union of both.
 * - A labelled value that yields nothing for its label is read as prose ("Type: B2B SaaS").
 * - Prose keeps only words the taxonomy knows; unknown words ("B2B", "growing", "innovative")
 *   are context, not criteria, because a criterion nobody can satisfy would silently fail every
 *   company that has data. Under an "Industries:" or "Exclude:" label, unknown words are kept as
 *   literal keywords: there they were written on purpose.
 * - A bare number under a label ("Employees: 500") is read as a minimum.
 * - Size words without numbers ("startup", "SMB", "mid-market", "enterprise", "seven-figure
 *   revenue") are read as the default ranges in `company-terms.ts`, and the criterion keeps the
 *   words so a reasoning can name the range it assumed. Numbers win over words at the same level
 *   (labelled, then prose); an excluded size word ("not enterprise") narrows the range.
 * - Stage words stand for stretches of one ladder ("growth stage" is Series B and every later
 *   private round); a public company is at no private stage.
 * - Money raised ("raised between $10M and $100M", "Total funding: $5M+") is a total funding range.
 * - Exclusions ("not agencies", "excluding consultancies", "no government", "except
 *   nonprofits", "non-US") become one exclusion criterion; a one-sided range inside one
 *   ("excluding companies under 10 employees") becomes its complement ("at least 10").
 * - Personas: titles, functions and seniorities. Company hints in Persona prose ("at growing
 *   startups", "in Germany") are ignored: company fit is the ICP's job, and counting them would
 *   fail good contacts on data an ICP already judges. Company criteria a Persona states under a
 *   label ("Industries: Fintech") were meant, so they are kept and checked against the company;
 *   a Persona's "Countries:" is checked against the contact's country, else the company's.
 * - ICPs ignore person labels (titles, functions, seniority).
 */
import {
  scanSizes,
  scanStages,
  LIST_TYPES,
  PROSE_TYPES,
  SizeHit,
  STAGE_DASH,
  StageHit,
  VENTURE_STAGES,
  VENTURE_TERM,
} from './company-terms';
import { findFounded } from './founded';
import { countryName, GEO_INDEX, namesUnitedStates, resolvePlace, scanPlaces, scanStates, stateCountry } from './geo';
import { findRanges, invert, Measure, mergeRanges, NumberRange, subtractRange } from './ranges';
import {
  canonicalTitleTokens,
  conceptClosure,
  expandDefinedTitles,
  findSeniority,
  FUNCTION_LABEL,
  functionsOf,
  functionsOfToken,
  INDUSTRY_INDEX,
  isDefiningRoleToken,
  isPeopleNoun,
  isRoleNoun,
  isTierToken,
  isTitleWord,
  narrowestFunctions,
  prepareTaxonomyText,
  scanIndustries,
  senioritiesOf,
  seniorityDashes,
  Tier,
  TIER_LABEL,
  TIERS,
  tierOfToken,
} from './taxonomy';
import { joinList, PhraseHit, Token, unique } from './text';

export type Subject = 'icp' | 'persona';

export interface Keyword {
  text: string;
  stems: string[];
}

/**
 * One way a title can match. `codes` (C-suite) decide alone; otherwise every part present must
 * hold: the title's tier is one of `tiers`, it has one of `functions`, and it contains every
 * literal token.
 */
export interface TitlePattern {
  text: string;
  codes: string[];
  tiers: Tier[];
  functions: string[];
  tokens: string[];
  /** The tiers come from "leaders" or "executives", not a tier word; a stated seniority replaces them. */
  vague?: boolean;
}

export interface Exclusions {
  /** What the description excludes, as written ("agencies", "government"). */
  labels: string[];
  concepts: string[];
  keywords: Keyword[];
  /** The excluded industry words as written, also looked for in a company's name ("agencies" in "Blue Fox Agency"). */
  nameTerms: Keyword[];
  types: string[];
  countries: string[];
  /** ISO 3166-2 codes ("US-TX"). */
  states: string[];
  stages: string[];
  titles: TitlePattern[];
  tiers: Tier[];
  functions: string[];
}

/**
 * `assumed` names the words a range or a stage list was read from ("mid-market", "startup or SMB,
 * not enterprise", "growth stage"), so a reasoning can say which default it assumed; absent when
 * the description gave numbers or named rounds.
 */
export type Criterion =
  | { kind: 'industry'; concepts: string[]; keywords: Keyword[] }
  | { kind: 'employees'; ranges: NumberRange[]; assumed?: string }
  | { kind: 'revenue'; ranges: NumberRange[]; currency: string; assumed?: string }
  | { kind: 'country'; countries: string[]; labels: string[]; of: 'company' | 'contact' }
  /**
   * US states or Canadian provinces (ISO 3166-2, "US-NY"). A state implies its country;
   * `elsewhere` are other countries the description names besides ("Texas or Germany"), where
   * any state will do.
   */
  | { kind: 'state'; states: string[]; labels: string[]; elsewhere: string[]; of: 'company' | 'contact' }
  | { kind: 'funding'; stages: string[]; assumed?: string }
  | { kind: 'total_funding'; ranges: NumberRange[]; currency: string; assumed?: string }
  | { kind: 'company_type'; types: string[] }
  /** Inclusive founded years (`company_info.founded_year`); `text` is how the description put it. */
  | { kind: 'founded'; ranges: NumberRange[]; text: string }
  | { kind: 'title'; patterns: TitlePattern[] }
  | { kind: 'function'; functions: string[]; keywords: Keyword[] }
  | { kind: 'seniority'; tiers: Tier[] }
  | ({ kind: 'exclusion' } & Exclusions);

export type CriterionKind = Criterion['kind'];

/** Beyond the API's 10,000-character limit; the cap only bounds the work on hostile input. */
export const MAX_PARSED_LENGTH = 20_000;

// ---------------------------------------------------------------------------------------------
// Labels

type LabelKind =
  | 'industry'
  | 'employees'
  | 'revenue'
  | 'country'
  | 'state'
  | 'funding'
  | 'company_type'
  | 'exclusion'
  | 'industry_exclusion'
  | 'title'
  | 'function'
  | 'seniority';

const LABELS: Record<LabelKind, string[]> = {
  industry: [
    'industries',
    'industry',
    'sectors',
    'sector',
    'verticals',
    'vertical',
    'industry focus',
    'target industries',
    'focus industries',
    'keywords',
    'keyword',
    'tags',
    'industry keywords',
  ],
  employees: [
    'segment',
    'segments',
    'market segment',
    'customer segment',
    'company segment',
    'size segment',
    'business size',
    'organization size',
    'organisation size',
    'employees',
    'employee count',
    'employee range',
    'employee size',
    'number of employees',
    'no of employees',
    'num employees',
    'headcount',
    'head count',
    'company size',
    'size',
    'team size',
    'staff',
    'ftes',
    'fte',
    'workforce',
  ],
  revenue: ['revenue', 'revenues', 'annual revenue', 'revenue range', 'arr', 'turnover', 'annual turnover', 'yearly revenue'],
  country: [
    'countries',
    'country',
    'regions',
    'region',
    'locations',
    'location',
    'geography',
    'geographies',
    'geo',
    'geos',
    'hq',
    'hq country',
    'hq countries',
    'hq location',
    'headquarters',
    'based in',
    'territory',
    'territories',
    'markets',
    'market',
    'target markets',
    'target countries',
  ],
  state: [
    'state',
    'states',
    'us state',
    'us states',
    'province',
    'provinces',
    'states and provinces',
    'state or province',
    'state province',
  ],
  funding: [
    'funding',
    'funding stage',
    'funding stages',
    'funding round',
    'stage',
    'stages',
    'investment stage',
    'company stage',
    'latest funding',
    'total funding',
    'funding raised',
    'funding amount',
    'total raised',
    'amount raised',
    'capital raised',
    'raised',
  ],
  company_type: [
    'company type',
    'company types',
    'type',
    'types',
    'ownership',
    'organization type',
    'organisation type',
    'org type',
    'entity type',
    'ownership type',
  ],
  exclusion: [
    'exclude',
    'excludes',
    'excluding',
    'exclusions',
    'exclusion',
    'except',
    'avoid',
    'do not target',
    'not',
    'no',
    'disqualifiers',
    'out of scope',
    'excluded',
    'not a fit',
    'no go',
    'no gos',
    'off limits',
    'not targeting',
    'do not sell to',
    'who we do not sell to',
    'who not to target',
    'not for us',
    'red flags',
    'red flag',
    'deal breakers',
    'dealbreakers',
    'anti icp',
    'anti persona',
    'anti personas',
    'negative icp',
    'non icp',
    'non target',
    'non targets',
    'bad fit',
    'bad fits',
    'poor fit',
    'poor fits',
    'who to avoid',
    'who not to sell to',
    'not interested in',
    'exclusion criteria',
    'exclusion list',
    'negative criteria',
    'disqualifying criteria',
    'disqualification criteria',
    'knockout criteria',
    'knock out criteria',
    'skip',
    'ignore',
    'never',
    'exclude titles',
    'excluded titles',
    'titles to exclude',
    'titles to avoid',
    'exclude roles',
    'excluded roles',
    'roles to avoid',
    'not them',
    'who they are not',
    'not this persona',
    'not our persona',
    'not our buyer',
    "who's not our buyer",
    'who is not our buyer',
  ],
  // Companies only: in a Persona "Exclude industries: Marketing & Advertising" keeps marketers.
  industry_exclusion: [
    'exclude industries',
    'exclude industry',
    'excluded industries',
    'industries excluded',
    'industry exclusions',
    'exclude verticals',
    'excluded verticals',
    'verticals excluded',
  ],
  title: ['titles', 'title', 'job titles', 'job title', 'roles', 'role', 'positions', 'position', 'target titles', 'target roles'],
  function: ['functions', 'function', 'departments', 'department', 'job function', 'job functions', 'teams', 'team'],
  seniority: [
    'seniority',
    'seniorities',
    'seniority level',
    'seniority levels',
    'levels',
    'level',
    'job level',
    'job levels',
    'management level',
  ],
};

const normalizeLabel = (label: string) =>
  label
    .toLowerCase()
    .replace(/’/g, "'")
    // "Don't target", "Who we don’t sell to": as prose reads them, "do not".
    .replace(/(\p{L})n't(?!\p{L})/gu, '$1 not')
    .replace(/[\s_-]+/g, ' ')
    .trim();
const LABEL_KIND = new Map<string, LabelKind>();
for (const [kind, names] of Object.entries(LABELS) as Array<[LabelKind, string[]]>) for (const name of names) LABEL_KIND.set(name, kind);
// Not after a hyphen: "C-level: CFOs, COOs" names a rung, not a "Level:" label.
const LABEL_RE = new RegExp(
  String.raw`(?<![\p{L}\p{N}-])(${[...LABEL_KIND.keys()]
    .sort((a, b) => b.length - a.length)
    .map((l) => l.replace(/ /g, String.raw`[\s_-]+`))
    .join('|')})\s*[:：]`,
  'giu',
);

const PERSON_KINDS = new Set<LabelKind>(['title', 'function', 'seniority']);

/** Whether the words ("Industries", "company size") are a label this parser reads before a colon. */
export function isLabel(words: string): boolean {
  return labelKindOf(words) !== undefined;
}

/** The kind of label the words are ("Industries" → `industry`), if they are one. */
function labelKindOf(words: string): LabelKind | undefined {
  return LABEL_KIND.get(normalizeLabel(words));
}

interface LabelledPart {
  kind: LabelKind;
  value: string;
}

/** Labelled values end at the next label, a sentence end or a line end; the rest is prose. */
function splitLabelled(text: string): { labelled: LabelledPart[]; prose: string[] } {
  const matches = [...text.matchAll(LABEL_RE)];
  const labelled: LabelledPart[] = [];
  const prose: string[] = [];
  let cursor = 0;
  matches.forEach((m, k) => {
    prose.push(text.slice(cursor, m.index));
    const valueStart = m.index + m[0].length;
    const valueEnd = matches[k + 1]?.index ?? text.length;
    const raw = text.slice(valueStart, valueEnd);
    const cut = raw.search(/[.!?](?=\s|$)|\n/);
    labelled.push({ kind: labelKindOf(m[1]) as LabelKind, value: cut >= 0 ? raw.slice(0, cut) : raw });
    if (cut >= 0) prose.push(raw.slice(cut));
    cursor = valueEnd;
  });
  prose.push(text.slice(cursor));
  return { labelled, prose };
}

const ALLOWING = /\b(?:is|are)\s+(?:also\s+|totally\s+|perfectly\s+)?(?:fine|ok|okay|welcome|acceptable)\b/i;

/**
 * "Listed companies are fine": a sentence that allows something asks for nothing; it is dropped
 * (its end kept). An aside in brackets that allows something is dropped alone: "Geo: US (anywhere
 * in the US is fine) and Canada" still asks for both.
 */
function dropAllowing(text: string): string {
  return text
    .replace(/\([^()\n]*\)/g, (aside) => (ALLOWING.test(aside) ? ' ' : aside))
    .split(/(?<=[.!?;\n])/)
    .map((sentence) => (ALLOWING.test(sentence) ? sentence.replace(/[^.!?;\n]+/, ' ') : sentence))
    .join('');
}

/** "Nice to have:", "Bonus:": what follows is a preference, which asks for nothing. */
const PREFERENCE_WORDS = String.raw`nice[\s-]+to[\s-]+haves?|good[\s-]+to[\s-]+haves?|bonus(?:\s+points|\s+if)?|would\s+be\s+nice|optional|ideally|preferred|preferably|a\s+plus|preferred\s+but\s+not\s+required`;
/**
 * "Goals:", "Reports to:", "Pain points:": what follows describes the buyer's world, not who they
 * are, and asks for nothing ("Reports to: the CIO" does not want CIOs).
 */
const CONTEXT_WORDS = String.raw`goals?|challenges?|pain[\s-]+points?|pains|responsibilities|reports?[\s-]+to|direct[\s-]+reports|works?[\s-]+(?:closely[\s-]+)?with|collaborates?[\s-]+with|stakeholders|reporting[\s-]+to|watering[\s-]+holes?|objections?|motivations?|kpis?|day[\s-]+in[\s-]+the[\s-]+life|where[\s-]+they[\s-]+hang[\s-]+out|tools(?:[\s-]+they[\s-]+use)?|tech[\s-]+stack|technographics|messaging|value[\s-]+prop(?:osition)?|why[\s-]+they[\s-]+buy|what[\s-]+they[\s-]+care[\s-]+about|jobs[\s-]+to[\s-]+be[\s-]+done`;
const ASIDE_LABEL = new RegExp(`^(?:${PREFERENCE_WORDS}|${CONTEXT_WORDS})$`, 'i');
/** A label whose lines ask for nothing: a preference or context. */
const asksNothing = (words: string) => ASIDE_LABEL.test(words);
/** Such a label after a sentence's end, with its value up to the next one ("Fintech. Nice to have: US HQ."). */
const ASIDE_CLAUSE = new RegExp(
  String.raw`(?<=[.!?;][ \t]+)(?:${PREFERENCE_WORDS}|${CONTEXT_WORDS})[ \t]*[:：](?:[^.!?;\n]|[.!?](?![ \t]|$))*[.!?;]?`,
  'gi',
);
/** Headings that say what is wanted, alone on their line: their items are read as written. */
const WANTED_HEADING =
  /^(?:in[\s-]+scope|targets?|who(?:\s+we\s+want)?|what\s+we\s+want|must[\s-]+haves?|requirements|criteria|yes|include)$/i;
/** The header row of a two-column table: "Segment | Value", "Field | Value". */
const TABLE_HEADER =
  /^[ \t]*(?:segment|field|key|attribute|criteria|criterion|dimension|parameter)[ \t]*\|[ \t]*(?:value|values|criteria|target)[ \t]*$/i;
/** A Markdown table's rule under its header row ("---|:---:"), outer pipes already dropped. */
const TABLE_RULE = /^[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)*$/;
/** A table's header row or rule: layout, not content. */
const isTableFrame = (line: string) => TABLE_HEADER.test(line) || TABLE_RULE.test(line);
/** The marks a list item may start with, besides its number ("1.", "2)") or letter ("a)"). */
const BULLET_MARKS = '-*•·–—◦▪▫●○■□➢►▶→✓✔';
const BULLET = new RegExp(String.raw`^[ \t]*(?:[${BULLET_MARKS}]|\d{1,2}[.)]|[a-zA-Z]\))[ \t]+`, 'u');
/** The label a line starts with, after a bullet ("- Nice to have: …"). */
const LEADING_LABEL = new RegExp(String.raw`^[ \t]*(?:[${BULLET_MARKS}][ \t]+)?([\p{L}][\p{L} \t-]{1,30}?)[ \t]*[:：]`, 'u');
/** How far a line is indented, a tab as two spaces. */
const indentOf = (line: string) => (/^[ \t]*/.exec(line)?.[0] ?? '').replace(/\t/g, '  ').length;

/** What a line pasted from Markdown or a rich editor may carry around its words: "## Avoid", "**Industries**:", zero-width spaces. */
const DECORATION = /^[ \t]*#{1,6}[ \t]+|\*\*|__|[\u200b-\u200d\u2060\ufeff]/g;

/** A line without its decoration (`DECORATION`), and a Markdown table's row without its outer pipes. */
function undecorated(line: string): string {
  return line.replace(DECORATION, '').replace(/^[ \t]*\|(.*)\|[ \t]*$/, '$1');
}

/** A line that is only a heading ("Avoid", "Industries:", "Nice to have:"): its words and kind, else null. */
function headingOf(line: string): { words: string; kind: 'aside' | 'wanted' | 'label' } | null {
  const words = /^[ \t]*([\p{L}][\p{L} \t'’/&-]{1,40}?)[ \t]*[:：]?[ \t]*$/u.exec(line)?.[1].trim();
  if (words === undefined) return null;
  if (asksNothing(words)) return { words, kind: 'aside' };
  if (WANTED_HEADING.test(words)) return { words, kind: 'wanted' };
  return isLabel(words) ? { words, kind: 'label' } : null;
}

/**
 * A line as `label: value` when it is a table row ("Industry | Banking"), a setting ("hq_country =
 * US") or a label and its value across a dash ("Exclude — banks"), where a dash would otherwise end
 * what the label says.
 */
function asLabelledCell(line: string): string {
  const cells = /^[ \t]*([\p{L}][\p{L}\p{N} \t_/&-]{0,40}?)[ \t]*(?:\||=|[—–])[ \t]*(.*)$/u.exec(line);
  return cells && isLabel(cells[1]) ? `${cells[1]}: ${cells[2]}` : line;
}

/**
 * `asLabelledCell`, and a line of labelled cells ("Industry — SaaS | Size — 50-500 | Avoid —
 * agencies") as one line per cell.
 */
function asLabelled(line: string): string {
  const cells = line.split('|').map((cell) => cell.trim());
  const labelled = (cell: string) => hasOwnLabel(cell) || asLabelledCell(cell) !== cell;
  if (cells.length > 1 && cells.every((cell) => cell === '' || labelled(cell)) && cells.filter(labelled).length > 1) {
    return cells
      .filter((cell) => cell !== '')
      .map(asLabelledCell)
      .join('\n');
  }
  return asLabelledCell(line);
}

/** A line of a text, by its offsets; `end` is before its line break. */
export interface TextLine {
  text: string;
  start: number;
  end: number;
}

/** A text's lines, whatever its line breaks (`\n`, `\r\n` or `\r`). */
export function linesOf(text: string): TextLine[] {
  const out: TextLine[] = [];
  for (const match of text.matchAll(/[^\r\n]*(?:\r\n|\r|\n|$)/g)) {
    const text = match[0].replace(/(?:\r\n|\r|\n)$/, '');
    out.push({ text, start: match.index, end: match.index + text.length });
    if (match[0] === text) break;
  }
  return out;
}

/** A line as the sections are read: its list numbering dropped ("1. "), a table row or setting as `label: value`. */
function sectionLine(line: string): string {
  return asLabelled(line.replace(BULLET, (bullet) => (/[\da-zA-Z]/.test(bullet) ? '' : bullet)));
}

/** A heading alone on its line and the lines under it, by index into the text's lines. */
export interface Section {
  heading: number;
  words: string;
  /** `aside`: a preference or context (`asksNothing`). */
  kind: 'aside' | 'wanted' | 'label';
  /** The lines under the heading (`sectionsOf`), a table's header row and rule left out. */
  items: number[];
  /** The first line after the section: the blank line, the next heading, or the number of lines. */
  end: number;
}

/** Whether a heading's words are a label of what is ruled out ("Avoid", "Exclude industries"). */
function isExcludingLabel(words: string): boolean {
  const kind = labelKindOf(words);
  return kind === 'exclusion' || kind === 'industry_exclusion';
}

/** The words before a colon at a line's start, and the colon ("Size: "), which may be a label of the line's own. */
const OWN_LABEL = /^([^:：]{1,40})[:：]\s*/;

/** Whether a line starts with a label of its own ("2. Size: 1,000+ employees"). */
const hasOwnLabel = (line: string) => {
  const words = OWN_LABEL.exec(line.replace(BULLET, '').trim())?.[1];
  return words !== undefined && isLabel(words);
};

/**
 * The sections of a text's lines: a line that is only a heading once its list numbering is dropped
 * ("Avoid", "2. Out of scope:", "Nice to have:"), or in an outline a bulleted one with lines
 * indented under it ("- **Not a fit**"), and the lines under it, up to a blank line or the next
 * heading (an item is tested without its bullet); under a bulleted heading, up to the next line
 * that is not indented further; under a label of what is wanted ("Industry"), up to a line with a
 * label of its own ("2. Size: 1,000+"). The one definition of what stands under a heading: the
 * parser reads those lines under it (`readSections`), and the criteria routes show their spans
 * under it.
 */
export function sectionsOf(lines: readonly string[]): Section[] {
  const plain = lines.map(undecorated);
  const out: Section[] = [];
  for (let k = 0; k < plain.length; k++) {
    if (isTableFrame(plain[k])) continue;
    const nested = BULLET.test(plain[k]) && k + 1 < plain.length && indentOf(plain[k + 1]) > indentOf(plain[k]);
    const heading = headingOf(sectionLine(plain[k])) ?? (nested ? headingOf(plain[k].replace(BULLET, '')) : null);
    if (heading === null) continue;
    const wanting = heading.kind === 'label' && !isExcludingLabel(heading.words);
    const items: number[] = [];
    let end = k + 1;
    for (; end < plain.length && plain[end].trim() !== ''; end++) {
      if (isTableFrame(plain[end])) continue;
      if (nested && indentOf(plain[end]) <= indentOf(plain[k])) break;
      if (headingOf(plain[end].replace(BULLET, '').trim()) !== null) break;
      if (wanting && hasOwnLabel(plain[end])) break;
      items.push(end);
    }
    out.push({ heading: k, ...heading, items, end });
    k = end - 1;
  }
  return out;
}

/**
 * The layouts marketers paste, read as labels and prose:
 * - a table row ("Industry | Banking", header row dropped) or a setting ("hq_country = US") is a
 *   labelled value; list numbering ("1. ") is no number of the description;
 * - a heading alone on its line ("Disqualifiers:", "Out of scope", "Avoid") with lines under it
 *   (`sectionsOf`): under a label the lines are that label's items, joined
 *   ("Disqualifiers: MSSPs; Publicly traded companies"); under a preference ("Nice to have:") or
 *   context ("Goals:", "Reports to:") they ask for nothing and are dropped; under a heading of
 *   what is wanted ("In scope", "Must have:") they are read as written.
 * - a preference or context on one line ("Nice to have: US HQ", "Reports to: the CIO"), or after a
 *   sentence's end ("Fintech. Nice to have: US HQ."), is dropped.
 */
function readSections(text: string): string {
  const lines = linesOf(text).map((line) => line.text);
  const sections = new Map(sectionsOf(lines).map((section) => [section.heading, section]));
  const out: string[] = [];
  for (let k = 0; k < lines.length; k++) {
    if (isTableFrame(lines[k])) continue;
    const section = sections.get(k);
    if (section === undefined) {
      const line = sectionLine(lines[k]);
      const same = LEADING_LABEL.exec(line);
      if (!(same && asksNothing(same[1].trim()))) out.push(line.replace(ASIDE_CLAUSE, ''));
      continue;
    }
    k = section.end - 1;
    // An item may be a table row or a setting too ("| Industry | Retail |" under "Out of scope").
    const items = section.items.map((j) =>
      asLabelled(lines[j].replace(BULLET, ''))
        .trim()
        .replace(/[.;,\s]+$/, ''),
    );
    if (section.kind === 'aside') continue;
    if (section.kind === 'wanted' || items.length === 0) {
      out.push(...items.map((item) => `${item}.`));
      continue;
    }
    // Under "Out of scope:", an item's own label ("Industries: Retail") says what kind it is, not another criterion.
    const values = items.map((item) => item.replace(OWN_LABEL, (label: string, words: string) => (isLabel(words) ? '' : label)));
    out.push(`${section.words}: ${values.filter((item) => item !== '').join('; ')}`);
  }
  return out.join('\n');
}

const OTHER_REGIONS = String.raw`(?:EMEA|APAC|APJ|LATAM|AMER|ANZ|EU|EEA|UK|UKI|DACH|Europe|Asia)`;
const NA_BESIDE_REGION = new RegExp(
  String.raw`\bNA\b(?=\s*(?:[/&+,]|and|or)\s*${OTHER_REGIONS}\b)|(?<=\b${OTHER_REGIONS}\s*(?:[/&+,]|and|or)\s*)\bNA\b`,
  'g',
);

/**
 * A clause about the seller itself, from its start to a comma, a dash or the next clause about
 * whom it sells to ("We're a small team and we sell to banks" keeps the banks).
 */
const SELLER_CLAUSE = new RegExp(
  String.raw`(^|[.!?;(\n]\s*)we(?:['’]re|\s+are)\s+(?:(?:a|an)\s+(?:[\w'’-]+\s+){0,5}?(?:start-?ups?|team|company|scale-?up|agency|vendor|business|shop)\b|(?:based|headquartered|located)\s+in\b)` +
    String.raw`(?:(?!\s+(?:and|but|so)\s+(?:we|our|they|sell|selling|target|targeting)\b)[^.!?;,\n)—])*`,
  'gi',
);
/**
 * A clause that says what would be nice, from its first word to its end: a comma goes on through a
 * list ("ideally fintech, insurtech or wealthtech") but not into another clause ("ideally in the US,
 * with 50+ employees" keeps the employees). A line's "Ideally:" is read with the sections.
 */
const PREFERENCE_CLAUSE = new RegExp(
  String.raw`(^|[.!?;(\n]\s*|,\s*)(?:ideally|preferably|bonus\s+if|nice\s+if|a\s+plus\s+if|would\s+be\s+nice)\b` +
    String.raw`(?:[^.!?;,\n)]|,(?!\s*(?:with|and|in|based|headquartered|located|who|that|which|across|from)\b|\s*\d))*`,
  'gi',
);

/** Spellings that would otherwise split a sentence or read as a negation. */
function prepare(description: string): string {
  return dropAllowing(
    readSections(description)
      .slice(0, MAX_PARSED_LENGTH)
      .replace(/\bU\.\s?S\.\s?A\.?/g, 'USA')
      .replace(/\bU\.\s?S\.?(?![\p{L}])/gu, 'US')
      .replace(/\bU\.\s?K\.?(?![\p{L}])/gu, 'UK')
      .replace(/\bE\.\s?U\.?(?![\p{L}])/gu, 'EU')
      // "NA/EMEA", "APAC + NA": beside another region, NA is North America (alone it may be "n/a" or Namibia).
      .replace(NA_BESIDE_REGION, 'North America')
      .replace(/\be\.\s?g\.|\bi\.\s?e\./gi, ' ')
      .replace(/\b(sr|jr|dir|mgr|vs|inc|ltd|corp|dept|approx|etc|incl|excl|min|max|no|co|st|mr|ms|dr)\.(?=\s)/gi, '$1')
      // "w/o banks": without them.
      .replace(/\bw\/o\b/gi, 'without')
      // "We're a 40-person startup in Austin", "we're based in Toronto": the seller, not the buyer.
      .replace(SELLER_CLAUSE, '$1')
      // "Ideally 30–300 people, but…", ", ideally at food plants": a preference asks for nothing.
      .replace(PREFERENCE_CLAUSE, '$1')
      // "They report to the CFO, who signs off": whom they report to is context, as under a "Reports to:" label.
      .replace(/\b(?:reports?|reporting|rolls?\s+up)\s+(?:directly\s+)?(?:in)?to\b[^.;!?,\n]*/gi, ' ')
      .replace(/\bnot[\s-]+for[\s-]+profits?\b/gi, 'nonprofit')
      .replace(/\bnon[\s-]+profits?\b/gi, 'nonprofit')
      .replace(/\bnon[\s-]+governmental\b/gi, 'nongovernmental')
      // "non-EU vendors": the negation covers "EU" only, so it ends right after it ("Non-ICP:" is a label).
      .replace(/\b[Nn]on-(\p{Lu}\p{L}*)(?![\p{L}]|[ \t]*[:：])/gu, 'not $1;')
      // "don't", "isn't", "needn't", "cannot": one spelling of "not" for the exclusion reader.
      .replace(/(\p{L})n['’]t(?!\p{L})/gu, '$1 not')
      .replace(/\bcannot\b/gi, 'can not')
      // "sub-50": under 50.
      .replace(/\bsub-?(?=\$?\d)/gi, 'under ')
      // "PE- or VC-backed": PE-backed or VC-backed; "seven- to eight-figure": seven-figure to eight-figure.
      .replace(/\b([A-Za-z]+)-\s+(and|or|to|\/)\s+([A-Za-z]+)-([A-Za-z]+)\b/g, '$1-$4 $2 $3-$4')
      // "over a billion": one.
      .replace(/\ban?\s+(billion|million|thousand)\b/gi, '1 $1')
      // One word, not a list of two: "an FP&A lead" is not "an FP" and "A lead".
      .replace(/\bFP\s?&\s?A\b/gi, 'FPA')
      .replace(/\bR\s?&\s?D\b/gi, 'RnD')
      // "anyone in sales engineering" is sales engineering, in a list of titles or exclusions alike.
      .replace(/\b(?:anyone|anybody|everyone|everybody|someone|people|folks)\s+(?:in|within)\s+/gi, '')
      // "Don't confuse this with product marketing": what it is not.
      .replace(/\b(?:do\s+)?not\s+(?:confuse|mix\s+up|mistake)\s+(?:this|it|them|us|the\s+persona|our\s+persona)\s+(?:with|for)\b/gi, 'not')
      .replace(/(?<!\p{L})\p{L}+-(?:led|driven|first|savvy|heavy|minded|track|focused|oriented|adjacent)\b/giu, ' ')
      .replace(/\bseries\s+([a-j])\s*[-‐‑‒–—]\s*(?:series\s+)?([a-j])\b/gi, 'Series $1 to $2')

      .replace(STAGE_DASH, '$1 to $2'),
  );
}

// ---------------------------------------------------------------------------------------------
// Token helpers

const LIST_FILLERS = new Set([
  'company',
  'business',
  'industry',
  'sector',
  'vertical',
  'firm',
  'organization',
  'organisation',
  'other',
  'etc',
  'eg',
  'such',
  'as',
  'like',
  'related',
  'space',
  'market',
  'the',
  'a',
  'an',
  'of',
  'in',
  'for',
  'including',
  'especially',
  'focus',
  'mainly',
  'primarily',
  'b2b',
  'b2c',
  'b2b2c',
  'and',
  'or',
  'any',
  'all',
  'only',
  'mostly',
  'with',
  'that',
  'are',
  'is',
  'be',
  'to',
  'on',
  'at',
  'type',
  'kind',
]);

const EXCLUSION_TRIGGERS = new Set([
  'not',
  'no',
  'excluding',
  'exclude',
  'excludes',
  'except',
  'without',
  'avoid',
  'never',
  'excl',
  'nobody',
  'none',
  'nothing',
  // "…, and neither should pharma or device makers", "nor agencies".
  'neither',
  'nor',
  // "Skip anything casino or gambling related".
  'skip',
]);
/** Triggers that "but" turns positive: "nothing but SaaS" asks for SaaS. */
const NEGATED_PRONOUNS = new Set(['nobody', 'none', 'nothing']);
const EXCLUSION_BIGRAMS = [
  ['other', 'than'],
  ['but', 'not'],
  ['apart', 'from'],
  ['aside', 'from'],
  ['rather', 'than'],
  ['no', 'one'],
  ['anything', 'but'],
  ['everything', 'but'],
  ['anyone', 'but'],
  ['everyone', 'but'],
  ['anybody', 'but'],
  ['everybody', 'but'],
  ['away', 'from'],
];
/** After "not"/"no", these make it something other than an exclusion ("not only", "no more than"). */
const NEGATION_GUARDS = new Set([
  'only',
  'just',
  'necessarily',
  'yet',
  'limited',
  'restricted',
  'required',
  'needed',
  'necessary',
  'too',
  'very',
  'more',
  'less',
  'fewer',
  'longer',
  'later',
  'earlier',
  'bigger',
  'smaller',
  'larger',
  'greater',
  'matter',
  'problem',
  'exclusively',
  'sure',
  'always',
  'all',
  'least',
  'need',
  'much',
  'many',
  'strictly',
  'mandatory',
  'essential',
  'particular',
  'specific',
  'mind',
  'care',
]);
const SEGMENT_STOPS = new Set([
  'with',
  'that',
  'which',
  'who',
  'whose',
  'where',
  'having',
  'but',
  'while',
  'because',
  'at',
  'are',
  'is',
  'have',
  'has',
  'using',
  'selling',
  'serving',
  'within',
  'in',
  'based',
  'headquartered',
  'located',
  'from',
  'who',
  'we',
  'they',
  'targeting',
  'if',
  'unless',
  'when',
  // A positive clause after the exclusion: "no agencies, only brands", "not SDRs, so AEs and managers".
  'only',
  'just',
  'so',
  'instead',
  'ideally',
  'preferably',
  'though',
  'although',
  'whereas',
  'however',
]);
const LOCATION_LEADS = new Set(['in', 'based', 'headquartered', 'located', 'from', 'the']);
/** A verb between the negation and what it excludes: "we don't work with agencies", "don't sell to the public sector". */
const VERB_LEADS = new Set([
  'pull',
  'include',
  'bring',
  'add',
  'sell',
  'selling',
  'work',
  'working',
  'deal',
  'partner',
  'serve',
  'serving',
  'target',
  'targeting',
  'want',
  'pitch',
  'approach',
  'contact',
  'with',
  'to',
  'into',
  'for',
  // "Don't bother with VPs".
  'bother',
  // "neither should pharma", "nor do agencies", "neither are product marketers".
  'should',
  'do',
  'does',
  'are',
  'is',
]);
/** Words that name no one in particular: "excluding firms headquartered in France" excludes France. */
const GENERIC_SUBJECTS = new Set([
  'firm',
  'company',
  'co',
  'business',
  'organization',
  'organisation',
  'entity',
  'account',
  'customer',
  'client',
  'prospect',
  'one',
  'those',
  'any',
  'anyone',
  'anything',
  'all',
  'the',
  'a',
  'an',
]);
const HARD_BOUNDARIES = new Set(['.', ';', ':', '!', '?', '(', ')', '[', ']', '{', '}', '|', '\n']);
/** Where an exclusion's scope ends besides a hard boundary: "except SDRs — so AEs and managers". */
const isScopeEnd = (t: Token) => t.boundary && (HARD_BOUNDARIES.has(t.word) || t.word === '—');

function falseArray(length: number): boolean[] {
  return new Array<boolean>(length).fill(false);
}

function textOf(tokens: readonly Token[]): string {
  return tokens
    .filter((t) => !t.boundary)
    .map((t) => t.text)
    .join(' ');
}

/** Where the excluded words start when an exclusion is triggered at `i`, else -1. */
function triggerAt(tokens: readonly Token[], i: number): number {
  const word = tokens[i]?.word;
  if (word === undefined || tokens[i].boundary) return -1;
  const bigram = EXCLUSION_BIGRAMS.find(([a, b]) => word === a && tokens[i + 1]?.word === b);
  // "but not required" is no exclusion, as "not required" is none.
  if (bigram) return bigram[1] === 'not' && NEGATION_GUARDS.has(tokens[i + 2]?.word ?? '') ? -1 : i + 2;
  // "Europe ex-UK", "EMEA ex Germany": "ex" before a place excludes it ("ex-consultants" are wanted).
  if (word === 'ex') return GEO_INDEX.longestAt(tokens, i + 1, { strictCase: true }) ? i + 1 : -1;
  // "Europe outside the EU": so does "outside" ("outside sales" is a kind of sales).
  if (word === 'outside') {
    let at = i + 1;
    while (tokens[at]?.word === 'of' || tokens[at]?.word === 'the') at++;
    return GEO_INDEX.longestAt(tokens, at, { strictCase: true }) ? at : -1;
  }
  if (!EXCLUSION_TRIGGERS.has(word)) return -1;
  const next = tokens[i + 1];
  if (!next || next.boundary) return -1;
  if ((word === 'not' || word === 'no' || word === 'never' || NEGATED_PRONOUNS.has(word)) && NEGATION_GUARDS.has(next.word)) return -1;
  // A "skip-level" manager is a manager's manager.
  if (word === 'skip' && (next.word === '-' || next.word === 'level')) return -1;
  if (NEGATED_PRONOUNS.has(word) && (next.word === 'but' || next.word === 'else')) return -1;
  return i + 1;
}

const CONTINUING_VERBS = new Set(['are', 'is', 'do', 'does']);

/**
 * "Federal agencies are out, and so are schools": "so are" continues an exclusion made earlier in
 * its sentence; where the sentence excluded nothing ("SaaS is great and so are marketplaces") it
 * asks for what follows. Returns where the excluded words start, else -1.
 */
function continuedAt(tokens: readonly Token[], i: number, consumed: readonly boolean[]): number {
  if (tokens[i].word !== 'so' || !CONTINUING_VERBS.has(tokens[i + 1]?.word ?? '')) return -1;
  for (let k = i - 1; k >= 0 && !(tokens[k].boundary && HARD_BOUNDARIES.has(tokens[k].word)); k--) if (consumed[k]) return i + 2;
  return -1;
}

/**
 * Where a list of places starting at `at` ends: "UK", "UK and Ireland", "DE/AT". A comma ends it:
 * in "APAC ex-Japan, Australia" Australia is wanted.
 */
function placesEnd(tokens: readonly Token[], at: number): number {
  let end = at;
  for (;;) {
    const hit = GEO_INDEX.longestAt(tokens, end, { strictCase: true });
    if (!hit) return end;
    end = hit.end;
    const joint = tokens[end]?.word;
    if (joint !== 'and' && joint !== 'or' && joint !== '/') return end;
    if (!GEO_INDEX.longestAt(tokens, end + 1, { strictCase: true })) return end;
    end++;
  }
}

/** After a comma, words that start a clause of their own: "nobody from the helpdesk, those always sneak in". */
const CLAUSE_STARTS = new Set(['those', 'they', 'these', 'we', 'it', 'which', 'who', 'as', 'since', 'because', 'even']);

/**
 * Words that say "people of" after a function's word ("communications roles", "finance folks",
 * "the helpdesk side"): no word a title must have, unless the taxonomy gives them a function
 * ("Head of People" is HR).
 */
const ROLE_FILLERS = new Set(['role', 'position', 'people', 'person', 'folk', 'team', 'side', 'staff', 'job', 'title', 'type']);

/** Words of a clause, which a list of examples does not have. */
const ASIDE_WORDS = new Set([
  ...['they', 'we', 'it', 'he', 'she', 'these', 'this', 'that', 'our', 'us', 'their'],
  ...['is', 'are', 're', 'was', 'were', 'be', 's', 'have', 'has', 'do', 'does'],
  ...['because', 'since', 'as', 'not', 'no', 'but', 'if', 'when', 'which', 'who'],
]);

/**
 * Exclusion segments: the trigger and what follows it up to the end of the clause (a hard
 * boundary, a dash, a word that starts a positive or qualifying clause, or a comma before the
 * next trigger: "no agencies, no consultancies" is two exclusions).
 */
function findExclusionSegments(tokens: readonly Token[], consumed: boolean[]): Token[][] {
  const segments = [...findPostfixExclusions(tokens, consumed), ...findDenials(tokens, consumed)];
  for (let i = 0; i < tokens.length; i++) {
    if (consumed[i] || tokens[i].boundary) continue;
    const start = Math.max(triggerAt(tokens, i), continuedAt(tokens, i, consumed));
    if (start < 0) continue;
    if (tokens[i].word === 'ex' || tokens[i].word === 'outside') {
      // Only the places it names: "EMEA ex UK and Ireland, SaaS" still asks for SaaS.
      const end = placesEnd(tokens, start);
      for (let k = i; k < end; k++) consumed[k] = true;
      segments.push(tokens.slice(start, end));
      i = end - 1;
      continue;
    }
    let end = start;
    // "no one at director level or higher": "at" leads into a rung.
    const lead = (t: Token) => LOCATION_LEADS.has(t.word) || VERB_LEADS.has(t.word) || t.word === 'at';
    while (end < tokens.length && lead(tokens[end]) && end - start < 3) end++;
    // Whether every word so far names no one in particular, so that a place may follow.
    let generic = true;
    // A list is closed by its "and"/"or": "no agencies or consultancies, software in France".
    let closed = false;
    while (end < tokens.length) {
      const t = tokens[end];
      if (consumed[end] || isScopeEnd(t)) break;
      if (t.word === ',' && (closed || triggerAt(tokens, end + 1) >= 0 || CLAUSE_STARTS.has(tokens[end + 1]?.word ?? ''))) break;
      // "no product managers and nobody from the helpdesk": the second trigger starts its own exclusion.
      if ((t.word === 'and' || t.word === 'or') && triggerAt(tokens, end + 1) >= 0) break;
      if (!t.boundary && SEGMENT_STOPS.has(t.word) && !(generic && LOCATION_LEADS.has(t.word))) break;
      generic &&= t.boundary || GENERIC_SUBJECTS.has(t.stem) || LOCATION_LEADS.has(t.word);
      closed ||= t.word === 'and' || t.word === 'or';
      end++;
    }
    if (end === start) continue;
    for (let k = i; k < end; k++) consumed[k] = true;
    // "no one in sales" excludes sales: the leading "in" is no part of what is excluded.
    let from = start;
    while (from < end - 1 && lead(tokens[from])) from++;
    segments.push(tokens.slice(from, end));
    // "not general IT (IT Managers, sysadmins, the CIO)": the brackets list what is excluded; a
    // clause in them is an aside ("no banks (their insurers are our customers)").
    const close = tokens[end]?.word === '(' ? tokens.findIndex((t, k) => k > end && t.word === ')') : -1;
    if (close > end + 1 && !tokens.slice(end + 1, close).some((t) => ASIDE_WORDS.has(t.word))) {
      segments.push(tokens.slice(end + 1, close));
      for (let k = end; k <= close; k++) consumed[k] = true;
      end = close + 1;
    }
    i = end - 1;
  }
  return segments;
}

/** Said after what they exclude: "agencies need not apply", "the public sector is off limits". */
const POSTFIX_NEGATIONS: string[][] = [
  'need not apply',
  'needs not apply',
  'should not apply',
  'off limits',
  'off limit',
  'out of scope',
  'out of bounds',
  'not in scope',
  'excluded',
  'disqualified',
  'ineligible',
  'not eligible',
  'a no go',
  'no go',
  'not a fit',
  'the wrong person',
  'the wrong people',
  'the wrong persona',
  'the wrong buyer',
  'not the right person',
  'not the right people',
  'a bad fit',
  'a poor fit',
  'bad fits',
  'poor fits',
  'not a good fit',
  'not a great fit',
  'not the right fit',
  'not an ideal fit',
  'not our fit',
  'not a target',
  'not our target',
  'not targets',
  'not our icp',
  'not our market',
  'not our focus',
  'not a focus',
  'not a priority',
  'not relevant',
  'not welcome',
  'not wanted',
  'not for us',
  'not allowed',
  // "Federal agencies are out".
  'are out',
  'is out',
  'do not qualify',
  'does not qualify',
  'do not fit',
  'does not fit',
  // Rejections that say why: "seven-figure brands are too early for us", "nine-figure ones build this in-house".
  ...['too early', 'too small', 'too big', 'too large', 'too late', 'too mature', 'too early stage'],
  // "hospitals … shouldn't be on the list", "they're not buyers".
  ...['should not be on the list', 'not on the list', 'not buyers', 'are not buyers', 'not our buyers'],
  // People: "Associate PMs and interns are too junior", "CPOs are too far from the day-to-day".
  ...['too junior', 'too senior', 'too far', 'too far up', 'too far removed', 'too high up', 'too low', 'too technical'],
  ...['not the persona', 'not our persona', 'not a persona', 'neither is the persona', 'not the buyer', 'not our buyer'],
  ...['build', 'builds', 'do', 'does'].flatMap((verb) =>
    ['this', 'it', 'that', 'their own', 'everything'].map((what) => `${verb} ${what} in house`),
  ),
  'build in house',
  'builds in house',
  // Out of scope for this product: "pharma and device makers are handled by a different product line".
  // "Ad agencies are a different product line", "data folks are a separate campaign".
  ...['a different', 'a separate', 'another'].flatMap((which) =>
    ['product line', 'motion', 'campaign', 'persona', 'playbook'].map((what) => `${which} ${what}`),
  ),
  ...['leave them out', 'leave those out', 'leave out', 'keep them out', 'skip them', 'skip those', 'exclude them', 'exclude those'],
  ...['not count them', 'not count those', 'not want them', 'not want those', 'not target them', 'not target those'],
  // "Please keep recruiters out of the list".
  ...['out of the list', 'off the list', 'out of our list', 'off our list'],
  ...['handled', 'covered', 'served', 'owned'].flatMap((verb) =>
    ['a different', 'another', 'a separate', 'our other'].flatMap((which) =>
      ['team', 'product line', 'product', 'business unit', 'unit', 'division', 'group', 'offering'].map(
        (what) => `${verb} by ${which} ${what}`,
      ),
    ),
  ),
]
  .map((p) => p.split(' '))
  .sort((a, b) => b.length - a.length);
const COPULAS = new Set(['is', 'are', 're', 'be', 'was', 'were', 'remain', 'remains', 'stay', 'stays']);
const POSTFIX_ADVERBS = new Set([
  'also',
  'generally',
  'usually',
  'currently',
  'always',
  'simply',
  'absolutely',
  'strictly',
  'definitely',
  'all',
]);
/** Words that open a new clause, so a postfix negation's subject starts after them. */
const CLAUSE_LEADS = new Set(['but', 'while', 'whereas', 'although', 'though', 'however', 'only', 'so', 'and', 'or']);

/** Subjects that stand for the description's own target: "our buyers are not agencies" excludes agencies. */
const TARGET_SUBJECTS = new Set([
  ...GENERIC_SUBJECTS,
  'our',
  'their',
  'these',
  'they',
  'we',
  'buyer',
  'target',
  'icp',
  'persona',
  'people',
  'person',
  'ideal',
]);
const RELATIVES = new Set(['that', 'which', 'who', 'whose']);
/** Where a denied subject's own words end: "account managers on the sales team". */
const SUBJECT_TAILS = new Set(['on', 'in', 'at', 'within', 'from', 'for', 'with']);

/**
 * Denials: "Account managers on the sales team aren't customer success" says what account
 * managers are not, so it excludes them, not customer success. Only when the subject names
 * someone in particular: "our buyers are not agencies" is left to the prefix reading, which
 * excludes agencies, and "companies that are not public" too.
 */
function findDenials(tokens: readonly Token[], consumed: boolean[]): Token[][] {
  const segments: Token[][] = [];
  for (let i = 2; i < tokens.length; i++) {
    const copula = tokens[i - 1].word;
    if (consumed[i] || tokens[i].word !== 'not' || !(copula === 'are' || copula === 'is' || copula === 're')) continue;
    if (NEGATION_GUARDS.has(tokens[i + 1]?.word ?? '') || RELATIVES.has(tokens[i - 2].word)) continue;
    let start = i - 1;
    while (start > 0 && !consumed[start - 1] && !tokens[start - 1].boundary && !CLAUSE_LEADS.has(tokens[start - 1].word)) start--;
    const words = tokens.slice(start, i - 1);
    if (words.length === 0 || words.every((t) => TARGET_SUBJECTS.has(t.stem) || TARGET_SUBJECTS.has(t.word))) continue;
    const tail = words.findIndex((t) => SUBJECT_TAILS.has(t.word) || RELATIVES.has(t.word));
    let end = i + 1;
    while (end < tokens.length && !isScopeEnd(tokens[end]) && tokens[end].word !== ',') end++;
    for (let k = start; k < end; k++) consumed[k] = true;
    segments.push(tail >= 0 ? words.slice(0, tail) : words);
    i = end - 1;
  }
  return segments;
}

/** Who speaks and how, before "don't count them": no subject of its own. */
const SPEAKER_WORDS = new Set(['we', 'i', 'you', 'do', 'does', 'did', 'will', 'would', 'should', 'just', 'simply', 'then', 'please']);

/**
 * Postfix exclusions. The subject is the phrase before the marker, back to the start of its
 * clause; a comma ends it unless the subject is a list ("banks, brokers and asset managers are
 * not a fit"). When the subject carries a qualifier ("agencies based in London", "companies
 * that sell to banks") only the words before the qualifier are excluded, but the whole clause is
 * consumed: a negated word never becomes a required one. A comma after the qualifier starts the
 * subject afresh ("we sell to SaaS, and agencies are not a fit").
 */
function findPostfixExclusions(tokens: readonly Token[], consumed: boolean[]): Token[][] {
  const segments: Token[][] = [];
  const free = (k: number) => k >= 0 && k < tokens.length && !consumed[k] && !tokens[k].boundary;
  for (let m = 0; m < tokens.length; m++) {
    if (!free(m)) continue;
    const marker = POSTFIX_NEGATIONS.find((words) => words.every((w, k) => free(m + k) && tokens[m + k].word === w));
    if (!marker) continue;
    let subjectEnd = m;
    while (free(subjectEnd - 1) && (COPULAS.has(tokens[subjectEnd - 1].word) || POSTFIX_ADVERBS.has(tokens[subjectEnd - 1].word)))
      subjectEnd--;
    // "Nonprofits are not excluded": allowed, neither excluded nor required.
    const allowed = tokens[subjectEnd - 1]?.word === 'not' || tokens[subjectEnd - 1]?.word === 'never';
    if (allowed) subjectEnd--;
    let start = subjectEnd;
    let list = false;
    // "Process industries (chemicals, food, pharma) are not a fit": the brackets hold the subject's list.
    if (tokens[start - 1]?.word === ')') {
      const open = tokens.map((t) => t.word).lastIndexOf('(', start - 2);
      if (open >= 0 && tokens.slice(open + 1, start - 1).every((t, k) => !consumed[open + 1 + k] && t.word !== ')')) {
        start = open;
        list = true;
      }
    }
    while (start > 0) {
      const t = tokens[start - 1];
      if (consumed[start - 1] || isScopeEnd(t)) break;
      if (t.word === ',' && !list) break;
      if (!t.boundary && CLAUSE_LEADS.has(t.word)) {
        if (t.word !== 'and' && t.word !== 'or') break;
        list = true;
      }
      start--;
    }
    // "We tried airlines and shipping lines and it never works, so leave those out": "those" are
    // what the sentence named before the clause.
    const anaphoric =
      marker.some((w) => w === 'them' || w === 'those') &&
      !tokens.slice(start, subjectEnd).some((t) => !t.boundary && !SPEAKER_WORDS.has(t.word));
    // (A Persona's lower-case "it", the pronoun, comes in consumed; it is no exclusion.)
    const passable = (k: number) => !consumed[k] || (tokens[k].word === 'it' && !tokens[k].upper);
    if (anaphoric) while (start > 0 && passable(start - 1) && !isScopeEnd(tokens[start - 1])) start--;
    let subject = tokens.slice(start, subjectEnd);
    if (anaphoric) subject = subject.filter((t) => !(t.word === 'it' && !t.upper));
    // "No go-to-market teams" has no subject before "no go": it is read as a prefix negation.
    if (!subject.some((t) => !t.boundary)) continue;
    // Of a sentence that "those" point back to, only the words the reader knows count.
    const qualifier = anaphoric ? -1 : subject.findIndex((t) => !t.boundary && SEGMENT_STOPS.has(t.word));
    if (qualifier >= 0) {
      // "We sell to SaaS, and agencies are not a fit": after a comma past the qualifier, the subject starts afresh.
      const comma = subject.map((t) => t.word).lastIndexOf(',');
      if (comma > qualifier) {
        start += comma + 1;
        subject = subject.slice(comma + 1);
      } else {
        subject = subject.slice(0, qualifier);
      }
    }
    const end = m + marker.length;
    for (let k = start; k < end; k++) consumed[k] = true;
    if (!allowed && subject.some((t) => !t.boundary)) segments.push(subject);
    m = end - 1;
  }
  return segments;
}

/**
 * The industries `tokens` ask for. A broader industry next to a narrower one is part of one
 * phrase, not a second industry: "machinery manufacturers" and "industrial machinery" are
 * machinery makers, not every manufacturer.
 */
function namedIndustries(tokens: readonly Token[], consumed: boolean[]): string[] {
  const hits = scanIndustries(tokens, { consumed });
  const narrows = (broad: PhraseHit<string>, other: PhraseHit<string> | undefined) =>
    other !== undefined && other.value !== broad.value && conceptClosure(broad.value).includes(other.value);
  return hits
    .filter((hit, k) => {
      const [before, after] = [hits[k - 1], hits[k + 1]];
      return !((before?.end === hit.start && narrows(hit, before)) || (after?.start === hit.end && narrows(hit, after)));
    })
    .map((hit) => hit.value);
}

/** Type words too common alone in prose to be read there, but read beside another type. */
const PAIRED_TYPES = new Set(['partnership']);
const JOINERS = new Set(['and', 'or', ',', '/']);

/**
 * The company types prose asks for. "A partnership or privately held", "partnerships and private
 * firms": beside a type read in prose, a partnership is one too ("strategic partnerships" alone is not).
 */
function proseTypes(tokens: readonly Token[], consumed: boolean[]): string[] {
  const free = consumed.slice();
  const hits = PROSE_TYPES.scan(tokens, { consumed });
  const paired = LIST_TYPES.scan(tokens, { consumed: free }).filter(
    (hit) =>
      PAIRED_TYPES.has(hit.value) &&
      hits.some(
        (h) =>
          (h.start === hit.end + 1 && JOINERS.has(tokens[hit.end].word)) || (hit.start === h.end + 1 && JOINERS.has(tokens[h.end].word)),
      ),
  );
  for (const hit of paired) consumed.fill(true, hit.start, hit.end);
  return [...hits, ...paired].sort((a, b) => a.start - b.start).map((hit) => hit.value);
}

/** Runs of unconsumed tokens between separators. */
function splitRuns(tokens: readonly Token[], consumed: readonly boolean[], separators: ReadonlySet<string>): Token[][] {
  const runs: Token[][] = [];
  let current: Token[] = [];
  tokens.forEach((t, i) => {
    if (consumed[i] || (t.boundary && t.word !== '+') || separators.has(t.word)) {
      if (current.length > 0) runs.push(current);
      current = [];
    } else {
      current.push(t);
    }
  });
  if (current.length > 0) runs.push(current);
  return runs;
}

function keywordOf(run: readonly Token[]): Keyword | null {
  const kept = run.filter((t) => !t.boundary && !LIST_FILLERS.has(t.stem));
  if (kept.length === 0 || kept.every((t) => /^\d+$/.test(t.word))) return null;
  return { text: kept.map((t) => t.text).join(' '), stems: kept.map((t) => t.stem) };
}

const LIST_SEPARATORS = new Set([',', '/', 'and', 'or', '+']);
const TITLE_SEPARATORS = new Set([',', 'or']);

// ---------------------------------------------------------------------------------------------
// Titles from text

const PERSONA_CONTEXT = new Set([
  'at',
  'in',
  'with',
  'from',
  'who',
  'that',
  'which',
  'whose',
  'based',
  'across',
  'within',
  'working',
  'on',
  'for',
  'inside',
  'like',
  'such',
]);
const CHUNK_SEPARATORS = new Set([',', '/', '+', 'or', 'and', 'plus', 'either', 'nor']);
const SOFT_MODIFIERS = new Set(['senior', 'principal']);
const JUNIOR_WORDS = new Set(['@entry']);
const PROSE_FILLERS = new Set(['people', 'talent']);
const HINT_WORDS = new Set(['executive', 'leader', 'leadership', 'maker', 'decisionmaker', 'management']);
const LEADERSHIP_HINT: Tier[] = ['c_level', 'vp', 'director'];
const EXECUTIVE_HINT: Tier[] = ['c_level', 'vp'];
const IC_TIERS: readonly Tier[] = ['ic', 'entry'];

/**
 * A title pattern from the words of one title. In prose, words that cannot be part of a title
 * are dropped ("experienced", "growing"); under a "Titles:" label every word counts.
 */
export function titlePattern(tokens: readonly Token[], prose: boolean, display = textOf(tokens)): TitlePattern | null {
  let canonical = canonicalTitleTokens(tokens);
  let dropped = 0;
  const hints = new Set<Tier>();
  if (prose) {
    for (const t of canonical) {
      if (t === 'executive') EXECUTIVE_HINT.forEach((h) => hints.add(h));
      if (t === 'leader' || t === 'leadership' || t === 'decisionmaker' || (t === 'maker' && canonical.includes('decision')))
        LEADERSHIP_HINT.forEach((h) => hints.add(h));
    }
    dropped = canonical.filter((t) => !isTitleWord(t)).length;
    canonical = canonical.filter(isTitleWord);
    // "Finance people" means people in finance; "Head of People" is HR.
    const last = canonical[canonical.length - 1];
    if (last && PROSE_FILLERS.has(last) && canonical.slice(0, -1).some((t) => functionsOfToken(t).length > 0))
      canonical = canonical.slice(0, -1);
    // "ML owners", "data owners": people who own a function, not business owners.
    const owner = canonical.indexOf('owner');
    if (owner > 0 && canonical.slice(0, owner).every((t) => functionsOfToken(t).length > 0 && !t.startsWith('@')))
      canonical = canonical.filter((t, k) => k !== owner && !(k === owner + 1 && t === '@c_level'));
    // "People in finance": alone, "people" are persons, not HR.
    if (canonical.length > 0 && canonical.every((t) => t === 'people') && hints.size === 0) return null;
  }
  const codes = unique(canonical.filter((t) => t.startsWith('@') && !isTierToken(t)).map((t) => t.slice(1)));
  // "interim CFOs" are CFOs who are interim: the qualifier is required beside the code.
  const qualifiers = unique(tokens.filter((t) => !t.boundary && CODE_QUALIFIERS.has(t.stem)).map((t) => t.stem));
  if (codes.length > 0) return { text: display, codes, tiers: [], functions: [], tokens: qualifiers };
  // "Senior Product Manager" is a manager and "senior leaders" are leaders: beside a higher tier,
  // a level word (senior, junior) only qualifies it.
  const named = canonical.map(tierOfToken).filter((t): t is Tier => t !== undefined);
  const high = named.filter((t) => !IC_TIERS.includes(t));
  const tiers = high.length > 0 || hints.size > 0 ? unique([...high, ...hints]) : unique(named);
  // "the helpdesk side", "security roles": words that only say "people of" are no word of the title.
  const rest = canonical.filter((t) => !isTierToken(t) && !(ROLE_FILLERS.has(t) && functionsOfToken(t).length === 0));
  if (tiers.some((t) => !IC_TIERS.includes(t))) {
    return {
      text: display,
      codes: [],
      tiers,
      functions: unique(rest.flatMap(functionsOfToken)),
      // "junior PMs" are the junior ones: beside a higher rung, the entry rung stays as a word the title must have.
      tokens: [
        ...canonical.filter((t) => JUNIOR_WORDS.has(t) && high.length > 0),
        ...rest.filter((t) => functionsOfToken(t).length === 0 && !SOFT_MODIFIERS.has(t)),
        // "BDR managers" manage BDRs: the role stays as a word the title must have, not only its function.
        ...rest.filter(isDefiningRoleToken),
      ],
      ...(high.length === 0 ? { vague: true } : {}),
    };
  }
  if (rest.length > 0 && rest.every((t) => functionsOfToken(t).length > 0 && !isRoleNoun(t))) {
    // A function word among many others is a sentence, not a title: "as long as they write product code".
    if (tiers.length === 0 && dropped >= 3) return null;
    return { text: display, codes: [], tiers, functions: narrowestFunctions(unique(rest.flatMap(functionsOfToken))), tokens: [] };
  }
  if (rest.length === 0 && tiers.length === 0) return null;
  return { text: display, codes: [], tiers, functions: [], tokens: rest };
}

/** Words that narrow a C-suite title to some of its holders. */
const CODE_QUALIFIERS = new Set(['interim', 'fractional', 'acting', 'deputy', 'former', 'virtual', 'outsourced']);

const isFunctionOnly = (p: TitlePattern) => p.codes.length === 0 && p.tiers.length === 0 && p.tokens.length === 0;
const isTierOnly = (p: TitlePattern) => p.codes.length === 0 && p.functions.length === 0 && p.tokens.length === 0 && p.tiers.length > 0;

/** After "in", "within", "across": a function there is the one meant ("directors in Finance", "everyone in sales"). */
const DOMAIN_LEADS = new Set(['in', 'within', 'across']);
const DOMAIN_FILLERS = new Set(['team', 'department', 'function', 'org', 'organisation', 'organization', 'side']);

/** The functions the words after `start` name, when they name nothing else ("in the finance team", not "in financial services"). */
function domainAt(tokens: readonly Token[], start: number, consumed: readonly boolean[]): { functions: string[]; text: string } | null {
  const words: Token[] = [];
  for (let j = start; j < tokens.length && words.length < 6; j++) {
    const t = tokens[j];
    if (consumed[j] || t.boundary || CHUNK_SEPARATORS.has(t.word) || PERSONA_CONTEXT.has(t.word)) break;
    words.push(t);
  }
  const canonical = canonicalTitleTokens(words).filter((t) => !DOMAIN_FILLERS.has(t));
  if (canonical.length === 0 || !canonical.every((t) => functionsOfToken(t).length > 0 && !isRoleNoun(t))) return null;
  return { functions: unique(canonical.flatMap(functionsOfToken)), text: textOf(words.filter((t) => t.word !== 'the')) };
}

/** Whether every word of a chunk names a function ("Finance", "supply chain"), with nothing else ("Finance people"). */
function isBareFunction(words: readonly Token[]): boolean {
  const canonical = canonicalTitleTokens(words);
  return canonical.length > 0 && canonical.every((t) => functionsOfToken(t).length > 0 && !isRoleNoun(t) && !PROSE_FILLERS.has(t));
}

/**
 * Titles in Persona prose: "Heads of engineering or CTOs at growing startups" is two titles; the
 * context after "at", "in", "with"… is dropped up to the next "or"/"and"/comma, except a function
 * after "in" ("directors in Finance"). A bare function after a title borrows its tier: "VP Sales
 * and Marketing" is VP Sales or VP Marketing; one before a title does too: "Finance and HR leaders".
 */
function prosePatterns(
  tokens: readonly Token[],
  consumed: boolean[],
  accept: (p: TitlePattern, words: readonly Token[]) => boolean = () => true,
): TitlePattern[] {
  const patterns: TitlePattern[] = [];
  let chunk: number[] = [];
  let skipping = false;
  let domain: { functions: string[]; text: string } | null = null;
  let previous: TitlePattern | null = null;
  let bare: TitlePattern[] = [];
  const flush = (endOfClause: boolean) => {
    const words = chunk.map((k) => tokens[k]);
    let pattern = words.length > 0 ? titlePattern(words, true, textOf(trimToTitle(words))) : null;
    if (domain && !pattern) pattern = { text: domain.text, codes: [], tiers: [], functions: domain.functions, tokens: [] };
    else if (domain && pattern && isTierOnly(pattern))
      pattern = { ...pattern, functions: domain.functions, text: `${pattern.text} in ${domain.text}` };
    if (pattern) {
      const inherited: TitlePattern =
        // A bare function ("Marketing" after "VP Sales and") borrows the rung; people named by their
        // own noun ("content marketers" after "demand gen managers") do not.
        isFunctionOnly(pattern) && previous && previous.tiers.length > 0 && !canonicalTitleTokens(words).some(isPeopleNoun)
          ? {
              ...pattern,
              tiers: previous.tiers,
              text: `${previous.tiers.map((t) => TIER_LABEL[t]).join('/')} ${pattern.text}`,
              ...(previous.vague ? { vague: true } : {}),
            }
          : pattern;
      if (accept(inherited, words)) {
        patterns.push(inherited);
        for (const k of chunk) consumed[k] = true;
        if (isFunctionOnly(inherited) && !domain && isBareFunction(words)) {
          bare.push(inherited);
        } else {
          if (inherited.codes.length === 0 && inherited.tiers.length > 0 && inherited.functions.length > 0) {
            for (const b of bare) Object.assign(b, { tiers: inherited.tiers }, inherited.vague ? { vague: true } : {});
          }
          bare = [];
        }
      }
      previous = inherited;
    }
    chunk = [];
    skipping = false;
    domain = null;
    if (endOfClause) {
      previous = null;
      bare = [];
    }
  };
  tokens.forEach((t, i) => {
    if (consumed[i] || (t.boundary && HARD_BOUNDARIES.has(t.word))) return flush(true);
    if (CHUNK_SEPARATORS.has(t.word)) return flush(false);
    if (skipping) return;
    if (PERSONA_CONTEXT.has(t.word)) {
      skipping = true;
      if (DOMAIN_LEADS.has(t.word)) domain = domainAt(tokens, i + 1, consumed);
      return;
    }
    if (!t.boundary) chunk.push(i);
  });
  flush(true);
  return patterns;
}

/** Drops trailing words that are no part of a title ("CEOs of SaaS startups" shows as "CEOs"). */
function trimToTitle(words: readonly Token[]): readonly Token[] {
  let end = words.length;
  const meaningful = (t: Token) => HINT_WORDS.has(t.stem) || canonicalTitleTokens([t]).some(isTitleWord);
  while (end > 0 && !meaningful(words[end - 1])) end--;
  return end === 0 ? words : words.slice(0, end);
}

// ---------------------------------------------------------------------------------------------
// The builder

function emptyExclusions(): Exclusions {
  return {
    labels: [],
    concepts: [],
    keywords: [],
    nameTerms: [],
    types: [],
    countries: [],
    states: [],
    stages: [],
    titles: [],
    tiers: [],
    functions: [],
  };
}

/** A parenthetical that speaks of the writer or the reader, or gives a reason. */
const ASIDE = /\(\s*(?:it|its|as)\b[^()]*\)|\([^()]*\b(?:we|our|us|i|my|you|your|they|their|them|because|since)\b[^()]*\)/gi;
/** A reason after an exclusion list, from the pronoun or conjunction that starts it ("IT managers" is no "it"). */
const EXCLUSION_REASON =
  /[,;:—–]\s*(?:[Tt]hey(?:['’]re)?|[Ii]t(?:['’]s)?|[Ww]e(?:['’]re)?|[Tt]hose|[Tt]hese|[Aa]s|[Ss]ince|[Bb]ecause|[Ww]hich|[Ww]ho)\b.*$/s;
/** Nouns that belong to a company type before them: "state-owned agencies", "government bodies". */
const TYPE_NOUNS = new Set([
  'agency',
  'body',
  'entity',
  'organization',
  'organisation',
  'institution',
  'company',
  'firm',
  'enterprise',
  'business',
  'corporation',
  'authority',
  'department',
  'office',
  // "government-run", "state-operated": who runs it, as the type says.
  'run',
  'operated',
  'controlled',
]);

function pushUnique<T>(list: T[], ...items: T[]): void {
  for (const item of items) if (!list.includes(item)) list.push(item);
}

/**
 * "retailers" as the industry names it, "retail": a word naming people or firms by what they do,
 * without its "-er", where the table files that base under the same concept. Else null.
 */
function baseWord(word: Keyword, concept: string): Keyword | null {
  const last = word.stems[word.stems.length - 1];
  if (!last?.endsWith('er') || last.length < 6) return null;
  const stems = [...word.stems.slice(0, -1), last.slice(0, -2)];
  const text = stems.join(' ');
  return scanIndustries(prepareTaxonomyText(text)).some((hit) => hit.value === concept) ? { text, stems } : null;
}

function pushKeyword(list: Keyword[], keyword: Keyword | null): void {
  if (keyword && !list.some((k) => k.stems.join(' ') === keyword.stems.join(' '))) list.push(keyword);
}

class CriteriaBuilder {
  private readonly concepts: string[] = [];
  private readonly keywords: Keyword[] = [];
  private readonly ranges: Record<Measure, { labelled: NumberRange[]; prose: NumberRange[] }> = {
    employees: { labelled: [], prose: [] },
    revenue: { labelled: [], prose: [] },
    funding: { labelled: [], prose: [] },
  };
  private readonly currency: Partial<Record<Measure, string>> = {};
  /** Size words ("mid-market", "seven-figure"), apart from numbers: where both are written, the number is what was meant. */
  private readonly sizeWords: Record<'labelled' | 'prose' | 'excluded', SizeHit[]> = { labelled: [], prose: [], excluded: [] };
  /** How the stages were written, for a reasoning to name when a stage word stood for several rounds. */
  private readonly stageNames: string[] = [];
  private stagesAssumed = false;
  private readonly countries: string[] = [];
  private readonly countryLabels: string[] = [];
  private readonly states: string[] = [];
  private readonly stateLabels: string[] = [];
  private readonly stages: string[] = [];
  private readonly types: string[] = [];
  private readonly patterns: TitlePattern[] = [];
  private readonly functions: string[] = [];
  private readonly functionKeywords: Keyword[] = [];
  private readonly tiers: Tier[] = [];
  private readonly proseTiers: Tier[] = [];
  private readonly excluded = emptyExclusions();
  /**
   * The words each excluded industry concept or company type was read from (`industry:fintech`,
   * `type:government`), for when the concept or type itself cannot be meant.
   */
  private readonly excludedWords = new Map<string, Keyword[]>();
  /** Excluded industries named with a company type in one item ("government-run hospitals"). */
  private readonly typeQualified = new Set<string>();
  /** The words each excluded function was read from, as titles (`excludedWords` for industries and types). */
  private readonly excludedFunctionWords = new Map<string, Array<{ text: string; tokens: string[] }>>();
  private readonly extraProse: string[] = [];

  /** `aboutUs`: whether the description names the US or a US state somewhere, so "CA, MA" are states; asked only where codes are read. */
  constructor(
    private readonly subject: Subject,
    private readonly aboutUs: () => boolean = () => false,
  ) {}

  labelled(kind: LabelKind, value: string): void {
    if (this.subject === 'icp' && PERSON_KINDS.has(kind)) return;
    // "Exclude: recruiters (our product doesn't touch hiring)": the aside is a comment, not a list item.
    // "Exclude: government-run hospitals (VA, county, state)": a bracket after an excluded item gives
    // examples of it or a reason; the item says what is excluded.
    // Under any label, an aside about the seller is a comment: "Geo: US (Boston is our sweet spot,
    // but anywhere in the US is fine) and Canada".
    // "Exclude: CEOs, they hand this to the CFO": a reason after the list is no item of it.
    const read =
      kind === 'exclusion' || kind === 'industry_exclusion'
        ? value
            .replace(ASIDE, ' ')
            .replace(/\([^()]*\)/g, ' ')
            .replace(EXCLUSION_REASON, '')
        : value.replace(ASIDE, ' ');
    if (!this.readLabelled(kind, read)) this.extraProse.push(read);
  }

  /** Whether the value gave anything for its label. */
  private readLabelled(kind: LabelKind, written: string): boolean {
    const value = kind === 'seniority' ? seniorityDashes(written) : written;
    if (kind === 'employees' || kind === 'revenue') return this.readRanges(value, kind, 'labelled') || this.readSizeWords(value);
    if (kind === 'exclusion') return this.readExclusion(prepareTaxonomyText(value), false);
    if (kind === 'industry_exclusion') return this.readExclusion(prepareTaxonomyText(value), false, 'icp');
    const tokens = prepareTaxonomyText(value);
    const consumed = falseArray(tokens.length);
    let found = false;
    for (const segment of findExclusionSegments(tokens, consumed)) found = this.readExclusion(segment, false) || found;
    switch (kind) {
      case 'industry': {
        const before = this.concepts.length + this.keywords.length;
        pushUnique(this.concepts, ...namedIndustries(tokens, consumed));
        for (const run of splitRuns(tokens, consumed, LIST_SEPARATORS)) pushKeyword(this.keywords, keywordOf(run));
        return found || this.concepts.length + this.keywords.length > before;
      }
      case 'country': {
        // State names that are no country's name ("Location: Texas"); "Georgia" stays the country here.
        // Codes that are both states' and countries' ("DE, CA") are countries unless the description is about the US.
        const states = this.readStates(tokens, consumed, { labelled: false, usContext: false, countryCodes: !this.aboutUs() });
        return this.readPlaces(tokens, consumed, false) || states || found;
      }
      case 'state': {
        const states = this.readStates(tokens, consumed, { labelled: true, usContext: true });
        return this.readPlaces(tokens, consumed, false) || states || found;
      }
      case 'funding': {
        const hits = scanStages(tokens, consumed, false);
        this.addStages(hits);
        // Money under a "Funding:" label is the total raised.
        const amounts = this.readRanges(value, null, 'labelled', 'funding');
        return hits.length > 0 || amounts || found;
      }
      case 'company_type': {
        const hits = LIST_TYPES.scan(tokens, { consumed });
        pushUnique(this.types, ...hits.map((h) => h.value));
        return hits.length > 0 || found;
      }
      case 'title': {
        this.readSeniorityRanges(tokens, consumed);
        const before = this.patterns.length;
        for (const run of splitRuns(tokens, consumed, TITLE_SEPARATORS)) {
          const pattern = titlePattern(run, false);
          if (pattern) this.patterns.push(pattern);
        }
        return this.patterns.length > before || found;
      }
      case 'function': {
        // "Teams: team leads up to senior managers in customer support": the range is the seniority.
        const ranged = this.readSeniorityRanges(tokens, consumed);
        const before = this.functions.length + this.functionKeywords.length - (ranged ? 1 : 0);
        for (const run of splitRuns(tokens, consumed, LIST_SEPARATORS)) {
          const functions = functionsOf(textOf(run));
          if (functions.length > 0) pushUnique(this.functions, ...functions);
          else pushKeyword(this.functionKeywords, keywordOf(run));
        }
        return this.functions.length + this.functionKeywords.length > before || found;
      }
      case 'seniority': {
        const rest = splitRuns(tokens, consumed, new Set([',']))
          .map((run) => run.map((t) => t.text).join(' '))
          .join(', ');
        const tiers = senioritiesOf(rest);
        pushUnique(this.tiers, ...tiers);
        return tiers.length > 0 || found;
      }
      default:
        return found;
    }
  }

  /** Seniority ranges ("team leads up to senior managers") inside a title or function value. */
  private readSeniorityRanges(tokens: readonly Token[], consumed: boolean[]): boolean {
    const hits = findSeniority(tokens, false, consumed);
    for (const hit of hits) {
      pushUnique(this.proseTiers, ...hit.tiers);
      consumed.fill(true, hit.start, hit.end);
    }
    return hits.length > 0;
  }

  private readRanges(text: string, label: Measure | null, source: 'labelled' | 'prose', moneyMeasure: Measure = 'revenue'): boolean {
    let found = false;
    for (const hit of findRanges(text, moneyMeasure)) {
      const measure = hit.measure ?? label;
      if (!measure) continue;
      const range = hit.negated ? invert(hit.range) : hit.range;
      if (!range) continue;
      this.ranges[measure][source].push(range);
      if (hit.currency) this.currency[measure] ??= hit.currency;
      found = true;
    }
    return found;
  }

  /** A labelled size: "Segment: SMB + mid-market", "Company size: mid-market to enterprise", "Size: not enterprise". */
  private readSizeWords(value: string): boolean {
    const tokens = prepareTaxonomyText(value);
    const consumed = falseArray(tokens.length);
    let found = false;
    for (const segment of findExclusionSegments(tokens, consumed)) {
      const excluded = scanSizes(segment, falseArray(segment.length), industryLength);
      this.sizeWords.excluded.push(...excluded);
      found = found || excluded.length > 0;
    }
    const hits = scanSizes(tokens, consumed, industryLength);
    this.sizeWords.labelled.push(...hits);
    return found || hits.length > 0;
  }

  private addStages(hits: readonly StageHit[]): void {
    // "Venture-backed, Series A through Series D": the rounds say which venture-backed companies.
    const named = hits.some((hit) => !hit.term && hit.stages.some((stage) => VENTURE_STAGES.includes(stage)));
    for (const hit of hits) {
      if (named && hit.term === VENTURE_TERM) continue;
      pushUnique(this.stages, ...hit.stages);
      pushUnique(this.stageNames, hit.label);
      if (hit.term) this.stagesAssumed = true;
    }
  }

  private readStates(
    tokens: readonly Token[],
    consumed: boolean[],
    options: { labelled: boolean; usContext: boolean; countryCodes?: boolean },
    into = { states: this.states, labels: this.stateLabels },
  ): boolean {
    const hits = scanStates(tokens, consumed, options);
    for (const hit of hits) {
      // "New York, New Jersey, Connecticut (tri-state area)": the group adds no state, so no label either.
      if (hit.states.every((s) => into.states.includes(s))) continue;
      pushUnique(into.states, ...hit.states);
      pushUnique(into.labels, hit.label);
    }
    return hits.length > 0;
  }

  /** Whether "Georgia" in this text may be the US state: the description names the US or a US state. */
  private usContext(tokens: readonly Token[]): boolean {
    return this.countries.includes('US') || this.states.some((s) => stateCountry(s) === 'US') || namesUnitedStates(tokens);
  }

  /**
   * The places named in `tokens`. `strictCase`: prose, where codes that are also words ("US", "IT")
   * count only in capitals and bare codes not at all; `capitals` holds those words to capitals even
   * in a labelled value, where bare codes still count as whole list items.
   */
  private readPlaces(
    tokens: readonly Token[],
    consumed: boolean[],
    strictCase: boolean,
    into = { countries: this.countries, labels: this.countryLabels },
    capitals = strictCase,
  ): boolean {
    let found = false;
    for (const place of scanPlaces(tokens, consumed, capitals)) {
      pushUnique(into.countries, ...place.countries);
      pushUnique(into.labels, place.label);
      found = true;
    }
    if (!strictCase) {
      // Codes ("DE", "GBR") only as whole list items: inside a sentence they are ordinary words.
      tokens.forEach((t, i) => {
        if (
          consumed[i] ||
          t.boundary ||
          t.word.length < 2 ||
          t.word.length > 3 ||
          ['and', 'the', 'for', 'not', 'any', 'all'].includes(t.word)
        )
          return;
        const alone = (k: number) => k < 0 || k >= tokens.length || tokens[k].boundary || ['and', 'or'].includes(tokens[k].word);
        if (!alone(i - 1) || !alone(i + 1)) return;
        const place = resolvePlace(t.text);
        if (!place) return;
        consumed[i] = true;
        pushUnique(into.countries, ...place.countries);
        pushUnique(into.labels, place.label);
        found = true;
      });
    }
    return found;
  }

  /**
   * One exclusion segment or an "Exclude:" value. Returns whether it excluded anything. In a
   * Persona, titles are read before company words so "security engineers" stays a title, and
   * bare functions after them so "marketing agencies" stays a kind of company.
   */
  private readExclusion(tokens: readonly Token[], prose: boolean, as: Subject = this.subject): boolean {
    const x = this.excluded;
    const before = JSON.stringify(x);
    const consumed = falseArray(tokens.length);
    let sized: SizeHit[] = [];
    const label = (start: number, end: number) => pushUnique(x.labels, textOf(tokens.slice(start, end)));
    if (as === 'persona') {
      // "Not directors and above", "no one at director level or higher": the whole range, not the one rung.
      for (const hit of findSeniority(tokens, false, consumed)) {
        pushUnique(x.tiers, ...hit.tiers);
        label(hit.start, hit.end);
        consumed.fill(true, hit.start, hit.end);
      }
      // "security roles", "BI", "data eng": functions of people, before company words can take them.
      const peopleWords = new Map<TitlePattern, readonly Token[]>();
      const people = (p: TitlePattern, words: readonly Token[]) => {
        if (!isFunctionOnly(p) || !namesPeopleOnly(words)) return false;
        peopleWords.set(p, words);
        return true;
      };
      for (const pattern of prosePatterns(tokens, consumed, people)) this.excludeFunctionWords(pattern, peopleWords.get(pattern) ?? []);
      for (const pattern of prosePatterns(tokens, consumed, (p) => !isFunctionOnly(p))) {
        x.titles.push(pattern);
        pushUnique(x.labels, pattern.text);
      }
    }
    if (as === 'icp' || !prose) {
      const typeHits = (prose ? PROSE_TYPES : LIST_TYPES).scan(tokens, { consumed });
      const typed = typeHits.length > 0;
      for (const hit of typeHits) {
        let end = hit.end;
        while (end < tokens.length && !consumed[end] && TYPE_NOUNS.has(tokens[end].stem)) consumed[end++] = true;
        pushUnique(x.types, hit.value);
        label(hit.start, end);
        this.noteExcludedWord('type', hit.value, keywordOf(tokens.slice(hit.start, end)));
      }
      for (const hit of scanStages(tokens, consumed, prose)) {
        pushUnique(x.stages, ...hit.stages);
        label(hit.start, hit.end);
      }
      // An excluded size narrows the size criterion rather than joining the exclusion.
      sized = scanSizes(tokens, consumed, industryLength);
      this.sizeWords.excluded.push(...sized);
      // Industries before places, so "VC" is venture capital here, not Saint Vincent.
      const industries = scanIndustries(tokens, { consumed });
      // "government-run hospitals": a type names which of them; see narrowedExclusions.
      if (typed) for (const hit of industries) this.typeQualified.add(hit.value);
      let from: number | null = null;
      for (const [k, hit] of industries.entries()) {
        // "security consultancies": the last word names what is excluded (consultancies), the
        // one before it only which kind; excluding security too would exclude security vendors.
        if (industries[k + 1]?.start === hit.end) {
          from ??= hit.start;
          continue;
        }
        pushUnique(x.concepts, hit.value);
        const word = keywordOf(tokens.slice(hit.start, hit.end));
        pushKeyword(x.nameTerms, word);
        this.noteExcludedWord('industry', hit.value, word);
        label(from ?? hit.start, hit.end);
        from = null;
      }
      const states = { states: [] as string[], labels: [] as string[] };
      this.readStates(tokens, consumed, { labelled: false, usContext: this.usContext(tokens) }, states);
      pushUnique(x.states, ...states.states);
      pushUnique(x.labels, ...states.labels.map((l) => `in ${l}`));
      const places = { countries: [] as string[], labels: [] as string[] };
      // An exclusion's reasons are prose even under a label: "too early for us" excludes no country.
      this.readPlaces(tokens, consumed, prose, places, true);
      pushUnique(x.countries, ...places.countries);
      pushUnique(x.labels, ...places.labels.map((l) => `in ${l}`));
    }
    if (as === 'persona') {
      if (prose) {
        // Company words in Persona prose are context: "not marketing agencies" keeps marketers; "not marketing" does not.
        for (const hit of INDUSTRY_INDEX.scan(tokens, { consumed, mark: false })) {
          if (canonicalTitleTokens(tokens.slice(hit.start, hit.end)).some((t) => !isTitleWord(t)))
            for (let k = hit.start; k < hit.end; k++) consumed[k] = true;
        }
      }
      // "Not sales enablement": the part of the function those words name (titles with all of
      // them), not all of sales; a function named alone ("not marketing") is excluded whole.
      const wordsOf = new Map<TitlePattern, readonly Token[]>();
      const functionOnly = (p: TitlePattern, words: readonly Token[]) => {
        if (!isFunctionOnly(p)) return false;
        wordsOf.set(p, words);
        return true;
      };
      for (const pattern of prosePatterns(tokens, consumed, functionOnly))
        this.excludeFunctionWords(pattern, wordsOf.get(pattern) ?? [], true);
      // Seniority words that are no title: "nobody in management" (every rung that manages).
      const at = new Map(tokens.map((t, k) => [t, k]));
      for (const run of splitRuns(tokens, consumed, LIST_SEPARATORS)) {
        const words = textOf(run);
        // Interns, trainees, working students are people, not the whole entry rung: "no interns" keeps juniors.
        if (run.every((t) => PERSON_RUNG_WORDS.has(t.stem))) {
          const pattern = titlePattern(run, false, words);
          if (pattern && pattern.tokens.length > 0) {
            x.titles.push(pattern);
            pushUnique(x.labels, words);
            for (const t of run) consumed[at.get(t) as number] = true;
            continue;
          }
        }
        const tiers = senioritiesOf(run.some((t) => t.word === 'management') ? `${words} and above` : words);
        if (tiers.length === 0) continue;
        pushUnique(x.tiers, ...tiers);
        pushUnique(x.labels, words);
        for (const t of run) consumed[at.get(t) as number] = true;
      }
    }
    if (!prose) {
      for (const run of splitRuns(tokens, consumed, LIST_SEPARATORS)) {
        const keyword = keywordOf(run);
        if (!keyword) continue;
        pushKeyword(x.keywords, keyword);
        pushUnique(x.labels, keyword.text);
        // In a Persona a word the taxonomy does not know may name people: "Exclude: working students".
        const pattern = as === 'persona' ? titlePattern(run, false, keyword.text) : null;
        if (pattern && pattern.tokens.length > 0) x.titles.push(pattern);
      }
    }
    return JSON.stringify(x) !== before || sized.length > 0;
  }

  /**
   * An excluded function, read from `words`. Where the words name a part of it ("not sales
   * enablement", with `narrow`) or one kind of people that two functions' words describe ("not
   * product marketers"), only titles with all of those words are excluded, not the functions.
   */
  private excludeFunctionWords(pattern: TitlePattern, words: readonly Token[], narrow = false): void {
    const x = this.excluded;
    const roles = canonicalTitleTokens(words).filter(isDefiningRoleToken);
    const narrowed = words.length > 1 ? titlePattern(words, false) : null;
    if (roles.length > 0) {
      // "Not product marketers", "no sales engineers": those people, not their whole function.
      for (const role of roles) x.titles.push({ text: pattern.text, codes: [], tiers: [], functions: [], tokens: [role] });
      pushUnique(x.labels, pattern.text);
    } else if (narrow && narrowed && narrowed.tokens.some((t) => !isTitleWord(t))) {
      x.titles.push(narrowed);
      pushUnique(x.labels, narrowed.text);
    } else {
      pushUnique(x.functions, ...pattern.functions);
      pushUnique(x.labels, pattern.text);
      const tokens = canonicalTitleTokens(words).filter((t) => !isTierToken(t) && !ROLE_FILLERS.has(t));
      for (const fn of pattern.functions)
        this.excludedFunctionWords.set(fn, [...(this.excludedFunctionWords.get(fn) ?? []), { text: pattern.text, tokens }]);
    }
  }

  /**
   * A function the Persona asks for cannot be excluded whole by a word of it: in "demand
   * generation; no brand roles" brand is a part of marketing. Such a function is dropped from the
   * exclusion and its words are kept as titles to exclude ("brand"), as industries narrow.
   */
  private narrowedFunctions(x: Exclusions, patterns: readonly TitlePattern[]): Exclusions {
    const wanted = new Set([...this.functions, ...patterns.flatMap((p) => p.functions)]);
    const narrowed = x.functions.filter((fn) => wanted.has(fn) && this.excludedFunctionWords.has(fn));
    if (narrowed.length === 0) return x;
    const titles = [...x.titles];
    for (const fn of narrowed)
      for (const { text, tokens } of this.excludedFunctionWords.get(fn) ?? [])
        if (tokens.length > 0) titles.push({ text, codes: [], tiers: [], functions: [], tokens });
    return { ...x, functions: x.functions.filter((fn) => !narrowed.includes(fn)), titles };
  }

  prose(parts: readonly string[]): void {
    const text = [...parts, ...this.extraProse].join('\n');
    if (!text.trim()) return;
    if (this.subject === 'persona') return this.personaProse(text);
    // Ranges come out first so their words ("over", "no more than") are not read again.
    let blanked = text;
    for (const hit of findRanges(text)) {
      if (!hit.measure) continue;
      const range = hit.negated ? invert(hit.range) : hit.range;
      if (range) {
        this.ranges[hit.measure].prose.push(range);
        if (hit.currency) this.currency[hit.measure] ??= hit.currency;
      }
      blanked = blanked.slice(0, hit.start) + ' '.repeat(hit.end - hit.start) + blanked.slice(hit.end);
    }
    const tokens = prepareTaxonomyText(blanked);
    const consumed = falseArray(tokens.length);
    for (const segment of findExclusionSegments(tokens, consumed)) this.readExclusion(segment, true);
    pushUnique(this.types, ...proseTypes(tokens, consumed));
    this.addStages(scanStages(tokens, consumed, true));
    this.sizeWords.prose.push(...scanSizes(tokens, consumed, industryLength));
    this.readStates(tokens, consumed, { labelled: false, usContext: this.usContext(tokens) });
    this.readPlaces(tokens, consumed, true);
    pushUnique(this.concepts, ...namedIndustries(tokens, consumed));
  }

  private personaProse(text: string): void {
    // A dash between clauses ends a title list; between two rungs it is a range ("Manager – VP").
    const tokens = prepareTaxonomyText(seniorityDashes(text, ' ; '));
    // Lower-case "it" is the pronoun; the department is written "IT".
    const consumed = tokens.map((t) => t.word === 'it' && !t.upper);
    for (const segment of findExclusionSegments(tokens, consumed)) this.readExclusion(segment, true);
    for (const hit of findSeniority(tokens, false, consumed)) {
      pushUnique(this.proseTiers, ...hit.tiers);
      consumed.fill(true, hit.start, hit.end);
    }
    this.patterns.push(...prosePatterns(tokens, consumed));
  }

  /**
   * The range of one measure: labelled numbers, else labelled size words, else numbers in prose,
   * else size words in prose; then less any excluded size ("not enterprise").
   */
  private sized(measure: Measure): { ranges: NumberRange[]; assumed?: string } | null {
    const step = measure === 'employees' ? 1 : 0;
    const numbers = this.ranges[measure];
    const words = (source: 'labelled' | 'prose' | 'excluded') => this.sizeWords[source].filter((h) => h.measure === measure);
    let ranges: NumberRange[] = [];
    let named: SizeHit[] = [];
    if (numbers.labelled.length > 0) ranges = bothBounds(numbers.labelled);
    else if (words('labelled').length > 0) named = words('labelled');
    else if (numbers.prose.length > 0) ranges = bothBounds(numbers.prose);
    else named = words('prose');
    if (named.length > 0)
      ranges = mergeRanges(
        named.map((h) => h.range),
        step,
      );
    const excluded = words('excluded');
    if (excluded.length > 0) {
      // Alone, an exclusion leaves everything else: any amount, or any head count from 1.
      let rest = ranges.length > 0 ? ranges : [{ min: step > 0 ? 1 : null, max: null, minExclusive: false, maxExclusive: false }];
      for (const x of excluded) rest = rest.flatMap((r) => subtractRange(r, x.range, step));
      ranges = mergeRanges(rest, step);
    }
    if (ranges.length === 0) return null;
    const assumed = [
      joinList(unique(named.map((h) => h.label)), 'or'),
      excluded.length > 0 ? `not ${joinList(unique(excluded.map((h) => h.label)), 'or')}` : '',
    ]
      .filter(Boolean)
      .join(', ');
    return assumed ? { ranges, assumed } : { ranges };
  }

  private noteExcludedWord(kind: 'industry' | 'type', value: string, word: Keyword | null): void {
    if (word) this.excludedWords.set(`${kind}:${value}`, [...this.excludedWordsOf(kind, value), word]);
  }

  private excludedWordsOf(kind: 'industry' | 'type', value: string): Keyword[] {
    return this.excludedWords.get(`${kind}:${value}`) ?? [];
  }

  /**
   * An excluded word that the table files under an industry the description targets ("logistics
   * companies, no courier outfits" while "courier" were a logistics term) cannot exclude that whole
   * industry: the writer meant a narrower kind. Such a concept is dropped and its words are kept as
   * literal keywords, so only companies that say them are excluded.
   */
  private narrowedExclusions(): Exclusions {
    const x = this.excluded;
    const targeted = (concept: string) => conceptClosure(concept).some((c) => this.concepts.includes(c));
    // The same for a company type: "state and local government …; federal agencies are out".
    const required = (type: string) => this.types.includes(type);
    if (!x.concepts.some(targeted) && !x.types.some(required)) return x;
    const keywords = [...x.keywords];
    // Beside a type ("government-run hospitals" when hospitals are the target) the type excludes, not the industry.
    for (const concept of x.concepts.filter((c) => targeted(c) && !this.typeQualified.has(c)))
      for (const word of this.excludedWordsOf('industry', concept)) {
        pushKeyword(keywords, word);
        pushKeyword(keywords, baseWord(word, concept));
      }
    for (const type of x.types.filter(required)) for (const word of this.excludedWordsOf('type', type)) pushKeyword(keywords, word);
    const dropped = (c: string) => targeted(c) && this.typeQualified.has(c);
    const droppedWords = new Set(x.concepts.filter(dropped).flatMap((c) => this.excludedWordsOf('industry', c).map((w) => w.text)));
    return {
      ...x,
      concepts: x.concepts.filter((c) => !targeted(c)),
      types: x.types.filter((t) => !required(t)),
      keywords,
      nameTerms: x.nameTerms.filter((term) => !droppedWords.has(term.text)),
    };
  }

  build(): Criterion[] {
    const out: Criterion[] = [];
    if (this.concepts.length > 0 || this.keywords.length > 0)
      out.push({ kind: 'industry', concepts: this.concepts, keywords: this.keywords });
    const employees = this.sized('employees');
    if (employees) out.push({ kind: 'employees', ...employees });
    const revenue = this.sized('revenue');
    if (revenue) out.push({ kind: 'revenue', ...revenue, currency: this.currency.revenue ?? '$' });
    // A state implies its country: "Texas or Germany" asks for the US too, and the state criterion narrows it.
    const stateCountries = unique(this.states.map(stateCountry)).filter((c) => !this.countries.includes(c));
    if (this.countries.length > 0) {
      out.push({
        kind: 'country',
        countries: [...this.countries, ...stateCountries],
        labels: [...this.countryLabels, ...stateCountries.map(countryName)],
        of: this.subject === 'icp' ? 'company' : 'contact',
      });
    }
    if (this.states.length > 0) {
      const own = unique(this.states.map(stateCountry));
      out.push({
        kind: 'state',
        states: this.states,
        labels: this.stateLabels,
        elsewhere: this.countries.filter((c) => !own.includes(c)),
        of: this.subject === 'icp' ? 'company' : 'contact',
      });
    }
    if (this.stages.length > 0) {
      out.push(
        this.stagesAssumed
          ? { kind: 'funding', stages: this.stages, assumed: joinList(this.stageNames, 'or') }
          : { kind: 'funding', stages: this.stages },
      );
    }
    const raised = this.sized('funding');
    if (raised) out.push({ kind: 'total_funding', ...raised, currency: this.currency.funding ?? '$' });
    if (this.types.length > 0) out.push({ kind: 'company_type', types: this.types });
    // A labelled seniority wins over one in prose, as a labelled range does.
    const tiers = this.tiers.length > 0 ? this.tiers : TIERS.filter((t) => this.proseTiers.includes(t));
    const patterns = personaPatterns(resolveAmbiguousCodes(this.patterns, this.functions), tiers.length > 0);
    if (patterns.length > 0) out.push({ kind: 'title', patterns });
    if (this.functions.length > 0 || this.functionKeywords.length > 0)
      out.push({ kind: 'function', functions: this.functions, keywords: this.functionKeywords });
    if (tiers.length > 0) out.push({ kind: 'seniority', tiers });
    const x = this.narrowedFunctions(this.narrowedExclusions(), patterns);
    if (
      x.concepts.length +
        x.keywords.length +
        x.types.length +
        x.countries.length +
        x.states.length +
        x.stages.length +
        x.titles.length +
        x.tiers.length +
        x.functions.length >
      0
    ) {
      out.push({ kind: 'exclusion', ...x });
    }
    return out;
  }
}

/** Words that stand for people of a function: "security roles", "data folks". */
const PEOPLE_WORDS = new Set(['role', 'people', 'folk', 'person', 'staff', 'team', 'position', 'function', 'guy', 'employee']);

/** Whether the words are all function or people words ("security roles", "BI"), with no company noun ("marketing agencies"). */
function namesPeopleOnly(words: readonly Token[]): boolean {
  const canonical = canonicalTitleTokens(words);
  return canonical.length > 0 && canonical.every((t) => (functionsOfToken(t).length > 0 && !isRoleNoun(t)) || PEOPLE_WORDS.has(t));
}

/**
 * A lower and an upper bound written apart are one range: "$10M+ total, but under $150M" is
 * 10M–150M, not either. Bounds that leave nothing between them ("under 50 or over 1,000") stay
 * alternatives.
 */
function bothBounds(ranges: NumberRange[]): NumberRange[] {
  if (ranges.length !== 2) return ranges;
  const low = ranges.find((r) => r.min !== null && r.max === null);
  const high = ranges.find((r) => r.min === null && r.max !== null);
  if (!low || !high || low.min! >= high.max!) return ranges;
  return [{ min: low.min, max: high.max, minExclusive: low.minExclusive, maxExclusive: high.maxExclusive }];
}

/** Words of the entry rung that name a kind of person; excluding them excludes those people, not the rung. */
const PERSON_RUNG_WORDS = new Set(['intern', 'internship', 'trainee', 'apprentice', 'working', 'student', 'werkstudent']);

/** The length of the industry phrase starting at `i`, 0 for none. */
function industryLength(tokens: readonly Token[], i: number): number {
  const hit = INDUSTRY_INDEX.longestAt(tokens, i);
  return hit ? hit.end - hit.start : 0;
}

/**
 * The title alternatives of a Persona as a whole. A stated seniority replaces the vague tiers of
 * "leaders" and "executives": "Marketing leaders. Seniority: Manager+" takes marketing managers.
 */
function personaPatterns(patterns: readonly TitlePattern[], seniorityStated: boolean): TitlePattern[] {
  const out: TitlePattern[] = [];
  for (const p of patterns) {
    if (!seniorityStated || !p.vague) out.push(p);
    else if (p.functions.length > 0 || p.tokens.length > 0)
      out.push({ text: p.text, codes: p.codes, tiers: [], functions: p.functions, tokens: p.tokens });
  }
  // A bare rung ("directors", "VPs") in a Persona that names a function is a rung of that
  // function: "Director-level and above in Finance, so directors, VPs" does not take a sales
  // director. A founder's general management is a role, not a domain.
  const domain = unique(out.filter((p) => p.codes.length === 0).flatMap((p) => p.functions)).filter((f) => f !== 'general_management');
  const inDomain = (p: TitlePattern) => ({
    ...p,
    functions: domain,
    text: `${p.text} in ${joinList(
      domain.map((f) => FUNCTION_LABEL[f] ?? f),
      'or',
    )}`,
  });
  return dedupePatterns(domain.length > 0 ? out.map((p) => (isTierOnly(p) ? inDomain(p) : p)) : out);
}

/** C-suite codes with more than one meaning, and the code each function around them makes it. */
const AMBIGUOUS_CODES: Record<string, Record<string, string>> = {
  cpo: { hr: 'chro', procurement: 'chief_procurement', product: 'cpo' },
};

/**
 * "CPOs" beside HR directors and VPs of People are Chief People Officers; beside procurement they
 * are Chief Procurement Officers. The functions the other titles and the function criterion name
 * decide; with none, or more than one meaning, the code stays as written.
 */
export function resolveAmbiguousCodes(patterns: readonly TitlePattern[], functions: readonly string[]): TitlePattern[] {
  const context = unique([...patterns.filter((p) => p.codes.length === 0).flatMap((p) => p.functions), ...functions]);
  return patterns.map((p) => {
    const codes = p.codes.map((code) => {
      const meanings = AMBIGUOUS_CODES[code];
      if (!meanings) return code;
      const fitting = unique(
        Object.entries(meanings)
          .filter(([f]) => context.includes(f))
          .map(([, c]) => c),
      );
      return fitting.length === 1 ? fitting[0] : code;
    });
    return codes.join() === p.codes.join() ? p : { ...p, codes };
  });
}

/** Titles that match the same way are one alternative, shown under all their names ("Founder/Owner"). */
function dedupePatterns(patterns: readonly TitlePattern[]): TitlePattern[] {
  const byKey = new Map<string, TitlePattern>();
  for (const p of patterns) {
    const key = JSON.stringify([p.codes, p.tiers, p.functions, p.tokens, p.vague]);
    const seen = byKey.get(key);
    if (!seen) byKey.set(key, { ...p });
    else if (!seen.text.split('/').includes(p.text)) seen.text = `${seen.text}/${p.text}`;
  }
  return [...byKey.values()];
}

/** The criteria a description states. Never throws; a description with no readable criterion gives `[]`. */
export function parseCriteria(description: string, subject: Subject): Criterion[] {
  if (typeof description !== 'string' || description.trim() === '') return [];
  // One line break, whatever the text was written with ("Avoid\r\nBrazil" is a heading and its
  // line), and no Markdown or invisible characters around the words ("**Industries**: Fintech").
  let text = linesOf(description.slice(0, MAX_PARSED_LENGTH))
    .map((line) => undecorated(line.text))
    .join('\n');
  // Founded years come out first, blanked, so a year is never read as a head count or a label's value.
  const founded = subject === 'icp' ? findFounded(text) : [];
  for (const hit of founded) text = text.slice(0, hit.start) + ' '.repeat(hit.end - hit.start) + text.slice(hit.end);
  const prepared = prepare(expandDefinedTitles(text));
  const { labelled, prose } = splitLabelled(prepared);
  let aboutUs: boolean | undefined;
  const builder = new CriteriaBuilder(subject, () => (aboutUs ??= namesUnitedStates(prepareTaxonomyText(prepared))));
  for (const part of labelled) builder.labelled(part.kind, part.value);
  builder.prose(prose);
  const out = builder.build();
  if (founded.length > 0)
    out.push({ kind: 'founded', ranges: founded.map((h) => h.range), text: joinList(unique(founded.map((h) => h.text)), 'or') });
  return out;
}
