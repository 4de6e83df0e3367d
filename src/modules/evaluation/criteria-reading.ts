/**
 * How the evaluator read a description, shown back: its criteria, each with the places in the
 * text it came from, the phrases read as context, and the defaults it assumed.
 *
 * The parser reads tokens without source offsets and rewrites the text first, so places are
 * found from outside it, with the parser itself as the judge:
 * 1. The description is cut into segments (lines, then sentences; a labelled line stays whole
 *    up to its sentence end) and each segment is read alone.
 * 2. A criterion of the whole reading comes from the segments whose own reading has a criterion
 *    of the same family with the same or fewer values (an exclusion: a subset of what it rules
 *    out); failing any, those that share a value. Lists written in two places give two spans.
 * 3. Each such segment is narrowed by ablation: a word whose removal takes the criterion away or
 *    changes it (other than only adding values, as removing "not" does) belongs to it; the span
 *    runs from the first such word to the last, with a label right before it ("Industries:").
 * 4. Words in no span, in runs cut at punctuation and trimmed of filler words, are `ignored`.
 * Work is bounded: a segment of more than `MAX_ABLATION_WORDS` words, or one past the reading's
 * budget of parsed characters, keeps the whole segment as its span.
 */
import { criteriaHeadings, isCriteriaLabel } from '../pipeline/profile-reading';
import type { CriterionReading, ExcludedValue, ReadRange } from '../pipeline/profile-reading';
import type { Subject } from '../pipeline/profile-judge';

/** A stretch of the description: UTF-16 offsets, `end` exclusive, so `description.slice(start, end) === text`. */
export interface Span {
  start: number;
  end: number;
  text: string;
}

export type CriterionView = Omit<CriterionReading, 'assumption'> & { span: Span | null; spans: Span[] };

export interface CriteriaReading {
  object: 'criteria';
  subject: Subject;
  description: string;
  criteria: CriterionView[];
  ignored: Span[];
  assumptions: string[];
}

export type ReadCriteria = (subject: Subject, text: string) => CriterionReading[];

/** A segment longer than this keeps its whole text as the span of what it says. */
export const MAX_ABLATION_WORDS = 60;
/** Characters the ablation may parse for one description, beyond which segments keep whole spans. */
export const ABLATION_BUDGET = 100_000;

/**
 * Words that say nothing alone: trimmed from the ends of an ignored phrase, and a phrase of only
 * these is not reported.
 */
const FILLER = new Set([
  'a',
  'an',
  'the',
  'and',
  'or',
  'of',
  'in',
  'on',
  'at',
  'to',
  'for',
  'with',
  'by',
  'from',
  'as',
  'that',
  'which',
  'who',
  'whose',
  'we',
  'our',
  'us',
  'they',
  'their',
  'is',
  'are',
  'be',
  'it',
  'its',
  'also',
  'company',
  'companies',
  'business',
  'businesses',
  'firm',
  'firms',
  'organization',
  'organizations',
  'organisation',
  'organisations',
  'people',
]);

interface Word {
  start: number;
  end: number;
}

interface Segment {
  start: number;
  end: number;
  text: string;
  /** The heading the segment's line stands under ("Avoid\n"), read before it; else "". */
  context: string;
  words: Word[];
  criteria: CriterionReading[];
}

// ---------------------------------------------------------------------------------------------
// Segments and words

/** Up to four words and a colon: "Industries:", "Company size:", "Number of employees:". */
const LABEL_WORDS = /(?<![\p{L}\p{N}_-])([\p{L}][\p{L}\p{N}_-]*(?:[ \t]+[\p{L}][\p{L}\p{N}_-]*){0,3})[ \t]*[:：][ \t]*$/u;

/**
 * Where a label the evaluator reads starts, when `before` ends with one (and the space after
 * it): the longest run of its last words that is a label. -1 when it does not.
 */
function labelStart(before: string): number {
  const m = LABEL_WORDS.exec(before);
  if (!m) return -1;
  const words = [...m[1].matchAll(/\S+/gu)];
  for (let k = 0; k < words.length; k++) {
    if (isCriteriaLabel(m[1].slice(words[k].index))) return m.index + words[k].index;
  }
  return -1;
}

