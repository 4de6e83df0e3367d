import { formatTimestamp } from '../../shared/domain/clock';
import { DemoMarket, demoMarket, DemoPerson, slugOf } from './demo-directory';

/**
 * The demo customer: Ledgerline, a software company selling accounts-payable automation and spend
 * management to finance teams, with its knowledge base as its marketers would write it, and the
 * activity its website, an intent data feed and LinkedIn would report about people at the
 * companies of the demo directory (`demo-directory.ts`).
 */

export const DEMO_SITE = 'www.ledgerline.io';

export interface KbSeed {
  resource: 'icps' | 'personas' | 'competitors' | 'products' | 'topics' | 'target-pages' | 'target-forms' | 'exclusions';
  body: Record<string, string>;
}

const ICPS = [
  {
    name: 'Mid-market fintech & insurance in DACH and Benelux',
    short_name: 'dach-benelux-finserv',
    description:
      'Regulated financial companies whose finance teams process thousands of supplier invoices a month. Industries: Financial Services, Insurance. Employees: 200-5,000. Countries: Germany, Austria, Switzerland, Netherlands, Belgium.',
  },
  {
    name: 'UK & Ireland SaaS scale-ups',
    short_name: 'uki-saas',
    description:
      'B2B software companies with 50 to 1,500 employees in the UK or Ireland, venture-backed from Series A to Series C. Not agencies.',
  },
  {
    name: 'US health systems and logistics operators',
    short_name: 'us-health-logistics',
    description: 'Hospitals, health systems and logistics operators in the United States with more than 1,000 employees. Revenue: $100M+.',
  },
];

const PERSONAS = [
  {
    name: 'Finance leader',
    short_name: 'finance-leader',
    description:
      'Finance leaders who own accounts payable and the month-end close and sign off on new finance tools. Titles: CFO, VP Finance, Finance Director, Head of Finance. Function: Finance. Seniority: C-level, VP, Director.',
  },
  {
    name: 'Engineering leader',
    short_name: 'engineering-leader',
    description:
      'Heads of engineering or CTOs at growing software companies, who own the integration between the ERP and the rest of the stack',
  },
  {
    name: 'Procurement & operations',
    short_name: 'procurement-ops',
    description:
      'Procurement managers, heads of procurement and heads of operations who approve supplier spend. Function: Procurement, Operations. Seniority: Manager, Director, VP.',
  },
];

const DEMO_COMPETITORS = Object.entries({
  Spendhaven: 'spendhaven.com',
  Billcraft: 'billcraft.io',
  Payloft: 'payloft.com',
  Tallyforge: 'tallyforge.com',
  Quillpay: 'quillpay.eu',
}).map(([name, domain]) => ({ name, domain }));

/** `name: description` pairs as records. */
const described = (records: Record<string, string>) => Object.entries(records).map(([name, description]) => ({ name, description }));

const PRODUCTS = described({
  'AP Automation': 'Invoice capture, approval routing and three-way matching against POs and receipts',
  'Corporate Cards': 'Physical and virtual cards with spend limits set per team and per supplier',
  'Procurement Workflows': 'Purchase requests, budget checks and approvals before the money is committed',
  'Spend Analytics': 'Spend by supplier, category and cost centre, refreshed daily',
  'ERP Connectors': 'Two-way sync with NetSuite, SAP, Microsoft Dynamics and Xero',
});

const TOPICS = described({
  'Accounts payable automation': 'Buyers comparing ways to stop keying invoices by hand',
  'Spend management': 'Controlling spend before it happens rather than after',
  'Month-end close': 'Shortening the close; a pain our finance personas raise first',
  'E-invoicing compliance': 'Mandatory e-invoicing in the EU (ViDA, XRechnung, Factur-X)',
  'Three-way matching': 'Matching invoices to purchase orders and goods receipts',
});

const PAGES = [
  { path: '/pricing', name: 'Pricing', description: 'Late-stage intent: they are sizing the budget' },
  { path: '/product/ap-automation', name: 'AP Automation product page', description: 'Interest in our core product' },
  { path: '/product/corporate-cards', name: 'Corporate Cards product page', description: 'Interest in cards and spend controls' },
  { path: '/customers', name: 'Customer stories', description: 'Looking for proof from companies like theirs' },
  { path: '/integrations/netsuite', name: 'NetSuite integration', description: 'Checking fit with their ERP' },
  { path: '/integrations/sap', name: 'SAP integration', description: 'Checking fit with their ERP' },
  { path: '/security', name: 'Security & compliance', description: 'Usually a security review in progress' },
  { path: '/compare/spendhaven', name: 'Ledgerline vs Spendhaven', description: 'Comparing us with a competitor' },
  { path: '/roi-calculator', name: 'ROI calculator', description: 'Building a business case' },
  { path: '/blog/month-end-close-checklist', name: 'Month-end close checklist', description: 'Top-of-funnel content for finance teams' },
];

