import { CompanyInfo, companyInfoTemplate, conform, ContactInfo, contactInfoTemplate } from '../../buyers/buyer-shape';
import { parseCriteria } from './criteria';
import { DefaultEvaluator } from './default-evaluator';
import { EvaluationResult, KbProfile } from './evaluator';

const company = (input: Record<string, unknown> = {}): CompanyInfo => conform(companyInfoTemplate(), input);
const contact = (title: string, role: Record<string, string> = {}, rest: Record<string, unknown> = {}): ContactInfo =>
  conform(contactInfoTemplate(), { role: { title, ...role }, ...rest });

const EU_FINTECH: KbProfile = {
  id: '11',
  name: 'EU Fintech',
  description:
    'Fintech and insurance companies. Industries: Financial Services, Insurance. Employees: 50-1000. Revenue: $10M-$500M. Countries: Germany, France, Netherlands. Funding: Series A, Series B.',
};
const UK_SOFTWARE: KbProfile = {
  id: '12',
  name: 'UK Software',
  description: 'B2B software companies with 100 to 2,000 employees in the UK or Ireland',
};
const FINANCE_PERSONA: KbProfile = {
  id: '21',
  name: 'Finance buyer',
  description: 'Titles: CFO, VP Finance, Finance Director. Function: Finance. Seniority: C-level, VP, Director.',
};
const ENGINEERING_PERSONA: KbProfile = {
  id: '22',
  name: 'Engineering leader',
  description: 'Heads of engineering or CTOs at growing startups',
};
const CRO_PERSONA: KbProfile = { id: '23', name: 'Revenue leader', description: 'Titles: CRO' };
const CTO_PERSONA: KbProfile = { id: '24', name: 'CTO', description: 'Titles: CTO' };

const GERMAN_FINTECH = {
  name: 'Zahl GmbH',
  industries: ['Financial Services'],
  employee_count: 200,
  annual_revenue: 50e6,
  location: { country: 'Germany' },
  latest_funding_stage: 'Series A',
};

function expectMatch(result: EvaluationResult, profile: KbProfile): void {
  expect(result).toMatchObject({ matched: true, id: profile.id, name: profile.name });
  expect(result.reasoning).toContain(`"${profile.name}"`);
}

function expectNoMatch(result: EvaluationResult): void {
  expect(result).toMatchObject({ matched: false, id: null, name: '' });
  expect(result.reasoning).toMatch(/^No (ICP|Persona) matched/);
}

describe('DefaultEvaluator.evaluateCompany: the DESIGN ICPs', () => {
  const evaluator = new DefaultEvaluator();
  const icps = [EU_FINTECH, UK_SOFTWARE];

  it.each<[string, Record<string, unknown>, KbProfile | null]>([
    ['a German Series A fintech with 200 employees and $50M revenue', GERMAN_FINTECH, EU_FINTECH],
    [
      'a Dutch Series B insurer (provider spellings)',
      {
        industries: ['Insurance'],
        employee_count: 900,
        annual_revenue: 400e6,
        location: { country: 'NL' },
        latest_funding_stage: 'series_b',
      },
      EU_FINTECH,
    ],
    [
      'a French bank of exactly 1,000 employees',
      { industries: ['Banking'], employee_count: 1000, location: { country: 'France' } },
      EU_FINTECH,
    ],
    [
      'a UK software company of 500 employees',
      { industries: ['Computer Software'], employee_count: 500, location: { country: 'United Kingdom' } },
      UK_SOFTWARE,
    ],
    ['an Irish SaaS company of 100 employees', { industries: ['SaaS'], employee_count: 100, location: { country: 'IE' } }, UK_SOFTWARE],
    [
      'a British software firm written as Great Britain',
      { industries: ['Computer Software'], employee_count: 1500, location: { country: 'Great Britain' } },
      UK_SOFTWARE,
    ],
    [
      'a British IT services firm: it sells work on software, not software',
      { industries: ['Information Technology and Services'], employee_count: 1500, location: { country: 'United Kingdom' } },
      null,
    ],
    [
      'a US retail company',
      {
        industries: ['Retail'],
        employee_count: 200,
        annual_revenue: 50e6,
        location: { country: 'United States' },
        latest_funding_stage: 'Series A',
      },
      null,
    ],
    [
      'a UK software company of 5,000 employees',
      { industries: ['Computer Software'], employee_count: 5000, location: { country: 'UK' } },
      null,
    ],
    ['a German fintech at Series C', { ...GERMAN_FINTECH, latest_funding_stage: 'Series C' }, null],
    ['a German fintech of 20 employees', { ...GERMAN_FINTECH, employee_count: 20 }, null],
    ['a company with no data at all', {}, null],
  ])('%s', (_case, input, expected) => {
    const result = evaluator.evaluateCompany(company(input), icps);
    if (expected) expectMatch(result, expected);
    else expectNoMatch(result);
  });

  it('names every matched criterion with the company’s value', () => {
    const { reasoning } = evaluator.evaluateCompany(company(GERMAN_FINTECH), icps);
    expect(reasoning).toBe(
      'Matched ICP "EU Fintech" on industry Financial Services, employees 200, revenue $50M, country Germany and funding stage Series A.',
    );
  });

  it('names the failed criteria, value against expectation, for the closest profile', () => {
    const { reasoning } = evaluator.evaluateCompany(
      company({
        industries: ['Retail'],
        employee_count: 200,
        annual_revenue: 50e6,
        location: { country: 'United States' },
        latest_funding_stage: 'Series A',
      }),
      icps,
    );
    expect(reasoning).toContain('Closest: "EU Fintech"');
    expect(reasoning).toContain('industry Retail (expected Fintech or Insurance)');
    expect(reasoning).toContain('country United States (expected Germany, France or Netherlands)');
    expect(reasoning).toContain('employees 200');
  });

  it('says what failed on employees', () => {
    const { reasoning } = evaluator.evaluateCompany(
      company({ industries: ['Computer Software'], employee_count: 5000, location: { country: 'UK' } }),
      icps,
    );
    expect(reasoning).toContain('employees 5,000 (expected 100–2,000)');
  });

  it('does not match a company with no data, and says there was too little', () => {
    const { reasoning } = evaluator.evaluateCompany(company(), icps);
    expect(reasoning).toMatch(/too little data about the company/);
    expect(reasoning).toContain('industry');
  });

  it('does not let unknown revenue block a match when the rest passes, and says it was unknown', () => {
    const result = evaluator.evaluateCompany(company({ ...GERMAN_FINTECH, annual_revenue: 0 }), icps);
    expectMatch(result, EU_FINTECH);
    expect(result.reasoning).toContain('no data for revenue');
  });

  it('matches on a single known criterion when the rest is unknown', () => {
    expectMatch(evaluator.evaluateCompany(company({ industries: ['Insurance'] }), [EU_FINTECH]), EU_FINTECH);
  });

  it('treats an unknown funding stage as missing data, not a failure', () => {
    expectMatch(
      evaluator.evaluateCompany(company({ ...GERMAN_FINTECH, latest_funding_stage: 'Venture (Round not Specified)' }), icps),
      EU_FINTECH,
    );
    expectNoMatch(evaluator.evaluateCompany(company({ ...GERMAN_FINTECH, latest_funding_stage: 'Corporate round' }), icps));
  });
});

