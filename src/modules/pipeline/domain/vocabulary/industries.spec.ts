import { companyInfoTemplate, conform } from '../../../buyers/buyer-shape';
import { DefaultEvaluator } from '../default-evaluator';
import { conceptClosure, industryConcepts } from '../taxonomy';
import { tokenize } from '../text';
import { INDUSTRIES } from './industries';

/** Whether a company with these industries satisfies the concept. */
function satisfies(industries: string[], concept: string): boolean {
  const closure = conceptClosure(concept);
  return industries.flatMap(industryConcepts).some((c) => closure.includes(c));
}

describe('industry vocabulary table', () => {
  const ids = new Set(INDUSTRIES.map((c) => c.id));

  it('has unique ids', () => {
    expect(ids.size).toBe(INDUSTRIES.length);
  });

  it('names only known concepts as parents and qualifier owners', () => {
    for (const concept of INDUSTRIES)
      for (const parent of concept.parents ?? []) expect([concept.id, ids.has(parent)]).toEqual([concept.id, true]);
  });

  it('has no cycles', () => {
    const parents = new Map(INDUSTRIES.map((c) => [c.id, c.parents ?? []]));
    const ancestors = (id: string, path: string[]): void => {
      for (const parent of parents.get(id) ?? []) {
        expect(path).not.toContain(parent);
        ancestors(parent, [...path, parent]);
      }
    };
    for (const concept of INDUSTRIES) ancestors(concept.id, [concept.id]);
  });

  it('gives each phrase, after plural folding, to one concept', () => {
    const owner = new Map<string, string>();
    const clashes: string[] = [];
    for (const concept of INDUSTRIES) {
      for (const term of concept.terms) {
        const key = tokenize(term)
          .filter((t) => !t.boundary)
          .map((t) => t.stem)
          .join(' ');
        const first = owner.get(key);
        if (first && first !== concept.id) clashes.push(`${term}: ${first} and ${concept.id}`);
        else owner.set(key, concept.id);
      }
    }
    expect(clashes).toEqual([]);
  });

  it('lists qualifiers that are terms of some other concept', () => {
    for (const concept of INDUSTRIES)
      for (const q of concept.qualifiers ?? []) expect([q, industryConcepts(q).filter((c) => c !== concept.id).length]).toEqual([q, 1]);
  });
});

describe('industry hierarchy and near neighbours', () => {
  it.each([
    ['a dairy processor is a food manufacturer', ['Dairy'], 'food_manufacturing', true],
    ['food production is manufacturing', ['Food Production'], 'manufacturing', true],
    ['dairy is food and beverage', ['Dairy'], 'food', true],
    ['machinery is manufacturing', ['Machinery'], 'manufacturing', true],
    ['electronics manufacturing is manufacturing', ['Electrical/Electronic Manufacturing'], 'manufacturing', true],
    ['automotive is manufacturing', ['Automotive'], 'manufacturing', true],
    ['chemicals are manufacturing', ['Chemicals'], 'manufacturing', true],
    ['a winery is a food and beverage manufacturer', ['Wine and Spirits'], 'food_manufacturing', true],
    ['a brewery is a food and beverage manufacturer', ['Brewery'], 'food_manufacturing', true],
    ['a distillery is manufacturing', ['Distillery'], 'manufacturing', true],
    ['a beverage maker is food and beverage', ['Beverages'], 'food', true],
    ['a restaurant is not a food manufacturer', ['Restaurants'], 'food_manufacturing', false],
    ['a restaurant is not a manufacturer', ['Restaurants'], 'manufacturing', false],
    ['a software company is not a manufacturer', ['Computer Software'], 'manufacturing', false],
    ['a hospital is healthcare', ['Hospital & Health Care'], 'healthcare', true],
    ['a hospital is a healthcare provider', ['Hospital & Health Care'], 'healthcare_providers', true],
    ['a medical practice is a healthcare provider', ['Medical Practice'], 'healthcare_providers', true],
    ['a hospital is not pharma', ['Hospital & Health Care'], 'pharma', false],
    ['a medical-device maker is healthcare', ['Medical Devices'], 'healthcare', true],
    ['a medical-device maker is not a healthcare provider', ['Medical Devices'], 'healthcare_providers', false],
    ['pharma is not a healthcare provider', ['Pharmaceuticals'], 'healthcare_providers', false],
    ['a gym chain is not a healthcare provider', ['Health, Wellness and Fitness'], 'healthcare_providers', false],
    ['a gym chain is not healthcare', ['Health, Wellness and Fitness'], 'healthcare', false],
    ['a freight forwarder is logistics', ['Freight Forwarding'], 'logistics', true],
    ['a freight forwarder is not an airline', ['Logistics and Supply Chain'], 'airlines', false],
    ['a tour operator is not an airline', ['Leisure, Travel & Tourism'], 'airlines', false],
    ['an airline is travel', ['Airlines/Aviation'], 'travel', true],
    ['an airline is not logistics', ['Airlines/Aviation'], 'logistics', false],
    ['a bank is financial services', ['Banking'], 'fintech', true],
    ['a bank is not an insurer', ['Banking'], 'insurance', false],
    ['an IT consultancy is not a software company', ['IT Consulting'], 'software', false],
    ['an IT services firm is not a software company', ['Information Technology & Services'], 'software', false],
    ['an MSP is not a software company', ['Managed Services'], 'software', false],
    ['an IT services firm is technology', ['Information Technology & Services'], 'technology', true],
    ['a software company is technology', ['Computer Software'], 'technology', true],
    ['a courier is logistics', ['Courier Services'], 'logistics', true],
    ['a cosmetics brand is a consumer brand', ['Cosmetics'], 'retail', true],
    ['a furniture maker is a consumer brand', ['Furniture'], 'retail', true],
    ['a 3PL is not a courier', ['Logistics and Supply Chain'], 'courier', false],
    ['a slashed provider name is read whole', ['Package/Freight Delivery'], 'courier', true],
  ])('%s', (_name, industries, concept, expected) => {
    expect(satisfies(industries, concept)).toBe(expected);
  });

  it('reads "health" next to insurance as a line of insurance', () => {
    expect(industryConcepts('Health insurance')).toEqual(['insurance']);
    expect(industryConcepts('Insurance, health')).toEqual(['insurance']);
    expect(industryConcepts('health')).toEqual(['healthcare']);
    expect(industryConcepts('Healthcare and insurance')).toEqual(['healthcare', 'insurance']);
  });
});

