import { CompanyInfo, companyInfoTemplate, conform } from '../../buyers/buyer-shape';
import { describeStages, STAGES, stageOf } from './company-terms';
import { Criterion, parseCriteria } from './criteria';
import { DefaultEvaluator } from './default-evaluator';
import { KbProfile } from './evaluator';

const company = (input: Record<string, unknown> = {}): CompanyInfo => conform(companyInfoTemplate(), input);

function criterion<K extends Criterion['kind']>(text: string, kind: K): Extract<Criterion, { kind: K }> | undefined {
  return parseCriteria(text, 'icp').find((c) => c.kind === kind) as Extract<Criterion, { kind: K }> | undefined;
}
const stagesOf = (text: string) => criterion(text, 'funding')?.stages ?? [];

const LATER_THAN_A = ['series_b', 'series_c', 'series_d', 'series_e', 'series_f', 'series_g', 'series_h', 'series_i', 'series_j', 'growth'];
const EARLY = ['pre_seed', 'angel', 'seed', 'series_a'];

describe('the funding stage ladder', () => {
  it('puts every round in order, the private ones before IPO', () => {
    expect(STAGES).toEqual(['pre_seed', 'angel', 'seed', 'series_a', ...LATER_THAN_A, 'ipo']);
  });

  it.each<[string, string | null]>([
    ['Series A', 'series_a'],
    ['series_a', 'series_a'],
    ['SERIES_B', 'series_b'],
    ['A round', 'series_a'],
    ['Series C round', 'series_c'],
    ['Seed round', 'seed'],
    ['Seed', 'seed'],
    ['Pre Seed', 'pre_seed'],
    ['Pre-Seed', 'pre_seed'],
    ['pre_seed', 'pre_seed'],
    ['Angel', 'angel'],
    ['Series E', 'series_e'],
    ['Growth Equity', 'growth'],
    ['IPO', 'ipo'],
    ['Public', 'ipo'],
    ['Post-IPO Equity', 'ipo'],
    ['Venture - Series Unknown', null],
    ['Undisclosed', null],
    ['Corporate Round', 'other'],
  ])('reads the provider value %j', (value, stage) => {
    expect(stageOf(value)).toBe(stage);
  });

  it('shows stretches of the ladder short', () => {
    expect(describeStages(['series_a', 'series_b'])).toBe('Series A or Series B');
    expect(describeStages(['seed', 'series_a', 'series_b'])).toBe('Seed to Series B');
    expect(describeStages(LATER_THAN_A)).toBe('Series B or a later private round');
    expect(describeStages(['series_a', 'series_c'])).toBe('Series A or Series C');
  });
});

