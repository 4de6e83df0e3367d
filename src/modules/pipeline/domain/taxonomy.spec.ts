import {
  analyzeTitle,
  conceptClosure,
  expandDefinedTitles,
  findSeniority,
  functionsOf,
  narrowestFunctions,
  industryConcepts,
  nameConcepts,
  prepareTaxonomyText,
  senioritiesOf,
  seniorityDashes,
  tierOfSeniority,
  withParentFunctions,
} from './taxonomy';

describe('industry taxonomy', () => {
  it.each([
    ['cybersecurity', 'cybersecurity'],
    ['Computer and Network Security', 'cybersecurity'],
    ['Computer & Network Security', 'cybersecurity'],
    ['InfoSec', 'cybersecurity'],
    ['security', 'cybersecurity'],
    ['Fintech', 'fintech'],
    ['Financial Services', 'fintech'],
    ['Banking', 'banking'],
    ['Investment Management', 'asset_management'],
    ['Payments', 'fintech'],
    ['Insurance', 'insurance'],
    ['Insurtech', 'insurance'],
    ['software', 'software'],
    ['SaaS', 'software'],
    ['Computer Software', 'software'],
    ['Information Technology and Services', 'it_services'],
    ['IT Services & IT Consulting', 'it_services'],
    ['healthcare', 'healthcare'],
    ['Hospital & Health Care', 'healthcare_providers'],
    ['Medtech', 'medical_devices'],
    ['logistics', 'logistics'],
    ['Logistics and Supply Chain', 'logistics'],
    ['Transportation/Trucking/Railroad', 'logistics'],
    ['edtech', 'edtech'],
    ['Higher Education', 'higher_education'],
    ['Primary/Secondary Education', 'k12'],
    ['K-12 schools', 'k12'],
    ['E-Learning', 'edtech'],
    ['IT consultancies', 'consulting'],
    ['MSPs', 'managed_services'],
    ['marketing', 'marketing'],
    ['Marketing and Advertising', 'marketing'],
    ['agencies', 'marketing'],
  ])('%s is %s', (text, concept) => {
    expect(industryConcepts(text)).toContain(concept);
  });

  it('keeps distinct names apart', () => {
    expect(industryConcepts('Security and Investigations')).toEqual(['security_services']);
    expect(industryConcepts('Retail')).not.toContain('fintech');
    expect(industryConcepts('Staffing agency')).toEqual(['hr']);
  });

  it('does not read the pronoun "it" as information technology', () => {
    expect(industryConcepts('make it happen')).toEqual([]);
    expect(industryConcepts('IT')).toEqual(['technology']);
  });

  it('lets a broad concept include narrower ones', () => {
    expect(conceptClosure('software')).toEqual(expect.arrayContaining(['software', 'cybersecurity']));
    expect(conceptClosure('cybersecurity')).toEqual(['cybersecurity']);
  });

  it('files dental practices with medical practices, under healthcare', () => {
    expect(industryConcepts('dental practices')).toEqual(['medical_practice']);
    expect(industryConcepts('Medical Practice')).toEqual(['medical_practice']);
    expect(conceptClosure('healthcare')).toEqual(expect.arrayContaining(['healthcare', 'medical_practice']));
    expect(conceptClosure('medical_practice')).toEqual(['medical_practice']);
  });

  it('keeps banks, asset managers and schools narrower than their parents, so excluding one spares its neighbours', () => {
    expect(conceptClosure('fintech')).toEqual(expect.arrayContaining(['fintech', 'banking', 'asset_management']));
    expect(conceptClosure('banking')).toEqual(['banking']);
    expect(conceptClosure('education')).toEqual(expect.arrayContaining(['education', 'higher_education', 'k12', 'edtech']));
    expect(conceptClosure('k12')).toEqual(['k12']);
    expect(industryConcepts('IT consultancies')).not.toContain('software');
  });

  it('reads agencies and consultancies in company names', () => {
    expect(nameConcepts('Blue Fox Agency')).toEqual(['marketing']);
    expect(nameConcepts('Acme Consulting Group')).toEqual(['consulting']);
    expect(nameConcepts('Acme Payments')).toEqual([]);
  });
});

