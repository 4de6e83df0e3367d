import { loadSets } from '../../../eval/eval-set';
import { ProfileJudge } from './profile-judge';
import { CRITERION_KINDS, CriterionReading, isCriteriaLabel, readCriteria } from './profile-reading';

const only = (criteria: CriterionReading[], kind: string) => {
  const found = criteria.filter((c) => c.kind === kind);
  expect(found).toHaveLength(1);
  return found[0];
};

describe('readCriteria', () => {
  it("says exactly what a Buyer's reasoning says a profile expects, criterion by criterion, on the whole labelled set", () => {
    const judge = new ProfileJudge();
    const nobody = judge.facts({}, {});
    let compared = 0;
    for (const { descriptions } of loadSets()) {
      for (const d of descriptions) {
        const checks = judge.judge(d.subject, d.id, d.description, nobody).checks;
        const read = readCriteria(d.subject, d.description);
        expect(read.map((c) => [c.label, c.expected, c.assumed])).toEqual(checks.map((c) => [c.label, c.expected, c.assumed ?? null]));
        for (const c of read) expect(CRITERION_KINDS).toContain(c.kind);
        compared += read.length;
      }
    }
    expect(compared).toBeGreaterThan(200);
  });

  it('names values as a person reads them: industry labels, country and state names, stage and type labels', () => {
    const read = readCriteria('icp', 'Fintech in Germany or Texas, Series A or B, privately held');
    expect(only(read, 'industry').values).toEqual(['Fintech']);
    expect(only(read, 'country').values).toEqual(['Germany', 'United States']);
    expect(only(read, 'state').values).toEqual(['Texas']);
    expect(only(read, 'funding_stage')).toMatchObject({ label: 'funding stage', values: ['Series A', 'Series B'] });
    expect(only(read, 'company_type').values).toEqual(['private']);
  });

  it('calls an industry of unknown words only a keyword criterion', () => {
    expect(readCriteria('icp', 'Keywords: widgets, gadgets')).toEqual([
      expect.objectContaining({ kind: 'keyword', label: 'industry', values: ['widgets', 'gadgets'], expected: 'widgets or gadgets' }),
    ]);
  });

  it('gives whole-number ranges inclusive, and keeps an amount excluded at its bound', () => {
    const read = readCriteria('icp', 'more than 100 employees, revenue over $10M, founded after 2015');
    expect(only(read, 'employees')).toMatchObject({
      values: ['more than 100'],
      ranges: [{ min: 101, max: null, min_exclusive: false, max_exclusive: false }],
    });
    expect(only(read, 'revenue')).toMatchObject({
      currency: 'USD',
      ranges: [{ min: 10_000_000, max: null, min_exclusive: true, max_exclusive: false }],
    });
    expect(only(read, 'founded')).toMatchObject({ values: ['after 2015'], ranges: [{ min: 2016, max: null }] });
    expect(only(read, 'employees')).not.toHaveProperty('currency');
  });

  it('names the currency of amounts by its ISO code', () => {
    const read = readCriteria('icp', 'Revenue: €5M-€50M. Raised less than £2M');
    expect(only(read, 'revenue')).toMatchObject({ currency: 'EUR', values: ['€5M–€50M'] });
    expect(only(read, 'total_funding')).toMatchObject({ currency: 'GBP', ranges: [{ min: null, max: 2_000_000, max_exclusive: true }] });
  });

  it('reads an exclusion as one negated criterion listing each thing ruled out with its kind', () => {
    const read = readCriteria('icp', 'Fintech, not banks, excluding France, no Series A, not Texas, no nonprofits');
    expect(only(read, 'industry').negated).toBe(false);
    expect(only(read, 'exclusion')).toMatchObject({
      negated: true,
      values: [
        { kind: 'industry', value: 'Banking' },
        { kind: 'country', value: 'France' },
        { kind: 'state', value: 'Texas' },
        { kind: 'funding_stage', value: 'Series A' },
        { kind: 'company_type', value: 'nonprofit' },
      ],
    });
    expect(only(readCriteria('persona', 'Not sales. No CEOs.'), 'exclusion').values).toEqual([
      { kind: 'title', value: 'CEOs' },
      { kind: 'function', value: 'Sales' },
    ]);
  });

  it('states each default a word was read as, as a sentence', () => {
    expect(only(readCriteria('icp', 'Mid-market fintech'), 'employees')).toMatchObject({
      assumed: 'mid-market, read as 100–999',
      assumption: 'mid-market read as 100–999 employees',
    });
    expect(only(readCriteria('icp', 'seven-figure revenue'), 'revenue').assumption).toBe(
      'seven-figure read as revenue of $1M to under $10M',
    );
    expect(only(readCriteria('icp', 'growth stage fintech'), 'funding_stage').assumption).toBe(
      'growth stage read as Series B or a later private round',
    );
    expect(only(readCriteria('icp', '50-200 employees'), 'employees')).toMatchObject({ assumed: null, assumption: null });
  });

  it('reads nothing in a description without criteria', () => {
    expect(readCriteria('icp', 'We love our customers.')).toEqual([]);
    expect(readCriteria('persona', '')).toEqual([]);
  });

  it('knows the labels the evaluator reads', () => {
    expect(isCriteriaLabel('Industries')).toBe(true);
    expect(isCriteriaLabel('company size')).toBe(true);
    expect(isCriteriaLabel('Employee-count')).toBe(true);
    expect(isCriteriaLabel('owners')).toBe(false);
  });
});