describe('DefaultEvaluator.evaluateCompany: taxonomy and exclusions', () => {
  const evaluator = new DefaultEvaluator();
  const security: KbProfile = { id: '1', name: 'Security', description: 'Industries: Cybersecurity' };
  const software: KbProfile = { id: '2', name: 'Software', description: 'Software companies' };
  const noAgencies: KbProfile = { id: '3', name: 'German SMB', description: 'Companies in Germany with 10-500 employees, not agencies' };
  const noConsultancies: KbProfile = { id: '4', name: 'Tech', description: 'Software companies excluding consultancies' };
  const noGovernment: KbProfile = {
    id: '5',
    name: 'Healthcare',
    description: 'Healthcare organisations, no government, except nonprofits',
  };

  it.each<[string, KbProfile, Record<string, unknown>, boolean]>([
    ['cybersecurity ≈ "Computer and Network Security"', security, { industries: ['Computer and Network Security'] }, true],
    ['cybersecurity ≈ "Computer & Network Security"', security, { industries: ['Computer & Network Security'] }, true],
    ['cybersecurity ≠ "Security and Investigations"', security, { industries: ['Security and Investigations'] }, false],
    ['software includes a security vendor', software, { industries: ['Computer and Network Security'] }, true],
    [
      '"not agencies" fails a marketing agency',
      noAgencies,
      { name: 'Blue Fox Agency', industries: ['Marketing and Advertising'], employee_count: 40, location: { country: 'Germany' } },
      false,
    ],
    [
      '"not agencies" fails "Marketing and Advertising"',
      noAgencies,
      { name: 'Blue Fox', industries: ['Marketing and Advertising'], employee_count: 40, location: { country: 'Germany' } },
      false,
    ],
    [
      '"not agencies" fails a company named "… Agency"',
      noAgencies,
      { name: 'Blue Fox Agency', employee_count: 40, location: { country: 'Germany' } },
      false,
    ],
    [
      '"not agencies" passes a bank',
      noAgencies,
      { name: 'Acme Bank', industries: ['Banking'], employee_count: 40, location: { country: 'Germany' } },
      true,
    ],
    [
      '"excluding consultancies" fails management consulting',
      noConsultancies,
      { industries: ['Management Consulting', 'Computer Software'] },
      false,
    ],
    ['"excluding consultancies" passes a software vendor', noConsultancies, { industries: ['Computer Software'] }, true],
    [
      '"no government" fails a government agency',
      noGovernment,
      { industries: ['Hospital & Health Care'], company_type: 'Government Agency' },
      false,
    ],
    [
      '"except nonprofits" fails a nonprofit by type',
      noGovernment,
      { industries: ['Hospital & Health Care'], company_type: 'Nonprofit' },
      false,
    ],
    [
      '"except nonprofits" fails a nonprofit by industry',
      noGovernment,
      { industries: ['Hospital & Health Care', 'Non-profit Organization Management'] },
      false,
    ],
    [
      'exclusions pass a private hospital group',
      noGovernment,
      { industries: ['Hospital & Health Care'], company_type: 'Privately Held' },
      true,
    ],
  ])('%s', (_case, icp, input, matched) => {
    const result = evaluator.evaluateCompany(company(input), [icp]);
    if (matched) expectMatch(result, icp);
    else expectNoMatch(result);
  });

  it('names the exclusion and the evidence when it fails', () => {
    const { reasoning } = evaluator.evaluateCompany(
      company({ name: 'Blue Fox Agency', industries: ['Marketing and Advertising'], employee_count: 40, location: { country: 'Germany' } }),
      [noAgencies],
    );
    expect(reasoning).toContain('exclusion not agencies (industry Marketing and Advertising and name "Blue Fox Agency")');
    expect(reasoning).toContain('country Germany');
  });

  it('says which exclusions it checked when they pass', () => {
    const { reasoning } = evaluator.evaluateCompany(
      company({ name: 'Acme Bank', industries: ['Banking'], employee_count: 40, location: { country: 'Germany' } }),
      [noAgencies],
    );
    expect(reasoning).toContain('no exclusion applying (not agencies)');
  });

  it('does not pass an exclusion on a name alone', () => {
    const result = evaluator.evaluateCompany(company({ name: 'Acme' }), [
      { id: '9', name: 'Anything but agencies', description: 'Exclude: agencies' },
    ]);
    expectNoMatch(result);
    expect(result.reasoning).toMatch(/too little data/);
  });

  it('reads a company type from industries or an IPO when company_type is empty', () => {
    const nonprofits: KbProfile = { id: '6', name: 'Nonprofits', description: 'Company type: nonprofit' };
    const listed: KbProfile = { id: '7', name: 'Listed', description: 'Company type: public' };
    expectMatch(evaluator.evaluateCompany(company({ industries: ['Non-profit Organization Management'] }), [nonprofits]), nonprofits);
    expectMatch(evaluator.evaluateCompany(company({ latest_funding_stage: 'Post-IPO Equity' }), [listed]), listed);
    expectNoMatch(evaluator.evaluateCompany(company({ company_type: 'Privately Held' }), [listed]));
  });

  it('matches regions against the country field', () => {
    const dach: KbProfile = { id: '8', name: 'DACH', description: 'Regions: DACH' };
    expectMatch(evaluator.evaluateCompany(company({ location: { country: 'Österreich' } }), [dach]), dach);
    expectNoMatch(evaluator.evaluateCompany(company({ location: { country: 'France' } }), [dach]));
  });
});

describe('DefaultEvaluator: out-of-scope phrasing excludes what it names', () => {
  const evaluator = new DefaultEvaluator();
  const providers: KbProfile = {
    id: '45',
    name: 'Canadian providers',
    description:
      'Our buyers are healthcare providers — hospitals, clinic groups — with at least 250 staff in Canada. (Pharma makers are handled by a different product line.)',
  };
  const ca = { location: { country: 'Canada' }, employee_count: 1200 };

  it.each<[string, Record<string, unknown>, boolean]>([
    ['"handled by a different product line" fails pharma', { ...ca, industries: ['Pharmaceuticals'] }, false],
    ['it keeps hospitals', { ...ca, industries: ['Hospital & Health Care'] }, true],
  ])('%s', (_name, input, expected) => {
    expect(evaluator.evaluateCompany(company(input), [providers]).matched).toBe(expected);
  });

  it.each(['handled by another team', 'covered by a separate business unit', 'served by our other product'])(
    'reads "%s" as an exclusion',
    (phrase) => {
      const exclusion = parseCriteria(`Retailers in Canada. Banks are ${phrase}.`, 'icp').find((c) => c.kind === 'exclusion');
      expect(exclusion).toMatchObject({ concepts: ['banking'] });
    },
  );
});

