import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { companyInfoTemplate, contactInfoTemplate } from '../../src/modules/buyers/buyer-shape';
import { formatId, ids } from '../../src/shared/domain/ids';

/**
 * Buyers and Signals written straight into PostgreSQL for one workspace, in the shape the read
 * API serves them. Every helper takes the workspace's public id (`wor_…`).
 */

export type SignalType = 'website' | 'market' | 'linkedin';

export const TRIGGERS: Record<SignalType, string[]> = {
  website: ['visited_page', 'filled_form', 'abandoned_form'],
  market: ['researched_topic', 'explored_product', 'evaluated_competitor'],
  linkedin: ['followed_page', 'commented_post', 'reacted_post'],
};

export const SIGNAL_TYPES = Object.keys(TRIGGERS) as SignalType[];

export type DeepPartial<T> = T extends unknown[] ? T : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;

export interface Attribution {
  type: string;
  source: string;
  source_name: string;
  source_logo: string;
}

export type ContactInfo = ReturnType<typeof contactInfoTemplate>;
export type CompanyInfo = ReturnType<typeof companyInfoTemplate>;

/** Timestamps accepted by the helpers: a Date or an ISO 8601 string. */
export type Instant = Date | string;

export interface BuyerOverrides {
  /** Internal numeric id (decimal string); a fresh one when omitted. */
  id?: string;
  person_key?: string;
  contact_info?: DeepPartial<ContactInfo>;
  company_info?: DeepPartial<CompanyInfo>;
  hems?: { type: string; value: string }[];
  attribution?: Partial<Attribution>;
  is_icp?: boolean;
  /** Internal id or public `icp_…` id. */
  icp_id?: string | null;
  icp_name?: string;
  icp_reasoning?: string;
  is_persona?: boolean;
  /** Internal id or public `per_…` id. */
  persona_id?: string | null;
  persona_name?: string;
  persona_reasoning?: string;
  signal_count?: Partial<{ total: number; website: number; market: number; linkedin: number }>;
  /** Internal id or public `sig_…` id. */
  first_signal_id?: string | null;
  first_signal_type?: string;
  first_signal_trigger?: string;
  first_signal_at?: Instant | null;
  /** Internal id or public `sig_…` id. */
  last_signal_id?: string | null;
  last_signal_type?: string;
  last_signal_trigger?: string;
  last_signal_at?: Instant | null;
  created_at?: Instant;
  /** Defaults to `created_at`. */
  updated_at?: Instant;
}

export interface InsertedBuyer {
  /** Internal numeric id (decimal string). */
  id: string;
  /** Public `buy_…` id. */
  public_id: string;
}

export interface SignalInput {
  type: SignalType;
  trigger: string;
  captured_at: Instant;
  /** Replaces the generated object of `type` entirely when given. */
  data?: Record<string, unknown>;
  /** Internal numeric id; a fresh one when omitted. */
  id?: string;
  /** Defaults to `captured_at`. */
  created_at?: Instant;
  /** Defaults to `created_at`. */
  updated_at?: Instant;
}

export interface BulkSignalInput extends SignalInput {
  /** Internal id of the Buyer. */
  buyer_id: string;
}

export interface InsertedSignal {
  /** Internal numeric id (decimal string). */
  id: string;
  /** Public `sig_…` id. */
  public_id: string;
  /** Internal id of the Buyer. */
  buyer_id: string;
  /** Public `buy_…` id of the Buyer. */
  buyer_public_id: string;
  type: SignalType;
  trigger: string;
  /** The stored object of `type`, as the API should return it. */
  data: Record<string, unknown>;
  captured_at: Date;
  created_at: Date;
  updated_at: Date;
}

/** `wor_0000000000000000123` → `123`. */
export function workspaceInternalId(workspacePublicId: string): string {
  if (!/^wor_\d+$/.test(workspacePublicId)) throw new Error(`Not a workspace id: ${workspacePublicId}`);
  return BigInt(workspacePublicId.slice(4)).toString();
}