describe('analyzeTitle', () => {
  it.each([
    ['CFO', ['cfo'], 'c_level', ['finance']],
    ['Chief Financial Officer', ['cfo'], 'c_level', ['finance']],
    ['Chief Revenue Officer', ['cro'], 'c_level', ['sales']],
    ['CRO', ['cro'], 'c_level', ['sales']],
    ['Chief Technology Officer', ['cto'], 'c_level', ['engineering']],
    ['Co-founder & CTO', ['cto'], 'c_level', ['engineering', 'general_management']],
    ['CISO', ['ciso'], 'c_level', ['security']],
    ['Chief Information Security Officer', ['ciso'], 'c_level', ['security']],
    ['VP Sales', [], 'vp', ['sales']],
    ['Vice President of Finance', [], 'vp', ['finance']],
    ['VP, Finance', [], 'vp', ['finance']],
    ['SVP Finance & Operations', [], 'vp', ['finance', 'operations']],
    ['Head of Engineering', [], 'director', ['engineering']],
    ['Finance Director', [], 'director', ['finance']],
    ['Director of Finance', [], 'director', ['finance']],
    ['Managing Director', [], 'c_level', ['general_management']],
    ['Engineering Manager', [], 'manager', ['engineering']],
    ['Software Engineer', [], 'ic', ['software', 'engineering']],
    ['Account Executive', [], 'ic', ['sales']],
    ['Chief Growth Officer', ['chief_growth'], 'c_level', []],
    ['Senior Content Marketing Manager', [], 'manager', ['marketing']],
    ['Senior Manager, Finance', [], 'manager', ['finance']],
    ['Engineering Team Lead', [], 'manager', ['engineering']],
    ['SVP, Global Sales', [], 'vp', ['sales']],
    ['Senior Director, Strategy', [], 'director', []],
    ['Co-Founder & Creative Director', [], 'c_level', ['design', 'general_management']],
    ['Senior Accountant', [], 'ic', ['finance']],
    ['Junior Data Analyst', [], 'entry', ['data']],
    ['Marketing Intern', [], 'entry', ['marketing']],
  ])('%s', (title, codes, tier, functions) => {
    const info = analyzeTitle(title);
    expect(info.codes).toEqual(codes);
    expect(info.tier).toBe(tier);
    expect([...info.functions].sort()).toEqual([...functions].sort());
  });

  it('matches on word boundaries, so "Director" holds no "CTO"', () => {
    expect(analyzeTitle('Director').codes).toEqual([]);
    expect(analyzeTitle('Director').tier).toBe('director');
    expect(analyzeTitle('Vice President').tokens).not.toContain('president');
  });

  it('says whether the title names its rung or only a role', () => {
    expect(analyzeTitle('Data Analyst')).toMatchObject({ tier: 'ic', tierNamed: false });
    expect(analyzeTitle('Senior Data Analyst')).toMatchObject({ tier: 'ic', tierNamed: true });
    expect(analyzeTitle('Staff Engineer')).toMatchObject({ tier: 'ic', tierNamed: true });
    expect(analyzeTitle('Finance Manager')).toMatchObject({ tier: 'manager', tierNamed: true });
  });

  it('gives no tier or function for a title that states neither', () => {
    expect(analyzeTitle('Board Member')).toMatchObject({ codes: [], tier: null, functions: [] });
  });
});

