/**
 * Employee, revenue and funding ranges as people write them: "50-1000", "50 to 1,000", "100+",
 * "over 500", "fewer than 50", "between 10 and 50", "1k-5k", "$10M-$500M", "€5m to €50m",
 * "10-50 million", "raised over $20M". Amounts are compared as written: there is no currency
 * conversion, so "€5m" is read as 5,000,000 of whatever currency the Buyer's `annual_revenue` is in.
 */

export interface NumberRange {
  min: number | null;
  max: number | null;
  minExclusive: boolean;
  maxExclusive: boolean;
}

/** `funding` is the total a company has raised (`company_info.total_funding`). */
export type Measure = 'employees' | 'revenue' | 'funding';

export interface FoundRange {
  start: number;
  /** Exclusive. */
  end: number;
  range: NumberRange;
  /** A currency sign or a million/billion unit: money, not a head count. */
  money: boolean;
  currency: string | null;
  /** What the surrounding words say is being counted; null when they do not say. */
  measure: Measure | null;
  /** Written inside an exclusion ("excluding companies under 10 employees"). */
  negated: boolean;
}

const CURRENCY = String.raw`(?:us\$|usd|eur|gbp|chf|cad|aud|[$€£¥])`;
const AMOUNT = new RegExp(
  String.raw`(?<![\p{L}\p{N}.,])(${CURRENCY}\s?)?(\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?![\d.,])|\d+(?:[.,]\d+)*)(?:\s?(thousand|million|billion|trillion|mil|mln|mn|mm|bn|mio|mrd)\.?(?!\p{L})|(bn|mm|mn|k|m|b|t)(?!\p{L}))?(\s?(?:usd|eur|gbp|chf|[$€£]))?(?![\p{L}\p{N}])`,
  'giu',
);

const MULTIPLIER: Record<string, number> = {
  k: 1e3,
  thousand: 1e3,
  m: 1e6,
  mm: 1e6,
  mn: 1e6,
  mil: 1e6,
  mln: 1e6,
  million: 1e6,
  // German: Mio. (Millionen), Mrd. (Milliarden).
  mio: 1e6,
  b: 1e9,
  mrd: 1e9,
  bn: 1e9,
  billion: 1e9,
  t: 1e12,
  trillion: 1e12,
};

interface Amount {
  start: number;
  end: number;
  number: number;
  multiplier: number | null;
  currency: string | null;
}

const SIGN: Record<string, string> = { '€': '€', eur: '€', '£': '£', gbp: '£', '¥': '¥', chf: 'CHF ', cad: 'CA$', aud: 'A$' };

function currencySign(raw: string | undefined): string | null {
  if (!raw) return null;
  const key = raw.trim().toLowerCase();
  return SIGN[key] ?? '$';
}

/** "1,000", "1.000" and "1 000" are a thousand; "1.5" and "2,5" are decimals. */
function parseNumber(written: string, hasUnit: boolean): number {
  const raw = written.replace(/[ \u00a0\u202f]/g, '');
  if (/^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/.test(raw)) return Number(raw.replace(/,/g, ''));
  if (/^\d{1,3}(?:\.\d{3})+$/.test(raw) && (!hasUnit || (raw.match(/\./g)?.length ?? 0) > 1)) return Number(raw.replace(/\./g, ''));
  if (/^\d+,\d{1,2}$/.test(raw)) return Number(raw.replace(',', '.'));
  const value = Number(raw.replace(/,/g, ''));
  return Number.isFinite(value) ? value : Number.NaN;
}

/** Numbers that are names, not amounts: "7-figure revenue" is a size word, "Fortune 500" a list of companies. */
const NOT_AN_AMOUNT_AFTER = /^[\s-]*figures?\b/i;
const NOT_AN_AMOUNT_BEFORE = /\b(?:fortune|global|ftse|s\s?&\s?p)\s*$/i;

function findAmounts(text: string): Amount[] {
  const amounts: Amount[] = [];
  for (const m of text.matchAll(AMOUNT)) {
    const [, prefix, digits, wordUnit, letterUnit, suffix] = m;
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 12);
    const before = text.slice(Math.max(0, m.index - 12), m.index);
    if (NOT_AN_AMOUNT_AFTER.test(after) || NOT_AN_AMOUNT_BEFORE.test(before)) continue;
    const unit = (wordUnit ?? letterUnit)?.toLowerCase();
    const number = parseNumber(digits, unit !== undefined);
    if (!Number.isFinite(number)) continue;
    amounts.push({
      start: m.index,
      end: m.index + m[0].length,
      number,
      multiplier: unit ? MULTIPLIER[unit] : null,
      currency: currencySign(prefix ?? suffix),
    });
  }
  return amounts;
}

