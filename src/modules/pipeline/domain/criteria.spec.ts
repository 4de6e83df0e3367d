import { Criterion, CriterionKind, linesOf, parseCriteria, sectionsOf } from './criteria';

const LABELLED_ICP =
  'Fintech and insurance companies. Industries: Financial Services, Insurance. Employees: 50-1000. Revenue: $10M-$500M. Countries: Germany, France, Netherlands. Funding: Series A, Series B.';
const PROSE_ICP = 'B2B software companies with 100 to 2,000 employees in the UK or Ireland';
const LABELLED_PERSONA = 'Titles: CFO, VP Finance, Finance Director. Function: Finance. Seniority: C-level, VP, Director.';
const PROSE_PERSONA = 'Heads of engineering or CTOs at growing startups';

function find<K extends CriterionKind>(criteria: Criterion[], kind: K): Extract<Criterion, { kind: K }> {
  const found = criteria.find((c) => c.kind === kind);
  if (!found) throw new Error(`no ${kind} criterion in ${JSON.stringify(criteria)}`);
  return found as Extract<Criterion, { kind: K }>;
}

const kinds = (criteria: Criterion[]) => criteria.map((c) => c.kind);

describe('parseCriteria: the DESIGN examples', () => {
  it('reads the labelled ICP, merging the prose industries with the labelled ones', () => {
    const criteria = parseCriteria(LABELLED_ICP, 'icp');
    expect(kinds(criteria)).toEqual(['industry', 'employees', 'revenue', 'country', 'funding']);
    expect(find(criteria, 'industry').concepts).toEqual(['fintech', 'insurance']);
    expect(find(criteria, 'employees').ranges).toEqual([{ min: 50, max: 1000, minExclusive: false, maxExclusive: false }]);
    expect(find(criteria, 'revenue').ranges).toEqual([{ min: 10e6, max: 500e6, minExclusive: false, maxExclusive: false }]);
    expect(find(criteria, 'country').countries).toEqual(['DE', 'FR', 'NL']);
    expect(find(criteria, 'funding').stages).toEqual(['series_a', 'series_b']);
  });

  it('reads the prose ICP', () => {
    const criteria = parseCriteria(PROSE_ICP, 'icp');
    expect(kinds(criteria)).toEqual(['industry', 'employees', 'country']);
    expect(find(criteria, 'industry').concepts).toEqual(['software']);
    expect(find(criteria, 'industry').keywords).toEqual([]);
    expect(find(criteria, 'employees').ranges[0]).toMatchObject({ min: 100, max: 2000 });
    expect(find(criteria, 'country').countries).toEqual(['GB', 'IE']);
  });

  it('reads the labelled Persona', () => {
    const criteria = parseCriteria(LABELLED_PERSONA, 'persona');
    expect(kinds(criteria)).toEqual(['title', 'function', 'seniority']);
    expect(find(criteria, 'title').patterns).toEqual([
      { text: 'CFO', codes: ['cfo'], tiers: [], functions: [], tokens: [] },
      { text: 'VP Finance', codes: [], tiers: ['vp'], functions: ['finance'], tokens: [] },
      { text: 'Finance Director', codes: [], tiers: ['director'], functions: ['finance'], tokens: [] },
    ]);
    expect(find(criteria, 'function').functions).toEqual(['finance']);
    expect(find(criteria, 'seniority').tiers).toEqual(['c_level', 'vp', 'director']);
  });

  it('reads the prose Persona and ignores the company hint', () => {
    const criteria = parseCriteria(PROSE_PERSONA, 'persona');
    expect(kinds(criteria)).toEqual(['title']);
    expect(find(criteria, 'title').patterns).toEqual([
      { text: 'Heads of engineering', codes: [], tiers: ['director'], functions: ['engineering'], tokens: [] },
      { text: 'CTOs', codes: ['cto'], tiers: [], functions: [], tokens: [] },
    ]);
  });
});

describe('parseCriteria: ranges in every form', () => {
  it.each([
    ['Employees: 50 to 1,000', 50, 1000],
    ['Employees: 100+', 100, null],
    ['companies with over 500 employees', 500, null],
    ['under 200 employees', null, 200],
    ['fewer than 50 employees', null, 50],
    ['between 10 and 50 employees', 10, 50],
    ['Headcount: 1k-5k', 1000, 5000],
    ['Company size: 51-200', 51, 200],
    ['Employees: 500', 500, null],
  ])('%s', (text, min, max) => {
    expect(find(parseCriteria(text, 'icp'), 'employees').ranges[0]).toMatchObject({ min, max });
  });

  it.each([
    ['Revenue: $10M-$500M', 10e6, 500e6, '$'],
    ['over $1B in revenue', 1e9, null, '$'],
    ['€5m to €50m revenue', 5e6, 50e6, '€'],
    ['Revenue: 10-50 million', 10e6, 50e6, '$'],
    ['ARR: £2M+', 2e6, null, '£'],
  ])('%s', (text, min, max, currency) => {
    const revenue = find(parseCriteria(text, 'icp'), 'revenue');
    expect(revenue.ranges[0]).toMatchObject({ min, max });
    expect(revenue.currency).toBe(currency);
  });

  it('turns a one-sided range inside an exclusion into its complement', () => {
    expect(find(parseCriteria('Fintech, excluding companies with fewer than 10 employees', 'icp'), 'employees').ranges[0]).toMatchObject({
      min: 10,
      max: null,
    });
  });

  it('lets the labelled range win over a range in prose', () => {
    expect(find(parseCriteria('Companies with 5 to 10 employees. Employees: 50-100.', 'icp'), 'employees').ranges).toHaveLength(1);
    expect(find(parseCriteria('Companies with 5 to 10 employees. Employees: 50-100.', 'icp'), 'employees').ranges[0]).toMatchObject({
      min: 50,
      max: 100,
    });
  });
});

describe('parseCriteria: places, stages and company types', () => {
  it.each([
    ['Countries: UK, US, USA', ['GB', 'US']],
    ['Regions: DACH and Nordics', ['DE', 'AT', 'CH', 'DK', 'FI', 'IS', 'NO', 'SE', 'FO', 'GL', 'AX']],
    ['Countries: DE, FR, NL', ['DE', 'FR', 'NL']],
    ['SaaS companies in the U.S. and Canada', ['US', 'CA']],
    ['German and Austrian manufacturers', ['DE', 'AT']],
  ])('%s', (text, countries) => {
    expect(find(parseCriteria(text, 'icp'), 'country').countries).toEqual(countries);
  });

  it('does not read "us" the pronoun as a country', () => {
    expect(kinds(parseCriteria('Companies that look like us: fintech', 'icp'))).not.toContain('country');
  });

  it.each([
    ['Funding: Series A, Series B', ['series_a', 'series_b']],
    ['Series A to C startups', ['series_a', 'series_b', 'series_c']],
    ['Series A-C startups', ['series_a', 'series_b', 'series_c']],
    ['Series A and B fintechs', ['series_a', 'series_b']],
    ['Funding: Pre-seed, Seed', ['pre_seed', 'seed']],
    [
      'Funding: growth, IPO',
      ['series_b', 'series_c', 'series_d', 'series_e', 'series_f', 'series_g', 'series_h', 'series_i', 'series_j', 'growth', 'ipo'],
    ],
    ['Series D+', ['series_d', 'series_e', 'series_f', 'series_g', 'series_h', 'series_i', 'series_j', 'growth']],
  ])('%s', (text, stages) => {
    expect(find(parseCriteria(text, 'icp'), 'funding').stages).toEqual(stages);
  });

  it('does not take "growth" in prose for a funding stage', () => {
    expect(kinds(parseCriteria('high-growth fintech companies', 'icp'))).toEqual(['industry']);
  });

  it.each([
    ['Company type: public, private', ['public', 'private']],
    ['publicly traded insurers', ['public']],
    ['Type: Non-profit', ['nonprofit']],
    ['not-for-profit organisations in healthcare', ['nonprofit']],
    ['Ownership: Government', ['government']],
  ])('%s', (text, types) => {
    expect(find(parseCriteria(text, 'icp'), 'company_type').types).toEqual(types);
  });
});

