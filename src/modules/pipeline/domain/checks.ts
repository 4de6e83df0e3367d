/**
 * One criterion against one Buyer. A criterion the Buyer has no data for (empty text, zero
 * count, empty list) is `unknown`, never `failed`: missing enrichment must not count against a
 * Buyer, and it must not count for one either.
 */
import type { FieldSources } from '../../buyers/buyer-evaluation';
import type { CompanyInfo, ContactInfo } from '../../buyers/buyer-shape';
import { companyTypeOf, describeStages, stageLabel, stageOf, TYPE_LABEL } from './company-terms';
import type { Criterion, Exclusions, Keyword, TitlePattern } from './criteria';
import { yearInRange } from './founded';
import { countryName, resolveCountry, resolveState, stateCountry, stateName } from './geo';
import { formatCount, formatMoney, formatRange, inRange } from './ranges';
import {
  analyzeTitle,
  conceptClosure,
  FUNCTION_LABEL,
  functionsOf,
  industryConcepts,
  industryLabel,
  nameConcepts,
  prepareTaxonomyText,
  Tier,
  TIER_LABEL,
  tierOfSeniority,
  TitleInfo,
  withParentFunctions,
} from './taxonomy';
import { containsPhrase, joinList, unique } from './text';

export type Status = 'passed' | 'failed' | 'unknown';

/**
 * A criterion's kind as the API names it: industry, keyword, employees, revenue, country, state,
 * funding_stage, total_funding, founded, company_type, title, function, seniority, exclusion.
 * An industry criterion made only of words the taxonomy does not know (`onlyKeywords`) is a
 * keyword criterion: it is matched on the words as written.
 */
export function publicKind(kind: Criterion['kind'], onlyKeywords = false): string {
  if (kind === 'industry' && onlyKeywords) return 'keyword';
  return kind === 'funding' ? 'funding_stage' : kind;
}

export interface Check {
  kind: Criterion['kind'];
  /** "industry", "employees", "title"… */
  label: string;
  status: Status;
  /** The Buyer's value as a reasoning quotes it; `''` when unknown. */
  actual: string;
  /** What the profile asks for. */
  expected: string;
  /** The default a word was read as ("mid-market, read as 100–999"): a reasoning names it whether the check passed or not. */
  assumed?: string;
}

/** Company types whose industries say the same thing when `company_type` is empty. */
const TYPE_CONCEPT: Record<string, string> = { government: 'government', nonprofit: 'nonprofit', education: 'education' };

/** What a Buyer's company says, worked out once per evaluation rather than once per criterion. */
export class CompanyFacts {
  readonly industries: string[];
  readonly concepts: Set<string>;
  readonly industryStems: string[][];
  readonly nameStems: string[];
  readonly nameConcepts: string[];
  readonly country: string;
  readonly countryIso: string | null;
  readonly state: string;
  /** ISO 3166-2 ("US-NY"); null when the state is missing, unknown or not in the stated country. */
  readonly stateIso: string | null;
  readonly stageRaw: string;
  readonly stage: string | null;
  /** The stage as a reasoning quotes it. */
  readonly stageShown: string;
  readonly typeRaw: string;
  readonly type: string | null;

  constructor(readonly info: CompanyInfo) {
    this.industries = info.industries;
    this.concepts = new Set(info.industries.flatMap(industryConcepts));
    this.industryStems = info.industries.map(stemsOf);
    this.nameStems = stemsOf(info.name);
    this.nameConcepts = info.name ? nameConcepts(info.name) : [];
    this.country = info.location.country;
    this.countryIso = resolveCountry(this.country);
    this.state = info.location.state ?? '';
    this.stateIso = resolveState(this.state, this.countryIso);
    this.stageRaw = info.latest_funding_stage;
    this.typeRaw = info.company_type;
    this.type = companyTypeOf(this.typeRaw);
    // A public company is at no private funding stage, whatever round a provider last recorded.
    const stated = stageOf(this.stageRaw);
    this.stage = this.type === 'public' ? 'ipo' : stated;
    this.stageShown =
      this.type === 'public' && stated !== 'ipo'
        ? `${stageLabel('ipo')} per company type ${this.typeRaw}`
        : this.stage === 'other'
          ? this.stageRaw
          : this.stage
            ? stageLabel(this.stage)
            : '';
  }

