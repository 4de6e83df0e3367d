import { formatTimestamp } from '../../shared/domain/clock';

/**
 * A realistic small knowledge base and synthetic activity for demos and the pipeline benchmark:
 * people at a few hundred companies visiting pages, filling forms, researching topics and
 * following competitors.
 */

export const INDUSTRIES = [
  'Financial Services',
  'Insurance',
  'Computer Software',
  'Retail',
  'Hospital & Health Care',
  'Logistics and Supply Chain',
];
export const COUNTRIES = ['Germany', 'France', 'United Kingdom', 'United States', 'Netherlands', 'Spain'];
export const TITLES = [
  'CFO',
  'VP Finance',
  'CTO',
  'Head of Engineering',
  'Software Engineer',
  'Chief Revenue Officer',
  'Marketing Manager',
];
const FIRST = ['Ana', 'Ben', 'Chloe', 'David', 'Elena', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jonas', 'Kira', 'Liam'];
const LAST = ['Becker', 'Costa', 'Dubois', 'Evans', 'Garcia', 'Hansen', 'Kim', 'Lopez', 'Meyer', 'Rossi'];

export interface KbSeed {
  resource: 'icps' | 'personas' | 'competitors' | 'products' | 'topics' | 'target-pages' | 'target-forms' | 'exclusions';
  body: Record<string, string>;
}

/** A demo knowledge base of `scale` × the base counts (scale 1: a few of each). */
export function demoKnowledgeBase(scale = 1): KbSeed[] {
  const kb: KbSeed[] = [
    {
      resource: 'icps',
      body: {
        name: 'EU fintech',
        short_name: 'eu-fintech',
        description:
          'Fintech and insurance companies. Industries: Financial Services, Insurance. Employees: 50-1000. Countries: Germany, France, Netherlands.',
      },
    },
    {
      resource: 'icps',
      body: {
        name: 'UK software',
        short_name: 'uk-software',
        description: 'B2B software companies with 100 to 2,000 employees in the UK or Ireland',
      },
    },
    {
      resource: 'personas',
      body: {
        name: 'Finance leader',
        short_name: 'finance-leader',
        description: 'Titles: CFO, VP Finance, Finance Director. Function: Finance. Seniority: C-level, VP, Director.',
      },
    },
    {
      resource: 'personas',
      body: { name: 'Engineering leader', short_name: 'eng-leader', description: 'Heads of engineering or CTOs at growing startups' },
    },
    {
      resource: 'exclusions',
      body: { name: 'Existing customer', short_name: 'customer-1', domain: 'company401.com', description: 'Already a customer' },
    },
  ];
  for (let i = 0; i < 10 * scale; i++) {
    kb.push({
      resource: 'target-pages',
      body: { name: `Page ${i}`, short_name: `page-${i}`, url: `www.example.com/page-${i}`, description: 'Visits signal buying intent' },
    });
    kb.push({
      resource: 'competitors',
      body: {
        name: `Rival ${i}`,
        short_name: `rival-${i}`,
        domain: `rival${i}.com`,
        linkedin: `https://www.linkedin.com/company/rival${i}`,
      },
    });
  }
  for (let i = 0; i < 5 * scale; i++) {
    kb.push({
      resource: 'target-forms',
      body: { name: `Form ${i}`, short_name: `form-${i}`, url: `www.example.com/forms-${i}`, description: 'A submission is a hand-raise' },
    });
    kb.push({ resource: 'topics', body: { name: `Topic ${i}`, short_name: `topic-${i}`, description: 'A subject buyers research' } });
    kb.push({ resource: 'products', body: { name: `Product ${i}`, short_name: `product-${i}`, description: 'What we sell' } });
  }
  return kb;
}

/**
 * The i-th synthetic activity among `total`; about one person per ten activities. Against
 * `demoKnowledgeBase(1)` roughly one in six targets nothing (a page, form, topic or competitor
 * the knowledge base does not have), as in real traffic.
 */
export function demoActivity(i: number, total: number, run: string): Record<string, unknown> {
  const person = i % Math.max(1, Math.floor(total / 10));
  const company = person % 500;
  const common = {
    external_id: `demo-${run}-${i}`,
    occurred_at: formatTimestamp(new Date(Date.now() - (i % 100_000) * 60_000)),
    identity: {
      email: `${FIRST[person % FIRST.length].toLowerCase()}.${LAST[person % LAST.length].toLowerCase()}${person}@company${company}.com`,
    },
    contact: {
      name: { first: FIRST[person % FIRST.length], last: LAST[person % LAST.length] },
      role: { title: TITLES[person % TITLES.length] },
    },
    company: {
      name: `Company ${company}`,
      website: `https://company${company}.com`,
      industries: [INDUSTRIES[company % INDUSTRIES.length]],
      employee_count: 20 + ((company * 37) % 3000),
      location: { country: COUNTRIES[company % COUNTRIES.length] },
    },
    attribution: { type: 'paid', source: 'google', source_name: 'Google Ads', source_logo: '' },
  };
  switch (i % 6) {
    case 0:
    case 1:
    case 2:
      return {
        ...common,
        type: 'website',
        trigger: i % 6 === 2 ? 'filled_form' : 'visited_page',
        website: {
          url: `https://www.example.com/${i % 6 === 2 ? `forms-${Math.floor(i / 6) % 6}` : `page-${i % 12}`}/?utm_source=google&gclid=g${i}`,
          session: { id: `s${i}`, duration_secs: 120 },
          device: { browser: 'Chrome', os: 'macOS' },
        },
      };
    case 3:
      return { ...common, type: 'market', trigger: 'researched_topic', market: { topic: `Topic ${i % 6}`, company_website: '' } };
    case 4:
      return {
        ...common,
        type: 'market',
        trigger: 'evaluated_competitor',
        market: { topic: '', company_website: `https://rival${i % 12}.com` },
      };
    default:
      return {
        ...common,
        type: 'linkedin',
        trigger: 'reacted_post',
        linkedin: { url: `https://www.linkedin.com/company/rival${i % 12}`, reaction_type: 'like' },
      };
  }
}
