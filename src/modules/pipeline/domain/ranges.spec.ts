import { findRanges, formatCount, formatMoney, formatRange, inRange, invert, mergeRanges, NumberRange, subtractRange } from './ranges';

const range = (min: number | null, max: number | null, minExclusive = false, maxExclusive = false): NumberRange => ({
  min,
  max,
  minExclusive,
  maxExclusive,
});

describe('findRanges', () => {
  it.each<[string, NumberRange]>([
    ['50-1000', range(50, 1000)],
    ['50 – 1000', range(50, 1000)],
    ['50 to 1,000', range(50, 1000)],
    ['100+', range(100, null)],
    ['1,000+', range(1000, null)],
    ['over 500', range(500, null, true)],
    ['more than 500', range(500, null, true)],
    ['at least 100', range(100, null)],
    ['under 200', range(null, 200, false, true)],
    ['fewer than 50', range(null, 50, false, true)],
    ['no more than 300', range(null, 300)],
    ['up to 300', range(null, 300)],
    ['200 or fewer', range(null, 200)],
    ['between 10 and 50', range(10, 50)],
    ['from 10 to 50', range(10, 50)],
    ['1k-5k', range(1000, 5000)],
    ['1.5k', range(1500, null)],
    ['1.000', range(1000, null)],
    ['10 000', range(10000, null)],
    ['between 10 000 and 50 000', range(10000, 50000)],
    ['$10M-$500M', range(10e6, 500e6)],
    ['over $1B', range(1e9, null, true)],
    ['€5m to €50m', range(5e6, 50e6)],
    ['10-50 million', range(10e6, 50e6)],
    ['$1.5bn+', range(1.5e9, null)],
    ['1000-50', range(50, 1000)],
  ])('%s', (text, expected) => {
    const found = findRanges(text);
    expect(found).toHaveLength(1);
    expect(found[0].range).toEqual(expected);
  });

  it.each([
    ['with 100 to 2,000 employees', 'employees'],
    ['headcount of over 500', 'employees'],
    ['1k-5k staff', 'employees'],
    ['$10M+ ARR', 'revenue'],
    ['revenue between 10 and 50 million', 'revenue'],
    ['€5m to €50m', 'revenue'],
    ['10 to 50 people', 'employees'],
  ])('reads what "%s" measures', (text, measure) => {
    expect(findRanges(text)[0].measure).toBe(measure);
  });

  it('leaves numbers without a measure alone', () => {
    expect(findRanges('founded after 2015, top 100 lists, 10+ years').every((r) => r.measure === null)).toBe(true);
  });

  it.each([
    ['raised over $20M in funding', 'funding'],
    ['have raised between $10M and $100M in total', 'funding'],
    ['$5M+ in venture funding', 'funding'],
    ['valued at over $1B', null],
    ['raised a $20M Series B', null],
    ['$5M seed rounds', null],
  ])('reads money raised as total funding, and not a valuation or a round: "%s"', (text, measure) => {
    expect(findRanges(text)[0].measure).toBe(measure);
  });

  it('reads unplaced money as the measure it is given', () => {
    expect(findRanges('$10M-$50M', 'funding')[0].measure).toBe('funding');
    expect(findRanges('$10M-$50M')[0].measure).toBe('revenue');
    expect(findRanges('$10M-$50M ARR', 'funding')[0].measure).toBe('revenue');
  });

  it('does not read a size word or a company list as an amount', () => {
    expect(findRanges('7-figure revenue')).toEqual([]);
    expect(findRanges('8 figure ARR')).toEqual([]);
    expect(findRanges('Fortune 500 companies, S&P 500 members, Global 2000')).toEqual([]);
    expect(findRanges('500 employees')).toHaveLength(1);
  });

  it('does not read digits inside words', () => {
    expect(findRanges('B2B and Web3 and G2 reviews')).toEqual([]);
  });

  it('marks ranges inside an exclusion', () => {
    expect(findRanges('excluding companies with fewer than 10 employees')[0].negated).toBe(true);
    expect(findRanges('no more than 300 employees')[0].negated).toBe(false);
    expect(findRanges('nothing under 20 employees')[0].negated).toBe(true);
    expect(findRanges('avoid companies with fewer than 10 employees')[0].negated).toBe(true);
  });
});

describe('inRange, invert and formatting', () => {
  it('respects open and closed bounds', () => {
    expect(inRange(500, range(500, null, true))).toBe(false);
    expect(inRange(501, range(500, null, true))).toBe(true);
    expect(inRange(1000, range(50, 1000))).toBe(true);
    expect(inRange(199, range(null, 200, false, true))).toBe(true);
    expect(inRange(200, range(null, 200, false, true))).toBe(false);
  });

  it('inverts one-sided ranges only', () => {
    expect(invert(range(null, 10, false, true))).toEqual(range(10, null));
    expect(invert(range(10, 50))).toBeNull();
  });

  it('formats counts, money and ranges for reasoning', () => {
    expect(formatCount(2000)).toBe('2,000');
    expect(formatMoney(50e6)).toBe('$50M');
    expect(formatMoney(1.5e9, '€')).toBe('€1.5B');
    expect(formatRange(range(50, 1000), formatCount)).toBe('50–1,000');
    expect(formatRange(range(500, null, true), formatCount)).toBe('more than 500');
    expect(formatRange(range(null, 200, false, true), formatCount)).toBe('less than 200');
    expect(formatRange(range(1e6, 1e7, false, true), formatMoney)).toBe('$1M to under $10M');
  });
});

describe('mergeRanges and subtractRange', () => {
  it('merges ranges that overlap or, for whole counts, touch', () => {
    expect(mergeRanges([range(1, 50), range(1, 99)], 1)).toEqual([range(1, 99)]);
    expect(mergeRanges([range(100, 999), range(1, 99)], 1)).toEqual([range(1, 999)]);
    expect(mergeRanges([range(100, 999), range(1000, null)], 1)).toEqual([range(100, null)]);
    expect(mergeRanges([range(1, 50), range(100, 999)], 1)).toEqual([range(1, 50), range(100, 999)]);
    expect(mergeRanges([range(1e6, 1e7, false, true), range(1e7, 1e8, false, true)])).toEqual([range(1e6, 1e8, false, true)]);
    expect(mergeRanges([range(1e6, 1e7, false, true), range(1e7 + 1, 1e8)])).toHaveLength(2);
  });

  it('takes an excluded range out of a range', () => {
    expect(subtractRange(range(null, null), range(1000, null), 1)).toEqual([range(null, 999)]);
    expect(subtractRange(range(1, null), range(100, 999), 1)).toEqual([range(1, 99), range(1000, null)]);
    expect(subtractRange(range(1000, null), range(1, 99), 1)).toEqual([range(1000, null)]);
    expect(subtractRange(range(50, 5000), range(1000, null), 1)).toEqual([range(50, 999)]);
    expect(subtractRange(range(100, 999), range(1, null), 1)).toEqual([]);
    expect(subtractRange(range(0, 5e6), range(1e6, 1e7, false, true))).toEqual([range(0, 1e6, false, true)]);
  });
});