describe('seniorities and functions', () => {
  it('reads seniority lists, with "and above"', () => {
    expect(senioritiesOf('C-level, VP, Director')).toEqual(['c_level', 'vp', 'director']);
    expect(senioritiesOf('CXO')).toEqual(['c_level']);
    expect(senioritiesOf('Head')).toEqual(['director']);
    expect(senioritiesOf('Director+')).toEqual(['c_level', 'vp', 'director']);
    expect(senioritiesOf('VP and above')).toEqual(['c_level', 'vp']);
    expect(senioritiesOf('Individual contributor')).toEqual(['ic', 'entry']);
  });

  it.each([
    ['Director+', ['c_level', 'vp', 'director']],
    ['director-level and above', ['c_level', 'vp', 'director']],
    ['Head/Director and above', ['c_level', 'vp', 'director']],
    ['at least VP', ['c_level', 'vp']],
    ['VP or higher', ['c_level', 'vp']],
    ['HoD and up', ['c_level', 'vp', 'director']],
    ['from team leads up to heads of department', ['director', 'manager']],
    ['managers through VPs', ['vp', 'director', 'manager']],
    ['Manager to VP', ['vp', 'director', 'manager']],
    ['between managers and directors', ['director', 'manager']],
    ['senior ICs to managers', ['manager', 'ic']],
    ['Senior IC to Manager', ['manager', 'ic']],
    ['Junior to Staff', ['ic', 'entry']],
    ['entry level up to senior analyst', ['ic', 'entry']],
    ['no more senior than director', ['director', 'manager', 'ic', 'entry']],
    ['up to Head of Data', ['director', 'manager', 'ic', 'entry']],
    ['below C-level', ['vp', 'director', 'manager', 'ic', 'entry']],
    ['manager and below', ['manager', 'ic', 'entry']],
    ['above manager', ['c_level', 'vp', 'director']],
    ['C-level only', ['c_level']],
    ['Founder, Owner', ['c_level']],
    ['VP plus', ['c_level', 'vp']],
  ])('reads the seniority range "%s"', (text, tiers) => {
    expect(senioritiesOf(text)).toEqual(tiers);
  });

  it('reads a dash between two rungs as a range, and leaves hyphenated words alone', () => {
    const dashes = (text: string, other?: string) => seniorityDashes(text, other).replace(/\s+/g, ' ');
    expect(dashes('Manager – VP')).toBe('Manager to VP');
    expect(dashes('Manager-Director')).toBe('Manager to Director');
    expect(dashes('team lead — head of department')).toBe('team lead to head of department');
    expect(dashes('C-level, mid-level, entry-level, co-founder', ' ; ')).toBe('C-level, mid-level, entry-level, co-founder');
    expect(dashes('Sales leaders — VP Sales', ' ; ')).toBe('Sales leaders ; VP Sales');
    expect(dashes('Sales leaders - VP Sales', ' ; ')).toBe('Sales leaders ; VP Sales');
    expect(senioritiesOf(seniorityDashes('Manager – VP'))).toEqual(['vp', 'director', 'manager']);
  });

  it('reads a single rung in prose only when it is stated as a level', () => {
    const tiersIn = (text: string) => findSeniority(prepareTaxonomyText(text), false).map((hit) => hit.tiers);
    expect(tiersIn('Finance execs at C-level')).toEqual([['c_level']]);
    expect(tiersIn('VP level only')).toEqual([['vp']]);
    expect(tiersIn('Heads of engineering or CTOs')).toEqual([]);
    expect(tiersIn('Data scientists, ICs up to Head of Data Science')).toEqual([['director', 'manager', 'ic', 'entry']]);
  });

  it('does not read a title for a rung', () => {
    const tiersIn = (text: string) => findSeniority(prepareTaxonomyText(text), false).map((hit) => hit.tiers);
    expect(tiersIn('Account Executives to managers')).toEqual([]);
    expect(tiersIn('VPs plus directors, managers or senior engineers')).toEqual([]);
    expect(tiersIn('executive assistants and above')).toEqual([]);
  });

  it('reads stated seniority as providers write it', () => {
    expect(tierOfSeniority('c_suite')).toBe('c_level');
    expect(tierOfSeniority('Executive')).toBe('c_level');
    expect(tierOfSeniority('vp')).toBe('vp');
    expect(tierOfSeniority('Entry')).toBe('entry');
    expect(tierOfSeniority('Senior')).toBe('ic');
    expect(tierOfSeniority('Intern')).toBe('entry');
    expect(tierOfSeniority('Head')).toBe('director');
    expect(tierOfSeniority('Founder')).toBe('c_level');
    expect(tierOfSeniority('whatever')).toBeNull();
  });

  it('reads functions, including synonyms', () => {
    expect(functionsOf('Finance')).toEqual(['finance']);
    expect(functionsOf('Accounting')).toEqual(['finance']);
    expect(functionsOf('Revenue')).toEqual(['sales']);
    expect(functionsOf('Human Resources')).toEqual(['hr']);
    expect(functionsOf('IT')).toEqual(['it']);
  });

  it('reads the narrowest function a word names, and the broader ones a title is part of', () => {
    expect(functionsOf('Software Development')).toEqual(['software']);
    expect(functionsOf('Procurement')).toEqual(['procurement']);
    expect(withParentFunctions(['ml', 'software'])).toEqual(['ml', 'software', 'data', 'engineering']);
  });

  it.each([
    ['Product Marketing Manager', ['marketing']],
    ['Senior Product Manager', ['product']],
    ['Customer Success Manager', ['customer_success']],
    ['Sales Engineer', ['sales']],
    ['Solutions Engineer', ['sales']],
    ['Senior Backend Engineer', ['software', 'engineering']],
    ['Manual QA Tester', ['qa', 'engineering']],
    ['Data Engineer', ['data_engineering', 'engineering', 'data']],
    ['Data Scientist', ['data_science', 'data']],
    ['Machine Learning Engineer', ['ml', 'engineering', 'data']],
    ['Technical Recruiter', ['hr']],
    ['Talent Partner', ['hr']],
    ['VP Technology', ['engineering']],
    ['Media Buyer', ['marketing']],
    ['Senior Buyer', ['procurement', 'operations']],
    ['Head of Physical Security & Facilities', ['operations']],
    ['IT Support Technician', ['it_support', 'it']],
    ['Sales Operations Manager', ['revops', 'sales']],
    ['Marketing Operations Manager', ['marketing']],
    ['Accounts Payable Specialist', ['finance']],
    ['Director', []],
  ])('%s works in %j', (title, functions) => {
    expect(analyzeTitle(title).functions).toEqual(functions);
  });

  it('reads an abbreviation defined in brackets as its expansion', () => {
    expect(expandDefinedTitles('buyers, CPOs (Chief Procurement Officer).')).toBe('buyers, Chief Procurement Officer.');
    expect(expandDefinedTitles('Titles: Chief Procurement Officer (CPO), VP Sales')).toBe('Titles: Chief Procurement Officer, VP Sales');
    expect(expandDefinedTitles('CFOs (and controllers)')).toBe('CFOs (and controllers)');
    expect(analyzeTitle('Chief Procurement Officer').codes).toEqual(['chief_procurement']);
  });
});