/** Internal decimal id from an internal or a public (`pfx_000…123`) id. */
export function internalId(id: string): string {
  const digits = /^[a-z]+_(\d+)$/.exec(id)?.[1] ?? id;
  if (!/^\d+$/.test(digits)) throw new Error(`Not an id: ${id}`);
  return BigInt(digits).toString();
}

const toDate = (value: Instant): Date => {
  const date = value instanceof Date ? new Date(value.getTime()) : new Date(value);
  if (Number.isNaN(date.getTime())) throw new Error(`Not a timestamp: ${String(value)}`);
  return date;
};

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** `base` with `over` written over it, object by object; arrays and scalars are replaced. */
export function deepMerge<T>(base: T, over: unknown): T {
  if (!isPlainObject(base) || !isPlainObject(over)) return (over === undefined ? base : over) as T;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    out[key] = isPlainObject(out[key]) && isPlainObject(value) ? deepMerge(out[key], value) : value;
  }
  return out as T;
}

export const attributionOf = (over: Partial<Attribution> = {}): Attribution => ({
  type: 'paid',
  source: 'google',
  source_name: 'Google Ads',
  source_logo: 'https://logos.example.com/google.png',
  ...over,
});

/** A complete `contact_info` (without the evaluation fields, which come from columns). */
export function contactInfo(over: DeepPartial<ContactInfo> = {}): ContactInfo {
  return deepMerge(contactInfoTemplate(), over);
}

/** A complete `company_info` (without the evaluation fields, which come from columns). */
export function companyInfo(over: DeepPartial<CompanyInfo> = {}): CompanyInfo {
  return deepMerge(companyInfoTemplate(), over);
}

/** A fully populated contact, every field set to a non-default value. */
export function fullContactInfo(): ContactInfo {
  return contactInfo({
    name: { first: 'Ada', middle: 'King', last: 'Lovelace' },
    role: { title: 'Chief Financial Officer', function: 'finance', seniority: 'c_level', start_date: '2023-04-01' },
    email: { work: 'ada@acme.example', is_valid: true },
    phone: { mobile: '+44 20 7946 0000', is_valid: true },
    social: {
      linkedin: 'https://www.linkedin.com/in/ada',
      twitter: 'https://twitter.com/ada',
      github: 'https://github.com/ada',
      facebook: 'https://facebook.com/ada',
      linkedin_followers: 1520,
      is_linkedin_valid: true,
    },
    location: { city: 'London', state: 'England', country: 'United Kingdom', postal_code: 'EC1A 1BB' },
    photo_url: 'https://photos.example.com/ada.jpg',
  });
}

/** A fully populated company, every field set to a non-default value. */
export function fullCompanyInfo(): CompanyInfo {
  return companyInfo({
    name: 'Acme Ltd',
    website: 'acme.example',
    logo: 'https://logos.example.com/acme.png',
    company_type: 'private',
    industries: ['Financial Services', 'Insurance'],
    employee_count: 420,
    founded_year: 2011,
    annual_revenue: 52500000.5,
    total_funding: 31000000,
    social: {
      linkedin: 'https://www.linkedin.com/company/acme',
      twitter: 'https://twitter.com/acme',
      facebook: 'https://facebook.com/acme',
    },
    location: {
      street_address: '1 Main Street',
      city: 'London',
      state: 'England',
      postal_code: 'EC1A 1BB',
      country: 'United Kingdom',
    },
    latest_funding_stage: 'series_b',
    latest_funding_round_date: '2024-06-30',
  });
}

const iso = (date: Date): string => date.toISOString().slice(0, 19) + 'Z';

