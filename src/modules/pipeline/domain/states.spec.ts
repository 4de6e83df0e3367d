import { CompanyInfo, companyInfoTemplate, conform } from '../../buyers/buyer-shape';
import { check, CompanyFacts } from './checks';
import { Criterion, parseCriteria } from './criteria';
import { DefaultEvaluator } from './default-evaluator';
import { KbProfile } from './evaluator';
import { resolveState } from './geo';
import { STATES } from './vocabulary/states';

const company = (location: Record<string, string>, rest: Record<string, unknown> = {}): CompanyInfo =>
  conform(companyInfoTemplate(), { industries: ['Real Estate'], location, ...rest });

const stateOf = (description: string) => parseCriteria(description, 'icp').find((c) => c.kind === 'state');
const countryOf = (description: string) => parseCriteria(description, 'icp').find((c) => c.kind === 'country');

describe('the state table', () => {
  it('has the 50 states, DC and 13 Canadian provinces and territories, each code once', () => {
    const codes = STATES.trim()
      .split('\n')
      .map((line) => line.split('|')[0]);
    expect(codes.filter((c) => c.startsWith('US-'))).toHaveLength(51);
    expect(codes.filter((c) => c.startsWith('CA-'))).toHaveLength(13);
    expect(new Set(codes.map((c) => c.slice(3))).size).toBe(codes.length);
  });
});

describe('resolveState (a Buyer state field)', () => {
  it.each([
    ['New York', null, 'US-NY'],
    ['NY', 'US', 'US-NY'],
    ['ny', null, 'US-NY'],
    ['new jersey', 'US', 'US-NJ'],
    ['New York, NY', 'US', 'US-NY'],
    ['Washington DC', 'US', 'US-DC'],
    ['West Virginia', 'US', 'US-WV'],
    ['Ontario', 'CA', 'CA-ON'],
    ['QC', null, 'CA-QC'],
    ['Georgia', 'US', 'US-GA'],
  ])('%s (country %s) → %s', (value, country, iso) => {
    expect(resolveState(value, country)).toBe(iso);
  });

  it('gives null for nothing, no state, or a state of another country', () => {
    expect(resolveState('', 'US')).toBeNull();
    expect(resolveState('Bavaria', 'DE')).toBeNull();
    expect(resolveState('Texas', 'DE')).toBeNull();
  });
});

describe('parseCriteria: states', () => {
  it.each([
    ['Country: United States\nStates: New York, New Jersey, Connecticut (tri-state area)', ['US-NY', 'US-NJ', 'US-CT']],
    ['States: NY, NJ, CT', ['US-NY', 'US-NJ', 'US-CT']],
    ['State: tx', ['US-TX']],
    ['Provinces: Ontario, BC', ['CA-ON', 'CA-BC']],
    ['Real estate companies in Texas or California', ['US-TX', 'US-CA']],
    ['Property managers in NY/NJ/CT', ['US-NY', 'US-NJ', 'US-CT']],
    ['Brokerages in the tri-state area', ['US-NY', 'US-NJ', 'US-CT']],
    ['Location: Texas', ['US-TX']],
    ['Software companies in New Mexico', ['US-NM']],
    ['US companies in Georgia or Florida', ['US-GA', 'US-FL']],
    ['State: Georgia', ['US-GA']],
  ])('%s', (description, states) => {
    expect(stateOf(description)).toMatchObject({ kind: 'state', states });
  });

  it.each([
    'Software companies in Georgia',
    'Country: Georgia',
    'Countries: DE, AT, CH',
    'Companies in Canada, not in IT or HR',
    'Sell to us in Germany or in France',
    'Companies in CA',
  ])('reads no state in %s', (description) => {
    expect(stateOf(description)).toBeUndefined();
  });

  it('keeps Georgia the country without a US context', () => {
    expect(countryOf('Software companies in Georgia')).toMatchObject({ countries: ['GE'] });
  });

  it('adds the US to the countries when a state is named beside another country', () => {
    expect(countryOf('Companies in Texas or Germany')).toMatchObject({ countries: ['DE', 'US'] });
    expect(stateOf('Companies in Texas or Germany')).toMatchObject({ states: ['US-TX'], elsewhere: ['DE'] });
  });

  it('excludes a state', () => {
    const exclusion = parseCriteria('US real estate firms, excluding firms in Texas', 'icp').find((c) => c.kind === 'exclusion');
    expect(exclusion).toMatchObject({ states: ['US-TX'] });
  });
});

describe('check: state', () => {
  const criterion = stateOf('States: New York, New Jersey, Connecticut') as Criterion;
  const status = (location: Record<string, string>) => check(criterion, new CompanyFacts(company(location)), null).status;

  it.each([
    [{ country: 'United States', state: 'New York' }, 'passed'],
    [{ country: 'US', state: 'nj' }, 'passed'],
    [{ state: 'CONNECTICUT' }, 'passed'],
    [{ country: 'United States', state: 'Pennsylvania' }, 'failed'],
    [{ country: 'United States', state: 'CA' }, 'failed'],
    [{ country: 'Germany', state: 'Bavaria' }, 'failed'],
    [{ country: 'Germany' }, 'failed'],
    [{ country: 'United States' }, 'unknown'],
    [{}, 'unknown'],
  ])('%j → %s', (location, expected) => {
    expect(status(location)).toBe(expected);
  });

  it('quotes a code with its name', () => {
    expect(check(criterion, new CompanyFacts(company({ country: 'US', state: 'NY' })), null)).toMatchObject({
      status: 'passed',
      actual: 'NY (New York)',
      expected: 'New York, New Jersey or Connecticut',
    });
  });
});

describe('DefaultEvaluator.evaluateCompany: states', () => {
  const evaluator = new DefaultEvaluator();
  const triState: KbProfile = {
    id: '1',
    name: 'Tri-state real estate',
    description: 'Country: United States\nStates: New York, New Jersey, Connecticut (tri-state area)\nIndustry: Real Estate',
  };
  const texasOrGermany: KbProfile = { id: '2', name: 'TX or DE', description: 'Real estate companies in Texas or Germany' };
  const notTexas: KbProfile = { id: '3', name: 'Not TX', description: 'US real estate firms, excluding firms in Texas' };

  it.each([
    ['a New York company', triState, { country: 'United States', state: 'New York' }, true],
    ['a Pennsylvania company', triState, { country: 'United States', state: 'Pennsylvania' }, false],
    ['a US company without a state', triState, { country: 'United States' }, true],
    ['a Texas company for Texas or Germany', texasOrGermany, { country: 'United States', state: 'TX' }, true],
    ['a German company for Texas or Germany', texasOrGermany, { country: 'Germany', state: 'Bavaria' }, true],
    ['a Californian company for Texas or Germany', texasOrGermany, { country: 'United States', state: 'California' }, false],
    ['a Texas company for "excluding Texas"', notTexas, { country: 'United States', state: 'Texas' }, false],
    ['an Ohio company for "excluding Texas"', notTexas, { country: 'United States', state: 'Ohio' }, true],
  ])('%s', (_, profile, location, matched) => {
    expect(evaluator.evaluateCompany(company(location), [profile]).matched).toBe(matched);
  });

  it('says which state failed', () => {
    const result = evaluator.evaluateCompany(company({ country: 'United States', state: 'California' }), [triState]);
    expect(result.reasoning).toContain('state California (expected New York, New Jersey or Connecticut)');
  });
});