describe('analyzeTitle: whom a role supports and what a role noun fixes', () => {
  it.each([
    ['Chief of Staff to the CEO', []],
    ['Assistant to the CFO', []],
    ['EA to CEO', []],
    ['Special Advisor to the Board', []],
  ])('"%s" names no C-suite code', (title, codes) => {
    expect(analyzeTitle(title).codes).toEqual(codes);
  });

  it('keeps a C-suite title that is not a support role', () => {
    expect(analyzeTitle('CEO').codes).toEqual(['ceo']);
  });

  it.each([
    ['Sales Engineer, Cybersecurity', ['sales']],
    ['Account Executive - Data Platform', ['sales']],
    ['Recruiter, Engineering', ['hr']],
    ['Financial Reporting Manager', ['finance']],
    ['Reporting Analyst', ['bi', 'data']],
    ['Network Security Engineer', ['it', 'security', 'engineering']],
  ])('"%s" is in %j', (title, functions) => {
    expect(analyzeTitle(title).functions).toEqual(functions);
  });

  it('reads talent acquisition as recruiting', () => {
    expect(analyzeTitle('Talent Acquisition Partner').tokens).toContain('recruiter');
    expect(analyzeTitle('Head of TA').tokens).toContain('recruiter');
  });

  it('keeps the narrowest of the functions a phrase names', () => {
    expect(narrowestFunctions(['it', 'it_support'])).toEqual(['it_support']);
    expect(narrowestFunctions(['data', 'data_engineering', 'sales'])).toEqual(['data_engineering', 'sales']);
    expect(functionsOf('data engineering')).toEqual(['data_engineering']);
  });
});