describe('parseCriteria: exclusions', () => {
  it.each([
    ['Fintech, not agencies', { concepts: ['marketing'] }],
    ['Software companies excluding consultancies', { concepts: ['consulting'] }],
    ['Any industry, no government', { types: ['government'] }],
    ['All organisations except nonprofits', { types: ['nonprofit'] }],
    ['SaaS companies, not based in the US', { countries: ['US'] }],
    ['Non-EU software vendors', { countries: expect.arrayContaining(['DE', 'FR']) }],
    ['Exclude: agencies, resellers, Acme-style shops', { concepts: ['marketing', 'reseller'] }],
  ])('%s', (text, expected) => {
    expect(find(parseCriteria(text, 'icp'), 'exclusion')).toMatchObject(expected);
  });

  it('keeps the excluded words out of the positive criteria', () => {
    const criteria = parseCriteria('Fintech and SaaS, not agencies, in Germany', 'icp');
    expect(find(criteria, 'industry').concepts).toEqual(['fintech', 'software']);
    expect(find(criteria, 'country').countries).toEqual(['DE']);
  });

  it('does not read "not only", "no more than" or "not-for-profit" as exclusions', () => {
    expect(kinds(parseCriteria('not only fintech but also insurance', 'icp'))).toEqual(['industry']);
    expect(kinds(parseCriteria('no more than 300 employees', 'icp'))).toEqual(['employees']);
    expect(kinds(parseCriteria('not-for-profit hospitals', 'icp'))).toEqual(['industry', 'company_type']);
  });

  it('keeps literal words under an "Exclude:" label as keywords', () => {
    expect(find(parseCriteria('Exclude: crypto, widget makers', 'icp'), 'exclusion')).toMatchObject({
      concepts: ['crypto'],
      keywords: [{ text: 'widget makers', stems: ['widget', 'maker'] }],
    });
  });

  it('reads title exclusions in a Persona', () => {
    expect(find(parseCriteria('Finance leaders, not interns', 'persona'), 'exclusion').titles).toEqual([
      { text: 'interns', codes: [], tiers: [], functions: [], tokens: ['intern'] },
    ]);
  });
});

describe('parseCriteria: negation in prose', () => {
  const exclusion = (text: string, subject: 'icp' | 'persona' = 'icp') => find(parseCriteria(text, subject), 'exclusion');

  it.each([
    ["We don't sell to the public sector. Software companies.", { types: ['government'] }],
    ['We do not work with agencies', { concepts: ['marketing'] }],
    ['Industries: anything but gambling', { concepts: ['gambling'] }],
    ['Everything but government, 100+ employees', { types: ['government'] }],
    ['Excluding firms headquartered in France or Italy.', { countries: ['FR', 'IT'] }],
    ['SaaS companies excluding those based in the US', { countries: ['US'] }],
    ['Hardware makers only — no resellers', { concepts: ['reseller'] }],
    ['Any industry except nonprofits', { types: ['nonprofit'] }],
    ['SaaS companies other than banks', { concepts: ['banking'] }],
    ['Avoid crypto and gambling. Fintech in the UK.', { concepts: ['crypto', 'gambling'] }],
    ['Stay away from crypto. Fintech.', { concepts: ['crypto'] }],
    ['No agencies or consultancies', { concepts: ['marketing', 'consulting'] }],
    ['SaaS vendors (no agencies) in Spain', { concepts: ['marketing'] }],
    ['No government bodies, no state-owned agencies', { types: ['government'], concepts: [] }],
    ['NOT IT consultancies, not MSPs', { concepts: ['consulting', 'managed_services'] }],
    ['Size: nothing under 20 employees. Not K-12 schools.', { concepts: ['k12'] }],
  ])('%s', (text, expected) => {
    expect(exclusion(text)).toMatchObject(expected);
  });

  it.each([
    ['Agencies need not apply. We want SaaS in Germany.', ['marketing']],
    ['Gambling is off limits, fintech in Germany is great', ['gambling']],
    ['Banks and asset managers are not a fit.', ['banking', 'asset_management']],
    ['Banks, brokerages and asset managers are not a fit; insurers only', ['banking', 'fintech', 'asset_management']],
    ['Crypto is a no-go. Fintech.', ['crypto']],
    ['We sell to SaaS, and agencies are not a fit', ['marketing']],
  ])('reads a negation written after what it excludes: %s', (text, concepts) => {
    expect(exclusion(text).concepts).toEqual(concepts);
  });

  it('reads "X is off limits" without making X a requirement', () => {
    const criteria = parseCriteria('Software vendors in Europe. Public sector is off limits for us — no government bodies.', 'icp');
    expect(kinds(criteria)).not.toContain('company_type');
    expect(find(criteria, 'exclusion').types).toEqual(['government']);
  });

  it('keeps a negation that qualifies its subject from becoming a requirement', () => {
    const criteria = parseCriteria('Agencies based in London are not a fit. Fintech.', 'icp');
    expect(kinds(criteria)).toEqual(['industry', 'exclusion']);
    expect(find(criteria, 'exclusion').concepts).toEqual(['marketing']);
  });

  describe('scope: what follows the negated phrase stays positive', () => {
    it.each<[string, string[], string[]]>([
      ['Not agencies but software vendors in Germany', ['software'], ['DE']],
      ['No agencies, only software vendors in Germany', ['software'], ['DE']],
      ['No agencies or consultancies, software in France', ['software'], ['FR']],
      ['Fintech — no banks — in the UK', ['fintech'], ['GB']],
      ['No agencies; fintech in the UK', ['fintech'], ['GB']],
      ['Excluding firms headquartered in France or Italy, logistics companies in Spain', ['logistics'], ['ES']],
      ['Hardware makers only — no resellers. Anywhere in Canada.', ['hardware'], ['CA']],
    ])('%s', (text, concepts, countries) => {
      const criteria = parseCriteria(text, 'icp');
      expect(find(criteria, 'industry').concepts).toEqual(concepts);
      expect(find(criteria, 'country').countries).toEqual(countries);
      expect(find(criteria, 'exclusion').concepts).not.toEqual(expect.arrayContaining(concepts));
    });

    it('ends a list exclusion at the next trigger, so each is named on its own', () => {
      expect(exclusion('Product managers. Not engineering, not design.', 'persona').labels).toEqual(['engineering', 'design']);
    });

    it('keeps the titles after a dash positive in a Persona', () => {
      const criteria = parseCriteria('Everyone in sales except SDRs/BDRs — so AEs, sales managers, sales leadership.', 'persona');
      expect(find(criteria, 'exclusion').titles.map((p) => p.text)).toEqual(['SDRs', 'BDRs']);
      expect(find(criteria, 'title').patterns.map((p) => p.text)).toEqual([
        'sales',
        expect.stringContaining('AEs'),
        'sales managers',
        'sales leadership',
      ]);
    });
  });

  describe('near misses', () => {
    it.each<[string, string[]]>([
      ['Nothing but SaaS', ['industry']],
      ['not only fintech but also insurance', ['industry']],
      ["We don't mind agencies. SaaS.", ['industry']],
      ["Doesn't matter if fintech", ['industry']],
      ['Nonprofits are not excluded. Healthcare.', ['industry']],
      ['no more than 300 employees', ['employees']],
    ])('%s has no exclusion', (text, expected) => {
      expect(kinds(parseCriteria(text, 'icp'))).toEqual(expected);
    });

    it('reads "nothing under 20 employees" as at least 20', () => {
      expect(find(parseCriteria('Size: nothing under 20 employees', 'icp'), 'employees').ranges).toEqual([
        { min: 20, max: null, minExclusive: false, maxExclusive: false },
      ]);
    });
  });

  describe('Personas', () => {
    it.each<[string, Partial<Record<'codes' | 'tiers' | 'tokens', string[]>>]>([
      ['Finance execs. Never the CEO, they do not reply.', { codes: ['ceo'] }],
      ['Marketing people, no interns', { tokens: ['intern'] }],
      ['Sales leaders, not C-level', { tiers: ['c_level'] }],
      ['Engineers — interns need not apply', { tokens: ['intern'] }],
      ['HR leaders. Recruiters are out of scope.', { tokens: ['recruiter'] }],
    ])('%s', (text, pattern) => {
      expect(exclusion(text, 'persona').titles).toEqual([expect.objectContaining(pattern)]);
    });

    it('reads seniority and function words that are no title', () => {
      expect(exclusion('Data analysts. Nobody in management.', 'persona').tiers).toEqual(['c_level', 'vp', 'director', 'manager']);
      expect(exclusion('Data analysts. No managers.', 'persona').titles).toEqual([expect.objectContaining({ tiers: ['manager'] })]);
      expect(exclusion('Engineering managers. No one in sales.', 'persona').functions).toEqual(['sales']);
    });

    it('reads unknown words under a label as titles', () => {
      const x = exclusion('Function: Marketing\nSeniority: all levels except interns / working students', 'persona');
      expect(x.titles.map((p) => p.tokens)).toEqual([['intern'], ['working', 'student']]);
    });

    it('treats company words in Persona prose as context, not as excluded functions', () => {
      expect(kinds(parseCriteria('Marketing managers, no marketing agencies', 'persona'))).toEqual(['title']);
      expect(exclusion('Product managers, not marketing', 'persona').functions).toEqual(['marketing']);
    });

    it('drops a comment in parentheses from an "Exclude:" list', () => {
      const x = exclusion("HR people.\nExclude: recruiters (our product doesn't touch hiring)", 'persona');
      expect(x.labels).toEqual(['recruiters']);
      expect(x.functions).toEqual([]);
    });
  });
});

