import { CompanyInfo, ContactInfo } from '../../buyers/buyer-shape';
import { parseCriteria } from './criteria';
import { DefaultEvaluator } from './default-evaluator';
import { KbProfile } from './evaluator';

/** Deterministic, so a failure reproduces. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

const CHARS = 'abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789 .,;:!?()[]{}-+$€£%&/\\\n\t"\'_=*#@~^<>|–—é中🙂\u0000\ud800';
const WORDS = [
  'not',
  'States:',
  'Texas',
  'Georgia',
  'NY',
  'tri-state',
  'no',
  'Series',
  'A',
  'B',
  'to',
  'between',
  'and',
  'or',
  'over',
  'under',
  '$',
  '10M',
  '1k',
  '1,000',
  '1.000',
  'employees',
  'Titles:',
  'Industries:',
  'Exclude:',
  'Seniority:',
  'Revenue:',
  'Employees:',
  'Countries:',
  'CFO',
  'VP',
  'Head',
  'of',
  'in',
  'UK',
  'US',
  'us',
  'it',
  'IT',
  'fintech',
  'Director+',
  'C-level',
  'chief',
  'officer',
  'excluding',
  'nonprofits',
  'government',
  'DACH',
  'public',
  'private',
  'Non-EU',
  'non-profit',
  '+',
  '-',
  'million',
  'bn',
  'startup',
  'SMB',
  'small',
  'mid-market',
  'enterprise',
  'large',
  'Fortune 500',
  'seven-figure',
  '7-figure',
  'raised',
  'Segment:',
  'Funding:',
  'Seed',
  'growth stage',
  'early-stage',
  'round',
  'onwards',
  'earlier',
  'at least',
  '–',
  'Function:',
  'Director',
  'Manager',
  'Junior',
  'Senior IC',
  'up to',
  'through',
  'below',
  'plus',
  '—',
  'CPO (Chief Procurement Officer)',
];

function randomText(next: () => number, maxLength: number): string {
  const length = Math.floor(next() * maxLength);
  let text = '';
  for (let i = 0; i < length; i++)
    text += next() < 0.5 ? CHARS[Math.floor(next() * CHARS.length)] : `${WORDS[Math.floor(next() * WORDS.length)]} `;
  return text;
}

describe('robustness', () => {
  it('never throws, on any description and any Buyer data (property loop over random strings)', () => {
    const next = random(20_260_101);
    const evaluator = new DefaultEvaluator();
    for (let i = 0; i < 400; i++) {
      const text = randomText(next, 120);
      const profile: KbProfile = { id: String(i), name: text.slice(0, 12), description: text };
      expect(() => parseCriteria(text, 'icp')).not.toThrow();
      expect(() => parseCriteria(text, 'persona')).not.toThrow();
      const fuzzyCompany = {
        name: text.slice(0, 20),
        industries: [text.slice(0, 30), text.slice(10)],
        employee_count: Math.floor(next() * 10_000),
        annual_revenue: next() * 1e9,
        location: { country: text.slice(5, 15) },
        latest_funding_stage: text.slice(3, 12),
        company_type: text.slice(2, 9),
      } as unknown as CompanyInfo;
      const fuzzyContact = {
        role: { title: text.slice(0, 40), seniority: text.slice(1, 8), function: text.slice(4, 12) },
      } as unknown as ContactInfo;
      const icp = evaluator.evaluateCompany(fuzzyCompany, [profile]);
      const persona = evaluator.evaluatePerson(fuzzyContact, fuzzyCompany, [profile]);
      for (const result of [icp, persona]) {
        expect(typeof result.reasoning).toBe('string');
        expect(result.reasoning.length).toBeGreaterThan(0);
        if (!result.matched) expect(result).toMatchObject({ id: null, name: '' });
        else expect(result.id).toBe(String(i));
      }
    }
  });

  it('accepts malformed Buyer data and profiles without crashing', () => {
    const evaluator = new DefaultEvaluator();
    const junk = [null, undefined, 42, 'text', [], { industries: 'Fintech', employee_count: '200', location: null }];
    for (const value of junk) {
      expect(() =>
        evaluator.evaluateCompany(value as unknown as CompanyInfo, [{ id: '1', name: 'x', description: 'Fintech' }]),
      ).not.toThrow();
      expect(() =>
        evaluator.evaluatePerson(value as unknown as ContactInfo, value as unknown as CompanyInfo, [
          { id: '1', name: 'x', description: 'CFOs' },
        ]),
      ).not.toThrow();
    }
    const oddProfiles = [null, { id: 1, name: null, description: null }, { id: '2' }] as unknown as KbProfile[];
    expect(() => evaluator.evaluateCompany({} as CompanyInfo, oddProfiles)).not.toThrow();
    expect(() => evaluator.evaluateCompany({} as CompanyInfo, null as unknown as KbProfile[])).not.toThrow();
  });

  it('reads odd punctuation and spacing', () => {
    const criteria = parseCriteria('  INDUSTRIES :  fintech ;; insurance,,  EMPLOYEES:50–1,000!!  countries : germany / FRANCE  ', 'icp');
    expect(criteria.map((c) => c.kind)).toEqual(['industry', 'employees', 'country']);
    expect(parseCriteria('•\tTitles: CFO\n•\tSeniority: VP+\n', 'persona').map((c) => c.kind)).toEqual(['title', 'seniority']);
  });

  // A catastrophic pattern would not finish within the test's timeout; how fast it is, is measured
  // by the evaluator benchmark (npm run bench:evaluator), not here.
  it('handles empty and huge descriptions', () => {
    expect(parseCriteria('', 'icp')).toEqual([]);
    const paragraph =
      'Fintech and insurance companies. Industries: Financial Services, Insurance. Employees: 50-1000. Revenue: $10M-$500M. Countries: Germany, France, Netherlands. Funding: Series A, Series B. Not agencies. ';
    const criteria = parseCriteria(paragraph.repeat(1_000), 'icp');
    parseCriteria('1'.repeat(50_000), 'icp');
    parseCriteria('not '.repeat(20_000), 'icp');
    parseCriteria('chief '.repeat(20_000), 'persona');
    parseCriteria('$1-'.repeat(20_000), 'icp');
    parseCriteria('Industries: '.repeat(5_000), 'icp');
    parseCriteria('a'.repeat(50_000), 'icp');
    parseCriteria('111 '.repeat(10_000), 'icp');
    parseCriteria('Non-'.repeat(10_000), 'persona');
    parseCriteria(`Seniority: ${'Manager – '.repeat(5_000)}`, 'persona');
    parseCriteria('managers up to VPs in finance — '.repeat(1_500), 'persona');
    parseCriteria('CPO (Chief '.repeat(5_000), 'persona');
    const long = 'x'.repeat(50_000);
    new DefaultEvaluator().evaluatePerson(
      { role: { title: long, seniority: long, function: long }, location: { country: long } } as unknown as ContactInfo,
      {
        name: long,
        industries: [long],
        location: { country: long },
        latest_funding_stage: long,
        company_type: long,
      } as unknown as CompanyInfo,
      [{ id: '1', name: 'x', description: 'Titles: CFO. Industries: Fintech. Countries: Germany. Funding: Seed. Company type: public' }],
    );
    expect(criteria.map((c) => c.kind)).toEqual(['industry', 'employees', 'revenue', 'country', 'funding', 'exclusion']);
  });

  it('keeps the reasoning bounded for profiles with very many criteria', () => {
    const evaluator = new DefaultEvaluator();
    const countries =
      'Countries: Germany, France, Netherlands, Spain, Italy, Portugal, Poland, Austria, Belgium, Sweden, Norway, Denmark, Finland.';
    const result = evaluator.evaluateCompany({ location: { country: 'Japan' } } as CompanyInfo, [
      { id: '1', name: 'x', description: countries },
    ]);
    expect(result.reasoning).toContain('Austria or 5 more');
    expect(result.reasoning.length).toBeLessThanOrEqual(2_000);
  });
});
