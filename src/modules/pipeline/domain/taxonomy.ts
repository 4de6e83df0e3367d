/**
 * Industries and job titles as a taxonomy of synonyms and related names. Descriptions say
 * "cybersecurity" where providers say "Computer and Network Security", and "CRO" where a profile
 * says "Chief Revenue Officer"; exact strings would miss most real matches.
 */
import { PhraseHit, PhraseIndex, Token, tokenize, unique } from './text';
import { INDUSTRIES } from './vocabulary/industries';

export { INDUSTRIES } from './vocabulary/industries';
export type { IndustryConcept } from './vocabulary/industries';

// ---------------------------------------------------------------------------------------------
// Industries

const CONCEPTS = new Map(INDUSTRIES.map((c) => [c.id, c]));

/** Parent → the concepts that name it among their `parents`. */
const CHILDREN = new Map<string, string[]>();
for (const concept of INDUSTRIES)
  for (const parent of concept.parents ?? []) CHILDREN.set(parent, [...(CHILDREN.get(parent) ?? []), concept.id]);

export const INDUSTRY_INDEX = new PhraseIndex<string>('stem');
for (const concept of INDUSTRIES) for (const term of concept.terms) INDUSTRY_INDEX.add(term, concept.id);
// Abbreviations that are industries only in capitals ("FS & insurance", "FSI"), never the word "fs".
INDUSTRY_INDEX.add('FS', 'fintech', true);
INDUSTRY_INDEX.add('FSI', 'fintech', true);

const NAME_INDEX = new PhraseIndex<string>('stem');
for (const concept of INDUSTRIES) for (const term of concept.nameTerms ?? []) NAME_INDEX.add(term, concept.id);

/** A qualifier phrase → the concepts it is a line of. */
const QUALIFIER_INDEX = new PhraseIndex<string[]>('stem');
{
  const owners = new Map<string, string[]>();
  for (const concept of INDUSTRIES) for (const q of concept.qualifiers ?? []) owners.set(q, [...(owners.get(q) ?? []), concept.id]);
  for (const [phrase, ids] of owners) QUALIFIER_INDEX.add(phrase, ids);
}

export function industryLabel(id: string): string {
  return CONCEPTS.get(id)?.label ?? id;
}

/**
 * The industry hits in `tokens`, without the ones that only name a line of another concept the
 * same text names ("Insurers: life, P&C, health" is insurance only). Marks `consumed` as `scan` does.
 */
export function scanIndustries(tokens: readonly Token[], options: { consumed?: boolean[]; mark?: boolean } = {}): PhraseHit<string>[] {
  const hits = INDUSTRY_INDEX.scan(tokens, { ...options, strictCase: true });
  const named = new Set(hits.map((h) => h.value));
  return hits.filter((hit) => {
    const qualifier = QUALIFIER_INDEX.longestAt(tokens, hit.start);
    return !(qualifier && qualifier.end === hit.end && qualifier.value.some((owner) => owner !== hit.value && named.has(owner)));
  });
}

