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
  const hits = INDUSTRY_INDEX.scan(tokens, options);
  const named = new Set(hits.map((h) => h.value));
  return hits.filter((hit) => {
    const qualifier = QUALIFIER_INDEX.longestAt(tokens, hit.start);
    return !(qualifier && qualifier.end === hit.end && qualifier.value.some((owner) => owner !== hit.value && named.has(owner)));
  });
}

/** Concepts named anywhere in one industry string, e.g. "Computer and Network Security". */
export function industryConcepts(text: string): string[] {
  return unique(scanIndustries(prepareTaxonomyText(text)).map((hit) => hit.value));
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

export type Tier = 'c_level' | 'vp' | 'director' | 'manager' | 'ic';

/** Most senior first. */
export const TIERS: readonly Tier[] = ['c_level', 'vp', 'director', 'manager', 'ic'];

export const TIER_LABEL: Record<Tier, string> = {
  c_level: 'C-level',
  vp: 'VP',
  director: 'Head/Director',
  manager: 'Manager',
  ic: 'Individual contributor',
};

const TIER_TOKEN: Record<string, Tier> = {
  '@c_level': 'c_level',
  '@vp': 'vp',
  '@director': 'director',
  '@manager': 'manager',
  '@ic': 'ic',
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
  ['chief_strategy', ['chief strategy officer'], null],
  ['chief_compliance', ['chief compliance officer'], 'legal'],
  ['cco', ['cco'], null],
  ['cso', ['cso'], null],
];

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
rule(['individual contributor'], ['@ic']);
rule(['account executive', 'ae'], ['accountexecutive']);
rule(['executive assistant'], ['executiveassistant']);
rule(['sales development representative', 'sales development rep', 'sdr'], ['sdr']);
rule(['business development representative', 'business development rep', 'bdr'], ['bdr']);
rule(['recruiting', 'recruitment'], ['recruiter']);
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
rule(['sr', 'snr'], ['senior']);
rule(['jr'], ['junior']);
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

const TITLE_STOPWORDS = new Set([
  'of',
  'the',
  'for',
  'and',
  'a',
  'an',
  'to',
  'at',
  'in',
  'on',
  'with',
  'or',
  'de',
  'global',
  'interim',
  'acting',
]);

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
    'developer',
    'software',
    'rnd',
    'devops',
    'sre',
    'platform',
    'architect',
    'architecture',
    'qa',
    'technology',
    'technical',
    'programmer',
    'frontend',
    'backend',
    'fullstack',
    '@cto',
  ],
  it: ['it', 'sysadmin', 'helpdesk', 'infrastructure', 'network', 'networking', '@cio'],
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
    'salesops',
    'revops',
    '@cro',
    '@chief_sales',
    '@chief_commercial',
  ],
  marketing: ['marketing', 'growth', 'brand', 'demandgen', 'content', 'communication', 'pr', 'seo', '@cmo'],
  operations: ['operations', 'supplychain', 'logistics', 'procurement', 'purchasing', 'facility', 'revops', '@coo'],
  product: ['product', 'productowner', '@cpo'],
  hr: ['hr', 'people', 'talent', 'recruiting', 'recruiter', 'recruitment', 'compensation', '@chro'],
  legal: ['legal', 'counsel', 'generalcounsel', 'attorney', 'lawyer', 'compliance', 'paralegal', 'privacy', '@clo', '@chief_compliance'],
  customer_success: ['customersuccess', 'customersupport', 'customerexperience', 'support', '@chief_customer'],
  data: ['data', 'analytics', 'datascience', 'bi', 'ml', 'ai', '@cdo', '@caio'],
  design: ['design', 'designer', 'ux', 'ui', 'creative'],
  general_management: ['@ceo', 'founder', 'owner', 'president', 'managingdirector', 'generalmanager', 'executivedirector', 'chiefofstaff'],
};

export const FUNCTION_LABEL: Record<string, string> = {
  finance: 'Finance',
  engineering: 'Engineering',
  it: 'IT',
  security: 'Security',
  sales: 'Sales',
  marketing: 'Marketing',
  operations: 'Operations',
  product: 'Product',
  hr: 'Human Resources',
  legal: 'Legal',
  customer_success: 'Customer Success',
  data: 'Data',
  design: 'Design',
  general_management: 'General Management',
};

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
]);