const CONNECTOR = /^\s*(?:-|‐|‑|‒|–|—|−|~|to|through|thru|till|until)\s*$/i;
const AND = /^\s*(?:and|&)\s*$/i;
const BETWEEN = /\b(?:between|from)\s*$/i;

/** Tried in this order, so "no more than" is an upper bound before "more than" is a lower one. */
const BEFORE: Array<[RegExp, 'min' | 'max', boolean]> = [
  [/(?:\bup\s+to|\bat\s+most|\bmaximum(?:\s+of)?|\bmax\.?|\b(?:no|not)\s+(?:more|greater|larger|bigger)\s+than|<=|≤)\s*$/i, 'max', false],
  [
    /(?:\bat\s+least|\bminimum(?:\s+of)?|\bmin\.?|\bstarting\s+(?:at|from)|\b(?:no|not)\s+(?:less|fewer|smaller)\s+than|>=|≥)\s*$/i,
    'min',
    false,
  ],
  [
    /(?:\b(?:more|greater|larger|bigger|higher)\s+than|\bover|\babove|\bexceeding|\bin\s+excess\s+of|\bupwards\s+of|\bnorth\s+of|>)\s*$/i,
    'min',
    true,
  ],
  [/(?:\b(?:less|fewer|smaller|lower)\s+than|\bunder|\bbelow|\bbeneath|\bsouth\s+of|<)\s*$/i, 'max', true],
];
const AFTER_MIN = /^\s*(?:\+|plus\b|or\s+(?:more|above|greater|higher|over)\b|and\s+(?:more|above|up|over|higher|greater)\b)/i;
const AFTER_MAX = /^\s*(?:or\s+(?:less|fewer|below|under|smaller)\b|and\s+(?:below|under|less|fewer|smaller)\b)/i;

const EMPLOYEES_AFTER =
  /^\s*(?:\+\s*)?(?:[\p{L}-]+\s+){0,2}?(?:employees?|emps?|staff|people|persons?|headcount|ftes?|workers|personnel|team\s+members|full[\s-]time)\b/iu;
const REVENUE_AFTER = /^\s*(?:\+\s*)?(?:[\p{L}-]+\s+){0,3}?(?:revenues?|arr|turnover|sales|income|mrr|gmv|bookings)\b/iu;
const EMPLOYEES_BEFORE =
  /\b(?:employees?|emps?|employee\s+count|staff|headcount|head\s+count|team\s+size|company\s+size|workforce|ftes?|size)\b[^.;\n]{0,30}$/i;
const REVENUE_BEFORE = /\b(?:revenues?|arr|turnover|sales|income|mrr|gmv|bookings)\b[^.;\n]{0,30}$/i;
/** Money raised: the company's total funding. */
const FUNDING_NEAR = /\b(?:rais(?:ed|ing|e)|funding|funded|invest(?:ed|ment))\b/i;
/** Money that is neither revenue nor total funding: a round's size, a valuation. */
const OTHER_MONEY_NEAR = /\b(?:rounds?|valuation|valued)\b/i;
const ROUND_AFTER = /^\s*(?:series\s+[a-j]\b|(?:pre[\s-]?)?seed\b|rounds?\b)/i;
/**
 * A negation just before a number ("excluding companies under 10 employees"). Not one that says
 * something else ("does not matter", "not only", "not necessarily"), and a dash between clauses
 * is no word of it ("public or private, doesn't matter - with 1,000 or more staff").
 */
const NEGATION =
  /\b(?:excluding|exclude|excludes|except|without|not|no|nothing|none|nobody|never|avoid|other\s+than)(?!\s+(?:matter|matters|only|just|necessarily|required|needed|mandatory|essential|sure|care|mind)\b)(?:\s+(?!and\b|or\b|but\b)\p{L}[\p{L}-]*){0,4}\s*$/iu;

function apply(amount: Amount, multiplier: number | null): number {
  return amount.number * (multiplier ?? 1);
}

/**
 * Every range in `text`, with what the words around it say it measures. Bare numbers come back
 * as `{min: n, max: null}`: a lone "Employees: 500" is read as "at least 500". Money the words
 * do not place is `moneyMeasure`: revenue, or funding under a "Funding:" label.
 */