describe('DefaultEvaluator: exclusions exclude only what they name', () => {
  const evaluator = new DefaultEvaluator();
  const noBanks: KbProfile = { id: '40', name: 'UK finance', description: 'Financial services firms in the UK, but not banks.' };
  const higherEd: KbProfile = {
    id: '41',
    name: 'Higher ed',
    description: 'Universities and colleges. Not K-12 schools, not edtech vendors.',
  };
  const noPublicSector: KbProfile = {
    id: '42',
    name: 'EU software',
    description: 'Software vendors across Europe. Public sector is off limits for us — no government bodies, no state-owned agencies.',
  };
  const noFranceItaly: KbProfile = {
    id: '43',
    name: 'EU logistics',
    description: 'Logistics companies.\nRegion: Europe\nExcluding firms headquartered in France or Italy.',
  };
  const noGambling: KbProfile = {
    id: '44',
    name: 'Not gambling',
    description: 'Industries: anything but gambling/betting\nHQ: US or Canada',
  };
  const uk = { location: { country: 'United Kingdom' } };

  it.each<[string, KbProfile, Record<string, unknown>, boolean]>([
    ['"not banks" passes an asset manager', noBanks, { ...uk, industries: ['Investment Management'] }, true],
    ['"not banks" passes a financial services firm', noBanks, { ...uk, industries: ['Financial Services'] }, true],
    ['"not banks" fails a bank', noBanks, { ...uk, industries: ['Banking'] }, false],
    [
      '"not banks" fails a bank also listed as financial services',
      noBanks,
      { ...uk, industries: ['Banking', 'Financial Services'] },
      false,
    ],
    ['"not K-12 schools" passes a university', higherEd, { name: 'University of Eastmoor', industries: ['Higher Education'] }, true],
    ['"not K-12 schools" fails a school district', higherEd, { industries: ['Primary/Secondary Education'] }, false],
    ['"not edtech vendors" fails e-learning', higherEd, { industries: ['E-Learning'] }, false],
    [
      '"off limits" does not require the public sector',
      noPublicSector,
      { industries: ['Computer Software'], company_type: 'private' },
      true,
    ],
    ['a listed company is not the public sector', noPublicSector, { industries: ['Computer Software'], company_type: 'public' }, true],
    ['a government body is excluded', noPublicSector, { industries: ['Computer Software'], company_type: 'government' }, false],
    [
      '"state-owned agencies" do not exclude marketing',
      noPublicSector,
      { industries: ['Computer Software', 'Marketing and Advertising'] },
      true,
    ],
    [
      'a neighbour of an excluded country passes',
      noFranceItaly,
      { industries: ['Logistics and Supply Chain'], location: { country: 'Spain' } },
      true,
    ],
    ['an excluded HQ country fails', noFranceItaly, { industries: ['Logistics and Supply Chain'], location: { country: 'France' } }, false],
    [
      '"anything but gambling" passes a neighbour',
      noGambling,
      { industries: ['Computer Games'], location: { country: 'United States' } },
      true,
    ],
    ['"anything but gambling" passes retail', noGambling, { industries: ['Retail'], location: { country: 'Canada' } }, true],
    [
      '"anything but gambling" fails a gambling company with another industry',
      noGambling,
      { industries: ['Entertainment', 'Gambling & Casinos'], location: { country: 'Canada' } },
      false,
    ],
  ])('%s', (_case, icp, input, matched) => {
    const result = evaluator.evaluateCompany(company(input), [icp]);
    if (matched) expectMatch(result, icp);
    else expectNoMatch(result);
  });

  it('excludes the children of an excluded industry, by industry or name', () => {
    const noEducation: KbProfile = { id: '45', name: 'No education', description: 'Any industry, not education' };
    expectNoMatch(evaluator.evaluateCompany(company({ industries: ['Higher Education'] }), [noEducation]));
    expectNoMatch(evaluator.evaluateCompany(company({ name: 'Eastmoor University', industries: ['Research'] }), [noEducation]));
  });

  it.each<[string, string, Record<string, string>, boolean]>([
    ['Finance and operations execs at C-level — CFO, COO. Never the CEO.', 'Chief Financial Officer', {}, true],
    ['Finance and operations execs at C-level — CFO, COO. Never the CEO.', 'Co-founder & CEO', {}, false],
    ['Function: Marketing\nSeniority: all levels except interns / working students', 'Junior Marketing Associate', {}, true],
    ['Function: Marketing\nSeniority: all levels except interns / working students', 'Working Student, Online Marketing', {}, false],
    ['Function: Marketing\nSeniority: all levels except interns / working students', 'Marketing Assistant', { seniority: 'Intern' }, false],
    ['HR people — HRBPs, people ops, comp & ben.\nExclude: recruiters', 'Compensation & Benefits Analyst', {}, true],
    ['HR people — HRBPs, people ops, comp & ben.\nExclude: recruiters', 'Recruiting Coordinator', {}, false],
    ['Everyone in sales except SDRs/BDRs — so AEs, sales managers, sales leadership.', 'VP Sales', {}, true],
    ['Everyone in sales except SDRs/BDRs — so AEs, sales managers, sales leadership.', 'Sales Development Representative', {}, false],
  ])('Persona "%s" and %s', (description, title, role, matched) => {
    const persona: KbProfile = { id: '46', name: 'Persona', description };
    const result = evaluator.evaluatePerson(contact(title, role), company(), [persona]);
    if (matched) expectMatch(result, persona);
    else expectNoMatch(result);
  });
});