/** Concepts named anywhere in one industry string, e.g. "Computer and Network Security". */
export function industryConcepts(text: string): string[] {
  const concepts = scanIndustries(prepareTaxonomyText(text)).map((hit) => hit.value);
  // Provider names join words with slashes ("Package/Freight Delivery"): read whole, they can name a narrower concept.
  if (text.includes('/')) concepts.push(...scanIndustries(prepareTaxonomyText(text.replace(/\//g, ' '))).map((hit) => hit.value));
  return unique(concepts);
}

/** Concepts a company's name reveals ("Blue Fox Agency" → marketing). */
export function nameConcepts(name: string): string[] {
  return unique(NAME_INDEX.scan(prepareTaxonomyText(name)).map((hit) => hit.value));
}

/** The concept itself and every concept under it (that names it among its parents), transitively. */
export function conceptClosure(id: string): string[] {
  const seen = new Set<string>([id]);
  const queue = [id];
  while (queue.length > 0) {
    for (const narrower of CHILDREN.get(queue.shift() as string) ?? []) {
      if (!seen.has(narrower)) {
        seen.add(narrower);
        queue.push(narrower);
      }
    }
  }
  return [...seen];
}

/**
 * Tokens for taxonomy lookups. "IT" in capitals is information technology; lower-case "it" is
 * the pronoun and must stay invisible.
 */
export function prepareTaxonomyText(text: string): Token[] {
  return tokenize(text.replace(/\bIT\b/g, 'information technology'));
}

// ---------------------------------------------------------------------------------------------
// Titles, functions, seniorities

/**
 * The seniority ladder: entry/junior < individual contributor (mid-level and senior) < manager/team
 * lead < head/director < VP < C-level. Founders, owners and partners sit on the top rung with the
 * C-suite.
 */
export type Tier = 'c_level' | 'vp' | 'director' | 'manager' | 'ic' | 'entry';

/** Most senior first. */
export const TIERS: readonly Tier[] = ['c_level', 'vp', 'director', 'manager', 'ic', 'entry'];

export const TIER_LABEL: Record<Tier, string> = {
  c_level: 'C-level',
  vp: 'VP',
  director: 'Head/Director',
  manager: 'Manager',
  ic: 'Individual contributor',
  entry: 'Entry level',
};

const TIER_TOKEN: Record<string, Tier> = {
  '@c_level': 'c_level',
  '@vp': 'vp',
  '@director': 'director',
  '@manager': 'manager',
  '@ic': 'ic',
  '@entry': 'entry',
};

/** C-suite codes as people write them, so "CRO" and "Chief Revenue Officer" are one title. */
const C_SUITE: Array<[string, string[], string | null]> = [
  ['ceo', ['chief executive officer', 'chief executive', 'ceo'], 'general_management'],
  ['cfo', ['chief financial officer', 'chief finance officer', 'cfo'], 'finance'],
  ['cto', ['chief technology officer', 'chief technical officer', 'chief technologist', 'cto'], 'engineering'],
  ['coo', ['chief operating officer', 'chief operations officer', 'coo'], 'operations'],
  ['cmo', ['chief marketing officer', 'cmo'], 'marketing'],
  ['cro', ['chief revenue officer', 'cro'], 'sales'],
  ['cio', ['chief information officer', 'cio'], 'it'],
  ['ciso', ['chief information security officer', 'chief security officer', 'chief cybersecurity officer', 'ciso'], 'security'],
  ['cpo', ['chief product officer', 'cpo'], 'product'],
  ['chro', ['chief people officer', 'chief human resources officer', 'chief hr officer', 'chief talent officer', 'chro'], 'hr'],
  ['cdo', ['chief data officer', 'cdo'], 'data'],
  ['caio', ['chief ai officer', 'chief artificial intelligence officer', 'caio'], 'data'],
  ['clo', ['chief legal officer', 'clo'], 'legal'],
  ['chief_customer', ['chief customer officer'], 'customer_success'],
  ['chief_commercial', ['chief commercial officer'], 'sales'],
  ['chief_sales', ['chief sales officer'], 'sales'],
  ['chief_risk', ['chief risk officer'], 'finance'],
  ['chief_procurement', ['chief procurement officer', 'chief purchasing officer'], 'procurement'],
  ['chief_strategy', ['chief strategy officer'], null],
  ['chief_compliance', ['chief compliance officer'], 'legal'],
  ['cco', ['cco'], null],
  ['cso', ['cso'], null],
];

/**
 * An abbreviation defined in brackets means its expansion: "CPOs (Chief Procurement Officer)" and
 * "Chief Procurement Officer (CPO)" are the procurement officer, not the Chief Product Officer
 * "CPO" alone would be.
 */
export function expandDefinedTitles(text: string): string {
  return text
    .replace(/\b[A-Z]{2,6}s?\s*\(\s*([Cc]hief\s[^()]{1,60}?\s[Oo]fficers?)\s*\)/g, '$1')
    .replace(/\b([Cc]hief\s[^()]{1,60}?\s[Oo]fficers?)\s*\(\s*[A-Z]{2,6}s?\s*\)/g, '$1');
}

/**
 * Rewrites into canonical tokens: C-suite codes (`@cfo`), seniority tiers (`@vp`), and one token
 * per multi-word role or function, so word order and abbreviations stop mattering.
 */
const TITLE_RULES = new PhraseIndex<string[]>('stem');
for (const [code, phrases] of C_SUITE) for (const phrase of phrases) TITLE_RULES.add(phrase, [`@${code}`, '@c_level']);
const rule = (phrases: string[], output: string[]) => phrases.forEach((p) => TITLE_RULES.add(p, output));
rule(['chief of staff'], ['chiefofstaff']);
rule(['cxo', 'c level', 'c suite', 'csuite', 'c level executive'], ['@c_level']);
rule(['founder', 'co founder', 'cofounder', 'founding partner'], ['founder', '@c_level']);
rule(['owner', 'business owner', 'co owner'], ['owner', '@c_level']);
rule(['product owner'], ['productowner']);
rule(['process owner'], ['processowner']);
rule(['president'], ['president', '@c_level']);
rule(['managing director', 'md'], ['managingdirector', '@c_level']);
rule(['managing partner', 'general partner', 'senior partner', 'equity partner'], ['partner', '@c_level']);
rule(['executive director'], ['executivedirector', '@c_level']);
rule(['general manager', 'gm'], ['generalmanager', '@director']);
rule(
  [
    'vice president',
    'vp',
    'svp',
    'evp',
    'avp',
    'senior vice president',
    'executive vice president',
    'assistant vice president',
    'group vice president',
    'vice pres',
  ],
  ['@vp'],
);
rule(['director', 'dir', 'head', 'senior director', 'associate director', 'group director', 'global head'], ['@director']);
rule(['manager', 'mgr', 'senior manager', 'team lead', 'team leader', 'supervisor'], ['@manager']);
rule(['individual contributor', 'ic'], ['@ic', '@entry']);
rule(['senior individual contributor', 'senior ic'], ['@ic']);
// "Individual recruiters" are the ones who recruit, not those who lead recruiting.
rule(['individual'], ['@ic', '@entry']);
rule(['senior', 'sr', 'snr', 'mid level', 'midlevel', 'mid senior', 'intermediate'], ['@ic']);
rule(['junior', 'jr', 'entry level'], ['@entry']);
// Read as "leaders" (a hint of the top three rungs), not as "senior" plus a word.
rule(
  [
    'senior management',
    'upper management',
    'top management',
    'executive management',
    'management team',
    'senior leadership',
    'leadership team',
  ],
  ['leadership'],
);
rule(['middle management', 'line management', 'line manager', 'people manager'], ['@manager']);
rule(['account executive', 'ae', 'aes'], ['accountexecutive']);
rule(['executive assistant'], ['executiveassistant']);
rule(['data protection officer', 'dpo'], ['dataprotectionofficer']);
rule(['e commerce', 'ecommerce', 'ecom'], ['ecommerce']);
rule(['sales development representative', 'sales development rep', 'sdr'], ['sdr']);
rule(['business development representative', 'business development rep', 'bdr'], ['bdr']);
// Talent acquisition is recruiting: "TA partners" and "talent acquisition folks" are recruiters.
rule(['recruiting', 'recruitment', 'talent acquisition', 'ta'], ['recruiter']);
rule(['data engineering', 'data eng'], ['dataengineering']);
rule(['data engineer'], ['dataengineering', 'engineer']);
rule(['ea'], ['executiveassistant']);
rule(['financial', 'finance', 'fin'], ['finance']);
rule(['human resources', 'human resource', 'hr', 'people operations', 'people ops'], ['hr']);
rule(['information technology', 'it'], ['it']);
rule(['cyber security', 'cybersecurity', 'infosec', 'information security', 'security'], ['security']);
rule(['technology', 'tech'], ['technology']);
rule(['engineering', 'eng', 'engg'], ['engineering']);
rule(['operations', 'ops', 'operational'], ['operations']);
rule(['marketing', 'mktg'], ['marketing']);
rule(['business development', 'biz dev', 'bizdev', 'bd'], ['businessdevelopment']);
rule(['research and development', 'rnd', 'r and d'], ['rnd']);
rule(['fp and a', 'fpa', 'financial planning and analysis'], ['fpa']);
rule(['exec'], ['executive']);
rule(['acct'], ['account']);
rule(['customer success', 'client success'], ['customersuccess']);
rule(['customer service', 'customer support', 'client services', 'customer care'], ['customersupport']);
rule(['customer experience', 'cx'], ['customerexperience']);
rule(['revenue operations', 'revops', 'rev ops'], ['revops']);
rule(['sales operations', 'sales ops'], ['salesops']);
rule(['data science', 'data scientist'], ['datascience']);
rule(['machine learning', 'ml'], ['ml']);
rule(['artificial intelligence', 'ai'], ['ai']);
rule(['public relations', 'pr'], ['pr']);
rule(['demand generation', 'demand gen'], ['demandgen']);
rule(['go to market', 'gtm'], ['gtm']);
rule(['supply chain'], ['supplychain']);
rule(['quality assurance', 'qa'], ['qa']);
rule(['user experience', 'ux'], ['ux']);
rule(['general counsel'], ['generalcounsel']);
rule(['site reliability', 'sre'], ['sre']);
rule(['full stack', 'fullstack'], ['fullstack']);
rule(['business intelligence', 'bi'], ['bi']);
rule(['deep learning', 'computer vision', 'natural language processing', 'nlp', 'mlops'], ['ml']);
rule(['pm', 'pms'], ['product', '@manager']);
rule(['em', 'ems'], ['engineering', '@manager']);
// Titles whose words point at another function than their own: a Sales Engineer sells, a Product
// Marketing Manager markets, a Media Buyer buys advertising, physical security is facilities work.
rule(
  [
    'sales engineer',
    'sales engineering',
    'solutions engineer',
    'solution engineer',
    'solutions consultant',
    'solution consultant',
    'solutions consulting',
    'solution consulting',
    'presales',
    'pre sales',
  ],
  ['salesengineer'],
);
rule(['product marketing', 'product marketer', 'pmm'], ['productmarketing']);
rule(['product design', 'product designer'], ['design', 'designer']);
rule(['marketing operations', 'marketing ops'], ['marketingops']);
rule(['media buyer', 'media buying', 'media planner', 'media planning'], ['mediabuyer']);
rule(['physical security', 'security guard', 'site security', 'loss prevention'], ['physicalsecurity']);
rule(['information technology support', 'desktop support', 'help desk', 'helpdesk', 'service desk'], ['helpdesk']);
rule(['accounts payable', 'accounts receivable'], ['accounting']);

const TITLE_STOPWORDS = new Set(['of', 'the', 'for', 'and', 'a', 'an', 'to', 'at', 'in', 'on', 'with', 'or', 'de', 'global']);

/**
 * Functions and the canonical title tokens that name them. A token names the narrowest function
 * it belongs to ("backend" is software development, not all of engineering); `FUNCTION_PARENT`
 * says which broader function a narrow one is part of.
 */
const FUNCTION_TOKENS: Record<string, string[]> = {
  finance: [
    'finance',
    'accounting',
    'accountant',
    'controller',
    'comptroller',
    'treasury',
    'treasurer',
    'fpa',
    'audit',
    'auditor',
    'tax',
    'payroll',
    'billing',
    '@cfo',
    '@chief_risk',
  ],
  engineering: [
    'engineering',
    'engineer',
    'rnd',
    'devops',
    'sre',
    'platform',
    'architect',
    'architecture',
    'technology',
    'technical',
    '@cto',
  ],
  software: ['software', 'developer', 'programmer', 'frontend', 'backend', 'fullstack', 'ios', 'android'],
  qa: ['qa', 'tester', 'test', 'testing'],
  it: ['it', 'sysadmin', 'infrastructure', 'network', 'networking', '@cio'],
  it_support: ['helpdesk'],
  security: ['security', '@ciso'],
  sales: [
    'sales',
    'revenue',
    'businessdevelopment',
    'accountexecutive',
    'sdr',
    'bdr',
    'commercial',
    'gtm',
    'salesengineer',
    'salesperson',
    'seller',
    '@cro',
    '@chief_sales',
    '@chief_commercial',
  ],
  revops: ['revops', 'salesops'],
  marketing: [
    'marketing',
    'growth',
    'brand',
    'demandgen',
    'content',
    'communication',
    'pr',
    'seo',
    'productmarketing',
    'marketingops',
    'mediabuyer',
    'marketer',
    // "Head of Digital", "E-commerce Manager": the online channel, run from marketing.
    'digital',
    'ecommerce',
    '@cmo',
  ],
  operations: [
    'operations',
    'supplychain',
    'logistics',
    'facility',
    'physicalsecurity',
    'plant',
    'warehouse',
    'fulfillment',
    'fulfilment',
    'inventory',
    'fleet',
    '@coo',
  ],
  procurement: ['procurement', 'purchasing', 'sourcing', 'buyer', '@chief_procurement'],
  product: ['product', 'productowner', '@cpo'],
  hr: ['hr', 'people', 'talent', 'recruiting', 'recruiter', 'recruitment', 'compensation', '@chro'],
  legal: [
    'legal',
    'counsel',
    'generalcounsel',
    'attorney',
    'lawyer',
    'compliance',
    'paralegal',
    'privacy',
    'dataprotectionofficer',
    '@clo',
    '@chief_compliance',
  ],
  customer_success: ['customersuccess', 'customersupport', 'customerexperience', 'support', '@chief_customer'],
  data: ['data', 'analytics', '@cdo'],
  data_science: ['datascience'],
  data_engineering: ['dataengineering'],
  project_management: ['project', 'program', 'programme', 'pmo'],
  bi: ['bi', 'reporting'],
  ml: ['ml', 'ai', '@caio'],
  design: ['design', 'designer', 'ux', 'ui', 'creative'],
  general_management: ['@ceo', 'founder', 'owner', 'president', 'managingdirector', 'generalmanager', 'executivedirector', 'chiefofstaff'],
};

/** A narrow function is part of a broader one: a backend developer works in engineering. */
const FUNCTION_PARENT: Record<string, string> = {
  software: 'engineering',
  qa: 'engineering',
  revops: 'sales',
  procurement: 'operations',
  ml: 'data',
  data_science: 'data',
  data_engineering: 'data',
  bi: 'data',
  it_support: 'it',
};

/**
 * Tokens that name a function only when nothing else in the title does: a Technical Recruiter
 * recruits, a Commercial Finance Manager is in finance, a VP Technology is in engineering, a
 * Financial Reporting Manager is in finance while a Reporting Analyst is in BI.
 */
const WEAK_FUNCTION_TOKENS = new Set(['technical', 'technology', 'commercial', 'reporting']);

export const FUNCTION_LABEL: Record<string, string> = {
  finance: 'Finance',
  engineering: 'Engineering',
  software: 'Software development',
  qa: 'Quality assurance',
  it: 'IT',
  security: 'Security',
  sales: 'Sales',
  revops: 'Revenue operations',
  marketing: 'Marketing',
  operations: 'Operations',
  procurement: 'Procurement',
  product: 'Product',
  hr: 'Human Resources',
  legal: 'Legal',
  customer_success: 'Customer Success',
  data: 'Data',
  data_science: 'Data science',
  ml: 'Machine learning and AI',
  project_management: 'Project management',
  data_engineering: 'Data engineering',
  bi: 'BI and reporting',
  it_support: 'IT support',
  design: 'Design',
  general_management: 'General Management',
};

/**
 * Only the narrowest of the functions: "IT helpdesk" names IT support, not all of IT, and "data
 * eng" names data engineering, not all of data.
 */
export function narrowestFunctions(functions: readonly string[]): string[] {
  return functions.filter((f) => !functions.some((g) => g !== f && withParentFunctions([g]).includes(f)));
}

/** The functions and every broader function they are part of. */
export function withParentFunctions(functions: readonly string[]): string[] {
  const out = [...functions];
  for (let k = 0; k < out.length; k++) {
    const parent = FUNCTION_PARENT[out[k]];
    if (parent && !out.includes(parent)) out.push(parent);
  }
  return out;
}

const FUNCTIONS_OF_TOKEN = new Map<string, string[]>();
for (const [fn, tokens] of Object.entries(FUNCTION_TOKENS)) {
  for (const token of tokens) FUNCTIONS_OF_TOKEN.set(token, [...(FUNCTIONS_OF_TOKEN.get(token) ?? []), fn]);
}

/** Role nouns that make a title an individual contributor's when no tier word is present. */
const IC_NOUNS = new Set([
  'engineer',
  'developer',
  'analyst',
  'designer',
  'scientist',
  'architect',
  'accountant',
  'recruiter',
  'consultant',
  'specialist',
  'representative',
  'rep',
  'sdr',
  'bdr',
  'accountexecutive',
  'administrator',
  'admin',
  'counsel',
  'attorney',
  'lawyer',
  'paralegal',
  'buyer',
  'marketer',
  'strategist',
  'coordinator',
  'associate',
  'officer',
  'programmer',
  'technician',
  'writer',
  'editor',
  'researcher',
  'salesperson',
  'assistant',
  'executiveassistant',
  'intern',
  'trainee',
  'apprentice',
  'agent',
  'advisor',
  'adviser',
  'auditor',
  'bookkeeper',
  'clerk',
  'operator',
  'productowner',
  'generalist',
  'datascience',
  'controller',
  'planner',
  'estimator',
  'nurse',
  'physician',
  'teacher',
  'professor',
  'student',
  'contractor',
  'freelancer',
  'expert',
  'evangelist',
  'advocate',
  'salesengineer',
  'mediabuyer',
  'tester',
  'seller',
]);

/** Role nouns that say no more than their function: "junior marketers" are junior people in marketing. */
const FUNCTION_NOUNS = new Set(['marketer', 'salesperson', 'seller']);

/** Whether a canonical token names individual people of a craft ("engineer", "marketer", "analyst"). */
export function isPeopleNoun(token: string): boolean {
  return IC_NOUNS.has(token);
}

/** Canonical tokens of a role noun, for callers that need to spot a title inside prose. */
export function isRoleNoun(token: string): boolean {
  return (IC_NOUNS.has(token) && !FUNCTION_NOUNS.has(token)) || token.startsWith('@') || FUNCTION_TOKENS.general_management.includes(token);
}

const TITLE_MODIFIERS = new Set([
  'senior',
  'junior',
  'principal',
  'staff',
  'lead',
  'associate',
  'deputy',
  'assistant',
  'regional',
  'area',
  'national',
  'field',
  'inside',
  'enterprise',
  'account',
  'solutions',
  'key',
]);

/** Whether a canonical token belongs in a title at all; prose around a title ("experienced", "growing") does not. */
export function isTitleWord(token: string): boolean {
  return isRoleNoun(token) || FUNCTIONS_OF_TOKEN.has(token) || TITLE_MODIFIERS.has(token);
}

export function isTierToken(token: string): boolean {
  return token in TIER_TOKEN;
}

export function tierOfToken(token: string): Tier | undefined {
  return TIER_TOKEN[token];
}

export function functionsOfToken(token: string): string[] {
  return FUNCTIONS_OF_TOKEN.get(token) ?? [];
}

/**
 * Canonical tokens of a title: codes, tiers and collapsed phrases, stop words dropped. An
 * unknown "Chief … Officer" still becomes a code of its own and a C-level tier.
 */
export function canonicalTitleTokens(tokens: readonly Token[]): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i];
    // "Chief of Staff to the CEO", "Assistant to the CFO", "EA to CEO": what follows says whom
    // the role supports, not what it is.
    if (token.word === 'to' && out.length > 0 && supportsWhom(tokens, i, out)) break;
    if (token.boundary) {
      i++;
      continue;
    }
    const hit = TITLE_RULES.longestAt(tokens, i);
    if (hit) {
      out.push(...hit.value);
      i = hit.end;
      continue;
    }
    if (token.stem === 'chief') {
      const officer = tokens.slice(i + 1, i + 6).findIndex((t) => t.stem === 'officer');
      if (officer > 0) {
        const middle = tokens
          .slice(i + 1, i + 1 + officer)
          .filter((t) => !t.boundary)
          .map((t) => t.stem);
        out.push(`@chief_${middle.join('_')}`, '@c_level');
        i += officer + 2;
        continue;
      }
      out.push('@c_level');
      i++;
      continue;
    }
    if (!TITLE_STOPWORDS.has(token.stem)) out.push(token.stem);
    i++;
  }
  return out;
}

/** Roles that work for someone: after them, "to (the)" names that someone. */
const SUPPORT_ROLES = new Set(['chiefofstaff', 'assistant', 'executiveassistant', 'advisor', 'adviser', 'secretary', 'pa', 'aide']);

function supportsWhom(tokens: readonly Token[], i: number, out: readonly string[]): boolean {
  const next = tokens[i + 1];
  if (!next || next.boundary) return false;
  if (SUPPORT_ROLES.has(out[out.length - 1])) return true;
  return (next.word === 'the' || next.word === 'our') && out.some((t) => IC_NOUNS.has(t) || SUPPORT_ROLES.has(t));
}

export interface TitleInfo {
  /** Canonical tokens. */
  tokens: string[];
  /** C-suite codes without the `@` ("cfo"). */
  codes: string[];
  /**
   * Most senior tier the title names; `entry` for an intern or trainee, `ic` for a plain role noun;
   * null when it says neither.
   */
  tier: Tier | null;
  /** Whether the title names its rung ("Senior", "Junior", "Intern", "Manager", "VP"), not only a role ("Analyst"). */
  tierNamed: boolean;
  /** The functions the title names, with the broader functions they are part of. */
  functions: string[];
}

/** Role nouns of the bottom rung. */
const ENTRY_NOUNS = new Set(['intern', 'trainee', 'apprentice', 'student', 'werkstudent']);
/** Words that place an individual contributor above entry level without a tier word ("Staff Engineer"). */
const IC_LEVEL_WORDS = new Set(['principal', 'staff', 'lead']);

/**
 * Role nouns that fix a title's function whatever else it names: a "Sales Engineer, Cybersecurity"
 * sells security products, a "Recruiter, Engineering" hires engineers.
 */
const DEFINING_ROLE_TOKENS = new Set([
  'salesengineer',
  'accountexecutive',
  'sdr',
  'bdr',
  'salesperson',
  'seller',
  'recruiter',
  'productmarketing',
  'mediabuyer',
  'physicalsecurity',
]);

/** Whether a canonical title token is a role noun that fixes the title's function ("salesengineer", "recruiter"). */
export function isDefiningRoleToken(token: string): boolean {
  return DEFINING_ROLE_TOKENS.has(token);
}

export function analyzeTokens(tokens: readonly string[]): TitleInfo {
  const codes = unique(tokens.filter((t) => t.startsWith('@') && !(t in TIER_TOKEN)).map((t) => t.slice(1)));
  const tiers = tokens.map((t) => TIER_TOKEN[t]).filter((t): t is Tier => t !== undefined);
  let tier: Tier | null = tiers.length > 0 ? (TIERS.find((t) => tiers.includes(t)) ?? null) : null;
  let tierNamed = tier !== null;
  if (tier === null && tokens.some((t) => ENTRY_NOUNS.has(t))) {
    tier = 'entry';
    tierNamed = true;
  } else if (tier === null && tokens.some((t) => IC_NOUNS.has(t))) {
    tier = 'ic';
    tierNamed = tokens.some((t) => IC_LEVEL_WORDS.has(t));
  }
  const named = (list: readonly string[]) => unique(list.flatMap((t) => FUNCTIONS_OF_TOKEN.get(t) ?? []));
  const defining = tokens.filter((t) => DEFINING_ROLE_TOKENS.has(t));
  const own = named(defining.length > 0 ? defining : tokens.filter((t) => !WEAK_FUNCTION_TOKENS.has(t)));
  const functions = withParentFunctions(own.length > 0 ? own : named(tokens));
  return { tokens: [...tokens], codes, tier, tierNamed, functions };
}

/** "VP Sales" → tier VP, function Sales; "Chief Revenue Officer" → code cro, C-level, Sales. */
export function analyzeTitle(title: string): TitleInfo {
  return analyzeTokens(canonicalTitleTokens(prepareTaxonomyText(title)));
}

// Seniority as data providers and people write it, which differs from titles: a stated seniority
// of "Executive" means C-level, while "Account Executive" in a title is a salesperson.
const SENIORITY_INDEX = new PhraseIndex<Tier[]>('stem');
const seniority = (tiers: Tier | Tier[], phrases: string[]) =>
  phrases.forEach((p) => SENIORITY_INDEX.add(p, typeof tiers === 'string' ? [tiers] : tiers));
seniority('c_level', [
  'c level',
  'c suite',
  'csuite',
  'cxo',
  'c level executive',
  'chief',
  'executive',
  'exec',
  'owner',
  'founder',
  'co founder',
  'cofounder',
  'partner',
  'president',
  'board',
]);
seniority('vp', ['vp', 'vice president', 'svp', 'evp', 'avp', 'vp level', 'senior vice president', 'executive vice president']);
seniority('director', [
  'director',
  'head',
  'senior director',
  'head of',
  'dir',
  'director level',
  'heads',
  'associate director',
  'general manager',
  'head of department',
  'heads of department',
  'department head',
  'hod',
]);
seniority('manager', [
  'manager',
  'management',
  'lead',
  'team lead',
  'team leader',
  'supervisor',
  'mgr',
  'senior manager',
  'assistant manager',
  'manager level',
  'managerial',
  'people manager',
]);
seniority('ic', [
  'senior',
  'senior ic',
  'senior individual contributor',
  'staff',
  'associate',
  'professional',
  'specialist',
  'mid level',
  'mid senior',
  'mid senior level',
  'experienced',
  'intermediate',
]);
seniority('entry', [
  'entry',
  'entry level',
  'junior',
  'intern',
  'internship',
  'trainee',
  'training',
  'unpaid',
  'apprentice',
  'graduate',
  'working student',
]);
seniority(['ic', 'entry'], ['individual contributor', 'ic', 'non manager', 'non management', 'employee']);

type SeniorityOperator = 'range' | 'start' | 'and' | 'up' | 'down' | 'at_least' | 'at_most' | 'below' | 'above';

/**
 * Words that turn rungs into a range. After a rung: "Director+" (`up`, with "+"), "VP or higher",
 * "manager and below" (`down`). Before a rung: "at least VP", "no more senior than director",
 * "below C-level" (exclusive), "above manager" (exclusive). Between two rungs (`range`): "team
 * leads up to heads", "managers through VPs", with an optional "from" or "between" (`start`).
 */
const SENIORITY_OPERATORS: Array<[SeniorityOperator, string[]]> = [
  [
    'range',
    ['to', 'up to', 'through', 'thru', 'until', 'till', 'all the way to', 'all the way up to', 'up to and including', 'to and including'],
  ],
  ['start', ['from', 'between', 'anywhere from']],
  ['and', ['and']],
  ['up', ['and above', 'and up', 'and higher', 'and beyond', 'or above', 'or higher', 'or more senior', 'upwards']],
  ['down', ['and below', 'or below', 'or lower', 'and under', 'or more junior', 'and down', 'downwards']],
  ['at_least', ['at least', 'minimum', 'min', 'no less senior than', 'no lower than', 'no more junior than', 'starting at', 'starts at']],
  [
    'at_most',
    [
      'up to',
      'at most',
      'max',
      'maximum',
      'no more senior than',
      'no higher than',
      'no more than',
      'not above',
      'stop at',
      'stops at',
      'stopping at',
      'capped at',
      'cap at',
      'top out at',
      'tops out at',
      'topping out at',
    ],
  ],
  ['below', ['below', 'beneath', 'less senior than', 'more junior than']],
  ['above', ['above', 'more senior than']],
];
const OPERATOR_INDEX = new PhraseIndex<SeniorityOperator[]>('word');
for (const [operator, phrases] of SENIORITY_OPERATORS) {
  for (const phrase of phrases) {
    const existing = OPERATOR_INDEX.exact(phrase);
    if (existing) existing.push(operator);
    else OPERATOR_INDEX.add(phrase, [operator]);
  }
}
/** Words that may follow a rung without ending it: "director-level and above", "senior analysts to managers". */
const RUNG_TAIL = new Set(['level', 'levels', 'rung', 'rungs', 'grade', 'role', 'roles', 'position', 'positions', 'title', 'titles']);

export interface SeniorityHit {
  start: number;
  /** Exclusive. */
  end: number;
  tiers: Tier[];
  /** A floor or a ceiling ("at least VP", "stop at VP"): it bounds the other rungs named beside it. */
  bound?: boolean;
}

type SeniorityItem = { start: number; end: number } & ({ rung: Tier[] } | { operators: SeniorityOperator[] });

/** The tiers from the most senior to the most junior rung named, inclusive. */
function span(from: Tier[], to: Tier[] = from): Tier[] {
  const ranks = [...from, ...to].map((t) => TIERS.indexOf(t));
  return TIERS.slice(Math.min(...ranks), Math.max(...ranks) + 1);
}
const above = (rung: Tier[]) => TIERS.slice(0, Math.min(...rung.map((t) => TIERS.indexOf(t))));
const below = (rung: Tier[]) => TIERS.slice(Math.max(...rung.map((t) => TIERS.indexOf(t))) + 1);

/**
 * Rungs and the words between them, in order; any other word ends a run. A word after a rung
 * that only says what the rung is ("level", a role noun: "senior analyst") is skipped.
 */
function seniorityItems(tokens: readonly Token[], consumed?: readonly boolean[]): SeniorityItem[][] {
  const runs: SeniorityItem[][] = [];
  let run: SeniorityItem[] = [];
  const end = () => {
    if (run.length > 0) runs.push(run);
    run = [];
  };
  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i];
    const last = run[run.length - 1];
    if (consumed?.[i]) {
      end();
      i++;
      continue;
    }
    // "Director+", "VP plus"; not "VPs plus directors".
    const next = tokens[i + 1];
    const ending = !next || next.boundary;
    if ((token.word === '+' || (token.word === 'plus' && ending)) && last && 'rung' in last) {
      run.push({ start: i, end: i + 1, operators: ['up'] });
      i++;
      continue;
    }
    if (token.boundary) {
      end();
      i++;
      continue;
    }
    // "manager up to CFO": after a range word, a C-suite title is the top rung.
    const chief = last && 'operators' in last && last.operators.includes('range') ? TITLE_RULES.longestAt(tokens, i) : null;
    if (chief && chief.value.includes('@c_level')) {
      run.push({ start: i, end: chief.end, rung: ['c_level'] });
      i = chief.end;
      continue;
    }
    const operator = OPERATOR_INDEX.longestAt(tokens, i);
    if (operator) {
      run.push({ start: i, end: operator.end, operators: operator.value });
      i = operator.end;
      continue;
    }
    const rung = SENIORITY_INDEX.longestAt(tokens, i);
    if (rung && !inTitlePhrase(tokens, i, rung.end)) {
      run.push({ start: i, end: rung.end, rung: rung.value });
      i = rung.end;
      continue;
    }
    if (last && 'rung' in last && (RUNG_TAIL.has(token.stem) || IC_NOUNS.has(token.stem))) {
      last.end = i + 1;
      i++;
      continue;
    }
    end();
    i++;
  }
  end();
  return runs;
}

