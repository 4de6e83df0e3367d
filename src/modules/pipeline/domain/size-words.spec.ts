import { CompanyInfo, companyInfoTemplate, conform } from '../../buyers/buyer-shape';
import { Criterion, parseCriteria, Subject } from './criteria';
import { DefaultEvaluator } from './default-evaluator';
import { KbProfile } from './evaluator';

const company = (input: Record<string, unknown> = {}): CompanyInfo => conform(companyInfoTemplate(), input);

function criterion<K extends Criterion['kind']>(
  text: string,
  kind: K,
  subject: Subject = 'icp',
): Extract<Criterion, { kind: K }> | undefined {
  return parseCriteria(text, subject).find((c) => c.kind === kind) as Extract<Criterion, { kind: K }> | undefined;
}
/** Employee ranges as `[min, max]`. */
const employeesOf = (text: string, subject: Subject = 'icp') => criterion(text, 'employees', subject)?.ranges.map((r) => [r.min, r.max]);

describe('parseCriteria: size words', () => {
  it.each<[string, Array<[number | null, number | null]>, string]>([
    ['Software startups, anywhere in the world.', [[1, 50]], 'startup'],
    ['start-ups in fintech', [[1, 50]], 'startup'],
    ['Segment: SMB', [[1, 99]], 'SMB'],
    ['SMBs in retail', [[1, 99]], 'SMB'],
    ['SMEs in Germany', [[1, 99]], 'SMB'],
    ['small businesses with a web shop', [[1, 99]], 'SMB'],
    ['small law firms in London', [[1, 99]], 'SMB'],
    ['Mid-market manufacturers in DACH.', [[100, 999]], 'mid-market'],
    ['mid market banks', [[100, 999]], 'mid-market'],
    ['midmarket SaaS', [[100, 999]], 'mid-market'],
    ['mid-sized logistics companies', [[100, 999]], 'mid-market'],
    ['midsize insurers', [[100, 999]], 'mid-market'],
    ['medium-sized manufacturers', [[100, 999]], 'mid-market'],
    ['middle market companies', [[100, 999]], 'mid-market'],
    ['Enterprise accounts in pharma', [[1000, null]], 'enterprise'],
    ['Segment: Enterprise', [[1000, null]], 'enterprise'],
    ['We sell to enterprise.', [[1000, null]], 'enterprise'],
    ['Large enterprises in banking.', [[1000, null]], 'enterprise'],
    ['large banks', [[1000, null]], 'enterprise'],
    ['Fortune 500 companies', [[1000, null]], 'enterprise'],
  ])('%s', (text, ranges, assumed) => {
    expect(employeesOf(text)).toEqual(ranges);
    expect(criterion(text, 'employees')?.assumed).toBe(assumed);
  });

  it.each<[string, Array<[number | null, number | null]>]>([
    ['Segment: SMB + mid-market', [[1, 999]]],
    ['SMBs and mid-market companies', [[1, 999]]],
    ['Size: startup or SMB', [[1, 99]]],
    ['Small and mid-sized businesses, any sector.', [[1, 999]]],
    ['small and medium enterprises', [[1, 999]]],
    ['Company size: mid-market to enterprise', [[100, null]]],
    ['from SMB to enterprise', [[1, null]]],
    [
      'startups and enterprises',
      [
        [1, 50],
        [1000, null],
      ],
    ],
  ])('combines size words as their union, a span as everything between: %s', (text, ranges) => {
    expect(employeesOf(text)).toEqual(ranges);
  });

  it('narrows the size by an excluded size word and never requires it', () => {
    expect(employeesOf('Enterprise accounts only (no SMB, no mid-market).')).toEqual([[1000, null]]);
    expect(criterion('Enterprise accounts only (no SMB, no mid-market).', 'employees')?.assumed).toBe('enterprise, not SMB or mid-market');
    expect(employeesOf('Small and mid-sized businesses. We are not built for enterprise.')).toEqual([[1, 999]]);
    expect(employeesOf('Software companies, no enterprises')).toEqual([[1, 999]]);
    expect(employeesOf('Exclude: enterprise')).toEqual([[1, 999]]);
    expect(employeesOf('Size: not enterprise')).toEqual([[1, 999]]);
    expect(employeesOf('B2B software vendors, excluding startups')).toEqual([[51, null]]);
    expect(employeesOf('100-5000 employees, not enterprise')).toEqual([[100, 999]]);
  });

  it('lets numbers win over size words', () => {
    expect(employeesOf('Startups with fewer than 20 employees')).toEqual([[null, 20]]);
    expect(criterion('Startups with fewer than 20 employees', 'employees')?.assumed).toBeUndefined();
    expect(employeesOf('Mid-market companies. Employees: 50-500')).toEqual([[50, 500]]);
    expect(employeesOf('Segment: enterprise. Companies with 200+ staff')).toEqual([[1000, null]]);
  });

  it.each([
    'enterprise software companies',
    'Enterprise SaaS vendors',
    'SMB lending platforms',
    'small business software',
    'startup accelerators and incubators',
    'B2B software vendors selling to SMBs',
    'fintechs serving startups',
    'companies with small finance teams',
    'big data companies',
    'large language model companies',
    'seven-figure deals',
  ])('reads "%s" as context, not a company size', (text) => {
    const kinds = parseCriteria(text, 'icp').map((c) => c.kind);
    expect(kinds).not.toContain('employees');
    expect(kinds).not.toContain('revenue');
  });

  it('ignores size hints in Persona prose but checks a labelled size', () => {
    expect(employeesOf('Engineering leaders (Head of Eng, VP Eng, CTO) at early startups.', 'persona')).toBeUndefined();
    expect(employeesOf('Titles: CTO. Company size: startup', 'persona')).toEqual([[1, 50]]);
  });

  it.each<[string, number, number]>([
    ['six-figure revenue', 1e5, 1e6],
    ['Small businesses with seven-figure revenue: accountants, law firms.', 1e6, 1e7],
    ['7-figure ARR companies', 1e6, 1e7],
    ['Revenue: eight figures', 1e7, 1e8],
    ['nine-figure revenue', 1e8, 1e9],
  ])('reads "%s" as the amounts with that many digits', (text, min, below) => {
    expect(criterion(text, 'revenue')?.ranges).toEqual([{ min, max: below, minExclusive: false, maxExclusive: true }]);
  });

  it('reads "raised eight figures" as total funding', () => {
    expect(criterion('Startups that raised eight figures', 'total_funding')?.ranges[0]).toMatchObject({ min: 1e7, max: 1e8 });
    expect(criterion('Startups that raised eight figures', 'revenue')).toBeUndefined();
  });
});