describe('DefaultEvaluator.evaluatePerson', () => {
  const evaluator = new DefaultEvaluator();
  const noCompany = company();

  it.each<[string, KbProfile, string, boolean]>([
    ['CFO', FINANCE_PERSONA, 'CFO', true],
    ['Chief Financial Officer', FINANCE_PERSONA, 'Chief Financial Officer', true],
    ['Vice President of Finance', FINANCE_PERSONA, 'Vice President of Finance', true],
    ['VP, Finance', FINANCE_PERSONA, 'VP, Finance', true],
    ['Director of Finance', FINANCE_PERSONA, 'Director of Finance', true],
    ['Head of Finance (Head ≈ Director)', FINANCE_PERSONA, 'Head of Finance', true],
    ['Finance Manager', FINANCE_PERSONA, 'Finance Manager', false],
    ['VP Sales', FINANCE_PERSONA, 'VP Sales', false],
    ['Chief Revenue Officer for "Titles: CRO"', CRO_PERSONA, 'Chief Revenue Officer', true],
    ['CRO for "Titles: CRO"', CRO_PERSONA, 'CRO', true],
    ['Chief Risk Officer for "Titles: CRO"', CRO_PERSONA, 'Chief Risk Officer', false],
    ['Head of Engineering', ENGINEERING_PERSONA, 'Head of Engineering', true],
    ['CTO', ENGINEERING_PERSONA, 'CTO', true],
    ['Co-founder & Chief Technology Officer', ENGINEERING_PERSONA, 'Co-founder & Chief Technology Officer', true],
    ['Director of Software Engineering', ENGINEERING_PERSONA, 'Director of Software Engineering', true],
    ['Software Engineer', ENGINEERING_PERSONA, 'Software Engineer', false],
    ['VP Engineering', ENGINEERING_PERSONA, 'VP Engineering', false],
    ['Director vs "Titles: CTO" (no word match)', CTO_PERSONA, 'Director', false],
    ['Director of Technology Operations vs "Titles: CTO"', CTO_PERSONA, 'Director of Technology Operations', false],
  ])('%s', (_case, persona, title, matched) => {
    const result = evaluator.evaluatePerson(contact(title), noCompany, [persona]);
    if (matched) expectMatch(result, persona);
    else expectNoMatch(result);
  });

  it('derives function and seniority from the title and says so', () => {
    const { reasoning } = evaluator.evaluatePerson(contact('Vice President of Finance'), noCompany, [FINANCE_PERSONA]);
    expect(reasoning).toBe(
      'Matched Persona "Finance buyer" on title "Vice President of Finance", function Finance per title and seniority VP per title.',
    );
  });

  it('names the failed title and what was expected', () => {
    const { reasoning } = evaluator.evaluatePerson(contact('Director'), noCompany, [CTO_PERSONA]);
    expect(reasoning).toContain('title "Director" (expected CTO)');
  });

  it('prefers the rung a title names over the stated seniority', () => {
    const result = evaluator.evaluatePerson(contact('VP Finance', { seniority: 'Manager' }), noCompany, [FINANCE_PERSONA]);
    expectMatch(result, FINANCE_PERSONA);
    expect(result.reasoning).toContain('seniority VP per title');
    expectNoMatch(evaluator.evaluatePerson(contact('Finance Manager', { seniority: 'Director' }), noCompany, [FINANCE_PERSONA]));
    expectMatch(
      evaluator.evaluatePerson(contact('VP Finance', { seniority: 'Vice President', function: 'Accounting' }), noCompany, [
        FINANCE_PERSONA,
      ]),
      FINANCE_PERSONA,
    );
  });

  it('lets the stated seniority place a title that names only a role', () => {
    const support: KbProfile = { id: '29', name: 'Support', description: 'Function: Customer Support\nSeniority: Senior IC to Manager' };
    expectNoMatch(evaluator.evaluatePerson(contact('Customer Support Associate', { seniority: 'Entry' }), noCompany, [support]));
    const result = evaluator.evaluatePerson(contact('Customer Support Associate', { seniority: 'Senior' }), noCompany, [support]);
    expectMatch(result, support);
    expect(result.reasoning).toContain('seniority Senior');
    expectMatch(evaluator.evaluatePerson(contact('Customer Support Specialist'), noCompany, [support]), support);
  });

  it('uses the stated seniority and function when the title is missing', () => {
    const result = evaluator.evaluatePerson(contact('', { seniority: 'VP', function: 'Finance' }), noCompany, [FINANCE_PERSONA]);
    expectMatch(result, FINANCE_PERSONA);
  });

  it('does not match a contact with no data', () => {
    const result = evaluator.evaluatePerson(contact(''), noCompany, [FINANCE_PERSONA, ENGINEERING_PERSONA]);
    expectNoMatch(result);
    expect(result.reasoning).toMatch(/too little data about the contact/);
  });

  it('checks company criteria a Persona states under a label', () => {
    const fintechCfo: KbProfile = { id: '25', name: 'Fintech CFO', description: 'Titles: CFO. Industries: Fintech' };
    expectMatch(evaluator.evaluatePerson(contact('CFO'), company({ industries: ['Banking'] }), [fintechCfo]), fintechCfo);
    const result = evaluator.evaluatePerson(contact('CFO'), company({ industries: ['Retail'] }), [fintechCfo]);
    expectNoMatch(result);
    expect(result.reasoning).toContain('industry Retail (expected Fintech)');
  });

  it('checks a Persona’s countries against the contact first, then the company', () => {
    const germanCfo: KbProfile = { id: '26', name: 'German CFO', description: 'Titles: CFO. Countries: Germany' };
    const inFrance = company({ location: { country: 'France' } });
    expectMatch(evaluator.evaluatePerson(contact('CFO', {}, { location: { country: 'DE' } }), inFrance, [germanCfo]), germanCfo);
    expectNoMatch(evaluator.evaluatePerson(contact('CFO'), inFrance, [germanCfo]));
  });

  it('fails a title exclusion', () => {
    const persona: KbProfile = { id: '27', name: 'Finance team', description: 'Finance people, not interns' };
    expectMatch(evaluator.evaluatePerson(contact('Financial Controller'), noCompany, [persona]), persona);
    expectNoMatch(evaluator.evaluatePerson(contact('Finance Intern'), noCompany, [persona]));
  });
});

