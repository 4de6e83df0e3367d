/**
 * When a company was founded: "Founded: 2010 or later", "founded after 2015", "established
 * before 2000", "companies less than 5 years old". An age is read against the current year, so
 * "less than 5 years old" in 2026 is founded after 2021. Years are whole: "after 2015" is 2016 or
 * later, "before 2000" is 1999 or earlier, and a bare year under a label ("Founded: 2010") is a
 * minimum, as a bare number under any label is. A negated one ("nothing founded before 2010") is
 * the years it leaves.
 */
import type { NumberRange } from './ranges';

export interface FoundedHit {
  start: number;
  /** Exclusive. */
  end: number;
  /** Inclusive years; `null` for an open end. */
  range: NumberRange;
  /** What a reasoning shows ("2010 or later", "less than 5 years old"). */
  text: string;
}

const YEAR = '((?:18|19|20)\\d\\d)';
const VERB = '(?:founded|established|incorporated|launched|started|formed|year\\s+founded|founding\\s+year|founded\\s+year|inception)';
const LATER = /^(?:or|and)\s+(?:later|after|newer|since|onwards?|beyond)$|^\+$/;
const EARLIER = /^(?:or|and)\s+(?:earlier|before|older|prior)$/;

/** Founded-year phrases, by year: "founded after 2015", "Founded: 2010 or later", "est. 2010–2020". */
const BY_YEAR = new RegExp(
  `\\b${VERB}\\b\\s*(?:in\\s+)?[:=\\-–—]?\\s*(?:(in\\s+or\\s+after|on\\s+or\\s+after|no\\s+earlier\\s+than|not\\s+before|after|since|from|later\\s+than|in\\s+or\\s+before|no\\s+later\\s+than|not\\s+after|before|prior\\s+to|earlier\\s+than|until|by|between|in)\\s+)?` +
    `${YEAR}(?:\\s*(?:-|–|—|to|and|through)\\s*${YEAR})?(\\s*(?:or|and)\\s+(?:later|after|newer|since|onwards?|beyond|earlier|before|older|prior)|\\s*\\+)?`,
  'gi',
);

/** Ages: "less than 5 years old", "under 10 years old", "at least 20 years old", "10+ years old". */
const BY_AGE =
  /\b(less\s+than|fewer\s+than|under|younger\s+than|at\s+most|no\s+more\s+than|not\s+more\s+than|up\s+to|more\s+than|over|older\s+than|at\s+least|no\s+less\s+than)\s+(\d{1,3})\s*years?\s*(?:old|of\s+age|in\s+business)\b|\b(\d{1,3})\s*\+\s*years?\s*(?:old|in\s+business)\b/gi;

const range = (min: number | null, max: number | null): NumberRange => ({ min, max, minExclusive: false, maxExclusive: false });

export function findFounded(text: string, currentYear: number = new Date().getUTCFullYear()): FoundedHit[] {
  const hits: FoundedHit[] = [];
  for (const m of text.matchAll(BY_YEAR)) {
    const word = (m[1] ?? '').toLowerCase().replace(/\s+/g, ' ');
    const a = Number(m[2]);
    const b = m[3] ? Number(m[3]) : null;
    const tail = (m[4] ?? '').trim().toLowerCase().replace(/\s+/g, ' ');
    let r: NumberRange;
    let shown: string;
    if (b !== null) {
      r = range(Math.min(a, b), Math.max(a, b));
      shown = `${r.min}–${r.max}`;
    } else if (word === 'after' || word === 'later than') {
      r = range(a + 1, null);
      shown = `after ${a}`;
    } else if (word === 'before' || word === 'prior to' || word === 'earlier than') {
      r = range(null, a - 1);
      shown = `before ${a}`;
    } else if (['in or before', 'no later than', 'not after', 'until', 'by'].includes(word) || EARLIER.test(tail)) {
      r = range(null, a);
      shown = `${a} or earlier`;
    } else if (word === 'in' && !tail) {
      r = range(a, a);
      shown = `in ${a}`;
    } else {
      // "since 2010", "from 2010", "2010 or later", "2010+", and a bare year under a label.
      r = range(a, null);
      shown = `${a} or later`;
      if (tail && !LATER.test(tail)) continue;
    }
    hits.push({ start: m.index ?? 0, end: (m.index ?? 0) + m[0].length, range: r, text: shown });
  }
  for (const m of text.matchAll(BY_AGE)) {
    const start = m.index ?? 0;
    if (hits.some((h) => start < h.end && h.start < start + m[0].length)) continue;
    const comparator = (m[1] ?? 'at least').toLowerCase().replace(/\s+/g, ' ');
    const years = Number(m[2] ?? m[3]);
    let r: NumberRange;
    // Age is the current year minus the founded year.
    if (['less than', 'fewer than', 'under', 'younger than'].includes(comparator)) r = range(currentYear - years + 1, null);
    else if (['at most', 'no more than', 'not more than', 'up to'].includes(comparator)) r = range(currentYear - years, null);
    else if (['more than', 'over', 'older than'].includes(comparator)) r = range(null, currentYear - years - 1);
    else r = range(null, currentYear - years);
    const shown = m[3] ? `${years}+ years old` : `${comparator} ${years} years old`;
    hits.push({ start, end: start + m[0].length, range: r, text: shown });
  }
  return hits.map((hit) => (negated(text, hit) ? inverted(hit) : hit)).sort((x, y) => x.start - y.start);
}

/** "nothing founded before 2010", "no companies established after 2020": the clause excludes the years. */
const NEGATION_BEFORE = /\b(?:not|no|nothing|none|never|exclude|excluding|avoid|skip)\b[^.;:!?\n]{0,30}$/i;
/** "companies founded before 2000 are out", "… are not a fit". */
const NEGATION_AFTER =
  /^\s*(?:companies\s+)?(?:are|is)\s+(?:out\b|not\s+a\s+fit|excluded|out\s+of\s+scope|off\s+limits|too\s+old|too\s+young)/i;

function negated(text: string, hit: FoundedHit): boolean {
  return NEGATION_BEFORE.test(text.slice(Math.max(0, hit.start - 40), hit.start)) || NEGATION_AFTER.test(text.slice(hit.end, hit.end + 40));
}

/** The years a one-sided range leaves out ("before 2010" → "2010 or later"); a bounded one stays. */
function inverted(hit: FoundedHit): FoundedHit {
  const { min, max } = hit.range;
  if (min === null && max !== null) return { ...hit, range: range(max + 1, null), text: `${max + 1} or later` };
  if (max === null && min !== null) return { ...hit, range: range(null, min - 1), text: `${min - 1} or earlier` };
  return hit;
}

/** Whether `year` falls in `r`; years are whole, so ranges are inclusive. */
export function yearInRange(year: number, r: NumberRange): boolean {
  return (r.min === null || year >= r.min) && (r.max === null || year <= r.max);
}