describe('parseCriteria: funding stages', () => {
  it.each([
    ['Funding: Series A or B', ['series_a', 'series_b']],
    ['Funding: Series A, Series C', ['series_a', 'series_c']],
    ['Series A and B fintechs', ['series_a', 'series_b']],
    ['Funding: A, B', ['series_a', 'series_b']],
    ['companies that just closed their B round', ['series_b']],
    ['Funding: Seed', ['seed']],
  ])('a named round means exactly that round: %s', (text, stages) => {
    expect(stagesOf(text)).toEqual(stages);
  });

  it('does not read the article "A" as a round', () => {
    expect(stagesOf('A round of funding is a plus. Software companies.')).toEqual([]);
    expect(stagesOf('Software companies that raised a round recently')).toEqual([]);
  });

  it.each([
    ['Growth-stage SaaS companies in North America.', LATER_THAN_A],
    ['Funding: growth stage', LATER_THAN_A],
    ['Funding: growth', LATER_THAN_A],
    ['expansion-stage fintechs', LATER_THAN_A],
    ['Early-stage software companies', EARLY],
    ['Funding: early stage', EARLY],
    ['late-stage companies', LATER_THAN_A.slice(1)],
    ['pre-Series A startups', ['pre_seed', 'angel', 'seed']],
  ])('a stage word is its stretch of the ladder: %s', (text, stages) => {
    expect(stagesOf(text)).toEqual(stages);
  });

  it('names the stage word so a reasoning can say how it was read', () => {
    expect(criterion('Growth-stage SaaS', 'funding')?.assumed).toBe('growth stage');
    expect(criterion('Funding: Series A or B', 'funding')?.assumed).toBeUndefined();
  });

  it.each([
    'Series B+ fintechs',
    'Series B or later',
    'Series B and later',
    'Series B and beyond',
    'Funding: B and beyond',
    'Funding: B+',
    'Series B onwards',
    'Series B or higher',
    'at least Series B',
  ])('"%s" is Series B and every later private round', (text) => {
    expect(stagesOf(text)).toEqual(LATER_THAN_A);
  });

  it.each(['Series A or earlier', 'up to Series A', 'Funding: pre-seed to Series A', 'from pre-seed through Series A'])(
    '"%s" is pre-seed through Series A',
    (text) => {
      expect(stagesOf(text)).toEqual(EARLY);
    },
  );

  it.each([
    ['Stage: Seed – Series B', ['seed', 'series_a', 'series_b']],
    ['Stage: Seed-Series B', ['seed', 'series_a', 'series_b']],
    ['Seed to Series B', ['seed', 'series_a', 'series_b']],
    ['between Seed and Series B', ['seed', 'series_a', 'series_b']],
    ['Series A-C startups', ['series_a', 'series_b', 'series_c']],
    ['Series A through Series C', ['series_a', 'series_b', 'series_c']],
    ['Seed and Series B', ['seed', 'series_b']],
  ])('a span takes every round between its ends: %s', (text, stages) => {
    expect(stagesOf(text)).toEqual(stages);
  });

  it('keeps an excluded round out of the wanted ones', () => {
    const criteria = parseCriteria('Funding stage: Series A, Series C\n(not Series B, those go to our partner)', 'icp');
    expect(criteria.find((c) => c.kind === 'funding')).toMatchObject({ stages: ['series_a', 'series_c'] });
    expect(criteria.find((c) => c.kind === 'exclusion')).toMatchObject({ stages: ['series_b'] });
  });

  it('reads a stage in Persona prose as context', () => {
    expect(parseCriteria('Founders & CEOs of B2B SaaS companies (Seed to Series B)', 'persona').map((c) => c.kind)).toEqual(['title']);
  });
});

describe('parseCriteria: total funding', () => {
  it.each([
    ['Software companies that have raised between $10M and $100M in total.', 10e6, 100e6],
    ['companies that raised over $20M', 20e6, null],
    ['Total funding: $5M+', 5e6, null],
    ['Funding: $10M-$50M', 10e6, 50e6],
    ['Series B companies with at least $50M in funding', 50e6, null],
  ])('%s', (text, min, max) => {
    expect(criterion(text, 'total_funding')?.ranges).toEqual([expect.objectContaining({ min, max })]);
  });

  it('keeps funding out of revenue, and reads no total from a valuation or a round size', () => {
    expect(criterion('raised over $20M in funding', 'revenue')).toBeUndefined();
    expect(criterion('unicorns valued at over $1B', 'total_funding')).toBeUndefined();
    expect(criterion('raised a $20M Series B', 'total_funding')).toBeUndefined();
    expect(criterion('Funding: Series B, $10M+', 'funding')?.stages).toEqual(['series_b']);
  });
});