describe('parseCriteria: Personas', () => {
  it('reads "VP Sales and Marketing" as two VP titles', () => {
    const patterns = find(parseCriteria('VP Sales and Marketing', 'persona'), 'title').patterns;
    expect(patterns.map((p) => [p.tiers, p.functions])).toEqual([
      [['vp'], ['sales']],
      [['vp'], ['marketing']],
    ]);
  });

  it('reads "leaders" and "executives" as seniority', () => {
    const [leaders] = find(parseCriteria('Finance leaders', 'persona'), 'title').patterns;
    expect(leaders).toMatchObject({ tiers: ['c_level', 'vp', 'director'], functions: ['finance'] });
  });

  it('reads a seniority range in prose as the seniority, not as titles', () => {
    const criteria = parseCriteria('Data scientists — ICs up to Head of Data Science.', 'persona');
    expect(find(criteria, 'seniority').tiers).toEqual(['director', 'manager', 'ic', 'entry']);
    expect(find(criteria, 'title').patterns.map((p) => p.tokens)).toEqual([['datascience']]);
    expect(find(parseCriteria('Operations people, manager level or higher.', 'persona'), 'seniority').tiers).toEqual([
      'c_level',
      'vp',
      'director',
      'manager',
    ]);
    expect(find(parseCriteria('Finance execs at C-level: CFOs and the like.', 'persona'), 'seniority').tiers).toEqual(['c_level']);
  });

  it('lets a stated seniority replace the tiers "leaders" implies', () => {
    const criteria = parseCriteria('HR leaders — HoD and up.', 'persona');
    expect(find(criteria, 'title').patterns).toEqual([{ text: 'HR leaders', codes: [], tiers: [], functions: ['hr'], tokens: [] }]);
    expect(find(criteria, 'seniority').tiers).toEqual(['c_level', 'vp', 'director']);
    expect(find(parseCriteria('Marketing leaders. Seniority: Manager to VP', 'persona'), 'seniority').tiers).toEqual([
      'vp',
      'director',
      'manager',
    ]);
  });

  it('reads "senior management" as leaders, not as senior individual contributors', () => {
    expect(find(parseCriteria('Senior management in finance', 'persona'), 'title').patterns[0]).toMatchObject({
      tiers: ['c_level', 'vp', 'director'],
      functions: ['finance'],
    });
  });

  it('lets a labelled seniority win over one in prose', () => {
    expect(find(parseCriteria('Finance people at C-level. Seniority: VP', 'persona'), 'seniority').tiers).toEqual(['vp']);
  });

  it('gives a bare rung the function the Persona names', () => {
    const criteria = parseCriteria('Director-level and above in Finance, so directors, VPs, CFOs.', 'persona');
    expect(find(criteria, 'title').patterns.map((p) => [p.codes, p.tiers, p.functions])).toEqual([
      [[], [], ['finance']],
      [[], ['director'], ['finance']],
      [[], ['vp'], ['finance']],
      [['cfo'], [], []],
    ]);
    expect(find(parseCriteria('Titles: Director, VP Finance', 'persona'), 'title').patterns[0]).toMatchObject({
      tiers: ['director'],
      functions: ['finance'],
    });
    expect(find(parseCriteria('Founders and directors', 'persona'), 'title').patterns[1]).toMatchObject({
      tiers: ['director'],
      functions: [],
    });
  });

  it('reads a function after "in" as the one meant, but not an industry', () => {
    expect(find(parseCriteria('Everyone in sales', 'persona'), 'title').patterns).toEqual([
      { text: 'sales', codes: [], tiers: [], functions: ['sales'], tokens: [] },
    ]);
    expect(find(parseCriteria('Managers in the finance team', 'persona'), 'title').patterns[0]).toMatchObject({
      tiers: ['manager'],
      functions: ['finance'],
    });
    expect(find(parseCriteria('Directors in financial services', 'persona'), 'title').patterns[0]).toMatchObject({
      tiers: ['director'],
      functions: [],
    });
  });

  it('lets a bare function before a title borrow its tiers', () => {
    const patterns = find(parseCriteria('Finance, HR and IT directors', 'persona'), 'title').patterns;
    expect(patterns.map((p) => [p.tiers, p.functions])).toEqual([
      [['director'], ['finance']],
      [['director'], ['hr']],
      [['director'], ['it']],
    ]);
    expect(find(parseCriteria('Finance people and VP Sales', 'persona'), 'title').patterns[0]).toMatchObject({ tiers: [] });
  });

  it('names the narrowest function a title word names', () => {
    expect(find(parseCriteria('Backend and frontend developers', 'persona'), 'title').patterns[0].functions).toEqual(['software']);
    expect(find(parseCriteria('ML folks', 'persona'), 'title').patterns[0].functions).toEqual(['ml']);
    expect(find(parseCriteria('Titles: VP Revenue Operations', 'persona'), 'title').patterns[0].functions).toEqual(['revops']);
  });

  it('reads "CPOs (Chief Procurement Officer)" as the procurement officer only', () => {
    expect(find(parseCriteria('Buyers and CPOs (Chief Procurement Officer).', 'persona'), 'title').patterns.map((p) => p.codes)).toEqual([
      [],
      ['chief_procurement'],
    ]);
  });

  it('does not read a sentence around a function word as a title', () => {
    expect(parseCriteria('Software developers, as long as they write product code.', 'persona')).toEqual([
      {
        kind: 'title',
        patterns: [{ text: 'Software developers', codes: [], tiers: [], functions: [], tokens: ['software', 'developer'] }],
      },
    ]);
  });

  it('keeps every word of a labelled title', () => {
    expect(find(parseCriteria('Titles: Head of Partnerships', 'persona'), 'title').patterns[0]).toMatchObject({
      tiers: ['director'],
      tokens: ['partnership'],
    });
  });

  it('checks labelled company criteria in a Persona, and ignores person labels in an ICP', () => {
    expect(kinds(parseCriteria('Titles: CFO. Industries: Fintech. Countries: Germany', 'persona'))).toEqual([
      'industry',
      'country',
      'title',
    ]);
    expect(find(parseCriteria('Titles: CFO. Countries: Germany', 'persona'), 'country').of).toBe('contact');
    expect(kinds(parseCriteria('Industries: Fintech. Titles: CFO', 'icp'))).toEqual(['industry']);
  });

  it('reads the "IT" department but not the pronoun "it"', () => {
    expect(find(parseCriteria('Heads of IT', 'persona'), 'title').patterns[0]).toMatchObject({ functions: ['it'] });
    expect(parseCriteria('whoever makes it happen', 'persona')).toEqual([]);
  });
});

describe('parseCriteria: descriptions without criteria', () => {
  it.each(['', '   ', 'Great companies we love.', 'Lorem ipsum dolor sit amet', '!!!', 'Industries:'])('%j gives none', (text) => {
    expect(parseCriteria(text, 'icp')).toEqual([]);
  });

  it('reads a label whose value is not of its kind as prose', () => {
    expect(find(parseCriteria('Type: B2B SaaS', 'icp'), 'industry').concepts).toEqual(['software']);
  });
});