/** Canonical tokens of a role noun, for callers that need to spot a title inside prose. */
export function isRoleNoun(token: string): boolean {
  return IC_NOUNS.has(token) || token.startsWith('@') || FUNCTION_TOKENS.general_management.includes(token);
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

export interface TitleInfo {
  /** Canonical tokens. */
  tokens: string[];
  /** C-suite codes without the `@` ("cfo"). */
  codes: string[];
  /** Most senior tier the title names, or `ic` for a plain role noun; null when it says neither. */
  tier: Tier | null;
  functions: string[];
}

export function analyzeTokens(tokens: readonly string[]): TitleInfo {
  const codes = unique(tokens.filter((t) => t.startsWith('@') && !(t in TIER_TOKEN)).map((t) => t.slice(1)));
  const tiers = tokens.map((t) => TIER_TOKEN[t]).filter((t): t is Tier => t !== undefined);
  let tier: Tier | null = tiers.length > 0 ? (TIERS.find((t) => tiers.includes(t)) ?? null) : null;
  if (tier === null && tokens.some((t) => IC_NOUNS.has(t))) tier = 'ic';
  const functions = unique(tokens.flatMap((t) => FUNCTIONS_OF_TOKEN.get(t) ?? []));
  return { tokens: [...tokens], codes, tier, functions };
}

/** "VP Sales" → tier VP, function Sales; "Chief Revenue Officer" → code cro, C-level, Sales. */
export function analyzeTitle(title: string): TitleInfo {
  return analyzeTokens(canonicalTitleTokens(prepareTaxonomyText(title)));
}

// Seniority as data providers and people write it, which differs from titles: a stated seniority
// of "Executive" means C-level, while "Account Executive" in a title is a salesperson.
const SENIORITY_INDEX = new PhraseIndex<Tier>('stem');
const seniority = (tier: Tier, phrases: string[]) => phrases.forEach((p) => SENIORITY_INDEX.add(p, tier));
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
seniority('director', ['director', 'head', 'senior director', 'head of', 'dir', 'director level', 'heads']);
seniority('manager', ['manager', 'management', 'lead', 'team lead', 'supervisor', 'mgr', 'senior manager', 'manager level', 'managerial']);
seniority('ic', [
  'individual contributor',
  'ic',
  'senior',
  'entry',
  'entry level',
  'junior',
  'staff',
  'associate',
  'intern',
  'internship',
  'trainee',
  'non manager',
  'non management',
  'professional',
  'employee',
  'specialist',
  'training',
  'mid level',
  'mid senior',
  'mid senior level',
  'experienced',
]);

const AND_ABOVE =
  /(?:\+|\band\s+(?:above|up|higher|over)\b|\bor\s+(?:above|higher|more\s+senior|senior)\b|\bplus\b|\bat\s+least\b|\bminimum\b)/i;

/** Tiers named in a seniority list; "Director+" or "VP and above" includes every tier above. */
export function senioritiesOf(text: string): Tier[] {
  const found = new Set<Tier>();
  for (const item of text.split(/[,;|/\n]|\bor\b/i)) {
    const hits = SENIORITY_INDEX.scan(prepareTaxonomyText(item));
    for (const hit of hits) {
      found.add(hit.value);
      if (AND_ABOVE.test(item)) for (const tier of TIERS.slice(0, TIERS.indexOf(hit.value))) found.add(tier);
    }
  }
  return TIERS.filter((t) => found.has(t));
}

/** A Buyer's stated seniority ("C-Suite", "vp", "Head", "Entry"), or null when unrecognised. */
export function tierOfSeniority(value: string): Tier | null {
  const hits = SENIORITY_INDEX.scan(prepareTaxonomyText(value));
  if (hits.length === 0) return null;
  return TIERS.find((t) => hits.some((h) => h.value === t)) ?? null;
}

/** Functions named in a function field or list ("Finance & Accounting" → finance). */
export function functionsOf(text: string): string[] {
  return analyzeTitle(text).functions;
}
