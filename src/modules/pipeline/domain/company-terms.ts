/**
 * Funding stages and company types, as descriptions and providers spell them ("Series A",
 * "series_a", "Post-IPO Equity"; "Privately Held", "Non-profit", "Government Agency").
 */
import { PhraseIndex, Token, tokenize } from './text';

// ---------------------------------------------------------------------------------------------
// Funding stages

const SERIES_LETTERS = 'abcdefghij'.split('');

/** In order of a company's life, so "Series B+" and "late stage" are slices of this list. */
export const STAGES: readonly string[] = ['pre_seed', 'angel', 'seed', ...SERIES_LETTERS.map((l) => `series_${l}`), 'growth', 'ipo'];

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

/** Words whose stage meaning is safe in running prose. */
const PROSE_STAGES = new PhraseIndex<string[]>('stem');
/** Words that are stages only in a list under a "Funding:" label ("growth", "public"). */
const LIST_STAGES = new PhraseIndex<string[]>('stem');
const stage = (phrases: string[], stages: string[], proseToo = true) => {
  for (const p of phrases) {
    LIST_STAGES.add(p, stages);
    if (proseToo) PROSE_STAGES.add(p, stages);
  }
};
stage(['pre seed', 'preseed', 'pre seed stage', 'pre seed round'], ['pre_seed']);
stage(['angel round', 'angel stage', 'angel funded', 'angel backed'], ['angel']);
stage(['angel'], ['angel'], false);
stage(['seed', 'seed stage', 'seed round', 'seed funded', 'seed funding'], ['seed']);
stage(['early stage', 'early stage venture'], ['pre_seed', 'seed', 'series_a']);
stage(['late stage', 'late stage venture', 'later stage'], [...slice('series_c', 'series_j'), 'growth']);
stage(['growth stage', 'growth equity', 'growth round', 'growth funding', 'pre ipo'], ['growth']);
stage(['growth', 'expansion stage'], ['growth'], false);
stage(['ipo', 'post ipo', 'post ipo equity', 'post ipo debt', 'post ipo secondary', 'ipo stage', 'went public'], ['ipo']);
stage(['public', 'publicly traded', 'listed', 'publicly listed', 'public company'], ['ipo'], false);
stage(['private equity', 'pe backed', 'private equity round'], ['private_equity'], false);
stage(['debt financing', 'debt', 'venture debt'], ['debt'], false);
stage(['grant'], ['grant'], false);
stage(['bootstrapped', 'self funded'], ['bootstrapped'], false);

/** Words that say a provider does not know the stage: no data, not a failed match. */
const UNKNOWN_STAGE = /\b(?:unknown|undisclosed|not\s+specified|unspecified|n\/?a|none|other)\b/i;

const LATER = new Set(['later', 'onward', 'onwards', 'beyond', 'above', 'plus', 'up']);

export interface StageHit {
  start: number;
  end: number;
  stages: string[];
  label: string;
}

/**
 * Stages named in `tokens`: phrases from the dictionaries, and "Series" followed by letters,
 * lists ("Series A and B"), spans ("Series A to C") and open ends ("Series B+", "Series B and later").
 */
export function scanStages(tokens: readonly Token[], consumed: boolean[], prose: boolean): StageHit[] {
  const hits: StageHit[] = [];
  const index = prose ? PROSE_STAGES : LIST_STAGES;
  for (let i = 0; i < tokens.length; i++) {
    if (consumed[i] || tokens[i].boundary) continue;
    if (tokens[i].word === 'series') {
      const series = readSeries(tokens, i + 1, consumed);
      if (series) {
        for (let k = i; k < series.end; k++) consumed[k] = true;
        hits.push({ start: i, end: series.end, stages: series.stages, label: series.stages.map(stageLabel).join(', ') });
        i = series.end - 1;
        continue;
      }
    }
    const hit = index.longestAt(tokens, i, { consumed });
    if (hit) {
      for (let k = hit.start; k < hit.end; k++) consumed[k] = true;
      const label = tokens
        .slice(hit.start, hit.end)
        .map((t) => t.word)
        .join(' ');
      hits.push({ start: hit.start, end: hit.end, stages: hit.value, label });
      i = hit.end - 1;
    }
  }
  return hits;
}

function letterAt(tokens: readonly Token[], i: number, consumed: boolean[]): string | null {
  const t = tokens[i];
  if (!t || t.boundary || consumed[i]) return null;
  return /^[a-j]$/.test(t.word) ? t.word : null;
}

function readSeries(tokens: readonly Token[], at: number, consumed: boolean[]): { stages: string[]; end: number } | null {
  const first = letterAt(tokens, at, consumed);
  if (!first) return null;
  const stages = new Set<string>([`series_${first}`]);
  let last = first;
  let i = at + 1;
  for (;;) {
    const t = tokens[i];
    if (!t) break;
    if (t.word === '+') {
      for (const s of slice(`series_${last}`, 'series_j')) stages.add(s);
      stages.add('growth');
      i++;
      break;
    }
    if ((t.word === 'and' || t.word === 'or') && tokens[i + 1] && LATER.has(tokens[i + 1].word)) {
      for (const s of slice(`series_${last}`, 'series_j')) stages.add(s);
      stages.add('growth');
      i += 2;
      break;
    }
    const span = ['to', 'through', 'thru', 'until'].includes(t.word);
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
  return { stages: STAGES.filter((s) => stages.has(s)), end: i };
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