/** A labelled value runs to its sentence end, as the evaluator reads it, across `;`. */
const startsWithLabel = (text: string) => {
  const colon = text.search(/[:：]/u);
  return colon > 0 && labelStart(text.slice(0, colon + 1)) === 0;
};

/** A sentence end; `;` ends one only outside a labelled value, as the parser reads labels. */
const SENTENCE_END = /[.!?;]+(?=\s|$)/gu;
/** A period after these is not a sentence end: "U.S. companies", "e.g. banks", "Inc. and Ltd.". */
const ABBREVIATION =
  /(?:^|[^\p{L}])(?:\p{L}\.\p{L}|sr|jr|dir|mgr|vs|inc|ltd|corp|dept|approx|etc|incl|excl|min|max|no|co|st|mr|ms|dr)\.$/iu;
/** What a word may start and end with: letters, digits, a currency sign before, `+` or `%` after. */
const WORD_START = /[\p{L}\p{N}$€£¥]/u;
const WORD_END = /[\p{L}\p{N}+%]/u;
/** Initials with periods: "U.S.", "e.g.". */
const DOTTED = /^(?:\p{L}\.){2,}/u;

function wordsIn(text: string, offset: number): Word[] {
  const words: Word[] = [];
  for (const m of text.matchAll(/\S+/gu)) {
    const chars = [...m[0]];
    let from = 0;
    let to = chars.length;
    while (from < to && !WORD_START.test(chars[from])) from++;
    // "U.S." keeps its last period; a sentence's last word does not.
    const dotted = DOTTED.test(m[0]);
    while (
      to > from &&
      !WORD_END.test(chars[to - 1]) &&
      !(dotted && to - 2 >= from && chars[to - 1] === '.' && WORD_END.test(chars[to - 2]))
    )
      to--;
    if (from === to) continue;
    const lead = chars.slice(0, from).join('').length;
    const core = chars.slice(from, to).join('').length;
    words.push({ start: offset + m.index + lead, end: offset + m.index + lead + core });
  }
  return words;
}

