import { seededRandom } from '../../shared/domain/seeded-random';

/**
 * A fictional but coherent market for demos and seeds: companies whose name, domain, industry,
 * size, country, revenue and funding agree, and people whose title, function and seniority agree.
 * Everything comes from word lists and a seeded generator, so the same seed gives the same
 * companies and people on every run (the enrichment directory is shared, and re-importing it is
 * an upsert of identical rows).
 */

export interface DemoCompany {
  domain: string;
  name: string;
  website: string;
  logo: string;
  company_type: 'private' | 'public' | 'nonprofit';
  industries: string[];
  employee_count: number;
  founded_year: number;
  annual_revenue: number;
  total_funding: number;
  social: { linkedin: string; twitter: string; facebook: string };
  location: { street_address: string; city: string; state: string; postal_code: string; country: string };
  latest_funding_stage: string;
  latest_funding_round_date: string;
}

export interface DemoRole {
  title: string;
  function: string;
  seniority: string;
}

export interface DemoPerson {
  email: string;
  linkedin: string;
  company_domain: string;
  name: { first: string; middle: string; last: string };
  role: DemoRole & { start_date: string };
  location: { city: string; state: string; country: string; postal_code: string };
}

/** Titles with the function and seniority they imply; `weight` is how common the role is. */
export const ROLES: ReadonlyArray<DemoRole & { weight: number }> = [
  { title: 'Chief Financial Officer', function: 'Finance', seniority: 'C-level', weight: 2 },
  { title: 'VP Finance', function: 'Finance', seniority: 'VP', weight: 2 },
  { title: 'Finance Director', function: 'Finance', seniority: 'Director', weight: 3 },
  { title: 'Head of Finance', function: 'Finance', seniority: 'Director', weight: 2 },
  { title: 'Financial Controller', function: 'Finance', seniority: 'Manager', weight: 3 },
  { title: 'Accounts Payable Specialist', function: 'Finance', seniority: 'Individual contributor', weight: 3 },
  { title: 'Chief Technology Officer', function: 'Engineering', seniority: 'C-level', weight: 2 },
  { title: 'VP Engineering', function: 'Engineering', seniority: 'VP', weight: 2 },
  { title: 'Head of Engineering', function: 'Engineering', seniority: 'Director', weight: 2 },
  { title: 'Engineering Manager', function: 'Engineering', seniority: 'Manager', weight: 2 },
  { title: 'Senior Software Engineer', function: 'Engineering', seniority: 'Individual contributor', weight: 3 },
  { title: 'Chief Revenue Officer', function: 'Sales', seniority: 'C-level', weight: 1 },
  { title: 'VP Sales', function: 'Sales', seniority: 'VP', weight: 1 },
  { title: 'Account Executive', function: 'Sales', seniority: 'Individual contributor', weight: 2 },
  { title: 'Chief Marketing Officer', function: 'Marketing', seniority: 'C-level', weight: 1 },
  { title: 'Head of Demand Generation', function: 'Marketing', seniority: 'Director', weight: 1 },
  { title: 'Marketing Manager', function: 'Marketing', seniority: 'Manager', weight: 2 },
  { title: 'Chief Operating Officer', function: 'Operations', seniority: 'C-level', weight: 1 },
  { title: 'Head of Operations', function: 'Operations', seniority: 'Director', weight: 2 },
  { title: 'Procurement Manager', function: 'Procurement', seniority: 'Manager', weight: 3 },
  { title: 'Head of Procurement', function: 'Procurement', seniority: 'Director', weight: 2 },
];

interface Place {
  country: string;
  tld: string;
  cities: string[];
  first: string[];
  last: string[];
}

/** First names, then last names, common in each country of the demo market (comma-separated). */
const FIRST_NAMES: Record<string, string> = {
  Germany: 'Lukas, Anna, Felix, Laura, Jonas, Lea, Maximilian, Sophie, Tobias, Katharina, Moritz, Julia',
  Netherlands: 'Daan, Sanne, Bram, Femke, Lars, Lotte, Thijs, Anouk, Ruben, Eva',
  France: 'Camille, Louis, Chloé, Hugo, Manon, Julien, Léa, Antoine, Inès, Mathieu',
  Spain: 'Lucía, Javier, Carmen, Pablo, Elena, Sergio, Marta, Álvaro, Nuria, Diego',
  'United Kingdom': 'Oliver, Amelia, Harry, Isla, George, Emily, Jack, Grace, Thomas, Hannah, Rohan, Chloe',
  Ireland: 'Aoife, Conor, Siobhán, Liam, Niamh, Cian, Ciara, Seán',
  'United States': 'Emily, Michael, Jessica, David, Ashley, Daniel, Priya, Marcus, Sarah, Kevin, Olivia, Andre',
  Sweden: 'Erik, Astrid, Oskar, Elin, Nils, Maja, Johan, Freja',
};
const LAST_NAMES: Record<string, string> = {
  Germany: 'Müller, Schmidt, Schneider, Fischer, Weber, Wagner, Becker, Hoffmann, Krüger, Wolf, Braun, Vogel',
  Netherlands: 'de Vries, Jansen, van Dijk, Bakker, Visser, Smit, Meijer, de Boer, Mulder, Bos',
  France: 'Martin, Bernard, Dubois, Moreau, Laurent, Lefèvre, Girard, Fontaine, Rousseau, Mercier',
  Spain: 'García, Fernández, López, Martín, Ruiz, Navarro, Torres, Romero, Castro, Ortega',
  'United Kingdom': 'Smith, Taylor, Davies, Evans, Walsh, Hughes, Clarke, Patel, Wright, Turner, Khan, Edwards',
  Ireland: "Murphy, Kelly, O'Brien, Byrne, Ryan, Doyle, Walsh, McCarthy",
  'United States': 'Johnson, Williams, Brown, Miller, Nguyen, Rodriguez, Carter, Shah, Bennett, Foster, Reyes, Coleman',
  Sweden: 'Lindqvist, Johansson, Berg, Nyström, Holm, Sandberg, Ekström, Lund',
};