export function findRanges(text: string, moneyMeasure: Measure = 'revenue'): FoundRange[] {
  const amounts = findAmounts(text);
  const found: FoundRange[] = [];
  for (let i = 0; i < amounts.length; i++) {
    const a = amounts[i];
    const b = amounts[i + 1];
    const before = text.slice(Math.max(0, a.start - 80), a.start);
    let start = a.start;
    let end = a.end;
    let range: NumberRange;
    let parts: Amount[];
    const between = b ? text.slice(a.end, b.start) : '';
    if (b && (CONNECTOR.test(between) || (AND.test(between) && BETWEEN.test(before)))) {
      // "10-50 million": the unit written once applies to both ends when that keeps them in order.
      const hiMultiplier = b.multiplier;
      const loMultiplier = a.multiplier ?? (hiMultiplier !== null && a.number <= b.number ? hiMultiplier : null);
      let lo = apply(a, loMultiplier);
      let hi = apply(b, hiMultiplier);
      if (lo > hi) [lo, hi] = [hi, lo];
      range = { min: lo, max: hi, minExclusive: false, maxExclusive: false };
      const lead = before.match(BETWEEN);
      if (lead) start -= lead[0].length;
      end = b.end;
      parts = [a, b];
      i++;
    } else {
      const value = apply(a, a.multiplier);
      const after = text.slice(a.end, a.end + 40);
      range = { min: value, max: null, minExclusive: false, maxExclusive: false };
      const comparator = BEFORE.find(([re]) => re.test(before));
      if (comparator) {
        const [re, side, exclusive] = comparator;
        start -= before.match(re)?.[0].length ?? 0;
        range =
          side === 'min'
            ? { min: value, max: null, minExclusive: exclusive, maxExclusive: false }
            : { min: null, max: value, minExclusive: false, maxExclusive: exclusive };
      } else if (AFTER_MAX.test(after)) {
        range = { min: null, max: value, minExclusive: false, maxExclusive: false };
        end += after.match(AFTER_MAX)?.[0].length ?? 0;
      } else {
        const suffix = after.match(AFTER_MIN);
        if (suffix) end += suffix[0].length;
      }
      parts = [a];
    }
    const money = parts.some((p) => p.currency !== null || (p.multiplier !== null && p.multiplier >= 1e6));
    const context = text.slice(Math.max(0, start - 80), start);
    const after = text.slice(end, end + 60);
    found.push({
      start,
      end,
      range,
      money,
      currency: parts.map((p) => p.currency).find((c) => c !== null) ?? null,
      measure: measureOf(context, after, money, moneyMeasure),
      negated: NEGATION.test(context),
    });
  }
  // "at least 50 but fewer than 1,000 people": a bound joined to the other bound of a measured range measures the same.
  for (let k = found.length - 2; k >= 0; k--) {
    const [first, second] = [found[k], found[k + 1]];
    const oneSided = (r: NumberRange) => (r.min === null) !== (r.max === null);
    if (
      first.measure === null &&
      second.measure !== null &&
      first.money === second.money &&
      oneSided(first.range) &&
      oneSided(second.range) &&
      (first.range.min === null) !== (second.range.min === null) &&
      BOUND_JOINT.test(text.slice(first.end, second.start))
    )
      first.measure = second.measure;
  }
  return found;
}

/** What may stand between two bounds of one range: "at least 50 but fewer than 1,000". */
const BOUND_JOINT = /^\s*,?\s*(?:but|and|yet)?\s*$/i;

/** A size word just before the number's bracket: "Enterprise (5k+)", "mid-market (200-2,000)" count heads. */
const SIZE_WORD_BEFORE =
  /\b(?:enterprises?|mid[\s-]?market|mid[\s-]?sized?|smbs?|small\s+business(?:es)?|startups?|scale[\s-]?ups?)\s*\(\s*$/i;

function measureOf(before: string, after: string, money: boolean, moneyMeasure: Measure): Measure | null {
  if (EMPLOYEES_AFTER.test(after)) return 'employees';
  if (!money && SIZE_WORD_BEFORE.test(before)) return 'employees';
  if (REVENUE_AFTER.test(after)) return 'revenue';
  const near = (re: RegExp) => re.test(after.slice(0, 30)) || re.test(before.slice(-30));
  if (near(OTHER_MONEY_NEAR) || ROUND_AFTER.test(after)) return null;
  if (near(FUNDING_NEAR)) return money ? 'funding' : null;
  if (money) return moneyMeasure;
  if (EMPLOYEES_BEFORE.test(before)) return 'employees';
  if (REVENUE_BEFORE.test(before)) return 'revenue';
  return null;
}

/** The complement of a one-sided range ("not under 10" is "at least 10"); null for two-sided ones. */
export function invert(range: NumberRange): NumberRange | null {
  if (range.min !== null && range.max !== null) return null;
  if (range.min !== null) return { min: null, max: range.min, minExclusive: false, maxExclusive: !range.minExclusive };
  if (range.max !== null) return { min: range.max, max: null, minExclusive: !range.maxExclusive, maxExclusive: false };
  return null;
}

export function inRange(value: number, range: NumberRange): boolean {
  if (range.min !== null && (range.minExclusive ? value <= range.min : value < range.min)) return false;
  if (range.max !== null && (range.maxExclusive ? value >= range.max : value > range.max)) return false;
  return true;
}

export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

export function formatMoney(value: number, currency = '$'): string {
  const units: Array<[number, string]> = [
    [1e12, 'T'],
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'K'],
  ];
  for (const [size, suffix] of units) {
    if (value >= size) {
      const scaled = value / size;
      const digits = scaled >= 100 || Number.isInteger(scaled) ? 0 : scaled >= 10 ? 1 : 2;
      return `${currency}${Number(scaled.toFixed(digits))}${suffix}`;
    }
  }
  return `${currency}${Number(value.toFixed(2))}`;
}

