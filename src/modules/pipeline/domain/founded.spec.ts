import { companyInfoTemplate, conform } from '../../buyers/buyer-shape';
import { parseCriteria } from './criteria';
import { DefaultEvaluator } from './default-evaluator';
import { findFounded, yearInRange } from './founded';

const yearsOf = (text: string, now = 2026) => findFounded(text, now).map((h) => [h.range.min, h.range.max]);

describe('findFounded', () => {
  it.each<[string, Array<[number | null, number | null]>]>([
    ['Founded: 2010 or later', [[2010, null]]],
    ['Founded: 2010+', [[2010, null]]],
    ['Founded: 2010', [[2010, null]]],
    ['companies founded after 2015', [[2016, null]]],
    ['founded since 2012', [[2012, null]]],
    ['established before 2000', [[null, 1999]]],
    ['Established: 1990 or earlier', [[null, 1990]]],
    ['incorporated between 2005 and 2015', [[2005, 2015]]],
    ['Year founded: 2000-2010', [[2000, 2010]]],
    ['companies less than 5 years old', [[2022, null]]],
    ['at most 5 years old', [[2021, null]]],
    ['more than 20 years old', [[null, 2005]]],
    ['10+ years in business', [[null, 2016]]],
  ])('%s', (text, ranges) => {
    expect(yearsOf(text)).toEqual(ranges);
  });

  it('ignores years and ages that are no founding', () => {
    expect(yearsOf('Series A rounds since 2020, 5 years of revenue growth')).toEqual([]);
    expect(yearsOf('500 employees')).toEqual([]);
  });

  it('reads whole years inclusively', () => {
    const [hit] = findFounded('founded after 2015');
    expect(yearInRange(2015, hit.range)).toBe(false);
    expect(yearInRange(2016, hit.range)).toBe(true);
  });
});

describe('the founded criterion', () => {
  const evaluator = new DefaultEvaluator();
  const icp = {
    id: '1',
    name: 'Telcos',
    description: 'Company type: private Founded: 2010 or later Employees: 1,000–5,000 Industry: Telecommunications',
  };
  const telco = (founded_year?: number) =>
    conform(companyInfoTemplate(), {
      name: 'Andes Broadband SA',
      industries: ['Telecommunications'],
      employee_count: 1800,
      company_type: 'private',
      ...(founded_year === undefined ? {} : { founded_year }),
    });

  it('keeps the year out of the other criteria', () => {
    expect(parseCriteria(icp.description, 'icp').find((c) => c.kind === 'employees')).toMatchObject({
      ranges: [{ min: 1000, max: 5000 }],
    });
  });

  it('fails a company founded a year before', () => {
    const result = evaluator.evaluateCompany(telco(2009), [icp]);
    expect(result.matched).toBe(false);
    expect(result.reasoning).toContain('founded 2009 (expected 2010 or later)');
  });

  it('passes on the bound and treats 0 or missing as unknown', () => {
    expect(evaluator.evaluateCompany(telco(2010), [icp]).matched).toBe(true);
    expect(evaluator.evaluateCompany(telco(0), [icp]).matched).toBe(true);
    expect(evaluator.evaluateCompany(telco(), [icp]).matched).toBe(true);
  });

  it('is read from prose too', () => {
    expect(parseCriteria('Banks established before 2000 in Germany', 'icp')).toContainEqual(
      expect.objectContaining({ kind: 'founded', text: 'before 2000' }),
    );
  });
});

describe('findFounded: negated', () => {
  it('"nothing founded before 2010" and "founded before 2000 are not a fit" are the years they leave', () => {
    expect(findFounded('and nothing founded before 2010 either', 2026).map((h) => [h.range.min, h.range.max, h.text])).toEqual([
      [2010, null, '2010 or later'],
    ]);
    expect(findFounded('Companies founded before 2000 are not a fit.', 2026).map((h) => [h.range.min, h.range.max])).toEqual([
      [2000, null],
    ]);
    expect(findFounded('Software companies founded before 2010', 2026).map((h) => [h.range.min, h.range.max])).toEqual([[null, 2009]]);
  });
});