/** Country, its web domain ending and cities (comma-separated). */
const PLACES: Record<string, Place> = Object.fromEntries(
  (
    [
      ['Germany', 'de', 'Berlin, Munich, Hamburg, Frankfurt, Cologne'],
      ['Netherlands', 'nl', 'Amsterdam, Rotterdam, Utrecht, Eindhoven'],
      ['France', 'fr', 'Paris, Lyon, Toulouse, Nantes'],
      ['Spain', 'es', 'Madrid, Barcelona, Valencia, Seville'],
      ['United Kingdom', 'co.uk', 'London, Manchester, Edinburgh, Bristol, Leeds'],
      ['Ireland', 'ie', 'Dublin, Cork, Galway'],
      ['United States', 'com', 'New York, Austin, Boston, Chicago, San Francisco, Denver, Atlanta'],
      ['Sweden', 'se', 'Stockholm, Gothenburg, Malmö'],
    ] as Array<[string, string, string]>
  ).map(([country, tld, cities]) => [
    country,
    { country, tld, cities: cities.split(', '), first: FIRST_NAMES[country].split(', '), last: LAST_NAMES[country].split(', ') },
  ]),
);

interface Segment {
  countries: string[];
  industry: string;
  /** Words that end the company's name in this industry ("Northwind Insurance"). */
  suffixes: string[];
  employees: [number, number];
  kind: 'venture' | 'established' | 'public' | 'nonprofit';
}

/**
 * Market segments the companies are drawn from in turn: some sit squarely inside the demo's ICPs,
 * others just outside one criterion (another country, too small, an agency), as in real traffic.
 */
const SEGMENTS: Segment[] = (
  [
    // countries, industry, name suffixes, employees, kind
    [['Germany', 'Netherlands'], 'Financial Services', ['Pay', 'Bank', 'Finance', ''], [150, 2500], 'venture'],
    [['Germany', 'Netherlands'], 'Insurance', ['Insurance', 'Versicherung', 'Assurance'], [400, 4500], 'established'],
    [['United Kingdom', 'Ireland'], 'Computer Software', ['', 'Labs', 'Cloud', 'Software'], [60, 1200], 'venture'],
    [['United States'], 'Hospital & Health Care', ['Health', 'Medical', 'Care Partners'], [1500, 12000], 'nonprofit'],
    [['United States'], 'Logistics and Supply Chain', ['Logistics', 'Freight', 'Supply Co'], [800, 7000], 'public'],
    [['France', 'Spain'], 'Financial Services', ['Pay', 'Finance', 'Capital'], [100, 1800], 'venture'],
    [['United Kingdom'], 'Marketing and Advertising', ['Agency', 'Media', 'Studio'], [15, 180], 'established'],
    [['Sweden', 'United States'], 'Computer Software', ['', 'Labs', 'AI'], [8, 45], 'venture'],
    [['France', 'Spain', 'Germany'], 'Retail', ['Retail', 'Stores', 'Home'], [600, 15000], 'public'],
  ] as Array<[string[], string, string[], [number, number], Segment['kind']]>
).map(([countries, industry, suffixes, employees, kind]) => ({ countries, industry, suffixes, employees, kind }));

const NAME_STARTS = [
  'North',
  'Blue',
  'Silver',
  'Iron',
  'Clear',
  'Harbor',
  'Lumen',
  'Kestrel',
  'Amber',
  'Cedar',
  'Ember',
  'Falcon',
  'Granite',
  'Helix',
  'Juniper',
  'Larch',
  'Maple',
  'Nimbus',
  'Orbit',
  'Pine',
  'Quartz',
  'River',
  'Sable',
  'Tidal',
  'Umber',
  'Vale',
  'Willow',
  'Zephyr',
  'Bright',
  'Copper',
  'Delta',
  'Evergreen',
  'Fern',
  'Golden',
  'Hollow',
  'Indigo',
];
const NAME_ENDS = [
  'spire',
  'stone',
  'field',
  'gate',
  'bridge',
  'line',
  'point',
  'path',
  'works',
  'mark',
  'crest',
  'ford',
  'haven',
  'ridge',
  'brook',
  'light',
  'peak',
  'wave',
  'leaf',
  'star',
  'stack',
  'loop',
  'shore',
  'vault',
];