  hasConcept(concept: string): boolean {
    return conceptClosure(concept).some((c) => this.concepts.has(c));
  }

  /** The industry strings that carry a concept, for quoting. */
  industriesWith(concept: string): string[] {
    const closure = conceptClosure(concept);
    return this.industries.filter((i) => industryConcepts(i).some((c) => closure.includes(c)));
  }
}

export class ContactFacts {
  readonly title: string;
  readonly titleInfo: TitleInfo | null;
  readonly seniorityRaw: string;
  readonly statedTier: Tier | null;
  readonly functionRaw: string;
  readonly statedFunctions: string[];
  readonly country: string;
  readonly state: string;

  constructor(readonly info: ContactInfo) {
    this.title = info.role.title;
    this.titleInfo = this.title ? analyzeTitle(this.title) : null;
    this.seniorityRaw = info.role.seniority;
    this.statedTier = this.seniorityRaw ? tierOfSeniority(this.seniorityRaw) : null;
    this.functionRaw = info.role.function;
    this.statedFunctions = this.functionRaw ? withParentFunctions(functionsOf(this.functionRaw)) : [];
    this.country = info.location.country;
    this.state = info.location.state ?? '';
  }

  /**
   * The title's rung when the title names one ("Senior Manager", "VP", "Intern"): providers often
   * file a senior manager as "Senior" or a VP as "Manager". Else the stated seniority, which refines
   * a bare role ("Analyst", stated "Entry"). Else the title's role noun: an individual contributor.
   */
  get tier(): Tier | null {
    return this.tierSource === 'stated' ? this.statedTier : (this.titleInfo?.tier ?? null);
  }

  /** Where `tier` comes from; null when neither the title nor the stated seniority gives one. */
  get tierSource(): 'title' | 'stated' | null {
    const info = this.titleInfo;
    if (info?.tier && info.tierNamed) return 'title';
    if (this.statedTier) return 'stated';
    return info?.tier ? 'title' : null;
  }

  /**
   * The functions the title names: a Sales Engineer is in sales whatever the provider filed. The
   * stated function only when the title names none ("Director", function Finance).
   */
  get functions(): string[] {
    return this.functionsFromTitle ? (this.titleInfo?.functions ?? []) : this.statedFunctions;
  }

  get functionsFromTitle(): boolean {
    return (this.titleInfo?.functions.length ?? 0) > 0;
  }
}

function stemsOf(text: string): string[] {
  return prepareTaxonomyText(text)
    .filter((t) => !t.boundary)
    .map((t) => t.stem);
}

const quote = (text: string) => `"${text}"`;
const or = (items: string[]) => joinList(items, 'or');
/** "mid-market, read as 100–999" when the profile used a word for the range. */
const readAs = (assumed: string | undefined, shown: string) => (assumed ? `${assumed}, read as ${shown}` : shown);

function keywordHit(keywords: readonly Keyword[], haystacks: readonly string[][]): Keyword | undefined {
  return keywords.find((k) => haystacks.some((h) => containsPhrase(h, k.stems)));
}

/** `false` wins over `null` (unknown), which wins over `true`. */
function all(values: Array<boolean | null>): boolean | null {
  if (values.includes(false)) return false;
  if (values.includes(null)) return null;
  return true;
}

/**
 * Whether a contact's title fits a pattern; null when the contact has too little data to say.
 * A known title is judged on what it says, with the stated seniority or function filling in
 * only what the title leaves out.
 */
export function matchTitle(pattern: TitlePattern, contact: ContactFacts): boolean | null {
  const info = contact.titleInfo;
  if (pattern.codes.length > 0) {
    return info ? pattern.codes.some((c) => info.codes.includes(c)) && pattern.tokens.every((t) => info.tokens.includes(t)) : null;
  }
  if (pattern.tokens.length > 0 && !info) return null;
  const tier = contact.tier;
  const functions = contact.functions;
  const tierOk = pattern.tiers.length === 0 ? true : tier ? pattern.tiers.includes(tier) : info ? false : null;
  const functionOk =
    pattern.functions.length === 0
      ? true
      : functions.length > 0
        ? pattern.functions.some((f) => functions.includes(f))
        : info
          ? false
          : null;
  const tokensOk = pattern.tokens.every((t) => info?.tokens.includes(t));
  return all([tierOk, functionOk, tokensOk]);
}