/** A complete `website` Signal object. */
export function websiteData(trigger = 'visited_page', at: Instant = '2026-01-15T10:00:00Z', over: Record<string, unknown> = {}) {
  const when = toDate(at);
  const started = new Date(when.getTime() - 120_000);
  const ended = new Date(when.getTime() + 60_000);
  const base = {
    trigger,
    attribution: attributionOf(),
    url: {
      raw: 'https://www.acme.example/pricing/?utm_source=google&utm_medium=cpc&gclid=abc123#plans',
      canonical: 'www.acme.example/pricing',
      domain: 'www.acme.example',
      path: '/pricing/',
    },
    utm: { source: 'google', medium: 'cpc', campaign: 'q1-launch', term: 'buyer intent', content: '' },
    click_ids: {
      gclid: 'abc123',
      gbraid: null,
      wbraid: null,
      dclid: null,
      li_fat_id: null,
      msclkid: null,
      fbclid: null,
      ttclid: null,
      twclid: null,
    },
    target_page: {
      id: formatId('tpg_', '123456789'),
      name: 'Pricing',
      short_name: 'pricing',
      description: 'Visitors comparing plans',
    },
    session: { id: `ses_${randomBytes(6).toString('hex')}`, started_at: iso(started), ended_at: iso(ended), duration_secs: 180 },
    device: {
      browser: 'Chrome',
      browser_version: '131.0',
      os: 'macOS',
      os_version: '14.5',
      device_type: 'desktop',
      language: 'en-GB',
    },
    location: {
      ip: '203.0.113.7',
      city: 'London',
      state: 'England',
      country: 'United Kingdom',
      country_code: 'GB',
      postal_code: 'EC1A 1BB',
      timezone: 'Europe/London',
      latitude: 51.5072,
      longitude: -0.1276,
    },
    page: {
      visited_at: iso(when),
      first_visited_at: iso(started),
      last_visited_at: iso(when),
      time_spent_secs: 45,
      visit_count: 3,
      total_time_spent_secs: 130,
    },
  };
  return deepMerge(base, over);
}

/** A complete `market` Signal object. */
export function marketData(trigger = 'researched_topic', over: Record<string, unknown> = {}) {
  return deepMerge(
    {
      trigger,
      attribution: attributionOf({ type: 'intent', source: 'bombora', source_name: 'Bombora', source_logo: '' }),
      topic: 'Expense management',
      company_website: 'rival.example',
    },
    over,
  );
}

/** A complete `linkedin` Signal object. */
export function linkedinData(trigger = 'reacted_post', over: Record<string, unknown> = {}) {
  return deepMerge(
    {
      trigger,
      attribution: attributionOf({ type: 'social', source: 'linkedin', source_name: 'LinkedIn', source_logo: '' }),
      source: 'company_page',
      url: 'https://www.linkedin.com/feed/update/urn:li:activity:7000000000000000000',
      comment: trigger === 'commented_post' ? 'Great write-up' : '',
      reaction_type: trigger === 'reacted_post' ? 'like' : '',
      company_name: 'Rival Inc',
      post_title: 'How we cut close time by half',
    },
    over,
  );
}

/** The complete object for a Signal of `type` with `trigger`. */
export function signalData(type: SignalType, trigger: string, at: Instant = '2026-01-15T10:00:00Z'): Record<string, unknown> {
  if (type === 'website') return websiteData(trigger, at);
  if (type === 'market') return marketData(trigger);
  return linkedinData(trigger);
}

interface BuyerRecord {
  id: string;
  workspace_id: string;
  person_key: string;
  contact_info: unknown;
  company_info: unknown;
  hems: unknown;
  attribution: unknown;
  is_icp: boolean;
  icp_id: string | null;
  icp_name: string;
  icp_reasoning: string;
  is_persona: boolean;
  persona_id: string | null;
  persona_name: string;
  persona_reasoning: string;
  signal_count_total: number;
  signal_count_website: number;
  signal_count_market: number;
  signal_count_linkedin: number;
  first_signal_id: string | null;
  first_signal_type: string;
  first_signal_trigger: string;
  first_signal_at: string | null;
  last_signal_id: string | null;
  last_signal_type: string;
  last_signal_trigger: string;
  last_signal_at: string | null;
  created_at: string;
  updated_at: string;
}