/**
 * Seniorities stated in text: single rungs ("VP", in `list` mode only), ranges ("Senior IC to
 * Manager", "from team leads up to heads of department"), open ranges ("Director+", "VP or
 * higher", "at least VP") and ceilings ("no more senior than director", "below C-level"). In
 * prose (`list` false) a single rung counts only as "at C-level" or "VP level only": elsewhere it
 * is part of a title.
 */
export function findSeniority(tokens: readonly Token[], list: boolean, consumed?: readonly boolean[]): SeniorityHit[] {
  const hits: SeniorityHit[] = [];
  for (const run of seniorityItems(tokens, consumed)) {
    let k = 0;
    while (k < run.length) {
      const item = run[k];
      const next = run[k + 1];
      const after = run[k + 2];
      const has = (x: SeniorityItem | undefined, op: SeniorityOperator) => x !== undefined && 'operators' in x && x.operators.includes(op);
      const rungOf = (x: SeniorityItem | undefined) => (x && 'rung' in x ? x.rung : null);
      if ('operators' in item) {
        const target = rungOf(next);
        const startsRange = has(item, 'start') && target && (has(after, 'range') || has(after, 'and')) && rungOf(run[k + 3]);
        if (startsRange) {
          hits.push({ start: item.start, end: run[k + 3].end, tiers: span(target, rungOf(run[k + 3]) as Tier[]) });
          k += 4;
          continue;
        }
        if (target && (has(item, 'at_least') || has(item, 'at_most') || has(item, 'below') || has(item, 'above'))) {
          const tiers = has(item, 'at_least')
            ? span(target, ['c_level'])
            : has(item, 'at_most')
              ? span(target, ['entry'])
              : has(item, 'below')
                ? below(target)
                : above(target);
          hits.push({ start: item.start, end: next.end, tiers, bound: true });
          k += 2;
          continue;
        }
        k++;
        continue;
      }
      const rung = item.rung;
      const to = rungOf(after);
      if (has(next, 'range') && to) {
        hits.push({ start: item.start, end: after.end, tiers: span(rung, to) });
        k += 3;
        continue;
      }
      if (has(next, 'up') || has(next, 'down')) {
        hits.push({ start: item.start, end: next.end, tiers: has(next, 'up') ? span(rung, ['c_level']) : span(rung, ['entry']) });
        k += 2;
        continue;
      }
      // "Senior ICs and team leads only": the "only" after a list of rungs states each of them.
      let last = k;
      while (has(run[last + 1], 'and') && rungOf(run[last + 2])) last += 2;
      if (list || statedAsLevel(tokens, item) || (last > k && statedAsLevel(tokens, run[last])))
        hits.push({ start: item.start, end: item.end, tiers: rung });
      k++;
    }
  }
  return hits;
}

