import { isCalendarDate } from '../../shared/domain/clock';
import { AppError } from '../../shared/application/app-error';
import { canonicalizeUrl, MAX_URL_LENGTH } from '../../shared/domain/canonical-url';
import { isSignalType, SIGNAL_TRIGGERS, SignalTrigger, SignalType, triggerBelongsTo } from '../signals/signal-types';
import { isPlainObject } from '../../shared/domain/plain-object';

/**
 * Validation of raw activities (DESIGN §2). All-or-nothing: the first problem in the batch is a
 * `validation_error` whose `param` is the path of the offending value (`activities[3].trigger`).
 * Shapes are checked here; whether an identity resolves to a person is the pipeline's decision.
 */

export const MAX_ACTIVITIES = 1000;
const MAX_TEXT = 10_000;
const MAX_EXTERNAL_ID = 200;
const HEM_TYPES = ['sha256', 'sha1', 'md5'] as const;

export interface ActivityIdentity {
  email?: string;
  hem?: { type: (typeof HEM_TYPES)[number]; value: string };
  linkedin?: string;
  ip?: string;
}

export interface ActivityInput {
  external_id?: string;
  type: SignalType;
  trigger: SignalTrigger;
  occurred_at: string;
  identity: ActivityIdentity;
  contact?: Record<string, unknown>;
  company?: Record<string, unknown>;
  attribution?: Record<string, string>;
  website?: {
    url: string;
    session?: Record<string, unknown>;
    device?: Record<string, unknown>;
    location?: Record<string, unknown>;
    page?: Record<string, unknown>;
  };
  market?: { topic: string; company_website: string };
  linkedin?: Record<string, string>;
}

const ACTIVITY_KEYS = [
  'external_id',
  'type',
  'trigger',
  'occurred_at',
  'identity',
  'contact',
  'company',
  'attribution',
  'website',
  'market',
  'linkedin',
];
const IDENTITY_KEYS = ['email', 'hem', 'linkedin', 'ip'];
const ATTRIBUTION_KEYS = ['type', 'source', 'source_name', 'source_logo'];
const WEBSITE_KEYS = ['url', 'session', 'device', 'location', 'page'];
const MARKET_KEYS = ['topic', 'company_website'];
const LINKEDIN_KEYS = ['source', 'url', 'comment', 'reaction_type', 'company_name', 'post_title'];
const OCCURRED_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

const MAX_HINT_DEPTH = 8;

/** True when objects/arrays in `value` nest deeper than `limit` (iterative: no recursion to overflow). */
function depthExceeds(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
}

class Checker {
  constructor(private readonly path: string) {}

  fail(field: string | null, message: string): never {
    const param = field === null ? this.path : `${this.path}.${field}`;
    throw AppError.validation(param, `${param} ${message}.`);
  }

  object(value: unknown, field: string, keys: readonly string[]): Record<string, unknown> {
    if (!isPlainObject(value)) this.fail(field, 'must be an object');
    for (const key of Object.keys(value)) {
      if (!keys.includes(key)) this.fail(`${field}.${key}`, 'is not a known field');
    }
    return value;
  }

  /** A string, trimmed; `undefined`/`null` → undefined; anything else fails. */
  text(value: unknown, field: string, max = MAX_TEXT): string | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') this.fail(field, 'must be a string');
    if (!value.isWellFormed() || value.includes('\u0000')) this.fail(field, 'must be valid text');
    const text = value.trim();
    if ([...text].length > max) this.fail(field, `must be at most ${max} characters`);
    return text;
  }

  requiredText(value: unknown, field: string, max = MAX_TEXT): string {
    const text = this.text(value, field, max);
    if (!text) this.fail(field, 'is required');
    return text;
  }

  /**
   * A free-form hint object: only its shape is checked here — an object of JSON values nested at
   * most MAX_HINT_DEPTH deep (the known fields are two levels deep; anything deeper is noise that
   * would only cost stack and storage).
   */
  hints(value: unknown, field: string): Record<string, unknown> | undefined {
    if (value === undefined || value === null) return undefined;
    if (!isPlainObject(value)) this.fail(field, 'must be an object');
    if (depthExceeds(value, MAX_HINT_DEPTH)) this.fail(field, `must not be nested more than ${MAX_HINT_DEPTH} levels deep`);
    return value;
  }

  strings(value: unknown, field: string, keys: readonly string[]): Record<string, string> | undefined {
    if (value === undefined || value === null) return undefined;
    const source = this.object(value, field, keys);
    const out: Record<string, string> = {};
    for (const key of keys) {
      const text = this.text(source[key], `${field}.${key}`, MAX_URL_LENGTH);
      if (text !== undefined) out[key] = text;
    }
    return out;
  }
}