describe('DefaultEvaluator.evaluatePerson: seniority ranges', () => {
  const evaluator = new DefaultEvaluator();
  const noCompany = company();
  const persona = (id: string, description: string): KbProfile => ({ id, name: description, description });
  const teamLeadsToHeads = persona('41', 'Function: Engineering\nSeniority: from team leads up to heads of department');
  const directorPlus = persona('42', 'Function: Finance\nSeniority: Director+');
  const atLeastVp = persona('43', 'Sales leaders. Seniority: at least VP');
  const belowCLevel = persona('44', 'Function: Finance. Seniority: below C-level');
  const seniorIcToManager = persona('45', 'Function: Customer Support\nSeniority: Senior IC to Manager');
  const icsToHead = persona('46', 'Data scientists — ICs up to Head of Data Science.');
  const cLevelProse = persona('47', 'Finance execs at C-level: CFOs and the like.');
  const leadersWithLevels = persona('48', 'Marketing leaders\nSeniority: Manager, Director, VP');
  const managersThroughVps = persona('49', 'Operations people, managers through VPs.');

  it.each<[string, KbProfile, string, Record<string, string>, boolean]>([
    ['team lead is the bottom of "team leads up to heads"', teamLeadsToHeads, 'Engineering Team Lead', {}, true],
    ['head of department is the top', teamLeadsToHeads, 'Head of Engineering', {}, true],
    ['a VP is one rung above', teamLeadsToHeads, 'VP Engineering', {}, false],
    ['a senior engineer is one rung below', teamLeadsToHeads, 'Senior Software Engineer', {}, false],
    ['a director is the bottom of "Director+"', directorPlus, 'Finance Director', {}, true],
    ['a CFO is above director', directorPlus, 'Chief Financial Officer', {}, true],
    ['a finance manager is one rung below director', directorPlus, 'Finance Manager', {}, false],
    ['an SVP is a VP', atLeastVp, 'SVP, Global Sales', {}, true],
    ['a sales director is one rung below VP', atLeastVp, 'Sales Director', {}, false],
    ['a VP is below C-level', belowCLevel, 'VP Finance', {}, true],
    ['a CFO is not below C-level', belowCLevel, 'CFO', {}, false],
    ['a senior IC is the bottom of "Senior IC to Manager"', seniorIcToManager, 'Senior Support Engineer', {}, true],
    ['a team lead is the top', seniorIcToManager, 'Support Team Lead', {}, true],
    ['entry level is one rung below', seniorIcToManager, 'Customer Support Associate', { seniority: 'Entry' }, false],
    ['a director is one rung above', seniorIcToManager, 'Director of Customer Support', {}, false],
    ['"Senior Manager" is a manager, not a senior IC', seniorIcToManager, 'Senior Customer Support Manager', { seniority: 'Senior' }, true],
    ['the head named as the ceiling passes', icsToHead, 'Head of Data Science', {}, true],
    ['a VP is above the head named as the ceiling', icsToHead, 'VP Data Science', {}, false],
    ['a data scientist IC passes', icsToHead, 'Principal Data Scientist', {}, true],
    ['"at C-level" takes the CFO', cLevelProse, 'Chief Financial Officer', {}, true],
    ['"at C-level" fails a VP of the same function', cLevelProse, 'VP Finance', {}, false],
    ['a stated seniority replaces what "leaders" implies', leadersWithLevels, 'Marketing Manager', {}, true],
    ['and still bounds it', leadersWithLevels, 'Chief Marketing Officer', {}, false],
    ['an individual contributor is below the listed levels', leadersWithLevels, 'Marketing Specialist', { seniority: 'Entry' }, false],
    ['a manager is the bottom of "managers through VPs"', managersThroughVps, 'Operations Manager', {}, true],
    ['a director lies between', managersThroughVps, 'Director of Operations', {}, true],
    ['a COO is above it', managersThroughVps, 'Chief Operating Officer', {}, false],
    ['an operations analyst is below it', managersThroughVps, 'Operations Analyst', {}, false],
  ])('%s', (_case, profile, title, role, matched) => {
    const result = evaluator.evaluatePerson(contact(title, role), noCompany, [profile]);
    if (matched) expectMatch(result, profile);
    else expectNoMatch(result);
  });

  it('says what seniority was expected', () => {
    const { reasoning } = evaluator.evaluatePerson(contact('VP Engineering'), noCompany, [teamLeadsToHeads]);
    expect(reasoning).toContain('seniority VP per title (expected Head/Director or Manager)');
  });
});

describe('DefaultEvaluator.evaluatePerson: the function in a title', () => {
  const evaluator = new DefaultEvaluator();
  const noCompany = company();
  const persona = (id: string, description: string): KbProfile => ({ id, name: description, description });
  const financeDirectorPlus = persona('51', 'Function: Finance / Accounting\nSeniority: Director+');
  const financeProse = persona('52', 'Director-level and above in Finance, so directors, VPs, CFOs.');
  const productManagers = persona('53', 'Product managers and product leaders (PMs, Heads/VPs of Product)');
  const dataScience = persona('54', 'Data scientists and ML engineers');
  const developers = persona('55', 'Software developers: backend, frontend, full stack');
  const marketers = persona('56', 'Function: Marketing\nSeniority: Manager and above');
  const revOps = persona('57', 'Titles: Head of RevOps, VP Revenue Operations, Director of Sales Operations');
  const procurement = persona('58', 'Procurement people: buyers, category managers, CPOs (Chief Procurement Officer)');
  const security = persona('59', 'Function: Security\nSeniority: Head+');
  const sustainability = persona('60', 'Function: Sustainability');

  it.each<[string, KbProfile, string, Record<string, string>, boolean]>([
    ['a finance director', financeDirectorPlus, 'Finance Director', {}, true],
    ['a director of sales is not a finance leader', financeDirectorPlus, 'Director of Sales', { function: 'Sales' }, false],
    ['an HR director is not a finance leader', financeDirectorPlus, 'HR Director', {}, false],
    ['a bare "Director" does not pass on seniority alone', financeDirectorPlus, 'Director', { seniority: 'Director' }, false],
    ['a bare "Director" the provider files under Finance', financeDirectorPlus, 'Director', { function: 'Finance' }, true],
    ['a senior accountant is one rung below', financeDirectorPlus, 'Senior Accountant', {}, false],
    ['a bare rung in prose takes the Persona’s function', financeProse, 'Director of Sales', {}, false],
    ['a finance director in prose', financeProse, 'Finance Director', {}, true],
    ['a VP of finance in prose', financeProse, 'VP Finance', {}, true],
    ['a finance manager is below "director-level and above"', financeProse, 'Finance Manager', {}, false],
    ['a product manager', productManagers, 'Senior Product Manager', {}, true],
    ['a head of product', productManagers, 'Head of Product', {}, true],
    ['a product marketing manager markets', productManagers, 'Product Marketing Manager', { function: 'Product Management' }, false],
    ['a customer success manager is no product manager', productManagers, 'Customer Success Manager', {}, false],
    ['a project manager is no product manager', productManagers, 'Project Manager', {}, false],
    ['a head of sales is no product leader', productManagers, 'Head of Sales', {}, false],
    ['an ML engineer', dataScience, 'Machine Learning Engineer', {}, true],
    ['a data engineer is not a data scientist', dataScience, 'Data Engineer', { function: 'Data Science' }, false],
    ['a backend engineer', developers, 'Senior Backend Engineer', {}, true],
    ['a sales engineer is no developer', developers, 'Sales Engineer', { function: 'Engineering' }, false],
    ['a manual tester is no developer', developers, 'Manual QA Tester', { function: 'Engineering' }, false],
    ['a technical recruiter is no developer', developers, 'Technical Recruiter', {}, false],
    ['a brand manager', marketers, 'Brand Manager', {}, true],
    ['a talent partner is not a marketer', marketers, 'Talent Partner', { seniority: 'Manager' }, false],
    ['an account manager is in sales', marketers, 'Account Manager', { function: 'Sales' }, false],
    ['a sales operations director is RevOps', revOps, 'Director of Revenue Operations', {}, true],
    ['a VP of sales is not RevOps', revOps, 'VP Sales', {}, false],
    ['marketing operations is not RevOps', revOps, 'Director of Marketing Operations', {}, false],
    ['a purchasing buyer', procurement, 'Senior Buyer', {}, true],
    ['the procurement officer the Persona defines', procurement, 'Chief Procurement Officer', {}, true],
    ['a chief product officer, though also "CPO"', procurement, 'Chief Product Officer', {}, false],
    ['a media buyer buys advertising', procurement, 'Media Buyer', {}, false],
    ['a head of security', security, 'Head of Security', {}, true],
    ['physical security is facilities work', security, 'Head of Physical Security', { function: 'Security' }, false],
    ['a function the taxonomy does not know, named in the title', sustainability, 'Head of Sustainability', {}, true],
    ['and not a title without it', sustainability, 'Head of Sales', {}, false],
  ])('%s', (_case, profile, title, role, matched) => {
    const result = evaluator.evaluatePerson(contact(title, role), noCompany, [profile]);
    if (matched) expectMatch(result, profile);
    else expectNoMatch(result);
  });

  it('lets the title’s function win over the stated one, and says where it came from', () => {
    const securityFunction = persona('61', 'Function: Security');
    const result = evaluator.evaluatePerson(contact('Security Engineering Manager', { function: 'Engineering' }), noCompany, [
      securityFunction,
    ]);
    expectMatch(result, securityFunction);
    expect(result.reasoning).toContain('function Security and Engineering per title');
  });

  it('says that a bare title names no function', () => {
    const { reasoning } = evaluator.evaluatePerson(contact('Director', { seniority: 'Director' }), noCompany, [financeDirectorPlus]);
    expect(reasoning).toContain('function none in title "Director" (expected Finance)');
  });

  it('keeps a contact with neither title nor function unknown, not failed', () => {
    const result = evaluator.evaluatePerson(contact('', { seniority: 'Director' }), noCompany, [financeDirectorPlus]);
    expectMatch(result, financeDirectorPlus);
    expect(result.reasoning).toContain('no data for function');
  });
});