/** Whether a rung word is part of a title phrase that names no tier: "Account Executive", "Executive Assistant". */
function inTitlePhrase(tokens: readonly Token[], start: number, end: number): boolean {
  const covering = [TITLE_RULES.longestAt(tokens, start - 1), TITLE_RULES.longestAt(tokens, start)];
  return covering.some((hit) => hit !== null && hit.end >= end && hit.end - hit.start > end - start && !hit.value.some(isTierToken));
}

/** "at C-level", "at director level", "VP level only": a rung stated as such in prose. */
function statedAsLevel(tokens: readonly Token[], item: { start: number; end: number }): boolean {
  const words = tokens.slice(item.start, item.end).map((t) => t.word);
  const following = tokens[item.end];
  if (following && !following.boundary && following.word === 'only') return true;
  const previous = tokens[item.start - 1];
  return previous !== undefined && previous.word === 'at' && words.some((w) => w === 'level' || w === 'levels' || w === 'suite');
}

/**
 * Tiers named in a seniority list; "Director+", "VP or higher" and "Manager to VP" include every
 * tier between. A floor or ceiling beside other rungs bounds them: "manager and up, but stop at
 * VP" is manager to VP.
 */
/** A C-suite title as the rung it stands for, in a seniority value: "Head/Director up to CRO". */
const C_SUITE_RUNG = new RegExp(String.raw`\b(?:${C_SUITE.flatMap(([, phrases]) => phrases).join('|')})s?\b`, 'gi');