describe('parseCriteria: Persona exclusions of people', () => {
  it('reads "not directors and above" as the whole range', () => {
    expect(find(parseCriteria('Support managers. Not directors and above.', 'persona'), 'exclusion').tiers).toEqual([
      'c_level',
      'vp',
      'director',
    ]);
  });

  it('reads "no one at director level or higher" as the whole range', () => {
    expect(find(parseCriteria('Sales people, but no one at director level or higher.', 'persona'), 'exclusion').tiers).toEqual([
      'c_level',
      'vp',
      'director',
    ]);
  });

  it('reads a range inside a labelled team as the seniority', () => {
    expect(find(parseCriteria('Teams: team leads up to senior managers in customer support', 'persona'), 'seniority').tiers).toEqual([
      'manager',
    ]);
  });

  it('excludes only the narrow functions named', () => {
    const x = find(parseCriteria('Data leaders (not data eng, not BI/reporting).', 'persona'), 'exclusion');
    expect(x.functions).toEqual(['data_engineering', 'bi']);
    expect(x.countries).toEqual([]);
  });

  it('reads "security roles" under "Exclude:" as the security function, not an industry', () => {
    const x = find(parseCriteria('Titles: IT Director. Exclude: security roles', 'persona'), 'exclusion');
    expect(x.functions).toEqual(['security']);
    expect(x.concepts).toEqual([]);
  });

  it.each([
    ['HR directors, CPOs, VPs of People', 'chro'],
    ['Heads of procurement, CPOs', 'chief_procurement'],
    ['VPs of Product, CPOs', 'cpo'],
    ['CPOs', 'cpo'],
  ])('reads "CPOs" in "%s" as %s', (description, code) => {
    expect(find(parseCriteria(description, 'persona'), 'title').patterns.flatMap((p) => p.codes)).toEqual([code]);
  });
});

describe('parseCriteria: shorthand marketers write', () => {
  it('"ex-" before a place excludes the place, and only the place', () => {
    const criteria = parseCriteria('Gaming studios w/ 10-100 people, Europe ex-UK.', 'icp');
    expect(find(criteria, 'country').labels).toEqual(['Europe']);
    expect(find(criteria, 'exclusion').countries).toEqual(['GB']);
    const rest = parseCriteria('EMEA ex UK and Ireland, SaaS', 'icp');
    expect(find(rest, 'exclusion').countries).toEqual(['GB', 'IE']);
    expect(find(rest, 'industry').concepts).toEqual(['software']);
    // A comma ends the places: Australia is wanted beside APAC without Japan.
    expect(find(parseCriteria('Cyber vendors, APAC ex-Japan, Australia', 'icp'), 'exclusion').countries).toEqual(['JP']);
    // Not before anything else: former consultants are wanted, not excluded.
    expect(kinds(parseCriteria('ex-consultants now in strategy roles', 'persona'))).not.toContain('exclusion');
  });

  it('reads "1k emps", "Mrd." and "Mio." amounts with their currency', () => {
    expect(find(parseCriteria('Real estate firms in Texas, 50–1k emps.', 'icp'), 'employees').ranges).toEqual([
      { min: 50, max: 1000, minExclusive: false, maxExclusive: false },
    ]);
    const billion = find(parseCriteria('Automotive OEMs, revenue > 1 Mrd. EUR, Japan, Germany.', 'icp'), 'revenue');
    expect(billion).toMatchObject({ ranges: [{ min: 1e9, max: null }], currency: '€' });
    expect(find(parseCriteria('Umsatz ab 50 Mio. EUR revenue', 'icp'), 'revenue').ranges[0]).toMatchObject({ min: 50e6 });
  });

  it('"VC-backed" asks for a venture round, not the venture capital industry', () => {
    const criteria = parseCriteria('Cybersecurity vendors, <250 employees, Israel or US, VC-backed.', 'icp');
    expect(find(criteria, 'industry').concepts).toEqual(['cybersecurity']);
    expect(find(criteria, 'funding').stages).toEqual(expect.arrayContaining(['seed', 'series_a', 'series_c', 'growth']));
    expect(find(criteria, 'funding').stages).not.toContain('ipo');
  });

  it('reads US regions and metro areas as their states', () => {
    expect(find(parseCriteria('IT services firms in the US Midwest', 'icp'), 'state').states).toEqual(
      expect.arrayContaining(['US-IL', 'US-OH', 'US-MN']),
    );
    expect(find(parseCriteria('Biotech based in Boston or the Bay Area', 'icp'), 'state').states).toEqual(['US-MA', 'US-CA']);
    expect(find(parseCriteria('SaaS on the West Coast', 'icp'), 'state').states).toEqual(['US-CA', 'US-OR', 'US-WA']);
  });

  it('reads country and industry codes written in capitals, not the same letters as words', () => {
    expect(find(parseCriteria('Accounting firms in Australia & NZ', 'icp'), 'country').countries).toEqual(['AU', 'NZ']);
    expect(find(parseCriteria('Fintechs in UK/IE', 'icp'), 'country').countries).toEqual(['GB', 'IE']);
    expect(find(parseCriteria('FS & insurance cos in DACH', 'icp'), 'industry').concepts).toEqual(['fintech', 'insurance']);
    expect(kinds(parseCriteria('Fintech, ie companies that sell to banks', 'icp'))).not.toContain('country');
  });
});

describe('parseCriteria: digital and data-protection roles in Persona prose', () => {
  it('"Heads of Digital" and "E-commerce managers" keep what they are heads and managers of', () => {
    const [heads, managers] = find(parseCriteria('Heads of Digital and E-commerce managers, in retail', 'persona'), 'title').patterns;
    expect(heads).toMatchObject({ tiers: ['director'], functions: ['marketing'] });
    expect(managers).toMatchObject({ tiers: ['manager'], functions: ['marketing'] });
  });

  it('"DPO" in a list of legal titles is the Data Protection Officer', () => {
    const { patterns } = find(parseCriteria('General Counsel, DPO, Head of Compliance', 'persona'), 'title');
    expect(patterns.map((p) => p.text).join('/')).toContain('DPO');
    expect(patterns.every((p) => p.functions.includes('legal'))).toBe(true);
  });
});

describe('parseCriteria: Persona exclusions and rungs as marketers write them', () => {
  it('"Exclude industries:" in a Persona excludes companies, not the people of that function', () => {
    const criteria = parseCriteria('demand gen / growth mktg\nExclude industries: Marketing & Advertising (agency side)', 'persona');
    const exclusion = find(criteria, 'exclusion');
    expect(exclusion.concepts).toContain('marketing');
    expect(exclusion.functions).toEqual([]);
    expect(exclusion.titles).toEqual([]);
  });

  it('a function word with a narrower one excludes that part of the function only', () => {
    const exclusion = find(parseCriteria('Titles: VP Sales, Head of Sales\nNot: sales enablement', 'persona'), 'exclusion');
    expect(exclusion.functions).toEqual([]);
    expect(exclusion.titles.map((t) => t.tokens)).toEqual([expect.arrayContaining(['enablement'])]);
    expect(find(parseCriteria('Titles: CFO\nNot: marketing', 'persona'), 'exclusion').functions).toEqual(['marketing']);
  });

  it('a C-suite title bounds a seniority range: "Head/Director up to CRO"', () => {
    expect(find(parseCriteria('Level: Head/Director up to CRO', 'persona'), 'seniority').tiers).toEqual(['c_level', 'vp', 'director']);
  });

  it('reads "are too junior", "are too far from …" and "don\'t confuse this with …" as exclusions', () => {
    const exclusion = find(
      parseCriteria(
        'Product managers up through VP Product. CPOs are too far from the day-to-day. Associate PMs and interns are too junior. ' +
          "Don't confuse this with product marketing or project management.",
        'persona',
      ),
      'exclusion',
    );
    expect(exclusion.labels).toEqual(
      expect.arrayContaining(['CPOs', 'Associate PMs', 'interns', 'product marketing', 'project management']),
    );
  });
});

describe('parseCriteria: bounds written apart', () => {
  it('a lower and an upper bound make one range; bounds with nothing between stay alternatives', () => {
    expect(find(parseCriteria('Raised: $10M+ total, but under $150M', 'icp'), 'total_funding').ranges).toEqual([
      { min: 10e6, max: 150e6, minExclusive: false, maxExclusive: true },
    ]);
    expect(find(parseCriteria('Employees: under 50 or over 1000', 'icp'), 'employees').ranges).toHaveLength(2);
  });

  it('a number in brackets after a size word counts heads: "Enterprise (5k+)"', () => {
    expect(find(parseCriteria('Enterprise (5k+) retailers in EMEA', 'icp'), 'employees').ranges).toEqual([
      { min: 5000, max: null, minExclusive: false, maxExclusive: false },
    ]);
  });
});

describe('parseCriteria: dental and veterinary groups', () => {
  it('reads DSOs, dental and veterinary groups as industries, and dental labs apart from them', () => {
    const criteria = parseCriteria('Multi-site dental groups (DSOs) and veterinary groups, 50-500 employees. No dental labs.', 'icp');
    expect(find(criteria, 'industry').concepts).toEqual(['medical_practice', 'veterinary']);
    expect(find(criteria, 'exclusion').concepts).toEqual(['medical_devices']);
  });
});