function buyerRecord(workspaceId: string, o: BuyerOverrides): BuyerRecord {
  const created = toDate(o.created_at ?? new Date());
  const counts = { total: 0, website: 0, market: 0, linkedin: 0, ...o.signal_count };
  const optional = (value: string | null | undefined) => (value === undefined || value === null ? null : internalId(value));
  const optionalAt = (value: Instant | null | undefined) => (value === undefined || value === null ? null : toDate(value).toISOString());
  return {
    id: o.id ?? ids.next(),
    workspace_id: workspaceId,
    person_key: o.person_key ?? `email:${randomBytes(8).toString('hex')}@people.example`,
    contact_info: contactInfo(o.contact_info),
    company_info: companyInfo(o.company_info),
    hems: o.hems ?? [],
    attribution: attributionOf(o.attribution),
    is_icp: o.is_icp ?? false,
    icp_id: optional(o.icp_id),
    icp_name: o.icp_name ?? '',
    icp_reasoning: o.icp_reasoning ?? '',
    is_persona: o.is_persona ?? false,
    persona_id: optional(o.persona_id),
    persona_name: o.persona_name ?? '',
    persona_reasoning: o.persona_reasoning ?? '',
    signal_count_total: counts.total,
    signal_count_website: counts.website,
    signal_count_market: counts.market,
    signal_count_linkedin: counts.linkedin,
    first_signal_id: optional(o.first_signal_id),
    first_signal_type: o.first_signal_type ?? '',
    first_signal_trigger: o.first_signal_trigger ?? '',
    first_signal_at: optionalAt(o.first_signal_at),
    last_signal_id: optional(o.last_signal_id),
    last_signal_type: o.last_signal_type ?? '',
    last_signal_trigger: o.last_signal_trigger ?? '',
    last_signal_at: optionalAt(o.last_signal_at),
    created_at: created.toISOString(),
    updated_at: toDate(o.updated_at ?? created).toISOString(),
  };
}

/** Inserts many Buyers in one statement; results in input order. */
export async function insertBuyers(ds: DataSource, workspacePublicId: string, overrides: BuyerOverrides[]): Promise<InsertedBuyer[]> {
  if (overrides.length === 0) return [];
  const workspaceId = workspaceInternalId(workspacePublicId);
  const records = overrides.map((o) => buyerRecord(workspaceId, o));
  await ds.query(
    `INSERT INTO buyers (id, workspace_id, person_key, contact_info, company_info, hems, attribution,
        is_icp, icp_id, icp_name, icp_reasoning, is_persona, persona_id, persona_name, persona_reasoning,
        signal_count_total, signal_count_website, signal_count_market, signal_count_linkedin,
        first_signal_id, first_signal_type, first_signal_trigger, first_signal_at,
        last_signal_id, last_signal_type, last_signal_trigger, last_signal_at, created_at, updated_at)
     SELECT r.id, r.workspace_id, r.person_key, r.contact_info, r.company_info, r.hems, r.attribution,
        r.is_icp, r.icp_id, r.icp_name, r.icp_reasoning, r.is_persona, r.persona_id, r.persona_name, r.persona_reasoning,
        r.signal_count_total, r.signal_count_website, r.signal_count_market, r.signal_count_linkedin,
        r.first_signal_id, r.first_signal_type, r.first_signal_trigger, r.first_signal_at,
        r.last_signal_id, r.last_signal_type, r.last_signal_trigger, r.last_signal_at, r.created_at, r.updated_at
       FROM json_to_recordset($1::json) AS r(
        id bigint, workspace_id bigint, person_key text, contact_info json, company_info json, hems json, attribution json,
        is_icp boolean, icp_id bigint, icp_name text, icp_reasoning text,
        is_persona boolean, persona_id bigint, persona_name text, persona_reasoning text,
        signal_count_total integer, signal_count_website integer, signal_count_market integer, signal_count_linkedin integer,
        first_signal_id bigint, first_signal_type text, first_signal_trigger text, first_signal_at timestamptz,
        last_signal_id bigint, last_signal_type text, last_signal_trigger text, last_signal_at timestamptz,
        created_at timestamptz, updated_at timestamptz)`,
    [JSON.stringify(records)],
  );
  return records.map((r) => ({ id: r.id, public_id: formatId('buy_', r.id) }));
}

/** Inserts one Buyer with complete contact/company objects; unspecified fields take neutral defaults. */
export async function insertBuyer(ds: DataSource, workspacePublicId: string, overrides: BuyerOverrides = {}): Promise<InsertedBuyer> {
  const [buyer] = await insertBuyers(ds, workspacePublicId, [overrides]);
  return buyer;
}