export function senioritiesOf(text: string): Tier[] {
  const hits = findSeniority(prepareTaxonomyText(text.replace(C_SUITE_RUNG, 'C-level')), true);
  const named = new Set(hits.filter((hit) => !hit.bound).flatMap((hit) => hit.tiers));
  const bounds = hits.filter((hit) => hit.bound);
  const bounded = TIERS.filter((t) => named.has(t) && bounds.every((hit) => hit.tiers.includes(t)));
  if (named.size > 0 && bounded.length > 0) return bounded;
  const found = new Set(hits.flatMap((hit) => hit.tiers));
  return TIERS.filter((t) => found.has(t));
}

/** A Buyer's stated seniority ("C-Suite", "vp", "Head", "Entry"), or null when unrecognised. */
export function tierOfSeniority(value: string): Tier | null {
  const hits = SENIORITY_INDEX.scan(prepareTaxonomyText(value));
  if (hits.length === 0) return null;
  return TIERS.find((t) => hits.some((h) => h.value.includes(t))) ?? null;
}

const RUNG_BEFORE = /(?:[\p{L}\p{N}]+[\s-]+)?[\p{L}\p{N}]+$/u;
const RUNG_AFTER = /^[\p{L}\p{N}]+(?:[\s-]+[\p{L}\p{N}]+)?/u;