export function formatRange(range: NumberRange, format: (value: number) => string): string {
  const { min, max } = range;
  if (min !== null && max !== null) {
    if (min === max) return format(min);
    if (!range.minExclusive && !range.maxExclusive) return `${format(min)}–${format(max)}`;
    return `${range.minExclusive ? 'more than ' : ''}${format(min)} to ${range.maxExclusive ? 'under ' : ''}${format(max)}`;
  }
  if (min !== null) return `${range.minExclusive ? 'more than' : 'at least'} ${format(min)}`;
  if (max !== null) return `${range.maxExclusive ? 'less than' : 'at most'} ${format(max)}`;
  return 'any';
}

/**
 * `ranges` as few ranges as say the same: overlapping ones, and ones that touch, become one.
 * `step` 1 is for whole counts (employees), where 1–99 and 100–999 touch; 0 for amounts.
 */
export function mergeRanges(ranges: readonly NumberRange[], step = 0): NumberRange[] {
  const sorted = ranges.map((r) => normalize(r, step)).sort((a, b) => (a.min ?? -Infinity) - (b.min ?? -Infinity));
  const out: NumberRange[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && touches(last, r, step)) {
      if (last.max !== null && (r.max === null || r.max > last.max || (r.max === last.max && !r.maxExclusive))) {
        last.max = r.max;
        last.maxExclusive = r.maxExclusive;
      }
    } else {
      out.push({ ...r });
    }
  }
  return out;
}

/** What is left of `range` outside `excluded`: none, one or two ranges. */
export function subtractRange(range: NumberRange, excluded: NumberRange, step = 0): NumberRange[] {
  const pieces: NumberRange[] = [];
  if (excluded.min !== null) {
    // The part of `range` below `excluded`.
    const cut = { value: excluded.min, exclusive: !excluded.minExclusive };
    const keepOwn = range.max !== null && (range.max < cut.value || (range.max === cut.value && range.maxExclusive));
    pieces.push(keepOwn ? { ...range } : { ...range, max: cut.value, maxExclusive: cut.exclusive });
  }
  if (excluded.max !== null) {
    // The part of `range` above `excluded`.
    const cut = { value: excluded.max, exclusive: !excluded.maxExclusive };
    const keepOwn = range.min !== null && (range.min > cut.value || (range.min === cut.value && range.minExclusive));
    pieces.push(keepOwn ? { ...range } : { ...range, min: cut.value, minExclusive: cut.exclusive });
  }
  return pieces.map((r) => normalize(r, step)).filter((r) => !isEmpty(r));
}

/** Whole counts have no exclusive bounds: "under 1,000" is "at most 999". */
function normalize(range: NumberRange, step: number): NumberRange {
  if (step === 0) return { ...range };
  return {
    min: range.min !== null && range.minExclusive ? range.min + step : range.min,
    max: range.max !== null && range.maxExclusive ? range.max - step : range.max,
    minExclusive: false,
    maxExclusive: false,
  };
}

function touches(a: NumberRange, b: NumberRange, step: number): boolean {
  if (a.max === null || b.min === null) return true;
  if (b.min < a.max) return true;
  if (b.min === a.max) return !(a.maxExclusive && b.minExclusive);
  return step > 0 && b.min - a.max <= step && !a.maxExclusive && !b.minExclusive;
}

function isEmpty(range: NumberRange): boolean {
  if (range.min === null || range.max === null) return false;
  if (range.min > range.max) return true;
  return range.min === range.max && (range.minExclusive || range.maxExclusive);
}