describe('DefaultEvaluator.evaluateCompany: size words', () => {
  const evaluator = new DefaultEvaluator();
  const profile = (description: string): KbProfile => ({ id: '1', name: 'Sized', description });
  const matches = (description: string, info: Record<string, unknown>) =>
    evaluator.evaluateCompany(company({ industries: ['Computer Software'], ...info }), [profile(description)]).matched;

  it.each<[string, number, boolean]>([
    ['Software startups', 1, true],
    ['Software startups', 50, true],
    ['Software startups', 51, false],
    ['Segment: SMB', 99, true],
    ['Segment: SMB', 100, false],
    ['Mid-market SaaS', 99, false],
    ['Mid-market SaaS', 100, true],
    ['Mid-market SaaS', 999, true],
    ['Mid-market SaaS', 1000, false],
    ['Enterprise accounts only', 999, false],
    ['Enterprise accounts only', 1000, true],
    ['Company size: mid-market to enterprise', 99, false],
    ['Company size: mid-market to enterprise', 100, true],
    ['Company size: mid-market to enterprise', 80000, true],
    ['Segment: SMB + mid-market', 999, true],
    ['Segment: SMB + mid-market', 1000, false],
    ['Size: startup or SMB', 60, true],
    ['Size: startup or SMB', 100, false],
  ])('"%s" and %d employees: %s', (description, employees, expected) => {
    expect(matches(description, { employee_count: employees })).toBe(expected);
  });

  it.each<[number, boolean]>([
    [999_999, false],
    [1e6, true],
    [9_999_999, true],
    [1e7, false],
  ])('"seven-figure revenue" and revenue %d: %s', (revenue, expected) => {
    expect(matches('Software companies with seven-figure revenue', { annual_revenue: revenue })).toBe(expected);
  });

  it('names the range it assumed, whether the check passed or failed', () => {
    const passed = evaluator.evaluateCompany(company({ industries: ['Computer Software'], employee_count: 250 }), [
      profile('Mid-market SaaS'),
    ]);
    expect(passed.reasoning).toBe('Matched ICP "Sized" on industry Computer Software and employees 250 (mid-market, read as 100–999).');
    const failed = evaluator.evaluateCompany(company({ industries: ['Computer Software'], employee_count: 1500 }), [
      profile('Mid-market SaaS'),
    ]);
    expect(failed.reasoning).toContain('employees 1,500 (expected mid-market, read as 100–999)');
    const revenue = evaluator.evaluateCompany(company({ annual_revenue: 12e6 }), [profile('Small businesses with seven-figure revenue')]);
    expect(revenue.reasoning).toContain('revenue $12M (expected seven-figure, read as $1M to under $10M)');
    const excluded = evaluator.evaluateCompany(company({ employee_count: 1000 }), [profile('SMBs and mid-market. Not enterprise.')]);
    expect(excluded.reasoning).toContain('employees 1,000 (expected SMB or mid-market, not enterprise, read as 1–999)');
  });

  it('keeps the plain wording when the description gave numbers', () => {
    const { reasoning } = evaluator.evaluateCompany(company({ employee_count: 250 }), [profile('Companies with 100-999 employees')]);
    expect(reasoning).toBe('Matched ICP "Sized" on employees 250.');
  });
});