describe('parseCriteria: payers and exclusions said in passing', () => {
  it('health plans and payers are insurers; "shouldn\'t be on the list" and "neither should …" exclude', () => {
    const criteria = parseCriteria(
      "Built for health plans: commercial payers and the Blues. Hospitals and health systems shouldn't be on the list, and neither should pharma.",
      'icp',
    );
    expect(find(criteria, 'industry').concepts).toEqual(['insurance']);
    expect(find(criteria, 'exclusion').concepts).toEqual(expect.arrayContaining(['healthcare_providers', 'pharma']));
    expect(find(parseCriteria('SaaS companies, neither agencies nor consultancies', 'icp'), 'exclusion').labels).toEqual([
      'agencies',
      'consultancies',
    ]);
  });
});

describe('parseCriteria: sections', () => {
  const SECTIONS = [
    'Must have:',
    '- B2B cybersecurity software vendor',
    '- 100+ employees',
    '',
    'Nice to have:',
    '- US HQ',
    '- Series C or later',
    '',
    'Disqualifiers:',
    '- MSSPs, security consultancies and other services firms',
    '- Publicly traded companies',
  ].join('\n');

  it('reads a list under a label as that label, and a preference section as nothing', () => {
    const criteria = parseCriteria(SECTIONS, 'icp');
    expect(kinds(criteria)).toEqual(['industry', 'employees', 'exclusion']);
    const exclusion = find(criteria, 'exclusion');
    expect(exclusion.types).toEqual(['public']);
    expect(exclusion.concepts).toEqual(['consulting']);
    // "security consultancies" excludes consultancies, not the security vendors the ICP asks for.
    expect(exclusion.keywords.map((k) => k.text)).not.toContain('security');
    expect(exclusion.labels).toContain('security consultancies');
  });

  it('drops a preference written on one line', () => {
    expect(kinds(parseCriteria('Industry: SaaS\nNice to have: US HQ, Series B+', 'icp'))).toEqual(['industry']);
  });
});

describe('parseCriteria: exclusions said as continuations', () => {
  const GOVERNMENT =
    'State and local government in the United States: counties, cities, state agencies. Federal agencies are out, and so are schools and universities.';

  it('"are out" and "and so are" exclude; an excluded type the ICP requires narrows to its words', () => {
    const criteria = parseCriteria(GOVERNMENT, 'icp');
    expect(find(criteria, 'industry').concepts).toEqual(['government']);
    expect(find(criteria, 'company_type').types).toEqual(['government']);
    const exclusion = find(criteria, 'exclusion');
    expect(exclusion.concepts).toEqual(['k12', 'higher_education']);
    expect(exclusion.types).toEqual([]);
    expect(exclusion.keywords.map((k) => k.text)).toEqual(['Federal agencies']);
  });

  it('"and so are" asks for what follows when nothing before it was excluded', () => {
    expect(kinds(parseCriteria('Software companies are great and so are marketplaces.', 'icp'))).toEqual(['industry']);
  });

  it('"skip" and "neither are" exclude; a skip-level manager is a title', () => {
    expect(find(parseCriteria('Game studios in the UK. Skip anything casino or gambling related.', 'icp'), 'exclusion').concepts).toEqual([
      'gambling',
    ]);
    expect(kinds(parseCriteria('Skip-level managers of engineers', 'persona'))).toEqual(['title']);
    const persona = parseCriteria('Heads of Product, and neither are product marketers.', 'persona');
    expect(find(persona, 'exclusion').functions).toEqual([]);
    expect(find(persona, 'exclusion').titles).toMatchObject([{ tokens: ['productmarketing'] }]);
  });

  it('"no sales engineers" excludes them, not sales', () => {
    const exclusion = find(parseCriteria('Sales leaders. No sales engineers or solutions consulting.', 'persona'), 'exclusion');
    expect(exclusion.functions).toEqual([]);
    expect(exclusion.titles.map((t) => t.tokens)).toEqual([['salesengineer'], ['salesengineer']]);
  });
});

describe('parseCriteria: rungs, bounds, rounds and regions', () => {
  it('"senior ICs and team leads only" states both rungs', () => {
    expect(find(parseCriteria('Senior individual contributors and team leads only.', 'persona'), 'seniority').tiers).toEqual([
      'manager',
      'ic',
    ]);
  });

  it('a lower bound joined to a measured upper bound measures the same', () => {
    expect(find(parseCriteria('Studios with at least 50 but fewer than 1,000 people.', 'icp'), 'employees').ranges).toEqual([
      { min: 50, max: 1000, minExclusive: false, maxExclusive: true },
    ]);
  });

  it('named rounds say which venture-backed companies', () => {
    expect(find(parseCriteria('Insurtechs, venture-backed anywhere from Series A through Series D.', 'icp'), 'funding').stages).toEqual([
      'series_a',
      'series_b',
      'series_c',
      'series_d',
    ]);
  });

  it('NA beside another region is North America; alone it is not', () => {
    expect(find(parseCriteria('NA/EMEA, 50-500 FTE', 'icp'), 'country').labels).toEqual(['North America', 'EMEA']);
    expect(find(parseCriteria('Regions: EMEA and NA', 'icp'), 'country').labels).toEqual(['EMEA', 'North America']);
    expect(find(parseCriteria('Countries: NA', 'icp'), 'country').labels).not.toContain('North America');
  });
});

describe('parseCriteria: ranges that end at a C-suite title or run along an arrow', () => {
  it('"from finance manager up to CFO" is manager to C-level', () => {
    expect(find(parseCriteria('Anyone from finance manager up to CFO works.', 'persona'), 'seniority').tiers).toEqual([
      'c_level',
      'vp',
      'director',
      'manager',
    ]);
  });

  it('"EM → VP Eng" is engineering managers to VPs', () => {
    expect(find(parseCriteria('Eng leadership, EM → VP Eng/CTO.', 'persona'), 'title').patterns).toContainEqual(
      expect.objectContaining({ tiers: ['manager', 'vp'], functions: ['engineering'] }),
    );
  });
});

describe('parseCriteria: a broader industry in one phrase with a narrower one', () => {
  it('"industrial machinery or automation equipment manufacturers" asks for machinery makers, not every manufacturer', () => {
    expect(find(parseCriteria('Industrial machinery or automation equipment manufacturers', 'icp'), 'industry').concepts).toEqual([
      'machinery',
    ]);
    expect(find(parseCriteria('Software and manufacturing companies', 'icp'), 'industry').concepts).toEqual(['software', 'manufacturing']);
  });
});

describe('parseCriteria: brackets after an exclusion', () => {
  it('a list in them is what is excluded; a clause in them is an aside', () => {
    const persona = parseCriteria('Heads of Security. Not general IT (IT Managers, sysadmins, the CIO).', 'persona');
    expect(kinds(persona)).toEqual(['title', 'exclusion']);
    expect(find(persona, 'exclusion').titles.map((t) => t.codes.concat(t.tiers))).toContainEqual(['cio']);
    expect(find(persona, 'title').patterns.map((p) => p.text)).toEqual(['Heads of Security']);
    const aside = parseCriteria("Fintechs. We don't sell to banks (their insurers are our customers).", 'icp');
    expect(find(aside, 'exclusion').concepts).toEqual(['banking']);
  });
});

describe('parseCriteria: exclusions of people by role', () => {
  const SALES =
    'Sales leadership: Sales Manager up to CRO. Exclude SDR/BDR managers and anyone in sales engineering / solutions consulting.';

  it('"BDR managers" are managers of BDRs, not every sales manager; "anyone in sales engineering" is sales engineering', () => {
    const exclusion = find(parseCriteria(SALES, 'persona'), 'exclusion');
    expect(exclusion.titles).toContainEqual(expect.objectContaining({ tiers: ['manager'], tokens: ['bdr'] }));
    expect(exclusion.titles.filter((t) => t.tokens.includes('salesengineer'))).toHaveLength(2);
    expect(find(parseCriteria(SALES, 'persona'), 'seniority').tiers).toEqual(['c_level', 'vp', 'director', 'manager']);
  });

  it('an excluded industry the ICP targets a part of is still excluded by its base word: "no retailers" against "Retail"', () => {
    const exclusion = find(parseCriteria('D2C apparel brands in the US (no marketplaces/retailers)', 'icp'), 'exclusion');
    expect(exclusion.keywords.map((k) => k.text)).toEqual(expect.arrayContaining(['retailers', 'retail']));
  });
});