/** Lines, then sentences within them; whitespace at the ends is left out. */
export function segmentsOf(description: string): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  const push = (start: number, end: number) => {
    const text = description.slice(start, end);
    const lead = text.length - text.trimStart().length;
    const trimmed = text.trim();
    if (trimmed) out.push({ start: start + lead, end: start + lead + trimmed.length });
  };
  for (const line of description.matchAll(/[^\r\n]+/gu)) {
    const text = line[0];
    let from = 0;
    for (const end of text.matchAll(SENTENCE_END)) {
      const stop = end.index + end[0].length;
      const piece = text.slice(from, stop);
      if (ABBREVIATION.test(text.slice(0, end.index + 1))) continue;
      if (end[0].startsWith(';') && startsWithLabel(piece.trimStart())) continue;
      push(line.index + from, line.index + stop);
      from = stop;
    }
    push(line.index + from, line.index + text.length);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Comparing criteria

/** Industry and keyword criteria are one criterion of the evaluator, named by what they hold. */
const family = (c: CriterionReading) => (c.kind === 'keyword' ? 'industry' : c.kind);

const itemKey = (v: string | ExcludedValue) => (typeof v === 'string' ? v : `${v.kind}\u0000${v.value}`);
const items = (c: CriterionReading) => (c.values as Array<string | ExcludedValue>).map(itemKey);

const within = (inner: ReadRange, outer: ReadRange) =>
  (outer.min === null || (inner.min !== null && inner.min >= outer.min)) &&
  (outer.max === null || (inner.max !== null && inner.max <= outer.max));
const overlaps = (a: ReadRange, b: ReadRange) =>
  (a.max === null || b.min === null || a.max >= b.min) && (b.max === null || a.min === null || b.max >= a.min);

/** How a segment's criterion relates to the whole reading's: its values are part of it, share some, or neither. */
function relation(part: CriterionReading, whole: CriterionReading): 'contained' | 'overlap' | null {
  if (part.ranges && whole.ranges) {
    const ranges = whole.ranges;
    if (part.ranges.every((r) => ranges.some((w) => within(r, w)))) return 'contained';
    return part.ranges.some((r) => ranges.some((w) => overlaps(r, w))) ? 'overlap' : null;
  }
  const all = new Set(items(whole));
  const own = items(part);
  if (own.length > 0 && own.every((v) => all.has(v))) return 'contained';
  return own.some((v) => all.has(v)) ? 'overlap' : null;
}

/**
 * How a criterion reads once a word is removed: the same, with values `gained` and nothing else
 * changed, or `changed` (gone, values lost, other ranges, other words: "DACH" in "DACH or Europe"
 * changes only the expectation's words).
 */
function effect(before: CriterionReading, after: CriterionReading | undefined): 'same' | 'gained' | 'changed' {
  if (!after) return 'changed';
  if (after.kind !== before.kind || JSON.stringify(after.ranges) !== JSON.stringify(before.ranges) || after.assumed !== before.assumed)
    return 'changed';
  const was = items(before);
  const now = items(after);
  const kept = new Set(now);
  if (!was.every((v) => kept.has(v))) return 'changed';
  if (now.length > was.length) return 'gained';
  return after.expected === before.expected ? 'same' : 'changed';
}

/**
 * Whether a word belongs to a criterion: removing it changes the criterion. A criterion that only
 * gains values while the exclusion loses them was not changed by the word: the word was a
 * negation ("not" in "fintech, not banks"), and belongs to the exclusion.
 */
function dependsOn(f: string, own: ReadonlyMap<string, CriterionReading>, after: ReadonlyMap<string, CriterionReading>): boolean {
  const change = effect(own.get(f)!, after.get(f));
  if (change !== 'gained') return change === 'changed';
  const exclusion = own.get('exclusion');
  return f === 'exclusion' || !exclusion || effect(exclusion, after.get('exclusion')) !== 'changed';
}

// ---------------------------------------------------------------------------------------------
// Spans

const span = (description: string, start: number, end: number): Span => ({ start, end, text: description.slice(start, end) });

/** Extends a span over a label right before it: "Industries: Fintech", "Company size: 50-200". */
function withLabel(description: string, segment: Segment, start: number): number {
  const before = description.slice(segment.start, start);
  const label = labelStart(before);
  return label < 0 ? start : segment.start + label;
}

/**
 * The first and last word of each listed family in a segment, by ablation: the words whose
 * removal changes what the segment says of it. Only the ends matter, so the words are tried from
 * the front until every family has its first, then from the back until every family has its
 * last. A family no single word matters to (a value written twice) has none. Returns the
 * characters parsed, for the reading's budget.
 */
function ablate(read: ReadCriteria, subject: Subject, segment: Segment, families: string[]): { ends: Map<string, Word[]>; cost: number } {
  const own = new Map(segment.criteria.map((c) => [family(c), c]));
  const readings = new Map<number, Map<string, CriterionReading>>();
  const belongs = (k: number, f: string) => {
    let after = readings.get(k);
    if (!after) {
      const { start, end } = segment.words[k];
      const from = start - segment.start;
      const to = end - segment.start;
      const without = segment.text.slice(0, from) + ' '.repeat(to - from) + segment.text.slice(to);
      after = new Map(read(subject, segment.context + without).map((c) => [family(c), c]));
      readings.set(k, after);
    }
    return dependsOn(f, own, after);
  };
  const first = new Map<string, number>();
  for (let k = 0; k < segment.words.length && first.size < families.length; k++) {
    for (const f of families) if (!first.has(f) && belongs(k, f)) first.set(f, k);
  }
  const last = new Map<string, number>();
  const open = () => families.filter((f) => first.has(f) && !last.has(f));
  for (let k = segment.words.length - 1; open().length > 0; k--) {
    for (const f of open()) if (k === first.get(f) || belongs(k, f)) last.set(f, k);
  }
  const ends = new Map<string, Word[]>();
  for (const [f, k] of first) ends.set(f, [segment.words[k], segment.words[last.get(f)!]]);
  return { ends, cost: readings.size * segment.text.length };
}

/** Runs of words in no span, cut at punctuation, trimmed of filler words at both ends. */
function ignoredIn(description: string, segments: readonly Segment[], spans: readonly Span[]): Span[] {
  // Words come in order: a word is covered when a span that starts at or before it reaches its end.
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  let next = 0;
  let reach = -1;
  const covered = (w: Word) => {
    for (; next < sorted.length && sorted[next].start <= w.start; next++) reach = Math.max(reach, sorted[next].end);
    return reach >= w.end;
  };
  const filler = (w: Word) => FILLER.has(description.slice(w.start, w.end).toLowerCase());
  const out: Span[] = [];
  const flush = (run: Word[]) => {
    let from = 0;
    let to = run.length;
    while (from < to && filler(run[from])) from++;
    while (to > from && filler(run[to - 1])) to--;
    if (from < to) out.push(span(description, run[from].start, run[to - 1].end));
  };
  for (const segment of segments) {
    let run: Word[] = [];
    let last: Word | null = null;
    for (const word of segment.words) {
      const joined = last !== null && /^\s+$/u.test(description.slice(last.end, word.start));
      if (covered(word)) {
        flush(run);
        run = [];
      } else {
        if (!joined) {
          flush(run);
          run = [];
        }
        run.push(word);
      }
      last = word;
    }
    flush(run);
  }
  return out;
}

/** The whole reading of `description`: its criteria with their spans, what was ignored, and what was assumed. */
export function readDescription(read: ReadCriteria, subject: Subject, description: string): CriteriaReading {
  const whole = read(subject, description);
  // A segment under a heading is read after it, as the parser reads it ("Avoid" then "Brazil" excludes Brazil).
  const headings = criteriaHeadings(description);
  const segments: Segment[] = segmentsOf(description).map(({ start, end }) => {
    const text = description.slice(start, end);
    const heading = headings.find((h) => h.from <= start && start < h.to);
    const context = heading === undefined ? '' : `${heading.text}\n`;
    return { start, end, text, context, words: wordsIn(text, start), criteria: read(subject, context + text) };
  });

  // Which segments each criterion of the whole reading comes from: containment first, else overlap.
  const sources = whole.map((criterion) => {
    const related = segments.map((s) => {
      const part = s.criteria.find((c) => family(c) === family(criterion));
      return part ? relation(part, criterion) : null;
    });
    const best = related.includes('contained') ? 'contained' : 'overlap';
    return segments.filter((_, k) => related[k] === best);
  });

  let budget = ABLATION_BUDGET;
  const narrowed = new Map<Segment, Map<string, Word[]>>();
  for (const segment of segments) {
    const families = whole.filter((_, i) => sources[i].includes(segment)).map(family);
    // At most one parse a word: a segment that could overrun what is left keeps its whole span.
    if (families.length === 0 || segment.words.length > MAX_ABLATION_WORDS || segment.text.length * segment.words.length > budget) continue;
    const { ends, cost } = ablate(read, subject, segment, families);
    budget -= cost;
    narrowed.set(segment, ends);
  }

  const criteria: CriterionView[] = whole.map((criterion, i) => {
    const spans = sources[i].map((segment) => {
      const words = narrowed.get(segment)?.get(family(criterion)) ?? [];
      if (words.length === 0) return span(description, segment.start, segment.end);
      return span(description, withLabel(description, segment, words[0].start), words[words.length - 1].end);
    });
    // The assumption goes to the reading's list of assumptions, not into the criterion.
    const view: CriterionView & { assumption?: string | null } = { ...criterion, span: spans[0] ?? null, spans };
    delete view.assumption;
    return view;
  });

  return {
    object: 'criteria',
    subject,
    description,
    criteria,
    ignored: ignoredIn(
      description,
      segments,
      criteria.flatMap((c) => c.spans),
    ),
    assumptions: whole.flatMap((c) => (c.assumption ? [c.assumption] : [])),
  };
}