const FORMS = [
  { path: '/demo', name: 'Book a demo', description: 'A hand-raise: route to sales within the hour' },
  { path: '/contact-sales', name: 'Contact sales', description: 'A hand-raise, often with a pricing question' },
  { path: '/guides/ap-benchmark-2026', name: '2026 AP benchmark report', description: 'Gated report: early research' },
  { path: '/webinars/e-invoicing-mandates', name: 'Webinar: e-invoicing mandates', description: 'Registrations for the monthly webinar' },
];

/** What the bulk seed's Signals name: the demo site's paths, topics and competitors. */
export const DEMO_SITE_CONTENT = {
  paths: [...PAGES, ...FORMS].map((page) => page.path),
  topics: TOPICS.map((topic) => topic.name),
  competitors: DEMO_COMPETITORS,
};

/** Pages the site has that the knowledge base does not target: visits there match nothing. */
const UNTARGETED_PAGES = ['/careers', '/about'];
const UNTARGETED_TOPICS = ['Payroll software'];
const UNTARGETED_COMPETITORS = ['ledgerbase.com'];

/** The company the demo's Exclusion names: an existing customer, whose people's activity is discarded. */
const CUSTOMER_INDEX = 10;

let market: DemoMarket | null = null;
/** The demo directory, generated once per process. */
export function demoDirectory(): DemoMarket {
  market ??= demoMarket();
  return market;
}

const kebab = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * Ledgerline's knowledge base. `scale` above 1 adds customer-story pages (one per directory
 * company, ten per step), for benchmarks that want more records to match against.
 */
export function demoKnowledgeBase(scale = 1): KbSeed[] {
  const kb: KbSeed[] = [];
  for (const icp of ICPS) kb.push({ resource: 'icps', body: icp });
  for (const persona of PERSONAS) kb.push({ resource: 'personas', body: persona });
  for (const c of DEMO_COMPETITORS) {
    const slug = slugOf(c.name);
    kb.push({
      resource: 'competitors',
      body: { name: c.name, short_name: slug, domain: c.domain, linkedin: `https://www.linkedin.com/company/${slug}` },
    });
  }
  for (const p of PRODUCTS) kb.push({ resource: 'products', body: { ...p, short_name: kebab(p.name) } });
  for (const t of TOPICS) kb.push({ resource: 'topics', body: { ...t, short_name: kebab(t.name) } });
  const stories = demoDirectory()
    .companies.slice(0, 10 * (scale - 1))
    .map((c) => ({ path: `/customers/${slugOf(c.name)}`, name: `Customer story: ${c.name}`, description: 'Proof from a similar company' }));
  for (const page of [...PAGES, ...stories]) {
    kb.push({
      resource: 'target-pages',
      body: { name: page.name, short_name: kebab(page.path), url: `${DEMO_SITE}${page.path}`, description: page.description },
    });
  }
  for (const form of FORMS) {
    kb.push({
      resource: 'target-forms',
      body: { name: form.name, short_name: kebab(form.path), url: `${DEMO_SITE}${form.path}`, description: form.description },
    });
  }
  const customer = demoDirectory().companies[CUSTOMER_INDEX];
  kb.push({
    resource: 'exclusions',
    body: {
      name: customer.name,
      short_name: 'customer-' + slugOf(customer.name),
      domain: customer.domain,
      description: 'Existing customer, handled by account management',
    },
  });
  return kb;
}

interface Channel {
  attribution: { type: string; source: string; source_name: string; source_logo: string };
  /** What the channel adds to a landing URL; `{id}` becomes a click id. */
  query: string;
}

/** Where people come from: every website activity of a person carries their channel. */
const CHANNELS: Channel[] = [
  {
    attribution: { type: 'paid', source: 'google', source_name: 'Google Ads', source_logo: '' },
    query: 'utm_source=google&utm_medium=cpc&utm_campaign=ap-automation-emea&gclid={id}',
  },
  {
    attribution: { type: 'paid', source: 'linkedin', source_name: 'LinkedIn Ads', source_logo: '' },
    query: 'utm_source=linkedin&utm_medium=paid_social&utm_campaign=cfo-playbook&li_fat_id={id}',
  },
  { attribution: { type: 'organic', source: 'google', source_name: 'Google Search', source_logo: '' }, query: '' },
  {
    attribution: { type: 'email', source: 'newsletter', source_name: 'Ledgerline Newsletter', source_logo: '' },
    query: 'utm_source=newsletter&utm_medium=email&utm_campaign=finance-ops-digest',
  },
  { attribution: { type: 'referral', source: 'g2', source_name: 'G2', source_logo: '' }, query: 'utm_source=g2&utm_medium=referral' },
  { attribution: { type: 'direct', source: 'direct', source_name: 'Direct', source_logo: '' }, query: '' },
];
const INTENT = { type: 'intent', source: 'intent_feed', source_name: 'Intent data feed', source_logo: '' };
const LINKEDIN = { type: 'organic', source: 'linkedin', source_name: 'LinkedIn', source_logo: '' };