describe('parseCriteria: abbreviations written with an ampersand', () => {
  it('"FP&A lead" and "R&D managers" are one title each, not a list of two', () => {
    expect(find(parseCriteria('The Controller or an FP&A lead', 'persona'), 'title').patterns.map((p) => p.tokens)).toContainEqual([
      'fpa',
      'lead',
    ]);
    expect(find(parseCriteria('R&D managers', 'persona'), 'title').patterns).toHaveLength(1);
  });
});

describe('parseCriteria: "individual" before a role', () => {
  it('"no individual recruiters" excludes recruiters who are individual contributors, not the Head of Talent Acquisition', () => {
    const exclusion = find(parseCriteria("Heads of Talent Acquisition. We don't want individual recruiters.", 'persona'), 'exclusion');
    expect(exclusion.titles).toEqual([expect.objectContaining({ tiers: ['ic', 'entry'], tokens: ['recruiter'] })]);
  });
});

describe('parseCriteria: "leave those out" and "we don\'t count them"', () => {
  it('exclude what the sentence named before them', () => {
    const icp = parseCriteria(
      "Mid-size logistics companies in the UK. We've tried selling to airlines directly and it never works, so leave those out.",
      'icp',
    );
    expect(find(icp, 'exclusion').concepts).toEqual(['airlines']);
    expect(find(icp, 'industry').concepts).toEqual(['logistics']);
    const persona = parseCriteria("Heads of Product. Designers love it, so we don't count them.", 'persona');
    expect(find(persona, 'exclusion').titles).toEqual([expect.objectContaining({ tokens: ['designer'] })]);
    expect(find(persona, 'title').patterns.map((p) => p.text)).toEqual(['Heads of Product']);
  });
});