describe('industry words in ICPs', () => {
  const evaluator = new DefaultEvaluator();
  const company = (industries: string[]) => conform(companyInfoTemplate(), { name: 'Acme', industries });
  const matches = (description: string, industries: string[]) =>
    evaluator.evaluateCompany(company(industries), [{ id: '1', name: 'ICP', description }]).matched;

  it('reads "manufacturers" as the parent of food, machinery and electronics, not software', () => {
    expect(matches('Mid-market manufacturers in DACH', ['Food Production'])).toBe(true);
    expect(matches('Manufacturers', ['Machinery'])).toBe(true);
    expect(matches('Manufacturing companies', ['Electrical/Electronic Manufacturing'])).toBe(true);
    expect(matches('Manufacturers', ['Computer Software'])).toBe(false);
  });

  it('reads "healthcare providers (hospitals, clinics)" as providers only', () => {
    const icp = 'Industry: Healthcare providers (hospitals, clinics)';
    expect(matches(icp, ['Mental Health Care'])).toBe(true);
    expect(matches(icp, ['Medical Devices'])).toBe(false);
    expect(matches(icp, ['Pharmaceuticals'])).toBe(false);
    expect(matches(icp, ['Health, Wellness and Fitness'])).toBe(false);
  });

  it('reads "health" among lines of insurance as insurance, not healthcare', () => {
    const icp = 'Insurers only. Life, P&C, health, reinsurance — all fine.';
    expect(matches(icp, ['Insurance'])).toBe(true);
    expect(matches(icp, ['Hospital & Health Care'])).toBe(false);
  });

  it('excludes a courier without excluding logistics, its parent', () => {
    const icp = "Logistics & 3PL companies in Spain. We don't do parcel/courier outfits, and we don't sell into the public sector.";
    expect(matches(icp, ['Logistics and Supply Chain'])).toBe(true);
    expect(matches(icp, ['Parcel Delivery'])).toBe(false);
    expect(matches(icp, ['Package/Freight Delivery'])).toBe(false);
    expect(matches(icp, ['Courier Services'])).toBe(false);
    expect(matches(icp, ['Government Administration'])).toBe(false);
  });

  it('reads an excluded word filed under the targeted industry as that word only', () => {
    // "trucking" is a logistics term; excluding all logistics would contradict the target.
    const icp = 'Industries: Logistics\nExclude: trucking';
    expect(matches(icp, ['Logistics and Supply Chain'])).toBe(true);
    expect(matches(icp, ['Trucking'])).toBe(false);
    expect(matches('Retailers. Not software companies.', ['Computer Software'])).toBe(false);
  });

  it('keeps IT services firms out of software products', () => {
    const icp = 'Funding stage: Series A / Series B\nVertical: Computer Software (B2B SaaS)';
    expect(matches(icp, ['Computer Software'])).toBe(true);
    expect(matches(icp, ['Information Technology & Services'])).toBe(false);
    expect(matches('Tech companies', ['Information Technology & Services'])).toBe(true);
    expect(matches('Tech companies', ['Computer Software'])).toBe(true);
  });

  it('reads drink makers as food and beverage manufacturing', () => {
    const icp = 'Industries: Food & Beverage manufacturing\nEmployees: 100–1,000';
    expect(matches(icp, ['Wine and Spirits'])).toBe(true);
    expect(matches(icp, ['Beverages'])).toBe(true);
    expect(matches('Food manufacturers with a great team spirit', ['Restaurants'])).toBe(false);
  });

  it('keeps restaurants out of food manufacturers', () => {
    expect(matches('Food manufacturers: dairy, bakery, snacks', ['Restaurants'])).toBe(false);
    expect(matches('Food manufacturers: dairy, bakery, snacks', ['Dairy'])).toBe(true);
  });
});