const FUNDING: Array<{ stage: string; amount: [number, number]; maxEmployees: number }> = [
  { stage: 'Seed', amount: [1, 4], maxEmployees: 40 },
  { stage: 'Series A', amount: [6, 20], maxEmployees: 150 },
  { stage: 'Series B', amount: [25, 60], maxEmployees: 500 },
  { stage: 'Series C', amount: [60, 150], maxEmployees: 1500 },
  { stage: 'Series D', amount: [150, 320], maxEmployees: Infinity },
];

/** First and last names common in a country of the demo market (any other country gets the United States'). */
export function namesIn(country: string): { first: readonly string[]; last: readonly string[] } {
  const place = PLACES[country] ?? PLACES['United States'];
  return { first: place.first, last: place.last };
}

/** Lowercase ASCII letters only: "O'Brien" → "obrien", "Müller" → "muller", "de Vries" → "devries". */
export function slugOf(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/[^a-z]/g, '');
}

const DAY_MS = 86_400_000;
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export interface DemoMarket {
  companies: DemoCompany[];
  people: DemoPerson[];
}

/**
 * `companies` companies with about four people each, the same for the same seed. `today` only
 * anchors dates (funding rounds, start dates), so it is passed in rather than read.
 */
export function demoMarket(companies = 180, seed = 2026, today = Date.UTC(2026, 10, 1)): DemoMarket {
  const random = seededRandom(seed);
  const between = (low: number, high: number) => Math.round(low + random() * (high - low));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const totalWeight = ROLES.reduce((sum, role) => sum + role.weight, 0);
  const pickRole = () => {
    let left = random() * totalWeight;
    return ROLES.find((role) => (left -= role.weight) < 0) ?? ROLES[ROLES.length - 1];
  };

  const names = new Set<string>();
  const out: DemoMarket = { companies: [], people: [] };
  for (let n = 0; n < companies; n++) {
    const segment = SEGMENTS[n % SEGMENTS.length];
    let word: string;
    do word = pick(NAME_STARTS) + pick(NAME_ENDS);
    while (names.has(word) && names.size < NAME_STARTS.length * NAME_ENDS.length);
    names.add(word);
    const place = PLACES[pick(segment.countries)];
    const suffix = pick(segment.suffixes);
    const name = suffix ? `${word} ${suffix}` : word;
    const domain = `${slugOf(word)}.${segment.industry === 'Computer Software' ? 'io' : place.tld}`;
    const employees = between(...segment.employees);
    const venture = segment.kind === 'venture';
    const round = venture ? (FUNDING.find((f) => employees <= f.maxEmployees) ?? FUNDING[FUNDING.length - 1]) : null;
    const company: DemoCompany = {
      domain,
      name,
      website: `https://www.${domain}`,
      logo: `https://www.${domain}/logo.svg`,
      company_type: segment.kind === 'public' ? 'public' : segment.kind === 'nonprofit' ? 'nonprofit' : 'private',
      industries: [segment.industry],
      employee_count: employees,
      founded_year: venture ? between(2010, 2023) : between(1952, 2008),
      annual_revenue: Math.round((employees * between(70, 260)) / 100) * 100_000,
      total_funding: round ? between(...round.amount) * 1_000_000 : 0,
      social: { linkedin: `https://www.linkedin.com/company/${slugOf(word)}`, twitter: '', facebook: '' },
      location: { street_address: '', city: pick(place.cities), state: '', postal_code: '', country: place.country },
      latest_funding_stage: round?.stage ?? '',
      latest_funding_round_date: round ? dateOf(today - between(30, 700) * DAY_MS) : '',
    };
    out.companies.push(company);

    const emails = new Set<string>();
    for (let k = 0; k < 4; k++) {
      const first = pick(place.first);
      const last = pick(place.last);
      const email = `${slugOf(first)}.${slugOf(last)}@${domain}`;
      if (emails.has(email)) continue;
      emails.add(email);
      const role = pickRole();
      out.people.push({
        email,
        linkedin: `https://www.linkedin.com/in/${slugOf(first)}-${slugOf(last)}-${Math.floor(random() * 0xfffff).toString(16)}`,
        company_domain: domain,
        name: { first, middle: '', last },
        role: {
          title: role.title,
          function: role.function,
          seniority: role.seniority,
          start_date: dateOf(today - between(60, 3000) * DAY_MS),
        },
        location: { city: company.location.city, state: '', country: place.country, postal_code: '' },
      });
    }
  }
  return out;
}