describe('parseCriteria: layouts pasted from elsewhere', () => {
  it('reads a two-column table and settings written as key = value as labels', () => {
    const table = parseCriteria('Segment | Value\nIndustry | Banking\nEmployees | 1k–10k staff\nExclude | credit unions', 'icp');
    expect(kinds(table)).toEqual(['industry', 'employees', 'exclusion']);
    expect(find(table, 'employees').ranges).toEqual([{ min: 1000, max: 10000, minExclusive: false, maxExclusive: false }]);
    const settings = parseCriteria('industry = Telecommunications\nrevenue = over a billion (USD)\ncompany_type = public', 'icp');
    expect(kinds(settings)).toEqual(['industry', 'revenue', 'company_type']);
    expect(find(settings, 'revenue').ranges[0]).toMatchObject({ min: 1e9, max: null });
  });

  it('reads the lines under a heading without a colon or bullets, up to a blank line', () => {
    const criteria = parseCriteria(
      'Target\nConstruction firms\nHQ in Latin America\n250–5,000 employees\n\nAvoid\nBrazil (covered by our São Paulo team)\nPublicly listed companies',
      'icp',
    );
    expect(find(criteria, 'industry').concepts).toEqual(['construction']);
    const exclusion = find(criteria, 'exclusion');
    expect(exclusion.countries).toEqual(['BR']);
    expect(exclusion.types).toEqual(['public']);
    expect(exclusion.keywords).toEqual([]);
  });

  it('reads labelled items under an exclusion heading as excluded', () => {
    const criteria = parseCriteria(
      'Must have:\n- Industry: SaaS\n\nOut of scope:\n- Industries: Retail, Banking\n- Countries: France',
      'icp',
    );
    expect(find(criteria, 'industry').concepts).toEqual(['software']);
    expect(find(criteria, 'exclusion')).toMatchObject({ concepts: ['retail', 'banking'], countries: ['FR'] });
    expect(kinds(criteria)).not.toContain('country');
  });

  it('reads a text written with Windows or old Mac line breaks as with \\n', () => {
    const lf = 'Target\nConstruction firms\n250–5,000 employees\n\nAvoid\nBrazil\nPublicly listed companies\n\nNice to have:\n- US HQ';
    const expected = parseCriteria(lf, 'icp');
    expect(find(expected, 'exclusion').countries).toEqual(['BR']);
    expect(kinds(expected)).not.toContain('country');
    expect(parseCriteria(lf.replace(/\n/g, '\r\n'), 'icp')).toEqual(expected);
    expect(parseCriteria(lf.replace(/\n/g, '\r'), 'icp')).toEqual(expected);
  });

  it('reads "w/o" as "without", and the titles a Persona excludes under "Exclude titles:" as excluded', () => {
    expect(find(parseCriteria('Fintech companies w/o banks', 'icp'), 'exclusion').concepts).toEqual(['banking']);
    for (const label of ['Exclude titles', 'Titles to avoid', 'Excluded roles']) {
      const persona = parseCriteria(`VP Marketing.\n${label}: interns`, 'persona');
      expect(find(persona, 'title').patterns.map((p) => p.text)).toEqual(['VP Marketing']);
      expect(find(persona, 'exclusion').titles.map((t) => t.text)).toEqual(['interns']);
    }
  });

  it.each(['Preferred', 'Preferably', 'Good to have', 'A plus', 'Bonus if', 'Works closely with', 'Direct reports', 'Stakeholders'])(
    'drops what stands under "%s", which asks for nothing',
    (words) => {
      const expected = parseCriteria('Fintech companies.', 'icp');
      expect(parseCriteria(`Fintech companies.\n${words}:\n- US HQ\n- Series B`, 'icp')).toEqual(expected);
      expect(parseCriteria(`Fintech companies.\n${words}: US HQ`, 'icp')).toEqual(expected);
      expect(parseCriteria(`Fintech companies. ${words}: US HQ, $1.5M raised.`, 'icp')).toEqual(expected);
    },
  );

  it('drops a preference or context after a sentence, and reads the sentences after it', () => {
    const icp = parseCriteria('Fintech companies. Nice to have: Series B. HQ in France; no banks.', 'icp');
    expect(kinds(icp)).toEqual(['industry', 'country', 'exclusion']);
    expect(find(icp, 'country').countries).toEqual(['FR']);
    const persona = parseCriteria('VP Finance at SaaS companies. Reports to: the CFO. Never interns.', 'persona');
    expect(find(persona, 'title').patterns.map((p) => p.text)).toEqual(['VP Finance']);
    expect(find(persona, 'exclusion').titles.map((t) => t.text)).toEqual(['interns']);
  });

  it("reads a persona template's context (goals, challenges, who they report to) as asking for nothing", () => {
    const persona = parseCriteria(
      [
        'Job title: Controller / VP Finance',
        'Reports to: the CFO',
        'Goals: close the books in 3 days',
        'Pain points: the CEO wants real-time cash visibility',
        'Watering holes: LinkedIn',
        '',
        'Challenges',
        '- Their CIO blocks new tools',
        '',
        'Not them: AP clerks, interns',
      ].join('\n'),
      'persona',
    );
    expect(find(persona, 'title').patterns.map((p) => p.text)).toEqual(['Controller', 'VP Finance']);
    expect(find(persona, 'exclusion').titles.map((t) => t.text)).toEqual(['AP clerks', 'interns']);
    expect(kinds(persona)).toEqual(['title', 'exclusion']);
  });

  it('reads an outline: bulleted headings with their lines indented under them', () => {
    const persona = parseCriteria(
      [
        '- **Who**',
        '  - CISO or VP of Security',
        '- **Bonus if**',
        '  - they have run a SOC 2 audit',
        '- **Who’s NOT our buyer**',
        '  - SOC analysts, pen testers',
        '  - IT managers',
      ].join('\n'),
      'persona',
    );
    expect(find(persona, 'exclusion').titles.map((t) => t.text)).toEqual([
      'SOC analysts',
      'pen testers',
      'information technology managers',
    ]);
    expect(find(persona, 'title').patterns.map((p) => p.text)).toEqual(['CISO', 'VP of Security']);
  });

  it('ends a section of what is wanted at a line with a label of its own, and reads lettered and dashed items', () => {
    const criteria = parseCriteria(
      '1. Industry\n   a) Banks and lenders\n   b) Insurance carriers\n2. Size: 1,000+ employees\n3. Countries: Germany, France\n\nOut of scope\n— Fintech startups\n— Industries: Asset management',
      'icp',
    );
    expect(find(criteria, 'industry').concepts).toEqual(['banking', 'insurance']);
    expect(find(criteria, 'employees').ranges).toEqual([{ min: 1000, max: null, minExclusive: false, maxExclusive: false }]);
    expect(find(criteria, 'country').countries).toEqual(['DE', 'FR']);
    expect(find(criteria, 'exclusion').concepts).toEqual(expect.arrayContaining(['asset_management']));
  });

  it('reads a line of labelled cells between pipes as one label each', () => {
    const criteria = parseCriteria('Industry — SaaS | Size — 50-500 | Region — North America | Avoid — agencies, consultancies', 'icp');
    expect(kinds(criteria)).toEqual(['industry', 'employees', 'country', 'exclusion']);
    expect(find(criteria, 'country').countries).toEqual(['US', 'CA']);
    expect(find(criteria, 'exclusion').concepts).toEqual(['marketing', 'consulting']);
  });

  it('reads "us" in the reasons of an exclusion as the pronoun, not the United States', () => {
    const reasons = parseCriteria(
      'SaaS companies in the US.\n\nWho we don’t sell to\n- Agencies\n- Companies under 50 people — too early for us',
      'icp',
    );
    expect(find(reasons, 'exclusion').countries).toEqual([]);
    expect(find(reasons, 'country').countries).toEqual(['US']);
    expect(find(parseCriteria('SaaS companies. Exclude: US, Italy', 'icp'), 'exclusion').countries).toEqual(['US', 'IT']);
    expect(find(parseCriteria('SaaS companies. Exclude: us, uk', 'icp'), 'exclusion').countries).toEqual(['GB', 'US']);
  });

  it('reads codes under a country label as countries, unless the description is about the US', () => {
    expect(find(parseCriteria('Countries: DE, CA', 'icp'), 'country').countries).toEqual(['DE', 'CA']);
    expect(find(parseCriteria('hq_country = US, CA', 'icp'), 'country').countries).toEqual(['US', 'CA']);
    expect(find(parseCriteria('Location: TX, CA', 'icp'), 'state').states).toEqual(['US-TX', 'US-CA']);
    expect(find(parseCriteria('US companies. Location: CA, MA', 'icp'), 'state').states).toEqual(['US-CA', 'US-MA']);
  });

  it('reads "are a bad fit" after what it excludes, and whom a persona reports to in prose as context', () => {
    const icp = parseCriteria('Fintechs in Europe with 100-800 employees. Traditional banks are a bad fit too.', 'icp');
    expect(find(icp, 'exclusion').concepts).toEqual(['banking']);
    const persona = parseCriteria(
      'Payroll Managers or Heads of Payroll. They typically report to the Controller or CFO, who signs off.',
      'persona',
    );
    expect(find(persona, 'title').patterns.map((p) => p.text)).toEqual(['Payroll Managers', 'Heads of Payroll']);
    // Whom they report to ends at a comma.
    const more = parseCriteria('Payroll Managers. They report to the CFO, and so do Heads of Payroll.', 'persona');
    expect(find(more, 'title').patterns.map((p) => p.text)).toEqual(['Payroll Managers', 'so do Heads of Payroll']);
  });

  it('reads grocery as a kind of retail of its own, so a retail ICP can exclude it', () => {
    const criteria = parseCriteria('Industries: Retail, e-commerce\nExclude: grocery', 'icp');
    expect(find(criteria, 'industry').concepts).toEqual(['retail']);
    expect(find(criteria, 'exclusion').concepts).toEqual(['grocery']);
  });

  it('lends a rung to a bare function after a title, not to people named by their own noun', () => {
    const vp = parseCriteria('VP Sales and Marketing', 'persona');
    expect(find(vp, 'title').patterns.map((p) => [p.text, p.tiers])).toEqual([
      ['VP Sales', ['vp']],
      ['VP Marketing', ['vp']],
    ]);
    const persona = parseCriteria('Marketing Ops Managers. Not them: demand gen managers, content marketers', 'persona');
    expect(find(persona, 'exclusion').titles.map((t) => t.text)).toEqual(['demand gen managers', 'content marketers']);
    expect(find(persona, 'exclusion').titles.find((t) => t.text === 'content marketers')?.tiers ?? []).toEqual([]);
  });

  it('reads a Markdown table, its header row and rule left out, as the two-column one', () => {
    const plain = parseCriteria('Industry | Fintech\nEmployees | 200-2000\nExclude | Banks', 'icp');
    expect(kinds(plain)).toEqual(['industry', 'employees', 'exclusion']);
    expect(find(plain, 'industry').concepts).toEqual(['fintech']);
    const markdown = '| Segment | Value |\n|---|:---:|\n| Industry | Fintech |\n| Employees | 200-2000 |\n| Exclude | Banks |';
    expect(parseCriteria(markdown, 'icp')).toEqual(plain);
    const persona = parseCriteria('| Field | Value |\n| --- | --- |\n| Titles | VP Marketing, CMO |\n| Exclude | Interns |', 'persona');
    expect(find(persona, 'title').patterns.map((p) => p.text)).toEqual(['VP Marketing', 'CMO']);
    expect(find(persona, 'exclusion').titles.map((t) => t.text)).toEqual(['Interns']);
  });

  it('reads a label and its value across a dash as labelled', () => {
    const criteria = parseCriteria('Industry — Fintech\nEmployees – 200-2000\nExclude — banks', 'icp');
    expect(find(criteria, 'industry').concepts).toEqual(['fintech']);
    expect(find(criteria, 'exclusion').concepts).toEqual(['banking']);
    const persona = parseCriteria('Job titles — VP Marketing, CMO\nAvoid — interns', 'persona');
    expect(find(persona, 'exclusion').titles.map((t) => t.text)).toEqual(['interns']);
    expect(find(persona, 'title').patterns.map((p) => p.text)).toEqual(['VP Marketing', 'CMO']);
  });

  it('reads Markdown headings and bold labels, and zero-width characters, as the plain text', () => {
    const plain = parseCriteria('Target\nFintech companies\n\nAvoid\nBanks\nBrazil\n\nEmployees: 200-2000', 'icp');
    expect(find(plain, 'exclusion')).toMatchObject({ concepts: ['banking'], countries: ['BR'] });
    for (const description of [
      '## Target\nFintech companies\n\n### Avoid\nBanks\nBrazil\n\n**Employees**: 200-2000',
      '**Target**\nFintech companies\n\n**Avoid**\n- Banks\n- Brazil\n\n- **Employees:** 200-2000',
      'Target\u200b\nFintech companies\n\nAvoid\u200b\nBanks\nBrazil\n\n\ufeffEmployees: 200-2000',
    ]) {
      expect(parseCriteria(description, 'icp')).toEqual(plain);
    }
  });

  it.each([
    'Red flags',
    'Anti-ICP',
    'Non-ICP',
    'Deal-breakers',
    'Not for us',
    'Who we don’t sell to',
    "Don't target",
    'Bad fit',
    'Poor fit',
    'Who to avoid',
    'Not interested in',
    'Exclusion criteria',
    'Exclusion list',
    'Negative criteria',
    'Disqualifying criteria',
    'Knockout criteria',
    'Skip',
    'Ignore',
    'Never',
    'Not our buyer',
  ])('reads "%s" as an exclusion, as a heading and as a label', (words) => {
    for (const description of [`Fintech companies.\n${words}:\nBanks\nBrazil`, `Fintech companies.\n${words}: banks, Brazil`]) {
      const criteria = parseCriteria(description, 'icp');
      expect(find(criteria, 'exclusion')).toMatchObject({ concepts: ['banking'], countries: ['BR'] });
      expect(find(criteria, 'industry').concepts).toEqual(['fintech']);
      expect(kinds(criteria)).not.toContain('country');
    }
    const persona = parseCriteria(`Titles: VP Marketing, CMO\n${words}: interns`, 'persona');
    expect(find(persona, 'title').patterns.map((p) => p.text)).toEqual(['VP Marketing', 'CMO']);
    expect(find(persona, 'exclusion').titles.map((t) => t.text)).toEqual(['interns']);
  });

  it('does not read list numbering as numbers', () => {
    const criteria = parseCriteria('1. Chemicals manufacturers\n2. North of 500 employees\n3. HQ in Germany', 'icp');
    expect(find(criteria, 'employees').ranges).toEqual([{ min: 500, max: null, minExclusive: true, maxExclusive: false }]);
  });
});