function contactRoleText(contact: ContactFacts): string {
  if (contact.title) return quote(contact.title);
  return [contact.seniorityRaw && `seniority ${contact.seniorityRaw}`, contact.functionRaw && `function ${contact.functionRaw}`]
    .filter(Boolean)
    .join(', ');
}

/** How a criterion is named and what it asks for: the `label`, `expected` and `assumed` of every check of it. */
export interface CriterionTerms {
  label: string;
  expected: string;
  /** Set when a word was read as a default ("mid-market, read as 100–999"): the whole expectation. */
  assumed?: string;
}

/**
 * The label and expectation of a criterion, whatever the Buyer: `check` builds its results from
 * them, and anything that shows a criterion without a Buyer (the reading of a description) says
 * the same words.
 */
export function describeCriterion(criterion: Criterion): CriterionTerms {
  const terms = (label: string, expected: string): CriterionTerms => {
    const words = 'assumed' in criterion ? criterion.assumed : undefined;
    if (words === undefined) return { label, expected };
    const shown = readAs(words, expected);
    return { label, expected: shown, assumed: shown };
  };
  const money = (currency: string) => (v: number) => formatMoney(v, currency);
  switch (criterion.kind) {
    case 'industry':
      return terms('industry', or([...criterion.concepts.map(industryLabel), ...criterion.keywords.map((k) => k.text)]));
    case 'employees':
      return terms('employees', or(criterion.ranges.map((r) => formatRange(r, formatCount))));
    case 'revenue':
      return terms('revenue', or(criterion.ranges.map((r) => formatRange(r, money(criterion.currency)))));
    case 'country':
      return terms('country', or(criterion.labels));
    case 'state':
      return terms('state', or(criterion.labels));
    case 'funding':
      return terms('funding stage', describeStages(criterion.stages));
    case 'total_funding':
      return terms('total funding', or(criterion.ranges.map((r) => formatRange(r, money(criterion.currency)))));
    case 'founded':
      return terms('founded', criterion.text);
    case 'company_type':
      return terms('company type', or(criterion.types.map((t) => TYPE_LABEL[t] ?? t)));
    case 'title':
      return terms('title', or(criterion.patterns.map((p) => p.text)));
    case 'function':
      return terms('function', or([...criterion.functions.map((f) => FUNCTION_LABEL[f] ?? f), ...criterion.keywords.map((k) => k.text)]));
    case 'seniority':
      return terms('seniority', or(criterion.tiers.map((t) => TIER_LABEL[t])));
    case 'exclusion':
      return terms('exclusion', `not ${joinList(criterion.labels, 'or')}`);
  }
}