/** Inserts many Signals in one statement (any Buyers of the workspace); results in input order. */
export async function insertSignals(ds: DataSource, workspacePublicId: string, inputs: BulkSignalInput[]): Promise<InsertedSignal[]> {
  if (inputs.length === 0) return [];
  const workspaceId = workspaceInternalId(workspacePublicId);
  const signals: InsertedSignal[] = inputs.map((input) => {
    if (!TRIGGERS[input.type]) throw new Error(`Unknown signal type ${input.type}`);
    const captured = toDate(input.captured_at);
    const created = toDate(input.created_at ?? captured);
    const id = input.id ?? ids.next();
    const buyerId = internalId(input.buyer_id);
    return {
      id,
      public_id: formatId('sig_', id),
      buyer_id: buyerId,
      buyer_public_id: formatId('buy_', buyerId),
      type: input.type,
      trigger: input.trigger,
      data: input.data ?? signalData(input.type, input.trigger, captured),
      captured_at: captured,
      created_at: created,
      updated_at: toDate(input.updated_at ?? created),
    };
  });
  const rows = signals.map((s) => ({
    id: s.id,
    workspace_id: workspaceId,
    buyer_id: s.buyer_id,
    type: s.type,
    trigger: s.trigger,
    data: s.data,
    captured_at: s.captured_at.toISOString(),
    created_at: s.created_at.toISOString(),
    updated_at: s.updated_at.toISOString(),
  }));
  await ds.query(
    `INSERT INTO signals (id, workspace_id, buyer_id, type, trigger, data, captured_at, created_at, updated_at)
     SELECT r.id, r.workspace_id, r.buyer_id, r.type, r.trigger, r.data, r.captured_at, r.created_at, r.updated_at
       FROM json_to_recordset($1::json) AS r(
        id bigint, workspace_id bigint, buyer_id bigint, type text, trigger text, data json,
        captured_at timestamptz, created_at timestamptz, updated_at timestamptz)`,
    [JSON.stringify(rows)],
  );
  // As the pipeline keeps them: a Buyer's first and last Signal times span all its Signals (a
  // Buyer's Signals pages are bounded by them).
  await ds.query(
    `UPDATE buyers b SET first_signal_at = LEAST(b.first_signal_at, s.first), last_signal_at = GREATEST(b.last_signal_at, s.last)
       FROM (SELECT workspace_id, buyer_id, min(captured_at) AS first, max(captured_at) AS last FROM signals
              WHERE workspace_id = $1 AND buyer_id = ANY($2::bigint[]) GROUP BY workspace_id, buyer_id) s
      WHERE b.workspace_id = s.workspace_id AND b.id = s.buyer_id`,
    [workspaceId, [...new Set(signals.map((s) => s.buyer_id))]],
  );
  return signals;
}

/** Inserts one Signal of a Buyer with a complete object of its type (unless `data` is given). */
export async function insertSignal(
  ds: DataSource,
  workspacePublicId: string,
  buyerInternalId: string,
  input: SignalInput,
): Promise<InsertedSignal> {
  const [signal] = await insertSignals(ds, workspacePublicId, [{ ...input, buyer_id: buyerInternalId }]);
  return signal;
}

/** The API form of an inserted Signal. */
export function expectedSignal(s: InsertedSignal): Record<string, unknown> {
  return {
    id: s.public_id,
    buyer_id: s.buyer_public_id,
    type: s.type,
    website: s.type === 'website' ? s.data : null,
    market: s.type === 'market' ? s.data : null,
    linkedin: s.type === 'linkedin' ? s.data : null,
    captured_at: iso(s.captured_at),
    created_at: iso(s.created_at),
    updated_at: iso(s.updated_at),
  };
}

/** `YYYY-MM-DDTHH:mm:ssZ` of an instant. */
export const apiTimestamp = (value: Instant): string => iso(toDate(value));

/** Comparison of public ids of the same prefix (19 zero-padded digits sort as numbers). */
export const compareIds = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
