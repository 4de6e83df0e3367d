import { analyzeTitle, conceptClosure, functionsOf, industryConcepts, nameConcepts, senioritiesOf, tierOfSeniority } from './taxonomy';

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
    ['Information Technology and Services', 'software'],
    ['IT Services & IT Consulting', 'software'],
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
    expect(industryConcepts('IT')).toEqual(['software']);
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
    ['Software Engineer', [], 'ic', ['engineering']],
    ['Account Executive', [], 'ic', ['sales']],
    ['Chief Growth Officer', ['chief_growth'], 'c_level', []],
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
    expect(senioritiesOf('Individual contributor')).toEqual(['ic']);
  });

  it('reads stated seniority as providers write it', () => {
    expect(tierOfSeniority('c_suite')).toBe('c_level');
    expect(tierOfSeniority('Executive')).toBe('c_level');
    expect(tierOfSeniority('vp')).toBe('vp');
    expect(tierOfSeniority('Entry')).toBe('ic');
    expect(tierOfSeniority('whatever')).toBeNull();
  });

  it('reads functions, including synonyms', () => {
    expect(functionsOf('Finance')).toEqual(['finance']);
    expect(functionsOf('Accounting')).toEqual(['finance']);
    expect(functionsOf('Revenue')).toEqual(['sales']);
    expect(functionsOf('Human Resources')).toEqual(['hr']);
    expect(functionsOf('IT')).toEqual(['it']);
  });
});