describe('DefaultEvaluator.evaluateCompany: funding', () => {
  const evaluator = new DefaultEvaluator();
  const profile = (description: string): KbProfile => ({ id: '1', name: 'Funded', description });
  const matches = (description: string, info: Record<string, unknown>) =>
    evaluator.evaluateCompany(company({ industries: ['Computer Software'], ...info }), [profile(description)]).matched;

  it.each<[string, string, boolean]>([
    ['Funding: Series A or B', 'Series A', true],
    ['Funding: Series A or B', 'Series B', true],
    ['Funding: Series A or B', 'Seed', false],
    ['Funding: Series A or B', 'Series C', false],
    ['Funding: Series A or B', 'Pre-Seed', false],
    ['Growth-stage SaaS', 'Series A', false],
    ['Growth-stage SaaS', 'Series B', true],
    ['Growth-stage SaaS', 'Series D', true],
    ['Growth-stage SaaS', 'Series E', true],
    ['Growth-stage SaaS', 'Series G', true],
    ['Growth-stage SaaS', 'IPO', false],
    ['Series B+ SaaS', 'Series A', false],
    ['Series B+ SaaS', 'series_b', true],
    ['Series B+ SaaS', 'Series F', true],
    ['Series B+ SaaS', 'Post-IPO Equity', false],
    ['Early-stage SaaS', 'Pre Seed', true],
    ['Early-stage SaaS', 'Seed round', true],
    ['Early-stage SaaS', 'A round', true],
    ['Early-stage SaaS', 'Series B', false],
    ['Stage: Seed – Series B', 'Pre-Seed', false],
    ['Stage: Seed – Series B', 'Seed', true],
    ['Stage: Seed – Series B', 'Series A', true],
    ['Stage: Seed – Series B', 'Series B', true],
    ['Stage: Seed – Series B', 'Series C', false],
    ['Funding: Series C or later', 'Series B', false],
    ['Funding: Series C or later', 'Series C', true],
    ['Funding: IPO', 'Public', true],
  ])('"%s" and a company at %s: %s', (description, stage, expected) => {
    expect(matches(description, { latest_funding_stage: stage })).toBe(expected);
  });

  it('puts a public company at no private stage, whatever round a provider last recorded', () => {
    expect(matches('Growth-stage SaaS', { latest_funding_stage: 'Series D', company_type: 'Public Company' })).toBe(false);
    expect(matches('Growth-stage SaaS', { latest_funding_stage: 'Series D', company_type: 'Privately Held' })).toBe(true);
    expect(matches('Funding: IPO', { company_type: 'Public Company' })).toBe(true);
    const { reasoning } = evaluator.evaluateCompany(company({ latest_funding_stage: 'Series D', company_type: 'Public Company' }), [
      profile('Funding: Series D'),
    ]);
    expect(reasoning).toContain('funding stage IPO/public per company type Public Company (expected Series D)');
  });

  it('names the stretch a stage word was read as', () => {
    const passed = evaluator.evaluateCompany(company({ latest_funding_stage: 'Series C' }), [profile('Growth-stage SaaS')]);
    expect(passed.reasoning).toContain('funding stage Series C (growth stage, read as Series B or a later private round)');
    const failed = evaluator.evaluateCompany(company({ latest_funding_stage: 'Series A' }), [profile('Growth-stage SaaS')]);
    expect(failed.reasoning).toContain('funding stage Series A (expected growth stage, read as Series B or a later private round)');
    const named = evaluator.evaluateCompany(company({ latest_funding_stage: 'Seed' }), [profile('Funding: Series A or B')]);
    expect(named.reasoning).toContain('funding stage Seed (expected Series A or Series B)');
  });

  it.each<[number, boolean]>([
    [9.5e6, false],
    [10e6, true],
    [60e6, true],
    [100e6, true],
    [140e6, false],
  ])('checks total funding of %d against $10M–$100M', (total, expected) => {
    expect(matches('Software companies that have raised between $10M and $100M in total.', { total_funding: total })).toBe(expected);
  });

  it('says what total funding was expected, and treats an unknown total as no data', () => {
    const description = 'Software companies that have raised between $10M and $100M in total.';
    const failed = evaluator.evaluateCompany(company({ industries: ['Computer Software'], total_funding: 2e6 }), [profile(description)]);
    expect(failed.reasoning).toContain('total funding $2M (expected $10M–$100M)');
    const unknown = evaluator.evaluateCompany(company({ industries: ['Computer Software'] }), [profile(description)]);
    expect(unknown.matched).toBe(true);
    expect(unknown.reasoning).toContain('no data for total funding');
  });
});
