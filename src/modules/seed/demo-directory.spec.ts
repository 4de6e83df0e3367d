import { demoMarket, ROLES, slugOf } from './demo-directory';

describe('demo market', () => {
  const market = demoMarket(90);

  it('is the same for the same seed and differs for another', () => {
    expect(demoMarket(90)).toEqual(market);
    expect(demoMarket(90, 1).companies.map((c) => c.name)).not.toEqual(market.companies.map((c) => c.name));
  });

  it('makes named, unnumbered companies whose domain, website and LinkedIn page follow the name', () => {
    expect(new Set(market.companies.map((c) => c.domain)).size).toBe(market.companies.length);
    for (const company of market.companies) {
      expect(company.name).not.toMatch(/\d/);
      expect(company.domain.split('.')[0]).toBe(slugOf(company.name.split(' ')[0]));
      expect(company.website).toBe(`https://www.${company.domain}`);
      expect(company.social.linkedin).toMatch(/^https:\/\/www\.linkedin\.com\/company\/[a-z]+$/);
      expect(company.industries).toHaveLength(1);
      // Funding only for venture-backed companies, with a stage and a date.
      expect(company.total_funding > 0).toBe(company.latest_funding_stage !== '');
      expect(company.latest_funding_round_date !== '').toBe(company.latest_funding_stage !== '');
    }
    expect(new Set(market.companies.map((c) => c.location.country)).size).toBeGreaterThanOrEqual(6);
    expect(new Set(market.companies.map((c) => c.industries[0])).size).toBeGreaterThanOrEqual(6);
  });

  it('makes people whose title, function and seniority agree, at their company, in its country', () => {
    const roles = new Set(ROLES.map((r) => `${r.title}|${r.function}|${r.seniority}`));
    const companies = new Map(market.companies.map((c) => [c.domain, c]));
    expect(new Set(market.people.map((p) => p.email)).size).toBe(market.people.length);
    for (const person of market.people) {
      expect(roles.has(`${person.role.title}|${person.role.function}|${person.role.seniority}`)).toBe(true);
      expect(person.email).toBe(`${slugOf(person.name.first)}.${slugOf(person.name.last)}@${person.company_domain}`);
      expect(person.location.country).toBe(companies.get(person.company_domain)?.location.country);
      expect(person.linkedin).toMatch(/^https:\/\/www\.linkedin\.com\/in\/[a-z]+-[a-z]+-[0-9a-f]+$/);
    }
  });

  it('folds names to plain ASCII for emails and slugs', () => {
    expect(['Müller', "O'Brien", 'de Vries', 'Álvaro', 'Groß'].map(slugOf)).toEqual(['muller', 'obrien', 'devries', 'alvaro', 'gross']);
  });
});