/** Whether the one or two words are a rung ("VP", "C-level", "team lead"), or end (`before`) or start with one. */
function rungAt(words: string, before: boolean): boolean {
  if (SENIORITY_INDEX.exact(words) !== undefined) return true;
  const one = (before ? /[\p{L}\p{N}]+$/u : /^[\p{L}\p{N}]+/u).exec(words)?.[0];
  return one !== undefined && one !== words && SENIORITY_INDEX.exact(one) !== undefined;
}

/**
 * A dash between two rungs is a range ("Manager – VP", "Manager-Director"): it becomes "to". With
 * `other`, any other dash standing between words (a spaced hyphen, an en or em dash) becomes
 * `other`; a hyphen inside a word ("C-level", "co-founder") stays.
 */
export function seniorityDashes(text: string, other?: string): string {
  // An arrow always runs from one rung to another: "EM → VP Eng".
  const arrowed = text.replace(/\s*(?:→|⟶|⇒|->|=>)\s*/g, ' to ');
  return arrowed.replace(/[–—]|-+/g, (dash: string, offset: number) => {
    const text = arrowed;
    const end = offset + dash.length;
    const left = RUNG_BEFORE.exec(text.slice(Math.max(0, offset - 40), offset).trimEnd())?.[0] ?? '';
    const right = RUNG_AFTER.exec(text.slice(end, end + 40).trimStart())?.[0] ?? '';
    if (left && right && rungAt(left, true) && rungAt(right, false)) return ' to ';
    const between = dash === '–' || dash === '—' || (/\s/.test(text[offset - 1] ?? ' ') && /\s/.test(text[end] ?? ' '));
    return other !== undefined && between ? other : dash;
  });
}

/** Functions named in a function field or list, narrowest only ("Finance & Accounting" → finance). */
export function functionsOf(text: string): string[] {
  return unique(canonicalTitleTokens(prepareTaxonomyText(text)).flatMap((t) => FUNCTIONS_OF_TOKEN.get(t) ?? []));
}