function validateOne(raw: unknown, index: number, now: Date): ActivityInput {
  // Annotated so that `c.fail(...)` (returns never) narrows types after it.
  const c: Checker = new Checker(`activities[${index}]`);
  if (!isPlainObject(raw)) c.fail(null, 'must be an object');
  for (const key of Object.keys(raw)) if (!ACTIVITY_KEYS.includes(key)) c.fail(key, 'is not a known field');

  const externalId = c.text(raw.external_id, 'external_id', MAX_EXTERNAL_ID);
  if (raw.external_id !== undefined && raw.external_id !== null && !externalId) c.fail('external_id', 'must not be empty');
  const type = c.requiredText(raw.type, 'type');
  if (!isSignalType(type)) c.fail('type', 'must be one of website, market, linkedin');
  const trigger = c.requiredText(raw.trigger, 'trigger');
  if (!triggerBelongsTo(type, trigger)) c.fail('trigger', `must be one of ${SIGNAL_TRIGGERS[type].join(', ')}`);
  const occurredAt = c.requiredText(raw.occurred_at, 'occurred_at');
  const when = new Date(occurredAt);
  const year = Number(occurredAt.slice(0, 4));
  if (!OCCURRED_AT.test(occurredAt) || Number.isNaN(when.getTime()) || !isCalendarDate(occurredAt) || year < 1900 || year > 2999) {
    c.fail('occurred_at', 'must be a UTC timestamp of the form YYYY-MM-DDTHH:mm:ssZ');
  }
  // An activity happened already; a day allows for clocks that run ahead. (Signals are partitioned
  // by this time, and one far ahead would land in the catch-all partition, ADR 0052.)
  if (when.getTime() > now.getTime() + MAX_AHEAD_MS) c.fail('occurred_at', 'must not be more than 24 hours in the future');

  const identitySource = c.object(raw.identity, 'identity', IDENTITY_KEYS);
  const identity: ActivityIdentity = {};
  const email = c.text(identitySource.email, 'identity.email', 320);
  if (email) identity.email = email;
  const linkedin = c.text(identitySource.linkedin, 'identity.linkedin', MAX_URL_LENGTH);
  if (linkedin) identity.linkedin = linkedin;
  const ip = c.text(identitySource.ip, 'identity.ip', 64);
  if (ip) identity.ip = ip;
  if (identitySource.hem !== undefined && identitySource.hem !== null) {
    const hem = c.object(identitySource.hem, 'identity.hem', ['type', 'value']);
    const hemType = c.requiredText(hem.type, 'identity.hem.type');
    if (!(HEM_TYPES as readonly string[]).includes(hemType)) c.fail('identity.hem.type', 'must be one of sha256, sha1, md5');
    const value = c.requiredText(hem.value, 'identity.hem.value', 128);
    identity.hem = { type: hemType as (typeof HEM_TYPES)[number], value };
  }
  if (!identity.email && !identity.hem && !identity.linkedin) {
    c.fail('identity', 'needs at least one of email, hem, linkedin');
  }

  // Fractional seconds are dropped: timestamps are shown to the second, and Signals that show the
  // same captured_at are then in id order, as the lists promise (ADR 0066).
  const activity: ActivityInput = {
    type,
    trigger,
    occurred_at: new Date(Math.floor(when.getTime() / 1000) * 1000).toISOString(),
    identity,
  };
  if (externalId) activity.external_id = externalId;
  const contact = c.hints(raw.contact, 'contact');
  if (contact) activity.contact = contact;
  const company = c.hints(raw.company, 'company');
  if (company) activity.company = company;
  const attribution = c.strings(raw.attribution, 'attribution', ATTRIBUTION_KEYS);
  if (attribution) activity.attribution = attribution;

  // Exactly the object matching `type`; the other two must be absent (or null).
  for (const other of ['website', 'market', 'linkedin'] as const) {
    if (other !== type && raw[other] !== undefined && raw[other] !== null) c.fail(other, `must be absent for type ${type}`);
  }
  if (raw[type] === undefined || raw[type] === null) c.fail(type, `is required for type ${type}`);
  if (type === 'website') {
    const website = c.object(raw.website, 'website', WEBSITE_KEYS);
    const url = c.requiredText(website.url, 'website.url', MAX_URL_LENGTH);
    if (!canonicalizeUrl(url)) c.fail('website.url', 'must be an http or https URL, or host and path');
    activity.website = { url };
    for (const part of ['session', 'device', 'location', 'page'] as const) {
      const value = c.hints(website[part], `website.${part}`);
      if (value) activity.website[part] = value;
    }
  } else if (type === 'market') {
    const market = c.strings(raw.market, 'market', MARKET_KEYS)!;
    if (trigger === 'evaluated_competitor') {
      if (!market.company_website) c.fail('market.company_website', `is required for ${trigger}`);
    } else if (!market.topic) {
      c.fail('market.topic', `is required for ${trigger}`);
    }
    activity.market = { topic: market.topic ?? '', company_website: market.company_website ?? '' };
  } else {
    const linkedinObject = c.strings(raw.linkedin, 'linkedin', LINKEDIN_KEYS)!;
    if (!linkedinObject.url && !linkedinObject.company_name) c.fail('linkedin', 'needs url or company_name');
    activity.linkedin = linkedinObject;
  }
  return activity;
}

const MAX_AHEAD_MS = 24 * 3600_000;

/** Validates an intake body `{"activities": [...]}` received at `now`; returns the activities in order. */
export function validateActivityBatch(body: unknown, now: Date = new Date()): ActivityInput[] {
  if (!isPlainObject(body)) throw AppError.validation('body', 'The request body must be a JSON object.');
  for (const key of Object.keys(body)) {
    if (key !== 'activities') throw AppError.validation(key, `Unknown field ${JSON.stringify(key.slice(0, 100))}.`);
  }
  const list = body.activities;
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_ACTIVITIES) {
    throw AppError.validation('activities', `activities must be an array of 1 to ${MAX_ACTIVITIES} activities.`);
  }
  return list.map((raw, index) => validateOne(raw, index, now));
}