export function check(criterion: Criterion, company: CompanyFacts, contact: ContactFacts | null): Check {
  const { label, expected, assumed } = describeCriterion(criterion);
  const result = (status: Status, actual: string): Check => ({
    kind: criterion.kind,
    label,
    status,
    actual,
    expected,
    ...(assumed !== undefined ? { assumed } : {}),
  });
  switch (criterion.kind) {
    case 'industry': {
      if (company.industries.length === 0) return result('unknown', '');
      const concept = criterion.concepts.find((c) => company.hasConcept(c));
      if (concept) return result('passed', joinList(company.industriesWith(concept)));
      const keyword = keywordHit(criterion.keywords, company.industryStems);
      if (keyword) {
        const carriers = company.industries.filter((i) => containsPhrase(stemsOf(i), keyword.stems));
        return result('passed', joinList(carriers));
      }
      return result('failed', joinList(company.industries));
    }
    case 'employees': {
      const count = company.info.employee_count;
      if (!count) return result('unknown', '');
      return result(criterion.ranges.some((r) => inRange(count, r)) ? 'passed' : 'failed', formatCount(count));
    }
    case 'revenue': {
      const revenue = company.info.annual_revenue;
      if (!revenue) return result('unknown', '');
      return result(criterion.ranges.some((r) => inRange(revenue, r)) ? 'passed' : 'failed', formatMoney(revenue, criterion.currency));
    }
    case 'country': {
      const own = criterion.of === 'contact' && contact?.country ? contact.country : '';
      const raw = own || company.country;
      if (!raw) return result('unknown', '');
      const iso = own ? resolveCountry(own) : company.countryIso;
      const passed = iso ? criterion.countries.includes(iso) : criterion.labels.some((l) => l.toLowerCase() === raw.toLowerCase());
      const shown = iso && raw.length <= 3 && countryName(iso) !== raw ? `${raw} (${countryName(iso)})` : raw;
      return result(passed ? 'passed' : 'failed', shown);
    }
    case 'state': {
      const own = criterion.of === 'contact' && contact && (contact.state || contact.country);
      const rawCountry = own ? contact.country : company.country;
      const countryIso = own ? (contact.country ? resolveCountry(contact.country) : null) : company.countryIso;
      const rawState = own ? contact.state : company.state;
      // A state implies its country: a company elsewhere fails whatever its state field says.
      if (countryIso && criterion.elsewhere.includes(countryIso)) return result('passed', rawCountry);
      if (countryIso && !criterion.states.some((s) => stateCountry(s) === countryIso)) return result('failed', rawCountry);
      if (!rawState) return result('unknown', '');
      const iso = own ? resolveState(rawState, countryIso) : company.stateIso;
      const shown = iso && stateName(iso) !== rawState ? `${rawState} (${stateName(iso)})` : rawState;
      return result(iso && criterion.states.includes(iso) ? 'passed' : 'failed', shown);
    }
    case 'funding': {
      if (company.stage === null) return result('unknown', '');
      return result(criterion.stages.includes(company.stage) ? 'passed' : 'failed', company.stageShown);
    }
    case 'total_funding': {
      const raised = company.info.total_funding;
      if (!raised) return result('unknown', '');
      return result(criterion.ranges.some((r) => inRange(raised, r)) ? 'passed' : 'failed', formatMoney(raised, criterion.currency));
    }
    case 'founded': {
      const year = company.info.founded_year;
      if (!year) return result('unknown', '');
      return result(criterion.ranges.some((r) => yearInRange(year, r)) ? 'passed' : 'failed', String(year));
    }
    case 'company_type': {
      if (company.typeRaw)
        return result(company.type !== null && criterion.types.includes(company.type) ? 'passed' : 'failed', company.typeRaw);
      // Without a stated type, industries or an IPO can still show it; their absence shows nothing.
      for (const type of criterion.types) {
        const concept = TYPE_CONCEPT[type];
        if (concept && company.hasConcept(concept))
          return result('passed', `${TYPE_LABEL[type]} (industry ${joinList(company.industriesWith(concept))})`);
        if (type === 'public' && company.stage === 'ipo') return result('passed', `public (funding stage ${company.stageRaw})`);
      }
      return result('unknown', '');
    }
    case 'title': {
      if (!contact) return result('unknown', '');
      const outcomes = criterion.patterns.map((p) => matchTitle(p, contact));
      const status: Status = outcomes.includes(true) ? 'passed' : outcomes.includes(null) ? 'unknown' : 'failed';
      return result(status, status === 'unknown' ? '' : contactRoleText(contact));
    }
    case 'function': {
      if (!contact) return result('unknown', '');
      const functions = contact.functions;
      const fromTitle = contact.functionsFromTitle;
      const source = fromTitle ? `${joinList(functions.map((f) => FUNCTION_LABEL[f] ?? f))} per title` : contact.functionRaw;
      // Words the taxonomy does not know ("Function: Sustainability") are looked for as written.
      if (contact.title && keywordHit(criterion.keywords, [stemsOf(contact.title)])) return result('passed', quote(contact.title));
      if (!fromTitle && contact.functionRaw && keywordHit(criterion.keywords, [stemsOf(contact.functionRaw)]))
        return result('passed', contact.functionRaw);
      if (functions.length > 0) {
        return result(criterion.functions.some((f) => functions.includes(f)) ? 'passed' : 'failed', source);
      }
      if (contact.functionRaw) return result('failed', contact.functionRaw);
      // A title with no function ("Director") is not someone in the function asked for; only a
      // contact with neither a title nor a function is unknown.
      if (contact.title) return result('failed', `none in title ${quote(contact.title)}`);
      return result('unknown', '');
    }
    case 'seniority': {
      if (!contact) return result('unknown', '');
      const tier = contact.tier;
      if (!tier) return contact.seniorityRaw ? result('failed', contact.seniorityRaw) : result('unknown', '');
      const actual = contact.tierSource === 'stated' ? contact.seniorityRaw : `${TIER_LABEL[tier]} per title`;
      return result(criterion.tiers.includes(tier) ? 'passed' : 'failed', actual);
    }
    case 'exclusion':
      return checkExclusions(criterion, company, contact);
  }
}