describe('DefaultEvaluator: choosing among profiles', () => {
  const evaluator = new DefaultEvaluator();
  const fintech: KbProfile = { id: '1', name: 'Fintech', description: 'Fintech companies' };
  const germanFintech: KbProfile = { id: '2', name: 'German fintech', description: 'Fintech companies in Germany' };
  const finance: KbProfile = { id: '3', name: 'Finance', description: 'Financial services' };
  const french: KbProfile = { id: '4', name: 'French fintech', description: 'Fintech companies in France' };

  it('picks the matching profile with the most passed criteria', () => {
    expectMatch(evaluator.evaluateCompany(company(GERMAN_FINTECH), [fintech, germanFintech]), germanFintech);
    expectMatch(evaluator.evaluateCompany(company(GERMAN_FINTECH), [germanFintech, fintech]), germanFintech);
  });

  it('breaks ties by the order given', () => {
    expectMatch(evaluator.evaluateCompany(company(GERMAN_FINTECH), [fintech, finance]), fintech);
    expectMatch(evaluator.evaluateCompany(company(GERMAN_FINTECH), [finance, fintech]), finance);
  });

  it('never picks a profile with a failed criterion, however much else passed', () => {
    expectMatch(evaluator.evaluateCompany(company(GERMAN_FINTECH), [french, fintech]), fintech);
  });

  it('explains the closest profile when none matches', () => {
    const { reasoning } = evaluator.evaluateCompany(company({ industries: ['Banking'], location: { country: 'Spain' } }), [
      germanFintech,
      french,
    ]);
    expect(reasoning).toContain('Closest: "German fintech"');
    expect(reasoning).toContain('country Spain (expected Germany)');
    expect(reasoning).toContain('industry Banking did');
  });

  it('says when no profile has readable criteria', () => {
    const vague: KbProfile = { id: '5', name: 'Vague', description: 'Great companies we would love to work with.' };
    const result = evaluator.evaluateCompany(company(GERMAN_FINTECH), [vague]);
    expectNoMatch(result);
    expect(result.reasoning).toBe('No ICP matched: the description of "Vague" has no criteria the evaluator can read.');
    expectMatch(evaluator.evaluateCompany(company(GERMAN_FINTECH), [vague, fintech]), fintech);
  });

  it('says when there are no profiles', () => {
    expect(evaluator.evaluateCompany(company(GERMAN_FINTECH), [])).toEqual({
      matched: false,
      id: null,
      name: '',
      reasoning: 'No ICP matched: there are no active ICPs.',
      profile: null,
      criteria: [],
    });
    expect(evaluator.evaluatePerson(contact('CFO'), company(), []).reasoning).toBe('No Persona matched: there are no active Personas.');
  });
});

describe('DefaultEvaluator: caching parsed criteria', () => {
  it('parses each profile once across evaluations', () => {
    const parse = jest.fn(parseCriteria);
    const evaluator = new DefaultEvaluator({ parse });
    for (let i = 0; i < 5; i++) {
      evaluator.evaluateCompany(company(GERMAN_FINTECH), [EU_FINTECH, UK_SOFTWARE]);
      evaluator.evaluatePerson(contact('CFO'), company(), [FINANCE_PERSONA]);
    }
    expect(parse).toHaveBeenCalledTimes(3);
  });

  it('parses again when the description changes, and keeps ICPs and Personas with one id apart', () => {
    const parse = jest.fn(parseCriteria);
    const evaluator = new DefaultEvaluator({ parse });
    evaluator.evaluateCompany(company(GERMAN_FINTECH), [EU_FINTECH]);
    evaluator.evaluateCompany(company(GERMAN_FINTECH), [{ ...EU_FINTECH, description: 'Fintech companies' }]);
    evaluator.evaluatePerson(contact('CFO'), company(), [{ ...FINANCE_PERSONA, id: EU_FINTECH.id, description: EU_FINTECH.description }]);
    expect(parse).toHaveBeenCalledTimes(3);
    expect(parse.mock.calls.map((call) => call[1])).toEqual(['icp', 'icp', 'persona']);
  });

  it('keeps at most cacheSize descriptions', () => {
    const parse = jest.fn(parseCriteria);
    const evaluator = new DefaultEvaluator({ parse, cacheSize: 1 });
    evaluator.evaluateCompany(company(), [EU_FINTECH]);
    evaluator.evaluateCompany(company(), [UK_SOFTWARE]);
    evaluator.evaluateCompany(company(), [EU_FINTECH]);
    expect(parse).toHaveBeenCalledTimes(3);
  });

  it('treats a parser failure as a profile without criteria', () => {
    const evaluator = new DefaultEvaluator({
      parse: () => {
        throw new Error('boom');
      },
    });
    expect(evaluator.evaluateCompany(company(GERMAN_FINTECH), [EU_FINTECH]).reasoning).toMatch(/has no criteria/);
  });
});

