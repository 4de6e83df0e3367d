import { findRanges, formatCount, formatMoney, formatRange, inRange, invert, NumberRange } from './ranges';

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
    expect(findRanges('raised over $20M in funding')[0].measure).toBeNull();
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
  });
});