const BROWSERS = [
  { browser: 'Chrome', browser_version: '131.0', os: 'macOS', device_type: 'desktop' },
  { browser: 'Edge', browser_version: '131.0', os: 'Windows', device_type: 'desktop' },
  { browser: 'Safari', browser_version: '18.1', os: 'iOS', device_type: 'mobile' },
  { browser: 'Firefox', browser_version: '132.0', os: 'Windows', device_type: 'desktop' },
];

/** How the i-th activity names a person: by email mostly, by LinkedIn profile now and then, and some people the directory does not know. */
function identityOf(person: DemoPerson, p: number): { email?: string; linkedin?: string } {
  if (p % 9 === 4) return { linkedin: person.linkedin };
  if (p % 9 === 8) {
    // Someone at a known company whom the directory has never heard of: their role stays unknown.
    const [local, domain] = person.email.split('@');
    const [first, last] = local.split('.');
    return { email: `${first.slice(0, 1)}${last}${p % 7}@${domain}` };
  }
  return { email: person.email };
}

const at = <T>(items: readonly T[], n: number): T => items[n % items.length];

/**
 * The i-th demo activity among `total`; about one person per ten activities, each a person of the
 * demo directory. The twelve slots of each round cover all nine triggers; now and then one names a
 * page, topic or competitor the knowledge base does not have, as in real traffic.
 */
export function demoActivity(i: number, total: number, run: string): Record<string, unknown> {
  const people = demoDirectory().people;
  const p = i % Math.max(1, Math.floor(total / 10));
  // A stride through the directory, so a small demo still spans many companies and countries.
  const person = people[(p * 7919) % people.length];
  const channel = CHANNELS[(p * 5 + Math.floor(p / 6)) % CHANNELS.length];
  const round = Math.floor(i / 12);
  const common = {
    external_id: `demo-${run}-${i}`,
    occurred_at: formatTimestamp(new Date(Date.now() - 60_000 * ((i * 15_053) % (45 * 1440)) - 60_000)),
    identity: identityOf(person, p),
  };
  const website = (trigger: string, path: string) => {
    const query = channel.query.replace('{id}', `${run}${i.toString(36)}`);
    return {
      ...common,
      type: 'website',
      trigger,
      attribution: channel.attribution,
      website: {
        url: `https://${DEMO_SITE}${path}${query ? `?${query}` : ''}`,
        session: { id: `ses-${run}-${p}-${round}`, duration_secs: 60 + ((i * 37) % 900) },
        device: { ...at(BROWSERS, p), language: 'en-US' },
      },
    };
  };
  const market = (trigger: string, topic: string, company_website = '') => ({
    ...common,
    type: 'market',
    trigger,
    attribution: INTENT,
    market: { topic, company_website },
  });
  const linkedin = (trigger: string, extra: Record<string, string>) => ({
    ...common,
    type: 'linkedin',
    trigger,
    attribution: LINKEDIN,
    linkedin: { source: 'linkedin', comment: '', reaction_type: '', post_title: '', ...extra },
  });
  const competitor = at(DEMO_COMPETITORS, round + i);
  const post = `https://www.linkedin.com/posts/${slugOf(competitor.name)}_${kebab(at(TOPICS, round).name)}-activity-${7_200_000_000 + i}`;
  switch (i % 12) {
    case 0:
    case 1:
    case 11:
      return website('visited_page', at([...PAGES.map((page) => page.path), ...UNTARGETED_PAGES], round * 3 + i));
    case 2:
      return website('filled_form', at(FORMS, round).path);
    case 3:
      return website('abandoned_form', at(FORMS, round + 1).path);
    case 4:
      return market('researched_topic', at([...TOPICS.map((t) => t.name), ...UNTARGETED_TOPICS], round));
    case 5:
      return market('explored_product', at(PRODUCTS, round).name);
    case 6:
      return market(
        'evaluated_competitor',
        '',
        `https://www.${at([...DEMO_COMPETITORS.map((c) => c.domain), ...UNTARGETED_COMPETITORS], round)}`,
      );
    case 7:
      return linkedin('followed_page', {
        url: `https://www.linkedin.com/company/${slugOf(competitor.name)}`,
        company_name: competitor.name,
      });
    case 8:
      return linkedin('commented_post', {
        url: post,
        company_name: competitor.name,
        post_title: `How finance teams cut invoice processing time in half`,
        comment: 'We are looking at this for our close process too. Does it work with SAP?',
      });
    case 9:
      return linkedin('reacted_post', {
        url: post,
        company_name: competitor.name,
        post_title: 'The 2026 state of accounts payable',
        reaction_type: at(['like', 'celebrate', 'insightful'], i),
      });
    default:
      return website('visited_page', '/pricing');
  }
}