describe('DefaultEvaluator.evaluatePerson: exclusions of people by range, specificity and role', () => {
  const evaluator = new DefaultEvaluator();
  const noCompany = company();
  const persona = (id: string, description: string): KbProfile => ({ id, name: description, description });
  const notDirectorsAndAbove = persona('61', 'Finance managers and controllers. Not directors and above.');
  const noOneDirectorOrHigher = persona('62', 'Marketing people, but no one at director level or higher.');
  const leadsToSeniorManagers = persona('63', 'We sell to the people who run teams: team leads through senior managers in operations.');
  const notDataEng = persona('64', 'Analytics and data science owners, manager or above (not data engineering, not BI — other budget).');
  const peopleCpos = persona('65', 'Senior HR people: heads of HR, CPOs and VPs of People; never TA or recruiting.');
  const procurementCpos = persona('66', 'Procurement leaders: CPOs, heads of purchasing, sourcing directors.');
  const productCpos = persona('67', 'Product leaders: CPOs, VPs of Product, heads of product.');
  const noSecurity = persona('68', 'Titles: CIO, IT Director, Head of IT. Exclude: security roles');
  const founders = persona('69', 'CEOs and founders of seed-stage companies.');
  const cfos = persona('70', 'Titles: CFO');
  const defenders = persona('71', 'Security practitioners: CISOs, security architects, security leads. Not the IT service desk.');

  it.each<[string, KbProfile, string, Record<string, string>, boolean]>([
    ['a VP is above "directors and above" too', notDirectorsAndAbove, 'VP Finance', {}, false],
    ['a CFO is above it', notDirectorsAndAbove, 'Chief Financial Officer', {}, false],
    ['a finance manager is below it', notDirectorsAndAbove, 'Finance Manager', {}, true],
    ['"director level or higher" excludes a CMO', noOneDirectorOrHigher, 'Chief Marketing Officer', {}, false],
    ['and keeps a marketing manager', noOneDirectorOrHigher, 'Marketing Manager', {}, true],
    ['an individual below the team-lead floor fails', leadsToSeniorManagers, 'Operations Specialist', { seniority: 'Entry' }, false],
    ['a senior manager at the ceiling passes', leadsToSeniorManagers, 'Senior Operations Manager', {}, true],
    ['a data science director is no data engineer', notDataEng, 'Director of Data Science', {}, true],
    ['a head of ML owns ML', notDataEng, 'Head of Machine Learning', {}, true],
    ['a data engineering manager is excluded', notDataEng, 'Data Engineering Manager', {}, false],
    ['a BI manager is excluded', notDataEng, 'BI Manager', {}, false],
    ['"CPOs" among HR titles is the Chief People Officer', peopleCpos, 'Chief People Officer', {}, true],
    ['and not the Chief Product Officer', peopleCpos, 'Chief Product Officer', {}, false],
    ['"TA" is recruiting', peopleCpos, 'Head of Talent Acquisition', {}, false],
    ['"CPOs" among procurement titles is the Chief Procurement Officer', procurementCpos, 'Chief Procurement Officer', {}, true],
    ['"CPOs" among product titles is the Chief Product Officer', productCpos, 'Chief Product Officer', {}, true],
    ['"security roles" excludes an IT security director', noSecurity, 'Director of IT Security', {}, false],
    ['and keeps an IT director', noSecurity, 'IT Director', {}, true],
    ['a chief of staff to the CEO is no CEO', founders, 'Chief of Staff to the CEO', {}, false],
    ['an assistant to the CFO is no CFO', cfos, 'Executive Assistant to the CFO', {}, false],
    ['an EA to the CEO is no CEO', founders, 'EA to CEO', {}, false],
    ['a sales engineer for security sells', defenders, 'Senior Sales Engineer, Network Security', {}, false],
    ['an account executive for cybersecurity sells', defenders, 'Account Executive, Cybersecurity', {}, false],
    ['a network security engineer is a practitioner', defenders, 'Network Security Engineer', {}, true],
    ['an IT service desk analyst is excluded', defenders, 'IT Service Desk Analyst', {}, false],
  ])('%s', (_label, profile, title, role, matched) => {
    const result = evaluator.evaluatePerson(contact(title, role), noCompany, [profile]);
    if (matched) expectMatch(result, profile);
    else expectNoMatch(result);
  });
});

describe('DefaultEvaluator: verdicts as rows', () => {
  const evaluator = new DefaultEvaluator();

  it('reports the matched profile and one row per criterion, with the value checked and the field it was read from', () => {
    const result = evaluator.evaluateCompany(company(GERMAN_FINTECH), [EU_FINTECH]);
    expect(result.profile).toEqual({ id: '11', name: 'EU Fintech' });
    const rows = result.criteria!;
    expect(rows.map((r) => r.kind)).toEqual(expect.arrayContaining(['industry', 'employees', 'revenue', 'country', 'funding_stage']));
    expect(rows.find((r) => r.kind === 'employees')).toEqual({
      kind: 'employees',
      label: 'employees',
      status: 'pass',
      expected: '50–1,000',
      value: '200',
      fields: ['company_info.employee_count'],
    });
    expect(rows.find((r) => r.kind === 'country')).toMatchObject({
      status: 'pass',
      value: 'Germany',
      fields: ['company_info.location.country'],
    });
    // The reasoning quotes the same values.
    for (const row of rows) expect(result.reasoning).toContain(row.value);
  });

  it('reports the closest profile when none matches, with failed, passed and unknown rows as the reasoning names them', () => {
    const result = evaluator.evaluateCompany(company({ ...GERMAN_FINTECH, employee_count: 5_000, annual_revenue: 0 }), [EU_FINTECH]);
    expect(result.matched).toBe(false);
    expect(result.profile).toEqual({ id: '11', name: 'EU Fintech' });
    const rows = result.criteria!;
    expect(rows.find((r) => r.kind === 'employees')).toMatchObject({ status: 'fail', value: '5,000' });
    expect(rows.find((r) => r.kind === 'revenue')).toMatchObject({ status: 'unknown', value: '' });
    expect(rows.find((r) => r.kind === 'industry')).toMatchObject({ status: 'pass' });
    expect(result.reasoning).toContain('employees 5,000');
  });

  it('names where a person value came from: the title when it decides, the stated seniority when that does', () => {
    const byTitle = evaluator.evaluatePerson(contact('VP Finance'), company(), [FINANCE_PERSONA]).criteria!;
    expect(byTitle.find((r) => r.kind === 'seniority')).toMatchObject({ status: 'pass', fields: ['contact_info.role.title'] });
    expect(byTitle.find((r) => r.kind === 'function')).toMatchObject({ status: 'pass', fields: ['contact_info.role.title'] });
    const stated = evaluator.evaluatePerson(contact('', { seniority: 'Director', function: 'Finance' }), company(), [
      FINANCE_PERSONA,
    ]).criteria!;
    expect(stated.find((r) => r.kind === 'seniority')).toMatchObject({ status: 'pass', fields: ['contact_info.role.seniority'] });
    expect(stated.find((r) => r.kind === 'function')).toMatchObject({ status: 'pass', fields: ['contact_info.role.function'] });
  });

  it('reports no profile when no description can be read', () => {
    const result = evaluator.evaluateCompany(company(GERMAN_FINTECH), [{ id: '9', name: 'Vague', description: 'Great companies' }]);
    expect(result).toMatchObject({ matched: false, profile: null, criteria: [] });
  });
});