describe('parseCriteria: size words in a sentence that rejects them', () => {
  const revenueOf = (text: string) => criterion(text, 'revenue')?.ranges.map((r) => [r.min, r.max]);

  it.each<[string, Array<[number | null, number | null]>]>([
    [
      'US consumer brands at eight-figure revenue. Seven-figure brands are too early for us; nine-figure ones build this in-house.',
      [[10e6, 100e6]],
    ],
    ['Eight-figure revenue. Seven-figure companies are too small, nine-figure ones too big.', [[10e6, 100e6]]],
    ["Eight-figure revenue; seven-figure shops aren't a fit.", [[10e6, 100e6]]],
    ['Eight-figure revenue. Nine-figure brands are out of scope.', [[10e6, 100e6]]],
  ])('%s', (text, ranges) => {
    expect(revenueOf(text)).toEqual(ranges);
  });

  it('narrows a head-count size word the same way', () => {
    expect(employeesOf('Mid-market SaaS; enterprises are too big for us and startups too small.')).toEqual([[100, 999]]);
    expect(employeesOf('Mid-market SaaS. Enterprises build it in-house.')).toEqual([[100, 999]]);
  });

  it('judges the range it narrowed', () => {
    const evaluator = new DefaultEvaluator();
    const icp: KbProfile = {
      id: '1',
      name: 'Brands',
      description:
        'US consumer brands at eight-figure revenue. Seven-figure brands are too early for us; nine-figure ones build this in-house.',
    };
    const brand = (annual_revenue: number) =>
      company({ industries: ['Apparel & Fashion'], annual_revenue, location: { country: 'United States' } });
    expect(evaluator.evaluateCompany(brand(10e6), [icp]).matched).toBe(true);
    expect(evaluator.evaluateCompany(brand(3e6), [icp]).matched).toBe(false);
    expect(evaluator.evaluateCompany(brand(101e6), [icp]).matched).toBe(false);
  });
});