/**
 * An exclusion fails on any evidence, a company's name included ("Blue Fox Agency"), but passes
 * only on data that could have shown it: a name without "agency" proves nothing.
 */
function checkExclusions(x: Exclusions & { kind: 'exclusion' }, company: CompanyFacts, contact: ContactFacts | null): Check {
  const hits: string[] = [];
  let known = false;
  const companyName = company.info.name;
  if (x.concepts.length > 0 || x.keywords.length > 0) {
    if (company.industries.length > 0) known = true;
    for (const concept of x.concepts) {
      const carriers = company.industriesWith(concept);
      if (carriers.length > 0) hits.push(`industry ${joinList(carriers)}`);
    }
    const keyword = keywordHit(x.keywords, company.industryStems);
    if (keyword) hits.push(`industry ${joinList(company.industries.filter((i) => containsPhrase(stemsOf(i), keyword.stems)))}`);
    const byName =
      x.concepts.some((c) => conceptClosure(c).some((k) => company.nameConcepts.includes(k))) ||
      keywordHit([...x.keywords, ...x.nameTerms], [company.nameStems]) !== undefined;
    if (companyName && byName) hits.push(`name ${quote(companyName)}`);
  }
  if (x.types.length > 0) {
    if (company.typeRaw) {
      known = true;
      if (company.type && x.types.includes(company.type)) hits.push(`company type ${company.typeRaw}`);
    }
    for (const type of x.types) {
      const concept = TYPE_CONCEPT[type];
      if (!concept) continue;
      const carriers = company.industriesWith(concept);
      if (carriers.length > 0) hits.push(`industry ${joinList(carriers)}`);
      if (companyName && company.nameConcepts.includes(concept)) hits.push(`name ${quote(companyName)}`);
    }
  }
  if (x.countries.length > 0 && company.country) {
    known = true;
    if (company.countryIso && x.countries.includes(company.countryIso)) hits.push(`country ${company.country}`);
  }
  if (x.states.length > 0 && company.state) {
    known = true;
    if (company.stateIso && x.states.includes(company.stateIso)) hits.push(`state ${company.state}`);
  }
  if (x.stages.length > 0 && company.stage !== null) {
    known = true;
    if (x.stages.includes(company.stage)) hits.push(`funding stage ${company.stageRaw || company.stageShown}`);
  }
  if (contact) {
    if (x.titles.length > 0) {
      const outcomes = x.titles.map((p) => matchTitle(p, contact));
      if (outcomes.includes(true)) hits.push(`title ${quote(contact.title)}`);
      if (outcomes.some((o) => o !== null)) known = true;
      // "no interns" also fails a contact whose stated seniority is "Intern", whatever the title says.
      const literals = x.titles.filter((p) => p.codes.length + p.tiers.length + p.functions.length === 0 && p.tokens.length > 0);
      const stated = literals.length > 0 && contact.seniorityRaw ? analyzeTitle(contact.seniorityRaw).tokens : [];
      if (stated.length > 0) {
        known = true;
        if (literals.some((p) => p.tokens.every((t) => stated.includes(t)))) hits.push(`seniority ${contact.seniorityRaw}`);
      }
    }
    const tier = contact.tier;
    if (x.tiers.length > 0 && tier) {
      known = true;
      if (x.tiers.includes(tier)) hits.push(`seniority ${TIER_LABEL[tier]}`);
    }
    const functions = contact.functions;
    if (x.functions.length > 0 && functions.length > 0) {
      known = true;
      const hit = functions.find((f) => x.functions.includes(f));
      if (hit) hits.push(`function ${FUNCTION_LABEL[hit] ?? hit}`);
    }
  }
  const { label, expected } = describeCriterion(x);
  const distinct = unique(hits);
  if (distinct.length > 0) return { kind: 'exclusion', label, status: 'failed', actual: joinList(distinct), expected };
  return { kind: 'exclusion', label, status: known ? 'passed' : 'unknown', actual: '', expected };
}