describe('parseCriteria: what the seller says besides its criteria', () => {
  it('reads a sentence about the seller itself as context', () => {
    const criteria = parseCriteria(
      "We're a 40-person security startup in Austin. We sell to hospitals in the US with 250–5,000 employees. (We're based in Toronto.)",
      'icp',
    );
    expect(kinds(criteria)).toEqual(['industry', 'employees', 'country']);
    expect(find(criteria, 'employees').ranges).toEqual([{ min: 250, max: 5000, minExclusive: false, maxExclusive: false }]);
  });

  it('drops a preference written in prose, as a sentence or a clause', () => {
    const expected = parseCriteria('Therapeutics biotechs in the US. Plant managers.', 'icp');
    expect(
      parseCriteria("Therapeutics biotechs in the US. Ideally 30–300 people, but headcount isn't a hard filter. Plant managers.", 'icp'),
    ).toEqual(expected);
    const persona = parseCriteria('Plant managers and operations directors, ideally at food & beverage plants', 'persona');
    expect(kinds(persona)).toEqual(['title']);
  });

  it('ends a clause about the seller or a preference where the criteria go on', () => {
    const seller = parseCriteria("We're a 40-person startup in Austin, selling to hospitals in the US with 250+ employees.", 'icp');
    expect(kinds(seller)).toEqual(['industry', 'employees', 'country']);
    expect(kinds(parseCriteria("We're a small team and we sell to banks in the US.", 'icp'))).toEqual(['industry', 'country']);
    const preference = parseCriteria('Fintech companies, ideally in the US, with 50+ employees.', 'icp');
    expect(kinds(preference)).toEqual(['industry', 'employees']);
    expect(parseCriteria('SaaS. Ideally fintech, insurtech or wealthtech.', 'icp')).toEqual(parseCriteria('SaaS.', 'icp'));
  });

  it('drops an aside that allows something, and one about the seller, under any label', () => {
    const criteria = parseCriteria(
      'Geo: US (Boston and the Bay Area are our sweet spot, but anywhere in the US is fine) and Canada',
      'icp',
    );
    expect(find(criteria, 'country').countries).toEqual(['US', 'CA']);
  });

  it('reads the list in brackets before "are not a fit" as what is excluded', () => {
    const criteria = parseCriteria('Machinery makers. Process industries (chemicals, food, pharma) are not a fit for our MES.', 'icp');
    expect(find(criteria, 'industry').concepts).toEqual(['machinery']);
    expect(find(criteria, 'exclusion').concepts).toEqual(['chemicals', 'food', 'pharma']);
  });

  it('reads general contractors as construction and home builders as its residential kind, which can be excluded alone', () => {
    const criteria = parseCriteria('Target: commercial general contractors\nNo residential home builders.', 'icp');
    expect(find(criteria, 'industry').concepts).toEqual(['construction']);
    expect(find(criteria, 'exclusion').concepts).toEqual(['residential_construction']);
  });

  it('reads "seven- to eight-figure" as both', () => {
    expect(find(parseCriteria('Revenue: seven- to eight-figure', 'icp'), 'revenue').ranges).toEqual([
      { min: 1e6, max: 1e8, minExclusive: false, maxExclusive: true },
    ]);
  });

  it('reads a reason after an exclusion list as no item of it, and "the wrong people" as an exclusion', () => {
    const persona = parseCriteria('Function: Finance\nSeniority: C-suite only\nExclude: CEOs, they hand this to the CFO', 'persona');
    expect(find(persona, 'exclusion').titles.map((t) => t.text)).toEqual(['CEOs']);
    const practitioners = parseCriteria('Instructional designers. Managers and directors are the wrong people.', 'persona');
    expect(find(practitioners, 'exclusion').titles.map((t) => t.text)).toEqual(['Managers', 'directors']);
  });
});

describe('parseCriteria: a function the Persona asks for, excluded by a word of it', () => {
  it('"demand generation … no brand, PR or communications roles" excludes those titles, not marketing', () => {
    const criteria = parseCriteria('Demand generation managers. No brand, PR or communications roles.', 'persona');
    const exclusion = find(criteria, 'exclusion');
    expect(exclusion.functions).toEqual([]);
    expect(exclusion.titles.map((t) => t.tokens)).toEqual(expect.arrayContaining([['brand']]));
  });
});

describe('parseCriteria: an excluded industry named with a company type', () => {
  it('"Exclude: government-run hospitals (VA, county, state)" for a hospital ICP excludes government hospitals, not hospitals', () => {
    const criteria = parseCriteria('Industry: Hospital & Health Care\nExclude: government-run hospitals (VA, county, state)', 'icp');
    const exclusion = find(criteria, 'exclusion');
    expect(exclusion.types).toEqual(['government']);
    expect(exclusion).toMatchObject({ concepts: [], keywords: [], nameTerms: [], countries: [] });
  });
});

describe('parseCriteria: "outside", suspended hyphens and "out of the list"', () => {
  it('"Europe outside the EU" excludes the EU; "outside sales" is still sales', () => {
    expect(find(parseCriteria('Nonprofits headquartered in Europe outside the EU.', 'icp'), 'exclusion').countries).toContain('IE');
    expect(kinds(parseCriteria('Outside sales managers', 'persona'))).toEqual(['title']);
  });

  it('"PE- or VC-backed" is PE-backed or VC-backed', () => {
    expect(find(parseCriteria('PE- or VC-backed asset managers', 'icp'), 'funding').stages).toEqual(
      expect.arrayContaining(['private_equity', 'seed', 'series_b']),
    );
  });

  it('"keep recruiters out of the list" excludes them', () => {
    const exclusion = find(parseCriteria('CHROs and Heads of HR. Please keep recruiters out of the list.', 'persona'), 'exclusion');
    expect(exclusion.titles.map((t) => t.tokens)).toContainEqual(['recruiter']);
  });
});

describe('parseCriteria: denials, "don\'t bother with" and "up to and including"', () => {
  const CS =
    "Customer success people, from senior individual contributors up to and including directors. Don't bother with VPs or Chief Customer Officers. Account managers on the sales team aren't customer success.";

  it('"X aren\'t customer success" excludes X, not customer success; "our buyers are not agencies" still excludes agencies', () => {
    const criteria = parseCriteria(CS, 'persona');
    expect(find(criteria, 'seniority').tiers).toEqual(['director', 'manager', 'ic']);
    const exclusion = find(criteria, 'exclusion');
    expect(exclusion.functions).toEqual([]);
    expect(exclusion.labels).toEqual(expect.arrayContaining(['VPs', 'Chief Customer Officers', 'Account managers']));
    expect(find(parseCriteria('SaaS companies. Our buyers are not agencies.', 'icp'), 'exclusion').labels).toEqual(['agencies']);
  });
});

describe('parseCriteria: a partnership beside another type', () => {
  it('"a partnership or privately held" asks for either; "strategic partnerships" asks for no type', () => {
    expect(find(parseCriteria('Law firms in the US. Must be a partnership or privately held.', 'icp'), 'company_type').types).toEqual([
      'partnership',
      'private',
    ]);
    expect(kinds(parseCriteria('SaaS companies with strategic partnerships.', 'icp'))).toEqual(['industry']);
  });
});

describe('parseCriteria: two exclusions in one sentence', () => {
  it('"no product managers and nobody from the IT helpdesk side, those always sneak in" excludes both', () => {
    const exclusion = find(
      parseCriteria(
        'Engineering leaders, and please no product managers and nobody from the IT helpdesk side, those always sneak in',
        'persona',
      ),
      'exclusion',
    );
    expect(exclusion.functions).toEqual(['it_support']);
    expect(exclusion.titles).toContainEqual(expect.objectContaining({ tiers: ['manager'], functions: ['product'] }));
  });
});

describe('sectionsOf: what stands under a heading', () => {
  it('is the heading alone on its line (numbering dropped) and the lines up to a blank line or the next heading', () => {
    const lines = ['Fintech in Germany.', '1. Avoid', '2. Brazil', 'Segment | Value', '- Retail', 'Industries:', 'Banking', '', 'Agencies'];
    expect(sectionsOf(lines)).toEqual([
      { heading: 1, words: 'Avoid', kind: 'label', items: [2, 4], end: 5 },
      { heading: 5, words: 'Industries', kind: 'label', items: [6], end: 7 },
    ]);
  });

  it('splits a text into lines at any line break, with their offsets', () => {
    expect(linesOf('a\r\nbc\rd\n')).toEqual([
      { text: 'a', start: 0, end: 1 },
      { text: 'bc', start: 3, end: 5 },
      { text: 'd', start: 6, end: 7 },
      { text: '', start: 8, end: 8 },
    ]);
    expect(linesOf('')).toEqual([{ text: '', start: 0, end: 0 }]);
  });
});