describe('DefaultEvaluator: ceilings, neighbouring functions and phrases that are no criteria', () => {
  const evaluator = new DefaultEvaluator();
  const persona = (description: string): KbProfile => ({ id: '90', name: 'P', description });
  const fits = (description: string, title: string, role: Record<string, string> = {}) =>
    evaluator.evaluatePerson(contact(title, role), company(), [persona(description)]).matched;

  it('bounds an open range by a ceiling stated beside it: "manager and up, but stop at VP"', () => {
    const description = 'Seniority: manager and up, but stop at VP. Function: data science';
    expect(fits(description, 'Data Science Manager')).toBe(true);
    expect(fits(description, 'VP Data Science')).toBe(true);
    expect(fits(description, 'Chief Data Scientist', { seniority: 'C-Suite' })).toBe(false);
    expect(fits('Seniority: anyone from manager up, capped at director. Function: finance', 'VP Finance')).toBe(false);
  });

  it('tells data science from data engineering, and still counts both as data', () => {
    expect(fits('Function: data science / ML', 'Data Engineering Manager')).toBe(false);
    expect(fits('Function: data science / ML', 'Senior Data Scientist')).toBe(true);
    expect(fits('Function: Data', 'Senior Data Scientist')).toBe(true);
  });

  it('excludes project managers without excluding product managers', () => {
    const description = 'Product managers up to heads of product. Not product marketing, and not project managers.';
    expect(fits(description, 'Senior Product Manager')).toBe(true);
    expect(fits(description, 'Project Manager')).toBe(false);
    expect(fits(description, 'Product Marketing Manager')).toBe(false);
  });

  it('reads "CISO-track security folks" as security people, not as CISOs', () => {
    const description = 'CISO-track security folks. Seniority: Head of / Director / VP';
    expect(fits(description, 'Head of Information Security')).toBe(true);
    expect(fits(description, 'Director of Sales')).toBe(false);
  });

  it('takes "but not required" as a preference, not an exclusion', () => {
    expect(parseCriteria('Function: finance, retail a plus but not required', 'persona').map((c) => c.kind)).not.toContain('exclusion');
  });

  it('counts Spain and Italy in Western Europe, as sellers do', () => {
    const icp: KbProfile = { id: '91', name: 'WE banks', description: 'Banks across Western Europe' };
    const bank = (country: string) => company({ industries: ['Banking'], location: { country } });
    expect(evaluator.evaluateCompany(bank('Spain'), [icp]).matched).toBe(true);
    expect(evaluator.evaluateCompany(bank('Italy'), [icp]).matched).toBe(true);
    expect(evaluator.evaluateCompany(bank('Poland'), [icp]).matched).toBe(false);
  });
});

describe('DefaultEvaluator: permissions, negations that are no exclusion, qualified C-titles', () => {
  const evaluator = new DefaultEvaluator();
  const icp = (description: string): KbProfile => ({ id: '95', name: 'I', description });
  const persona = (description: string): KbProfile => ({ id: '96', name: 'P', description });

  it('reads "doesn\'t matter" as no negation of the number after it', () => {
    const description = "Colleges and universities - public or private, doesn't matter - with 1,000 or more staff.";
    const college = (employee_count: number) => company({ industries: ['Higher Education'], employee_count });
    expect(evaluator.evaluateCompany(college(1_000), [icp(description)]).matched).toBe(true);
    expect(evaluator.evaluateCompany(college(999), [icp(description)]).matched).toBe(false);
  });

  it('asks for nothing in a sentence that only allows something ("Listed companies are fine")', () => {
    const description = 'Newspapers and magazines in Australia. Listed companies are fine.';
    const publisher = company({ industries: ['Newspapers'], company_type: 'Privately Held', location: { country: 'Australia' } });
    expect(evaluator.evaluateCompany(publisher, [icp(description)]).matched).toBe(true);
    expect(parseCriteria(description, 'icp').map((c) => c.kind)).not.toContain('company_type');
  });

  it('excludes after a "No:" label, and "interim CFOs" only the interim ones', () => {
    const description = 'Function: Finance\nSeniority: director-level and above\nNo: fractional or interim CFOs';
    expect(evaluator.evaluatePerson(contact('CFO'), company(), [persona(description)]).matched).toBe(true);
    expect(evaluator.evaluatePerson(contact('Interim CFO'), company(), [persona(description)]).matched).toBe(false);
    expect(evaluator.evaluatePerson(contact('Head of Finance'), company(), [persona(description)]).matched).toBe(true);
  });

  it('excludes what "is a different product line" or should be left out, and what not to "pull in"', () => {
    const description =
      'Newspapers and magazines in Australia. Ad agencies and marketing firms are a different product line, leave them out.';
    const firm = (industries: string[]) => company({ industries, location: { country: 'Australia' } });
    expect(evaluator.evaluateCompany(firm(['Newspapers']), [icp(description)]).matched).toBe(true);
    expect(evaluator.evaluateCompany(firm(['Marketing and Advertising']), [icp(description)]).matched).toBe(false);
    const engineers = persona("Software engineers and team leads. Also don't pull in data folks, they're a separate campaign.");
    expect(evaluator.evaluatePerson(contact('Senior Data Engineer'), company(), [engineers]).matched).toBe(false);
  });

  it('excludes "junior PMs" and keeps the senior ones', () => {
    const product = persona('Product managers up to VPs of Product, but no associate/junior PMs.');
    expect(evaluator.evaluatePerson(contact('Senior Product Manager'), company(), [product]).matched).toBe(true);
    expect(evaluator.evaluatePerson(contact('Junior Product Manager'), company(), [product]).matched).toBe(false);
    expect(evaluator.evaluatePerson(contact('Associate Product Manager'), company(), [product]).matched).toBe(false);
  });
});