const COMPANY = (field: string) => `company_info.${field}`;
const CONTACT = (field: string) => `contact_info.${field}`;

/** Every field `fieldsRead` can name: the fields whose sources are worth keeping. */
export const FIELDS_READ: ReadonlySet<string> = new Set([
  ...['industries', 'employee_count', 'annual_revenue', 'total_funding', 'founded_year', 'name'].map(COMPANY),
  ...['location.country', 'location.state', 'latest_funding_stage', 'company_type'].map(COMPANY),
  ...['location.country', 'location.state', 'role.title', 'role.seniority', 'role.function'].map(CONTACT),
]);

/** Every Buyer field an exclusion of this kind can read, in the order its evidence is listed. */
function exclusionFields(x: Exclusions): string[] {
  const fields: string[] = [];
  if (x.concepts.length > 0 || x.keywords.length > 0) fields.push(COMPANY('industries'), COMPANY('name'));
  if (x.types.length > 0) fields.push(COMPANY('company_type'), COMPANY('industries'), COMPANY('name'));
  if (x.countries.length > 0) fields.push(COMPANY('location.country'));
  if (x.states.length > 0) fields.push(COMPANY('location.state'));
  if (x.stages.length > 0) fields.push(COMPANY('latest_funding_stage'), COMPANY('company_type'));
  if (x.titles.length > 0 || x.tiers.length > 0 || x.functions.length > 0) {
    fields.push(CONTACT('role.title'), CONTACT('role.seniority'), CONTACT('role.function'));
  }
  return unique(fields);
}

/** The sources of the fields an evaluation reads; the others are not kept. */
export function keptSources(sources: FieldSources): FieldSources {
  return Object.fromEntries(Object.entries(sources).filter(([field]) => FIELDS_READ.has(field)));
}

/**
 * The Buyer fields a check's value was read from, the one that decided first: a reader of a
 * verdict can then say where that value came from.
 */
export function fieldsRead(criterion: Criterion, company: CompanyFacts, contact: ContactFacts | null): string[] {
  switch (criterion.kind) {
    case 'industry':
      return [COMPANY('industries')];
    case 'employees':
      return [COMPANY('employee_count')];
    case 'revenue':
      return [COMPANY('annual_revenue')];
    case 'total_funding':
      return [COMPANY('total_funding')];
    case 'founded':
      return [COMPANY('founded_year')];
    case 'country':
    case 'state': {
      const own = criterion.of === 'contact' && contact && (contact.country || (criterion.kind === 'state' && contact.state));
      const location = own ? (field: string) => CONTACT(`location.${field}`) : (field: string) => COMPANY(`location.${field}`);
      return criterion.kind === 'country' ? [location('country')] : [location('state'), location('country')];
    }
    case 'funding':
      return company.type === 'public' ? [COMPANY('company_type'), COMPANY('latest_funding_stage')] : [COMPANY('latest_funding_stage')];
    case 'company_type':
      return company.typeRaw ? [COMPANY('company_type')] : [COMPANY('industries'), COMPANY('latest_funding_stage')];
    case 'title':
      return contact?.title ? [CONTACT('role.title')] : [CONTACT('role.seniority'), CONTACT('role.function')];
    case 'function':
      return contact?.title && (contact.functionsFromTitle || !contact.functionRaw) ? [CONTACT('role.title')] : [CONTACT('role.function')];
    case 'seniority':
      return contact?.tierSource === 'title' ? [CONTACT('role.title')] : [CONTACT('role.seniority')];
    case 'exclusion':
      return exclusionFields(criterion);
  }
}
