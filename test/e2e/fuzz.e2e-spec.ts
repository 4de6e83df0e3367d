/**
 * Property-based hostile-input suite. Generated requests go to every endpoint; each answer is checked
 * against the documented contract (spec "Errors", DESIGN §1/§2) and against a model of what the
 * accepted requests wrote, which is reconciled with the API and with PostgreSQL.
 *
 * Reproducing a failure: fast-check prints `seed` and `path` with the counterexample. Re-run with
 * `FUZZ_SEED=<seed> npx jest test/e2e/fuzz.e2e-spec.ts -t '<test name>'` (optionally `FUZZ_PATH=<path>`).
 */
import fc from 'fast-check';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { KB_CASES, KbCase, unique } from '../support/kb-resources';
import { insertBuyers, insertSignals, SIGNAL_TYPES, SignalType, TRIGGERS, workspaceInternalId } from '../support/read-model-fixtures';
import { startTestApp, TestApp, TestWorkspace } from '../support/test-app';

const ONE_MIB = 1024 * 1024;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const LONG = 300_000;

const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const PATH = process.env.FUZZ_PATH;
if (SEED !== undefined) {
  fc.configureGlobal({ seed: SEED });
  console.log(`fuzz.e2e-spec: fast-check seed ${SEED}${PATH ? ` path ${PATH}` : ''}`);
}

function runs(numRuns: number): { numRuns: number; path?: string } {
  return { numRuns, ...(PATH ? { path: PATH } : {}) };
}

// ---------------------------------------------------------------------------------------------
// The documented contract
// ---------------------------------------------------------------------------------------------

const ERROR_STATUS: Record<string, number> = {
  validation_error: 400,
  invalid_parameter: 400,
  invalid_cursor: 400,
  authentication_error: 401,
  permission_denied: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
};
const PARAM_REQUIRED = new Set(['validation_error', 'invalid_parameter', 'invalid_cursor', 'conflict']);
const PARAM_FORBIDDEN = new Set(['not_found', 'payload_too_large', 'authentication_error', 'permission_denied']);

type Rule = 'text' | 'domain' | 'linkedin' | 'image_url' | 'page_url';
type Presence = 'required' | 'optional' | 'clearable';
interface FieldDoc {
  rule: Rule;
  max: number;
  presence: Presence;
}

const text = (max: number, presence: Presence = 'required'): FieldDoc => ({ rule: 'text', max, presence });
const PROFILE: Record<string, FieldDoc> = { name: text(200), short_name: text(64), description: text(10_000) };
const COMPANY = (description: Presence): Record<string, FieldDoc> => ({
  name: text(200),
  short_name: text(64),
  domain: { rule: 'domain', max: 253, presence: 'required' },
  linkedin: { rule: 'linkedin', max: 2048, presence: 'clearable' },
  logo: { rule: 'image_url', max: 2048, presence: 'clearable' },
  description: text(10_000, description),
});
const PAGE: Record<string, FieldDoc> = {
  name: text(200),
  short_name: text(64),
  url: { rule: 'page_url', max: 2048, presence: 'required' },
  description: text(10_000),
};

/** Editable fields per resource (spec field table + DESIGN §1 lengths and presence). */
const FIELD_DOCS: Record<string, Record<string, FieldDoc>> = {
  icps: PROFILE,
  personas: PROFILE,
  products: PROFILE,
  topics: PROFILE,
  competitors: COMPANY('optional'),
  exclusions: COMPANY('required'),
  'target-pages': PAGE,
  'target-forms': PAGE,
};
const SYSTEM_FIELDS = ['id', 'client_id', 'created_by', 'created_at', 'updated_at'];
const computedOf = (kb: KbCase): string[] => (kb.path.startsWith('target-') ? ['canonical_url'] : []);
const tableOf = (kb: KbCase): string => kb.path.replace(/-/g, '_');
const kbOf = (path: string): KbCase => KB_CASES.find((kb) => kb.path === path) as KbCase;
const KB_TABLES = KB_CASES.map(tableOf);
const ALL_PREFIXES = ['wor_', 'key_', ...KB_CASES.map((kb) => kb.prefix), 'lis_', 'buy_', 'sig_', 'act_', 'req_'];
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
const ALL_TRIGGERS = SIGNAL_TYPES.flatMap((type) => TRIGGERS[type]);
/** Query names that carry a credential (DESIGN §1: a key in the query string is a 401). */
const KEY_QUERY_NAMES = ['api_key', 'apikey', 'key', 'access_token', 'token'];

// ---------------------------------------------------------------------------------------------
// Hostile material
// ---------------------------------------------------------------------------------------------

const SQL = [
  "' OR 1=1 --",
  '"; DROP TABLE icps; --',
  "'); DROP TABLE activities; --",
  "1' UNION SELECT key_hash FROM api_keys --",
  "%' AND 1=1 --",
  "\\'; DELETE FROM workspaces; --",
  '$1',
  '$$;$$',
  "E'\\x00'",
  '1; SELECT pg_sleep(0)--',
  "' OR ''='",
];
const SCRIPT = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '{{7*7}}',
  '${7*7}',
  '<!--',
  ']]>',
  '<svg/onload=alert(1)>',
];
const UNICODE_OK = [
  '\u202e',
  'abc\u202edef\u202c',
  '\u200f\u200e',
  '😀',
  '👩‍👩‍👧‍👦',
  '🇺🇳',
  'e\u0301',
  'Z\u0351\u0352\u0353\u0354\u0355',
  'İß',
  'ﬃ',
  '\u{10FFFF}',
  '\uffff',
  '中文',
  'عربى',
  'x\u2028y\u2029z',
  'a\u00a0b',
  '\\',
  '"quoted"',
  '\u001f',
  'tab\there',
  'new\nline',
];
const UNICODE_BAD = ['\u0000', 'a\u0000b', '\ud800', '\udfff', 'a\ud800b', '\udc00\ud800', 'x\ud83d'];
const WHITESPACE = ['', ' ', '   ', '\t\n\r', '\u00a0', '\u2003\u3000', '\ufeff', '\u2028'];
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];
const POLLUTION_VALUES = [
  '{"__proto__":{"polluted_by_fuzz":"yes"}}',
  '{"constructor":{"prototype":{"polluted_by_fuzz":"yes"}}}',
  '{"prototype":{"polluted_by_fuzz":"yes"}}',
  '[{"__proto__":{"polluted_by_fuzz":"yes"}}]',
  '{"a":{"b":{"__proto__":{"polluted_by_fuzz":"yes"}}}}',
  '{"__proto__":"polluted_by_fuzz"}',
  '{"__proto__":null}',
  '{"__proto__":[]}',
];

const fragmentArb = fc.constantFrom(...SQL, ...SCRIPT, ...UNICODE_OK, ...UNICODE_BAD);
const embeddedArb = fc.tuple(fc.string({ maxLength: 6 }), fragmentArb, fc.string({ maxLength: 6 })).map(([a, b, c]) => a + b + c);
const hugeArb = fc
  .tuple(fc.integer({ min: 200, max: 100_000 }), fc.constantFrom('a', 'é', '😀', 'e\u0301', ' ', "'", '\u0000', '\ud800', '<'))
  .map(([n, c]) => c.repeat(n));
const boundaryLengthArb = fc
  .tuple(fc.constantFrom(63, 64, 65, 199, 200, 201, 253, 254, 2048, 2049, 10_000, 10_001), fc.constantFrom('x', 'é', '😀'))
  .map(([n, c]) => c.repeat(n));

/** Strings of every kind; the oracle decides what they mean for each field. */
const hostileTextArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fragmentArb },
  { weight: 4, arbitrary: embeddedArb },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.constantFrom(...WHITESPACE) },
  { weight: 1, arbitrary: hugeArb },
  { weight: 1, arbitrary: boundaryLengthArb },
);

function isCleanText(value: string, max: number): boolean {
  const trimmed = value.trim();
  return trimmed !== '' && value.isWellFormed() && !value.includes('\u0000') && [...trimmed].length <= max;
}

/** Text that the documents say must be accepted for a text field of at most `max` characters. */
const textValidArb = (max: number): fc.Arbitrary<string> =>
  fc
    .oneof(
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }),
      fc.constantFrom(...SQL, ...SCRIPT, ...UNICODE_OK),
      fc
        .tuple(fc.string({ unit: 'grapheme-ascii', maxLength: 8 }), fc.constantFrom(...SQL, ...SCRIPT, ...UNICODE_OK))
        .map(([a, b]) => a + b),
      fc.constantFrom(max, max - 1).map((n) => 'é'.repeat(n)),
      fc
        .tuple(fc.constantFrom(' ', '\t', '\u00a0', '\n'), fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 10 }))
        .map(([w, s]) => w + s + w),
    )
    .filter((s) => isCleanText(s, max));

const shortNameArb = fc.oneof(
  fc.constantFrom('dup-a', 'dup-b', ' dup-a ', "dup-' OR 1=1 --", 'dup-<script>', 'dup-😀', 'DUP-A'),
  fc.tuple(textValidArb(40), fc.stringMatching(/^[a-z0-9]{10}$/)).map(([s, u]) => `${s.trim()}-${u}`),
);
const labelArb = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,8}[a-z0-9])?$/);
const tldArb = fc.stringMatching(/^[a-z]{2,6}$/);
const domainArb = fc.tuple(fc.array(labelArb, { minLength: 1, maxLength: 3 }), tldArb).map(([labels, tld]) => [...labels, tld].join('.'));
const mixedCaseDomainArb = fc.tuple(domainArb, fc.boolean()).map(([d, up]) => (up ? d.toUpperCase() : d));
const linkedinArb = fc
  .tuple(
    fc.constantFrom('https://www.', 'https://', 'http://www.', 'www.', ''),
    fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,15}$/),
    fc.constantFrom('', '/'),
  )
  .map(([p, slug, s]) => `${p}linkedin.com/company/${slug}${s}`);
const imageUrlArb = fc
  .tuple(
    fc.constantFrom('https://', 'http://'),
    domainArb,
    fc.stringMatching(/^[a-z0-9_-]{1,10}$/),
    fc.constantFrom('.png', '.svg', '.jpg', ''),
  )
  .map(([s, d, p, e]) => `${s}${d}/${p}${e}`);
const pathArb = fc.stringMatching(/^(?:\/[a-z0-9_-]{1,8}){0,3}\/?$/);
const pageUrlArb = fc.oneof(
  fc
    .tuple(fc.constantFrom('https://', 'http://'), domainArb, pathArb, fc.constantFrom('', '?utm_source=fuzz', '?b=2&a=1', '#frag'))
    .map(([s, d, p, q]) => `${s}${d}${p}${q}`),
  fc
    .tuple(
      domainArb,
      pathArb.filter((p) => p.length > 1),
    )
    .map(([d, p]) => d + p),
);

function validValueArb(doc: FieldDoc, field: string): fc.Arbitrary<string | null> {
  switch (doc.rule) {
    case 'domain':
      return mixedCaseDomainArb;
    case 'linkedin':
      return fc.oneof(linkedinArb, fc.constantFrom<string | null>(null, ''));
    case 'image_url':
      return fc.oneof(imageUrlArb, fc.constantFrom<string | null>(null, ''));
    case 'page_url':
      return pageUrlArb;
    default:
      return field === 'short_name' ? shortNameArb : textValidArb(Math.min(doc.max, 200));
  }
}

const nest = (depth: number, kind: string, leaf: string): string => {
  switch (kind) {
    case 'array':
      return '['.repeat(depth) + leaf + ']'.repeat(depth);
    case 'object':
      return '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);
    case 'proto':
      return '{"__proto__":'.repeat(depth) + leaf + '}'.repeat(depth);
    default: {
      const half = Math.ceil(depth / 2);
      return '[{"k":'.repeat(half) + leaf + '}]'.repeat(half);
    }
  }
};
const nestedTextArb = (min: number, max: number): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.integer({ min, max }),
      fc.constantFrom('array', 'object', 'mixed', 'proto'),
      fc.constantFrom('"x"', '1', 'null', '{}', '[]', '"\\u0000"'),
    )
    .map(([d, kind, leaf]) => nest(d, kind, leaf));

const jsonText = (value: unknown): string => JSON.stringify(value) ?? 'null';

/** A prototype-pollution key with a value, and the same pair wrapped 0–4 levels deep in objects/arrays. */
const pollutionArb = fc
  .tuple(
    fc.constantFrom(...PROTO_KEYS),
    fc.oneof(
      fc.constantFrom(
        '{"polluted_by_fuzz":"yes"}',
        '{"prototype":{"polluted_by_fuzz":"yes"}}',
        '"polluted_by_fuzz"',
        '1',
        'null',
        '[]',
        '{}',
        '{"toString":"x"}',
      ),
      fc.jsonValue({ maxDepth: 2 }).map(jsonText),
    ),
    fc.array(fc.constantFrom('array', 'object'), { maxLength: 4 }),
  )
  .map(([key, value, wrappers]) => {
    let wrapped = `{${jsonText(key)}:${value}}`;
    for (const w of wrappers) wrapped = w === 'array' ? `[${wrapped}]` : `{"a":${wrapped}}`;
    return { key, value, wrapped };
  });

/** JSON texts of values of the wrong type (and a few right ones), including shallow-but-real nesting. */
const wrongTypeTextArb: fc.Arbitrary<string> = fc.oneof(
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(jsonText),
  fc.constantFrom('true', 'false', 'null', '[]', '{}', '0', '-0', '1e308', '-1', '""', '[""]', '{"":""}'),
  fc.jsonValue({ maxDepth: 3 }).map(jsonText),
  fc.constantFrom(...POLLUTION_VALUES),
  nestedTextArb(50, 400),
  fc.array(hostileTextArb.filter((s) => s.length < 200).map(jsonText), { maxLength: 3 }).map((a) => `[${a.join(',')}]`),
);
const anyValueTextArb: fc.Arbitrary<string> = fc.oneof(hostileTextArb.map(jsonText), wrongTypeTextArb);

const extraKeyArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    ...SYSTEM_FIELDS,
    ...PROTO_KEYS,
    'canonical_url',
    'deleted_at',
    'workspace_id',
    'Name',
    'name ',
    'short-name',
    '',
    'hasOwnProperty',
    'toString',
  ),
  hostileTextArb.filter((s) => s.length < 100),
);

interface Entry {
  key: string;
  text: string;
}
const objectText = (entries: readonly Entry[]): string => `{${entries.map((e) => `${jsonText(e.key)}:${e.text}`).join(',')}}`;

// ---------------------------------------------------------------------------------------------
// Oracles
// ---------------------------------------------------------------------------------------------

type Verdict = 'valid' | 'invalid' | 'unknown';
const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const has = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);
const cps = (s: string): number => [...s].length;
const isClean = (s: string): boolean => s.isWellFormed() && !s.includes('\u0000');

function safeParse(raw: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch {
    return { ok: false };
  }
}

function ruleVerdict(rule: Rule, s: string): Verdict {
  switch (rule) {
    case 'text':
      return 'valid';
    case 'domain': {
      if (!/^[A-Za-z0-9.-]+$/.test(s) || !s.includes('.')) return 'invalid';
      const labels = s.split('.');
      const tld = labels[labels.length - 1];
      if (labels.some((l) => l === '') || !/^[A-Za-z]+$/.test(tld)) return 'invalid';
      const fine = labels.every((l) => /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(l)) && tld.length >= 2 && s.length <= 253;
      return fine ? 'valid' : 'unknown';
    }
    case 'linkedin':
      if (/\s/.test(s) || !/linkedin\.com\/company\/./i.test(s)) return 'invalid';
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(s) && !/^https?:\/\//i.test(s)) return 'invalid';
      return /^(?:https?:\/\/)?(?:www\.)?linkedin\.com\/company\/[a-z0-9][a-z0-9-]*\/?$/.test(s) ? 'valid' : 'unknown';
    case 'image_url':
      if (!/^https?:\/\//i.test(s)) return 'invalid';
      return /^https?:\/\/(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,63}(?:\/[A-Za-z0-9._~-]*)*$/.test(s) ? 'valid' : 'unknown';
    case 'page_url':
      if (!s.includes('.')) return 'invalid';
      if (/^[a-z][a-z0-9+.-]*:/i.test(s) && !/^https?:\/\//i.test(s) && !/^[a-z0-9.-]+:\d+(?:\/|$)/i.test(s)) return 'invalid';
      if (/^https?:\/\/(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,63}(?:\/[a-z0-9_-]*)*(?:\?[a-z0-9_=&]*|#[a-z]*)?$/.test(s))
        return 'valid';
      if (/^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,63}(?:\/[a-z0-9_-]*)+$/.test(s)) return 'valid';
      return 'unknown';
  }
}

interface FieldVerdict {
  verdict: Verdict;
  /** What the record must hold afterwards, when the documents say so. */
  expected?: string;
}

function classifyField(doc: FieldDoc, value: unknown): FieldVerdict {
  if (value === null) return doc.presence === 'clearable' ? { verdict: 'valid', expected: '' } : { verdict: 'invalid' };
  if (typeof value !== 'string') return { verdict: 'invalid' };
  const trimmed = value.trim();
  if (trimmed === '') return doc.presence === 'clearable' ? { verdict: 'valid', expected: '' } : { verdict: 'invalid' };
  if (cps(trimmed) > doc.max) return { verdict: 'invalid' };
  let verdict = ruleVerdict(doc.rule, trimmed);
  // PostgreSQL text cannot hold NUL or unpaired surrogates: either refused, or stored exactly.
  if (!isClean(trimmed) && verdict === 'valid') verdict = 'unknown';
  // Only domains are documented as normalised (lowercased); linkedin/logo storage form is not shown.
  if (doc.rule === 'domain') return { verdict, expected: trimmed.toLowerCase() };
  if (doc.rule === 'linkedin' || doc.rule === 'image_url') return { verdict };
  return { verdict, expected: trimmed };
}

interface BodyVerdict {
  kind: Verdict;
  /** Names a 400 may carry as `param`; null means any string. */
  params: string[] | null;
  fields: Map<string, FieldVerdict>;
  body: unknown;
}

function classifyKbBody(kb: KbCase, mode: 'create' | 'update', raw: string): BodyVerdict {
  const fields = new Map<string, FieldVerdict>();
  if (raw === '') return { kind: 'invalid', params: null, fields, body: undefined };
  const parsed = safeParse(raw);
  if (!parsed.ok || !isPlainObject(parsed.value)) {
    return { kind: 'invalid', params: ['body'], fields, body: parsed.ok ? parsed.value : undefined };
  }
  const body = parsed.value;
  const docs = FIELD_DOCS[kb.path];
  const invalid: string[] = [];
  const unknown: string[] = [];
  for (const key of Object.keys(body)) {
    if (!has(docs, key)) {
      invalid.push(key);
      continue;
    }
    const v = classifyField(docs[key], body[key]);
    fields.set(key, v);
    if (v.verdict === 'invalid') invalid.push(key);
    if (v.verdict === 'unknown') unknown.push(key);
  }
  if (mode === 'create') {
    for (const [name, doc] of Object.entries(docs)) if (doc.presence === 'required' && !has(body, name)) invalid.push(name);
  } else if (Object.keys(body).length === 0) {
    return { kind: 'invalid', params: null, fields, body };
  }
  const kind: Verdict = invalid.length > 0 ? 'invalid' : unknown.length > 0 ? 'unknown' : 'valid';
  return { kind, params: [...invalid, ...unknown], fields, body };
}

function validTimestamp(s: string): boolean {
  const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})Z$/.exec(s);
  if (!m) return false;
  const [y, mo, d, h, mi, se] = m.slice(1).map(Number);
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, se, 0);
  return (
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d &&
    date.getUTCHours() === h &&
    date.getUTCMinutes() === mi &&
    date.getUTCSeconds() === se
  );
}

function isCleanJson(value: unknown, depth = 0): boolean {
  if (depth > 6) return false;
  if (value === null || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value === 'string') return isClean(value) && value.length <= 1000;
  if (Array.isArray(value)) return value.length <= 20 && value.every((v) => isCleanJson(v, depth + 1));
  if (isPlainObject(value)) {
    return Object.entries(value).every(([k, v]) => !PROTO_KEYS.includes(k) && isClean(k) && k.length <= 100 && isCleanJson(v, depth + 1));
  }
  return false;
}

interface ActivityVerdict {
  verdict: Verdict;
  externalId?: string;
  /** An external id was sent but its meaning is not documented (padding, NUL, …). */
  externalUnknown?: boolean;
}

function worst(a: Verdict, b: Verdict): Verdict {
  if (a === 'invalid' || b === 'invalid') return 'invalid';
  if (a === 'unknown' || b === 'unknown') return 'unknown';
  return 'valid';
}

/** A free-text field inside an activity: strings only; odd strings are not documented either way. */
function activityText(value: unknown, required: boolean): Verdict {
  if (value === undefined || value === null) return required ? 'invalid' : 'valid';
  if (typeof value !== 'string') return 'invalid';
  if (value.trim() === '') return required ? 'invalid' : 'valid';
  return isClean(value) && value.length <= 2000 ? 'valid' : 'unknown';
}

function stringsObject(value: unknown, keys: readonly string[]): Verdict {
  if (value === undefined || value === null) return 'valid';
  if (!isPlainObject(value)) return 'invalid';
  let v: Verdict = 'valid';
  for (const [k, x] of Object.entries(value)) v = worst(v, keys.includes(k) ? activityText(x, false) : 'invalid');
  return v;
}

function classifyActivity(a: unknown): ActivityVerdict {
  if (!isPlainObject(a)) return { verdict: 'invalid' };
  let v: Verdict = 'valid';
  for (const key of Object.keys(a)) if (!ACTIVITY_KEYS.includes(key)) return { verdict: 'invalid' };
  const out: ActivityVerdict = { verdict: 'valid' };
  if (a.external_id !== undefined) {
    if (a.external_id === null) out.externalUnknown = true;
    else if (typeof a.external_id !== 'string') return { verdict: 'invalid' };
    else {
      const t = a.external_id.trim();
      if (t === '' || !isClean(t) || t.length > 200) {
        out.externalUnknown = true;
        v = 'unknown';
      } else out.externalId = t;
    }
  }
  const type = a.type;
  if (typeof type !== 'string') return { verdict: 'invalid' };
  const typeT = type.trim() as SignalType;
  if (!SIGNAL_TYPES.includes(typeT)) return { verdict: 'invalid' };
  if (typeT !== type) v = worst(v, 'unknown');
  if (typeof a.trigger !== 'string') return { verdict: 'invalid' };
  const trig = a.trigger.trim();
  if (!TRIGGERS[typeT].includes(trig)) return { verdict: 'invalid' };
  if (trig !== a.trigger) v = worst(v, 'unknown');
  if (typeof a.occurred_at !== 'string') return { verdict: 'invalid' };
  if (!validTimestamp(a.occurred_at)) {
    const loose = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,3})?Z$/.test(a.occurred_at.trim());
    if (!loose) return { verdict: 'invalid' };
    v = worst(v, 'unknown');
  } else {
    const year = Number(a.occurred_at.slice(0, 4));
    // Far-past instants: the documents fix the format, not the range.
    if (year < 1900) v = worst(v, 'unknown');
    // More than 24 hours ahead of the server's clock is refused (a minute either side of the bound: either).
    const ahead = Date.parse(a.occurred_at) - Date.now() - 24 * 3_600_000;
    if (ahead > 60_000) return { verdict: 'invalid' };
    if (ahead > -60_000) v = worst(v, 'unknown');
  }
  const identity = a.identity;
  if (!isPlainObject(identity)) return { verdict: 'invalid' };
  for (const key of Object.keys(identity)) if (!IDENTITY_KEYS.includes(key)) return { verdict: 'invalid' };
  let present = false;
  for (const key of ['email', 'linkedin', 'ip']) {
    const x = identity[key];
    if (x === undefined || x === null) continue;
    if (typeof x !== 'string') return { verdict: 'invalid' };
    if (key !== 'ip' && x.trim() !== '') present = true;
    if (!isClean(x) || x.length > 300) v = worst(v, 'unknown');
  }
  if (identity.hem !== undefined && identity.hem !== null) {
    const hem = identity.hem;
    if (!isPlainObject(hem)) return { verdict: 'invalid' };
    const okShape =
      Object.keys(hem).every((k) => k === 'type' || k === 'value') &&
      ['sha256', 'sha1', 'md5'].includes(hem.type as string) &&
      typeof hem.value === 'string' &&
      /^[0-9a-f]{16,128}$/.test(hem.value);
    if (okShape) present = true;
    else v = worst(v, 'unknown');
  }
  if (!present) v = worst(v, identity.hem === undefined || identity.hem === null ? 'invalid' : 'unknown');
  for (const other of SIGNAL_TYPES) {
    if (other !== typeT && a[other] !== undefined && a[other] !== null) return { verdict: 'invalid' };
  }
  const obj = a[typeT];
  if (!isPlainObject(obj)) return { verdict: 'invalid' };
  if (typeT === 'website') {
    for (const key of Object.keys(obj)) if (!WEBSITE_KEYS.includes(key)) return { verdict: 'invalid' };
    if (typeof obj.url !== 'string') return { verdict: 'invalid' };
    const url = obj.url.trim();
    v = worst(v, url === '' ? 'invalid' : cps(url) > 2048 ? 'unknown' : isClean(url) ? ruleVerdict('page_url', url) : 'unknown');
    for (const part of ['session', 'device', 'location', 'page']) {
      const x = obj[part];
      if (x === undefined || x === null) continue;
      if (!isPlainObject(x)) return { verdict: 'invalid' };
      if (!isCleanJson(x)) v = worst(v, 'unknown');
    }
  } else {
    const keys = typeT === 'market' ? MARKET_KEYS : LINKEDIN_KEYS;
    v = worst(v, stringsObject(obj, keys));
    const need = typeT === 'market' ? ['topic', 'company_website'] : ['url', 'company_name'];
    // What the type object must hold beyond its shape is not documented: complete objects only.
    if (need.some((k) => typeof obj[k] !== 'string' || obj[k].trim() === '')) v = worst(v, 'unknown');
  }
  for (const hint of ['contact', 'company']) {
    const x = a[hint];
    if (x === undefined || x === null) continue;
    if (!isPlainObject(x)) return { verdict: 'invalid' };
    if (!isCleanJson(x)) v = worst(v, 'unknown');
  }
  v = worst(v, stringsObject(a.attribution, ATTRIBUTION_KEYS));
  out.verdict = v;
  return out;
}

interface IngestVerdict {
  /** Body-level problem: a 400 naming one of these (or `body`). */
  batchParams: string[] | null;
  items: ActivityVerdict[];
}

function classifyIngest(raw: string): IngestVerdict {
  if (raw === '') return { batchParams: [], items: [] };
  const parsed = safeParse(raw);
  if (!parsed.ok || !isPlainObject(parsed.value)) return { batchParams: ['body'], items: [] };
  const body = parsed.value;
  const extra = Object.keys(body).filter((k) => k !== 'activities');
  const list = body.activities;
  if (extra.length > 0 || !Array.isArray(list) || list.length === 0 || list.length > 1000) {
    return { batchParams: [...extra, 'activities', 'body'], items: [] };
  }
  return { batchParams: null, items: list.map(classifyActivity) };
}

// ---------------------------------------------------------------------------------------------
// HTTP, envelope and model
// ---------------------------------------------------------------------------------------------

interface Sent {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  contentType?: string;
  body?: string;
  /** Authorization header; undefined = the world's key, null = none. */
  auth?: string | null;
}

type Rec = Record<string, unknown> & { id: string; short_name: string; created_at: string; updated_at: string };

class KbState {
  active = new Map<string, Rec>();
  deleted = new Map<string, Rec>();
}

interface Cursor {
  cursor: string;
  endpoint: string;
  workspace: string;
  raw: string;
  norm: string;
  lastId: string;
}

class World {
  readonly wid: string;
  readonly kb = new Map<string, KbState>(KB_CASES.map((kb) => [kb.path, new KbState()]));
  /** act id → external id (null when none) of every activity answered `queued`. */
  readonly activities = new Map<string, string | null>();
  readonly external = new Map<string, string>();

  constructor(readonly ws: TestWorkspace) {
    this.wid = workspaceInternalId(ws.workspace_id);
  }

  state(kb: KbCase): KbState {
    return this.kb.get(kb.path) as KbState;
  }
}

let t: TestApp;
let ds: DataSource;
let tablesBefore: string[] = [];
const cursorPool: Cursor[] = [];

const PROTO_SNAPSHOT = {
  object: Object.getOwnPropertyNames(Object.prototype).sort(),
  objectSymbols: Object.getOwnPropertySymbols(Object.prototype).length,
  array: Object.getOwnPropertyNames(Array.prototype).sort(),
  func: Object.getOwnPropertyNames(Function.prototype).sort(),
};

function assertNotPolluted(): void {
  const probe = {} as Record<string, unknown>;
  if (probe.polluted_by_fuzz !== undefined || 'polluted_by_fuzz' in probe) throw new Error('Object.prototype was polluted');
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTO_SNAPSHOT.object);
  expect(Object.getOwnPropertySymbols(Object.prototype)).toHaveLength(PROTO_SNAPSHOT.objectSymbols);
  expect(Object.getOwnPropertyNames(Array.prototype).sort()).toEqual(PROTO_SNAPSHOT.array);
  expect(Object.getOwnPropertyNames(Function.prototype).sort()).toEqual(PROTO_SNAPSHOT.func);
}

function clip(s: string, n = 400): string {
  return s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s;
}

function describeSent(s: Sent): string {
  const parts = [`${s.method} ${clip(s.path, 300)}`];
  if (s.auth !== undefined) parts.push(`Authorization: ${s.auth === null ? '(none)' : JSON.stringify(clip(s.auth, 120))}`);
  if (s.contentType !== undefined) parts.push(`Content-Type: ${JSON.stringify(s.contentType)}`);
  if (s.body !== undefined) parts.push(`body (${Buffer.byteLength(s.body)} bytes): ${JSON.stringify(clip(s.body))}`);
  return parts.join(' | ');
}

function fail(sent: Sent, res: Response | null, why: string): never {
  const answer = res ? `${res.status} ${clip(res.text ?? '', 600)}` : '(none)';
  throw new Error(`${why}\n  request:  ${describeSent(sent)}\n  response: ${answer}`);
}

/** Outcome histogram, printed with FUZZ_STATS=1 to see which answers the generators reach. */
const stats = new Map<string, number>();

function record(s: Sent, res: Response): void {
  if (!process.env.FUZZ_STATS) return;
  const route = s.path.split('?')[0].replace(/^(\/v1\/buyers|\/ingest\/v1\/activities|\/v1\/kb\/[^/]+)\/.*$/, '$1/{id}');
  const code = (res.body as { error?: { code?: string } })?.error?.code ?? '';
  const key = `${s.method} ${route} → ${res.status} ${code}`;
  stats.set(key, (stats.get(key) ?? 0) + 1);
}

/** The workspaces the current test has sent requests as; reconciled after the test. */
const touched = new Set<World>();

async function send(world: World | null, s: Sent, query = ''): Promise<Response> {
  if (world) touched.add(world);
  const url = s.path + (query ? `?${query}` : '');
  const agent = t.http;
  let req =
    s.method === 'GET'
      ? agent.get(url)
      : s.method === 'POST'
        ? agent.post(url)
        : s.method === 'PATCH'
          ? agent.patch(url)
          : agent.delete(url);
  const auth = s.auth === undefined ? world?.ws.auth : s.auth;
  if (auth !== null && auth !== undefined) req = req.set('Authorization', auth);
  if (s.contentType !== undefined) req = req.set('Content-Type', s.contentType);
  if (s.body !== undefined) req = req.send(s.body);
  const res = await req;
  record(s, res);
  return res;
}

/** Never 5xx; every answer has a request id; every failure is exactly the documented envelope. */
function checkEnvelope(sent: Sent, res: Response, world: World | null): void {
  if (res.status >= 500) fail(sent, res, `server error ${res.status}`);
  if (res.status >= 300 && !Object.values(ERROR_STATUS).includes(res.status)) fail(sent, res, `undocumented status ${res.status}`);
  const rid = res.headers['x-request-id'];
  if (typeof rid !== 'string' || !/^req_[0-9a-z]+$/.test(rid)) fail(sent, res, 'missing or malformed X-Request-Id header');
  if (world && (res.text ?? '').includes(world.ws.api_key)) fail(sent, res, 'the answer contains the API key');
  if (res.status < 300) return;
  if (!/^application\/json\b/.test(String(res.headers['content-type'] ?? ''))) fail(sent, res, 'error answer is not JSON');
  const body = res.body as unknown;
  if (!isPlainObject(body) || Object.keys(body).join(',') !== 'error' || !isPlainObject(body.error)) {
    fail(sent, res, 'error answer is not {"error":{…}}');
  }
  const e = body.error;
  const extra = Object.keys(e).filter((k) => !['code', 'message', 'request_id', 'param'].includes(k));
  if (extra.length > 0) fail(sent, res, `error object has undocumented keys ${extra.join(',')}`);
  const code = e.code as string;
  if (typeof code !== 'string' || !has(ERROR_STATUS, code)) fail(sent, res, `undocumented error code ${String(code)}`);
  if (ERROR_STATUS[code] !== res.status) fail(sent, res, `code ${code} with status ${res.status}`);
  if (typeof e.message !== 'string' || e.message.length === 0) fail(sent, res, 'error.message must be a non-empty string');
  if (e.request_id !== rid) fail(sent, res, 'error.request_id differs from X-Request-Id');
  if (PARAM_REQUIRED.has(code) && typeof e.param !== 'string') fail(sent, res, `${code} without a string param`);
  if (has(e, 'param') && typeof e.param !== 'string') fail(sent, res, 'param is not a string');
  if (PARAM_FORBIDDEN.has(code) && has(e, 'param')) fail(sent, res, `${code} must not carry param`);
  if (code === 'invalid_cursor' && e.param !== 'cursor') fail(sent, res, 'invalid_cursor must name param cursor');
  if (code === 'conflict' && e.param !== 'short_name') fail(sent, res, 'conflict must name param short_name');
}

interface Outcome {
  status: number;
  code?: string;
  /** Allowed `param` values; a function for patterns; undefined = any. */
  params?: readonly string[] | null | ((p: string) => boolean);
}

function fmtOutcome(o: Outcome): string {
  const params = typeof o.params === 'function' ? ' param~' : o.params ? ` param∈${JSON.stringify(o.params.map((p) => clip(p, 40)))}` : '';
  return `${o.status}${o.code ? ` ${o.code}` : ''}${params}`;
}

function expectOutcome(sent: Sent, res: Response, allowed: Outcome[]): void {
  const code = (res.body as { error?: { code?: string } })?.error?.code;
  const param = (res.body as { error?: { param?: string } })?.error?.param;
  const ok = allowed.some((o) => {
    if (o.status !== res.status) return false;
    if (o.code !== undefined && o.code !== code) return false;
    if (o.params === undefined || o.params === null) return true;
    if (typeof o.params === 'function') return typeof param === 'string' && o.params(param);
    return typeof param === 'string' && o.params.includes(param);
  });
  if (!ok) fail(sent, res, `expected ${allowed.map(fmtOutcome).join(' | ')}`);
}

const bad = (params?: readonly string[] | null | ((p: string) => boolean)): Outcome => ({ status: 400, code: 'validation_error', params });
const NOT_FOUND: Outcome = { status: 404, code: 'not_found' };
const TOO_LARGE: Outcome = { status: 413, code: 'payload_too_large' };
const CONFLICT: Outcome = { status: 409, code: 'conflict', params: ['short_name'] };

async function kbCounts(world: World, kb: KbCase): Promise<{ active: number; deleted: number }> {
  const [row] = await ds.query(
    `SELECT count(*) FILTER (WHERE deleted_at IS NULL)::int AS active,
            count(*) FILTER (WHERE deleted_at IS NOT NULL)::int AS deleted
       FROM ${tableOf(kb)} WHERE workspace_id = $1`,
    [world.wid],
  );
  return row;
}

async function checkKbCounts(world: World, kb: KbCase, sent: Sent, res: Response): Promise<void> {
  const st = world.state(kb);
  const got = await kbCounts(world, kb);
  if (got.active !== st.active.size || got.deleted !== st.deleted.size) {
    fail(
      sent,
      res,
      `database holds ${got.active} active/${got.deleted} deleted ${kb.path}, accepted requests account for ${st.active.size}/${st.deleted.size}`,
    );
  }
}

async function activityCount(world: World): Promise<number> {
  const [row] = await ds.query(`SELECT count(*)::int AS n FROM activities WHERE workspace_id = $1`, [world.wid]);
  return row.n;
}

async function checkActivityCount(world: World, sent: Sent, res: Response): Promise<void> {
  const n = await activityCount(world);
  if (n !== world.activities.size) fail(sent, res, `activities table holds ${n} rows, ${world.activities.size} were answered queued`);
}

function sameRecord(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const strip = (r: Record<string, unknown>) => {
    const { created_by: _ignored, ...rest } = r;
    return rest;
  };
  if (has(a, 'created_by') && has(b, 'created_by') && JSON.stringify(a.created_by) !== JSON.stringify(b.created_by)) return false;
  expect(strip(a)).toEqual(strip(b));
  return true;
}

function checkRecordShape(world: World, kb: KbCase, rec: unknown, sent: Sent, res: Response): asserts rec is Rec {
  if (!isPlainObject(rec)) fail(sent, res, 'record is not an object');
  const docs = FIELD_DOCS[kb.path];
  const allowed = new Set([...SYSTEM_FIELDS, ...Object.keys(docs), ...computedOf(kb)]);
  const extra = Object.keys(rec).filter((k) => !allowed.has(k));
  if (extra.length > 0) fail(sent, res, `record has undocumented fields ${extra.join(',')}`);
  if (typeof rec.id !== 'string' || !new RegExp(`^${kb.prefix}\\d{19}$`).test(rec.id)) fail(sent, res, 'id is not prefix + 19 digits');
  if (rec.client_id !== world.ws.workspace_id) fail(sent, res, 'client_id is not the workspace');
  for (const f of ['created_at', 'updated_at']) if (typeof rec[f] !== 'string' || !TIMESTAMP.test(rec[f])) fail(sent, res, `${f} format`);
  for (const f of [...Object.keys(docs), ...computedOf(kb)]) if (typeof rec[f] !== 'string') fail(sent, res, `${f} is not a string`);
  if (has(rec, 'created_by') && !isPlainObject(rec.created_by)) fail(sent, res, 'created_by is not an object');
}

async function getRecord(world: World, kb: KbCase, id: string): Promise<Response> {
  const sent: Sent = { method: 'GET', path: `/v1/kb/${kb.path}/${id}` };
  const res = await send(world, sent);
  checkEnvelope(sent, res, world);
  return res;
}

/** After a 201/200: the record reads back exactly as answered. */
async function checkReadBack(world: World, kb: KbCase, rec: Rec, sent: Sent, res: Response): Promise<void> {
  const again = await getRecord(world, kb, rec.id);
  if (again.status !== 200) fail(sent, res, `the accepted record reads back as ${again.status}`);
  try {
    sameRecord(again.body, rec);
  } catch (error) {
    fail(sent, res, `stored record differs from the answer: ${(error as Error).message}`);
  }
}

/** The record of `kb` with `id` is exactly as the model says (no partial write). */
async function checkUnchanged(world: World, kb: KbCase, id: string, sent: Sent, res: Response): Promise<void> {
  const model = world.state(kb).active.get(id);
  if (!model) return;
  const again = await getRecord(world, kb, id);
  if (again.status !== 200) fail(sent, res, `a refused request made ${id} read as ${again.status}`);
  try {
    sameRecord(again.body, model);
  } catch (error) {
    fail(sent, res, `a refused request changed ${id}: ${(error as Error).message}`);
  }
}

function shortNameTaken(world: World, kb: KbCase, shortName: string | undefined, except?: string): boolean {
  if (shortName === undefined) return false;
  return [...world.state(kb).active.values()].some((r) => r.short_name === shortName && r.id !== except);
}

// ---------------------------------------------------------------------------------------------
// KB operations with their oracles
// ---------------------------------------------------------------------------------------------

async function kbPost(
  world: World,
  kb: KbCase,
  body: string,
  contentType = 'application/json',
  ctVerdict: Verdict = 'valid',
): Promise<Response> {
  const sent: Sent = { method: 'POST', path: `/v1/kb/${kb.path}`, contentType, body };
  const res = await send(world, sent);
  checkEnvelope(sent, res, world);
  // A leading byte-order mark may be refused as malformed or skipped; the rest is judged as JSON.
  const bom = body.startsWith('\ufeff');
  const v = classifyKbBody(kb, 'create', bom ? body.slice(1) : body);
  const shortName = v.fields.get('short_name')?.expected;
  const taken = shortNameTaken(world, kb, shortName);
  const success: Outcome[] = taken ? [CONFLICT] : [{ status: 201 }];
  let allowed: Outcome[];
  if (Buffer.byteLength(body) > ONE_MIB) allowed = [TOO_LARGE];
  else if (ctVerdict === 'invalid') allowed = [bad(['body'])];
  else if (v.kind === 'invalid') allowed = [bad(v.params)];
  else if (v.kind === 'unknown') allowed = [bad(v.params), { status: 201 }, CONFLICT];
  else allowed = success;
  if (ctVerdict === 'unknown' || bom) allowed = [...allowed, bad(['body'])];
  expectOutcome(sent, res, allowed);

  if (res.status === 201) {
    const rec = res.body as unknown;
    checkRecordShape(world, kb, rec, sent, res);
    if (shortNameTaken(world, kb, rec.short_name)) fail(sent, res, `201 although short_name ${JSON.stringify(rec.short_name)} is taken`);
    if (rec.created_at !== rec.updated_at) fail(sent, res, 'created_at and updated_at differ on create');
    if (has(rec, 'created_by') && JSON.stringify(rec.created_by) !== JSON.stringify({ type: 'api_key', id: world.ws.key_id })) {
      fail(sent, res, 'created_by is not this API key');
    }
    for (const [name, doc] of Object.entries(FIELD_DOCS[kb.path])) {
      const fv = v.fields.get(name);
      if (fv?.expected !== undefined && rec[name] !== fv.expected) {
        fail(sent, res, `${name} stored as ${JSON.stringify(clip(String(rec[name]), 80))}, sent ${JSON.stringify(clip(fv.expected, 80))}`);
      }
      if (!fv && rec[name] !== '') fail(sent, res, `${name} was not sent (${doc.presence}) but reads ${JSON.stringify(rec[name])}`);
    }
    for (const c of computedOf(kb)) if (rec[c] === '') fail(sent, res, `${c} is empty`);
    await checkReadBack(world, kb, rec, sent, res);
    world.state(kb).active.set(rec.id, rec);
  } else if (res.status === 409) {
    if (!shortNameTaken(world, kb, shortName)) fail(sent, res, `409 although no active record has short_name ${JSON.stringify(shortName)}`);
  }
  await checkKbCounts(world, kb, sent, res);
  assertNotPolluted();
  return res;
}

async function kbCreateValid(world: World, kb: KbCase): Promise<Rec> {
  const res = await kbPost(world, kb, JSON.stringify(kb.valid(unique())));
  expect(res.status).toBe(201);
  return res.body as Rec;
}

type Target =
  | { kind: 'active'; id: string; segment: string }
  | { kind: 'absent'; segment: string }
  | { kind: 'malformed'; segment: string }
  | { kind: 'maybe'; id: string; segment: string };

async function kbPatch(
  world: World,
  kb: KbCase,
  target: Target,
  body: string,
  contentType = 'application/json',
  ctVerdict: Verdict = 'valid',
): Promise<Response> {
  const sent: Sent = { method: 'PATCH', path: `/v1/kb/${kb.path}/${target.segment}`, contentType, body };
  const res = await send(world, sent);
  checkEnvelope(sent, res, world);
  const bom = body.startsWith('\ufeff');
  const v = classifyKbBody(kb, 'update', bom ? body.slice(1) : body);
  const shortName = v.fields.get('short_name')?.expected;
  const activeId = target.kind === 'active' || target.kind === 'maybe' ? target.id : undefined;
  // What the body alone allows: the refusals it may cause, and whether it may be applied.
  let bodyFail: Outcome[];
  let canApply: boolean;
  if (Buffer.byteLength(body) > ONE_MIB) [bodyFail, canApply] = [[TOO_LARGE], false];
  else if (ctVerdict === 'invalid') [bodyFail, canApply] = [[bad(['body'])], false];
  else if (v.kind === 'invalid') [bodyFail, canApply] = [[bad(v.params)], false];
  else if (v.kind === 'unknown') [bodyFail, canApply] = [[bad(v.params)], true];
  else [bodyFail, canApply] = [[], true];
  if ((ctVerdict === 'unknown' || bom) && bodyFail.every((o) => o.status !== 413)) bodyFail = [...bodyFail, bad(['body'])];
  const applied: Outcome[] = shortNameTaken(world, kb, shortName, activeId) ? [CONFLICT] : [{ status: 200 }];
  let allowed: Outcome[];
  switch (target.kind) {
    case 'malformed':
      // Which of a bad id and a bad body is reported first is not documented.
      allowed = [bad([kb.idParam]), ...bodyFail];
      break;
    case 'absent':
      allowed = [NOT_FOUND, ...bodyFail];
      break;
    case 'maybe':
      allowed = [NOT_FOUND, ...bodyFail, ...(canApply ? [{ status: 200 }, CONFLICT] : [])];
      break;
    default:
      allowed = [...bodyFail, ...(canApply ? applied : [])];
  }
  expectOutcome(sent, res, allowed);

  const st = world.state(kb);
  if (res.status === 200) {
    const rec = res.body as unknown;
    checkRecordShape(world, kb, rec, sent, res);
    const before = st.active.get(rec.id);
    if (!before || (activeId !== undefined && rec.id !== activeId)) fail(sent, res, '200 for a record that is not active');
    if (shortNameTaken(world, kb, rec.short_name, rec.id))
      fail(sent, res, `200 although short_name ${JSON.stringify(rec.short_name)} is taken`);
    for (const key of ['id', 'client_id', 'created_at']) if (rec[key] !== before[key]) fail(sent, res, `${key} changed on PATCH`);
    if (rec.updated_at === before.updated_at) fail(sent, res, 'updated_at did not change on a successful PATCH');
    for (const name of Object.keys(FIELD_DOCS[kb.path])) {
      const fv = v.fields.get(name);
      if (fv === undefined && rec[name] !== before[name]) fail(sent, res, `${name} was not sent but changed`);
      if (fv?.expected !== undefined && rec[name] !== fv.expected)
        fail(sent, res, `${name} stored as ${JSON.stringify(clip(String(rec[name]), 80))}`);
    }
    if (!v.fields.has('url')) for (const c of computedOf(kb)) if (rec[c] !== before[c]) fail(sent, res, `${c} changed without url`);
    await checkReadBack(world, kb, rec, sent, res);
    st.active.set(rec.id, rec);
  } else if (res.status === 409) {
    if (!shortNameTaken(world, kb, shortName, activeId)) fail(sent, res, '409 although the short_name is free');
  }
  if (res.status !== 200 && activeId !== undefined) await checkUnchanged(world, kb, activeId, sent, res);
  await checkKbCounts(world, kb, sent, res);
  assertNotPolluted();
  return res;
}

async function kbGetOrDelete(world: World, kb: KbCase, method: 'GET' | 'DELETE', target: Target): Promise<Response> {
  const sent: Sent = { method, path: `/v1/kb/${kb.path}/${target.segment}` };
  const res = await send(world, sent);
  checkEnvelope(sent, res, world);
  const okStatus = method === 'GET' ? 200 : 204;
  const allowed: Outcome[] =
    target.kind === 'malformed'
      ? [bad([kb.idParam])]
      : target.kind === 'absent'
        ? [NOT_FOUND]
        : target.kind === 'maybe'
          ? [NOT_FOUND, { status: okStatus }]
          : [{ status: okStatus }];
  expectOutcome(sent, res, allowed);
  const st = world.state(kb);
  if (res.status === 200) {
    const rec = res.body as unknown;
    checkRecordShape(world, kb, rec, sent, res);
    const model = st.active.get(rec.id);
    if (!model) fail(sent, res, 'read a record that is not active');
    try {
      sameRecord(rec, model);
    } catch (error) {
      fail(sent, res, `record differs from what was written: ${(error as Error).message}`);
    }
  }
  if (res.status === 204) {
    if (res.text !== '' && res.text !== undefined) fail(sent, res, '204 with a body');
    const id = target.kind === 'active' || target.kind === 'maybe' ? target.id : '';
    const rec = st.active.get(id);
    if (!rec) fail(sent, res, '204 for a record that is not active');
    st.active.delete(id);
    st.deleted.set(id, rec);
    const again = await getRecord(world, kb, id);
    if (again.status !== 404) fail(sent, res, `a deleted record reads as ${again.status}`);
  }
  await checkKbCounts(world, kb, sent, res);
  assertNotPolluted();
  return res;
}

/** Walks a KB list through the API and compares it, and the database, with the model. */
async function reconcileKb(world: World, kb: KbCase): Promise<void> {
  const st = world.state(kb);
  const items: Rec[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const q: string = `limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const sent: Sent = { method: 'GET', path: `/v1/kb/${kb.path}` };
    const res = await send(world, sent, q);
    checkEnvelope(sent, res, world);
    if (res.status !== 200) fail(sent, res, 'list failed');
    items.push(...(res.body.data as Rec[]));
    cursor = res.body.pagination.next_cursor;
    if (cursor === null) break;
  }
  const expected = [...st.active.values()].sort((a, b) => (a.id < b.id ? 1 : -1));
  expect(items.map((r) => r.id)).toEqual(expected.map((r) => r.id));
  items.forEach((r, i) => sameRecord(r, expected[i]));
  const [active] = await ds.query(`SELECT count(*)::int AS n FROM ${tableOf(kb)} WHERE workspace_id = $1 AND deleted_at IS NULL`, [
    world.wid,
  ]);
  expect(active.n).toBe(st.active.size);
  const counts = await kbCounts(world, kb);
  expect(counts.deleted).toBe(st.deleted.size);
  for (const id of [...st.deleted.keys()].slice(0, 5)) expect((await getRecord(world, kb, id)).status).toBe(404);
}

async function reconcileActivities(world: World): Promise<void> {
  const rows: Array<{ id: string }> = await ds.query(`SELECT id FROM activities WHERE workspace_id = $1`, [world.wid]);
  const stored = rows.map((r) => `act_${r.id.padStart(19, '0')}`).sort();
  expect(stored).toEqual([...world.activities.keys()].sort());
}

async function reconcile(world: World): Promise<void> {
  await Promise.all([...KB_CASES.map((kb) => reconcileKb(world, kb)), reconcileActivities(world)]);
  assertNotPolluted();
}

// ---------------------------------------------------------------------------------------------
// Path ids
// ---------------------------------------------------------------------------------------------

const hex = (c: string): string => [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

/** Percent-encodes a segment; lone surrogates become the UTF-8 replacement character, as a client sends. */
const encodeSegment = (s: string): string => encodeURIComponent(s.toWellFormed());

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

type IdChoice =
  | { t: 'active'; n: number; encode: number[]; double: boolean }
  | { t: 'deleted'; n: number }
  | { t: 'foreign'; n: number }
  | { t: 'otherResource'; n: number; other: number }
  | { t: 'raw'; segment: string };

const idTrickArb = (prefix: string): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(
      '%2e%2e%2f',
      '..%2f..%2fbuyers',
      '%2e%2e',
      '..',
      '.',
      '%00',
      `${prefix}%00`,
      `${prefix}1%00`,
      '%252e%252e%252f',
      `${prefix}%2531`,
      `${prefix}%30%30%30%31`,
      `${prefix}%20`,
      `${prefix}1%20`,
      `${prefix}+1`,
      `${prefix}-1`,
      `${prefix}1.0`,
      `${prefix}0x1`,
      `${prefix}1e3`,
      `${prefix.toUpperCase()}1`,
      `${prefix}${encodeURIComponent('١٢٣')}`,
      `${prefix}${encodeURIComponent('１２３')}`,
      encodeURIComponent(`${prefix}1' OR '1'='1`),
      encodeURIComponent(`${prefix}1; DROP TABLE icps; --`),
      encodeURIComponent('<script>alert(1)</script>'),
      `${prefix}`,
      `${prefix}0`,
      `${prefix}9223372036854775807`,
      `${prefix}9223372036854775808`,
      `${prefix}${'0'.repeat(40)}1`,
      encodeURIComponent(`${prefix}\u202e1`),
      `${prefix}%EF%BC%91`,
      `${prefix}%E2%80%AE1`,
      '%C0%AE%C0%AE%2F'.replace(/%C0%AE/g, '%2E'),
    ),
    fc.tuple(fc.constantFrom(...ALL_PREFIXES), fc.stringMatching(/^[0-9]{1,19}$/)).map(([p, d]) => p + d),
    fc.tuple(fc.constant(prefix), fc.integer({ min: 20, max: 3000 })).map(([p, n]) => p + '9'.repeat(n)),
    fc.tuple(fc.constant(prefix), fc.stringMatching(/^[0-9]{1,19}$/)).map(([p, d]) => p + d),
    fc.integer({ min: 100, max: 6000 }).map((n) => prefix + 'a'.repeat(n)),
    hostileTextArb
      .filter((s) => s.length > 0 && s.length < 600)
      .chain((s) => fc.constantFrom(s, prefix + s, `${prefix}1${s}`))
      .map(encodeSegment)
      .filter((s) => s.length < 8000),
  );

const idChoiceArb = (kb: KbCase): fc.Arbitrary<IdChoice> =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        t: fc.constant('active' as const),
        n: fc.nat(),
        encode: fc.array(fc.nat(30), { maxLength: 4 }),
        double: fc.boolean(),
      }),
    },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('deleted' as const), n: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('foreign' as const), n: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('otherResource' as const), n: fc.nat(), other: fc.nat(6) }) },
    { weight: 5, arbitrary: idTrickArb(kb.prefix).map((segment) => ({ t: 'raw' as const, segment })) },
  );

const foreign = new Map<string, string[]>();

function classifySegment(world: World, kb: KbCase, segment: string): Target {
  const decoded = decodeSegment(segment);
  if (decoded === null || !new RegExp(`^${kb.prefix}[0-9]+$`).test(decoded)) return { kind: 'malformed', segment };
  const st = world.state(kb);
  if (st.active.has(decoded)) return { kind: 'active', id: decoded, segment };
  const n = BigInt(decoded.slice(kb.prefix.length));
  const same = [...st.active.keys()].find((id) => BigInt(id.slice(kb.prefix.length)) === n);
  // prefix + digits with other zero-padding than the canonical 19: undocumented either way.
  if (same) return { kind: 'maybe', id: same, segment };
  return { kind: 'absent', segment };
}

async function resolveTarget(world: World, kb: KbCase, choice: IdChoice): Promise<Target> {
  const st = world.state(kb);
  switch (choice.t) {
    case 'active': {
      if (st.active.size === 0) await kbCreateValid(world, kb);
      const ids = [...st.active.keys()];
      const id = ids[choice.n % ids.length];
      const chars = [...id];
      for (const i of choice.encode) {
        const at = i % chars.length;
        chars[at] = choice.double ? hex(chars[at]).replace(/%/g, '%25') : hex(chars[at]);
      }
      return classifySegment(world, kb, chars.join(''));
    }
    case 'deleted': {
      const ids = [...st.deleted.keys()];
      return classifySegment(world, kb, ids.length > 0 ? ids[choice.n % ids.length] : `${kb.prefix}${'0'.repeat(18)}1`);
    }
    case 'foreign': {
      const ids = foreign.get(kb.path) ?? [];
      return classifySegment(world, kb, ids[choice.n % ids.length]);
    }
    case 'otherResource': {
      const others = KB_CASES.filter((k) => k.path !== kb.path);
      const other = others[choice.other % others.length];
      if (world.state(other).active.size === 0) await kbCreateValid(world, other);
      const ids = [...world.state(other).active.keys()];
      return classifySegment(world, kb, ids[choice.n % ids.length]);
    }
    default:
      return classifySegment(world, kb, choice.segment);
  }
}

// ---------------------------------------------------------------------------------------------
// Bodies
// ---------------------------------------------------------------------------------------------

function kbBodyArb(kb: KbCase, mode: 'create' | 'update'): fc.Arbitrary<string> {
  const docs = FIELD_DOCS[kb.path];
  const names = Object.keys(docs);
  const required = names.filter((n) => docs[n].presence === 'required');
  const model = Object.fromEntries(names.map((n) => [n, validValueArb(docs[n], n).map(jsonText)]));
  const validBody = fc
    .record(model, { requiredKeys: mode === 'create' ? required : [] })
    .map((r) => Object.entries(r).map(([key, text]) => ({ key, text: text })));
  const fieldValueArb = (name: string) =>
    fc.oneof(
      { weight: 3, arbitrary: hostileTextArb.map(jsonText) },
      { weight: 2, arbitrary: wrongTypeTextArb },
      { weight: 1, arbitrary: model[name] },
    );
  const mutation = fc.oneof(
    fc.constantFrom(...names).chain((name) => fieldValueArb(name).map((text) => ({ key: name, text }))),
    fc.tuple(extraKeyArb, anyValueTextArb).map(([key, text]) => ({ key, text })),
    fc.constantFrom(...names).map((key) => ({ key, text: '\u0001drop' })),
  );
  const mutated = fc.tuple(validBody, fc.array(fc.tuple(mutation, fc.boolean()), { minLength: 1, maxLength: 3 })).map(([base, muts]) => {
    let entries: Entry[] = [...base];
    for (const [m, prepend] of muts) {
      if (m.text === '\u0001drop') entries = entries.filter((e) => e.key !== m.key);
      else if (prepend) entries = [m, ...entries];
      else entries = [...entries, m];
    }
    return entries;
  });
  const chaos = fc.array(
    fc.tuple(fc.oneof(fc.constantFrom(...names), extraKeyArb), anyValueTextArb).map(([key, text]) => ({ key, text })),
    { maxLength: 8 },
  );
  const validWeight = mode === 'create' ? 3 : 5;
  return fc
    .oneof({ weight: validWeight, arbitrary: validBody }, { weight: 5, arbitrary: mutated }, { weight: 2, arbitrary: chaos })
    .map(objectText);
}

/** Malformed JSON text, arbitrary JSON values, and text that is JSON only at first sight. */
const malformedArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '{"name":"a",}',
    '{"name":"a" "short_name":"b"}',
    "{'name':'a'}",
    '{name:"a"}',
    '{"name":"a"}}',
    '{"name":"a"',
    '[1,2,]',
    'NaN',
    'Infinity',
    '{"a":NaN}',
    '{"a":undefined}',
    '{"a":0x10}',
    '{"a":01}',
    '{"a":.5}',
    '{"a":"\\x41"}',
    '{"a":"\\u12"}',
    '{"a":"line\nbreak"}',
    '/* c */{}',
    '{} // c',
    '{"a":1}{"b":2}',
    '{"a":1},',
    ' ',
    '\u00a0{}',
    'null',
    'true',
    '"string"',
    '42',
    '[]',
    '[{}]',
    '{"a":1}\u0000',
    '\ufeff{"name":"bom"}',
    '\ufeff\ufeff{}',
    '{"\\ud800":1}',
    '{"name":\'x\'}',
    '<xml/>',
    'a=1&b=2',
    '--boundary',
    '',
    '{"activities":[{"type":"market",}]}',
    '{"activities":[',
  ),
  fc
    .tuple(
      fc.constantFrom(
        '{"name":"abc","short_name":"def","description":"ghi"}',
        '{"activities":[{"type":"market","trigger":"researched_topic"}]}',
      ),
      fc.nat(),
    )
    .map(([s, n]) => s.slice(0, n % s.length)),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.jsonValue({ maxDepth: 4 }).map(jsonText),
  fc.dictionary(extraKeyArb, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }).map(jsonText),
  fc.anything({ maxDepth: 3, withNullPrototype: true }).map(jsonText),
);

// ---------------------------------------------------------------------------------------------
// Query strings
// ---------------------------------------------------------------------------------------------

interface Pair {
  /** Encoded `name=value` (or `name`) as sent. */
  raw: string;
  name: string | null;
  value: string | null;
  /** Index into the cursor pool when the value is a real cursor. */
  pool?: number;
  /** Flip one character of the pooled cursor. */
  alter?: number;
}

const qsDecode = (s: string): string | null => {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return null;
  }
};
const qsEncode = (s: string): string => encodeURIComponent(s.toWellFormed());

function pair(name: string, value: string | null): Pair {
  const n = name.toWellFormed();
  const v = value === null ? null : value.toWellFormed();
  return { raw: v === null ? qsEncode(n) : `${qsEncode(n)}=${qsEncode(v)}`, name: n, value: v ?? '' };
}

function rawPair(raw: string): Pair {
  const eq = raw.indexOf('=');
  const name = qsDecode(eq < 0 ? raw : raw.slice(0, eq));
  const value = eq < 0 ? '' : qsDecode(raw.slice(eq + 1));
  return { raw, name, value };
}

const hostileQueryTextArb = hostileTextArb.filter((s) => s.length < 600 && !s.includes('svc_live_'));

const limitValidArb = fc.integer({ min: 1, max: 1000 }).map(String);
const limitInvalidArb = fc.oneof(
  fc.constantFrom(
    '0',
    '1001',
    '-1',
    '1.5',
    '1e3',
    '0x10',
    'abc',
    '',
    ' 5',
    '5 ',
    '+5',
    '１０',
    '99999999999',
    '1000000000000000000000',
    'null',
    '[]',
    "1' OR 1=1 --",
  ),
  hostileQueryTextArb,
);
const tsValidArb = fc.oneof(
  fc
    .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
    .map((d) => `${d.toISOString().slice(0, 19)}Z`),
  fc.constantFrom('2026-01-15T10:00:00Z', '2026-01-15T10:00:01Z', '2026-01-15T09:59:59Z', '2025-06-01T00:00:00Z', '2026-03-01T12:00:00Z'),
);
const tsInvalidArb = fc.oneof(
  fc.constantFrom(
    '2026-01-01',
    '2026-01-01T00:00:00',
    '2026-01-01T00:00:00.000Z',
    '2026-01-01T00:00:00+00:00',
    '2026-02-30T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-01-01T24:00:00Z',
    '2026-01-01T23:59:60Z',
    '2026-1-1T00:00:00Z',
    '20260101T000000Z',
    'now',
    '1700000000',
    '2026-01-01t00:00:00z',
    ' 2026-01-01T00:00:00Z',
    "2026-01-01T00:00:00Z' OR 1=1 --",
    '',
  ),
  hostileQueryTextArb,
);
const fakeCursorArb = fc.oneof(
  fc.base64String({ maxLength: 80 }),
  fc.tuple(fc.stringMatching(/^[A-Za-z0-9_-]{1,60}$/), fc.stringMatching(/^[A-Za-z0-9_-]{43}$/)).map(([a, b]) => `${a}.${b}`),
  fc.constantFrom(
    '',
    'null',
    'undefined',
    '0',
    '.',
    'a.b',
    '{"at":"2026-01-01","id":"1"}',
    'W1sMjAyNl0.' + 'A'.repeat(43),
    'x'.repeat(2049),
  ),
  hostileQueryTextArb,
);

interface ParamSpec {
  valid: fc.Arbitrary<string>;
  invalid: fc.Arbitrary<string>;
  classify(value: string): Verdict;
}

const LIMIT_SPEC: ParamSpec = {
  valid: limitValidArb,
  invalid: limitInvalidArb,
  classify: (v) => {
    if (/^[1-9][0-9]{0,3}$/.test(v)) return Number(v) <= 1000 ? 'valid' : 'invalid';
    if (/^[0-9]+$/.test(v)) return Number(v) === 0 || Number(v) > 1000 ? 'invalid' : 'unknown';
    return 'invalid';
  },
};
const TS_SPEC: ParamSpec = { valid: tsValidArb, invalid: tsInvalidArb, classify: (v) => (validTimestamp(v) ? 'valid' : 'invalid') };
const enumSpec = (values: string[], extra: string[]): ParamSpec => ({
  valid: fc.constantFrom(...values),
  invalid: fc.oneof(fc.constantFrom(...extra), hostileQueryTextArb),
  classify: (v) => (values.includes(v) ? 'valid' : values.some((x) => x.toLowerCase() === v.toLowerCase().trim()) ? 'unknown' : 'invalid'),
});

const unknownNameArb = fc
  .oneof(
    fc.constantFrom(
      'offset',
      'page',
      'sort',
      'order',
      'filter',
      'total',
      'expand',
      ...PROTO_KEYS,
      'hasOwnProperty',
      'toString',
      'limit ',
      'LIMIT',
      'Limit',
      'limit[]',
      'limit[0]',
      'cursor\u0000',
      'a[b]',
      '',
      'id',
      'workspace_id',
      'client_id',
    ),
    hostileQueryTextArb.filter((s) => s.length < 200),
  )
  .filter((s) => !KEY_QUERY_NAMES.includes(s.toLowerCase()));

interface ListEndpoint {
  endpoint: string;
  path: string;
  params: Record<string, ParamSpec>;
  /** Names bound into a cursor (DESIGN §1), with their defaults. */
  bound: Record<string, string | null>;
  /** Cross-parameter rules: names of offending parameters for an otherwise valid query. */
  cross?: (q: Record<string, string>) => string[];
}

function queryArb(ep: ListEndpoint): fc.Arbitrary<Pair[]> {
  const names = Object.keys(ep.params);
  const pairArb: fc.Arbitrary<Pair> = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...names).chain((n) => ep.params[n].valid.map((v) => pair(n, v))) },
    { weight: 3, arbitrary: fc.constantFrom(...names).chain((n) => ep.params[n].invalid.map((v) => pair(n, v))) },
    {
      weight: 4,
      arbitrary: fc
        .record({ pool: fc.nat(), alter: fc.option(fc.nat(), { nil: undefined }) })
        .map(({ pool, alter }) => ({ ...pair('cursor', ''), pool, alter })),
    },
    { weight: 2, arbitrary: fakeCursorArb.map((v) => pair('cursor', v)) },
    { weight: 2, arbitrary: fc.tuple(unknownNameArb, hostileQueryTextArb).map(([n, v]) => pair(n, v)) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          'limit=%31%30',
          'limit=1%00',
          'cursor=%ZZ',
          'lim%69t=5',
          '%6C%69%6D%69%74=5',
          'limit=%2B5',
          'limit',
          '=1',
          'a[b]=1',
          'limit[]=1',
          'limit[0]=5',
          '%ZZ=1',
          'limit=5%',
          'limit=%E0%A4%A',
          'sort_order=%64esc',
          '%00=1',
        )
        .map(rawPair),
    },
  );
  return fc.oneof(
    fc.array(pairArb, { maxLength: 4 }),
    // Repeated names.
    fc.tuple(fc.array(pairArb, { minLength: 1, maxLength: 2 }), fc.nat()).map(([ps, n]) => {
      const p = ps[n % ps.length];
      return [...ps, { ...p }];
    }),
  );
}

interface QueryVerdict {
  /** Names that must be refused (unknown, repeated, bad value, cross-rule). */
  offenders: string[];
  /** Names whose values the documents leave open. */
  uncertain: string[];
  cursor: 'absent' | 'valid' | 'invalid' | 'maybe';
  /** The accepted values, by name (cursor included). */
  query: Record<string, string>;
  pooled?: Cursor;
  encoded: string;
}

const bindingOf = (ep: ListEndpoint, query: Record<string, string>) => ({
  raw: JSON.stringify(Object.keys(ep.bound).map((k) => query[k] ?? null)),
  norm: JSON.stringify(Object.keys(ep.bound).map((k) => query[k] ?? ep.bound[k])),
});

function classifyQuery(ep: ListEndpoint, world: World, pairs: readonly Pair[]): QueryVerdict {
  // Resolve pooled cursors first (without touching the generated values).
  const resolved = pairs.map((p) => {
    if (p.pool === undefined) return { ...p, pooled: undefined as Cursor | undefined };
    if (cursorPool.length === 0) return { ...p, raw: 'cursor=no-cursor-yet', value: 'no-cursor-yet', pooled: undefined };
    const c = cursorPool[p.pool % cursorPool.length];
    let value = c.cursor;
    if (p.alter !== undefined) {
      const i = p.alter % value.length;
      value = value.slice(0, i) + (value[i] === 'A' ? 'B' : 'A') + value.slice(i + 1);
    }
    return { ...p, raw: `cursor=${qsEncode(value)}`, value, pooled: value === c.cursor ? c : undefined };
  });
  const seen = new Map<string, number>();
  for (const p of resolved) if (p.name !== null) seen.set(p.name, (seen.get(p.name) ?? 0) + 1);
  const offenders: string[] = [];
  const uncertain: string[] = [];
  const query: Record<string, string> = {};
  let cursor: QueryVerdict['cursor'] = 'absent';
  let pooled: Cursor | undefined;
  for (const p of resolved) {
    if (p.name === null) offenders.push(p.raw.split('=')[0]);
    else if (!has(ep.params, p.name) && p.name !== 'cursor') offenders.push(p.name);
    else if ((seen.get(p.name) ?? 0) > 1) offenders.push(p.name);
    else if (p.name === 'cursor') {
      const value = p.value;
      if (value !== null && p.pooled) {
        pooled = p.pooled;
        query.cursor = value;
      } else cursor = 'invalid';
    } else if (p.value === null) offenders.push(p.name);
    else {
      const v = ep.params[p.name].classify(p.value);
      if (v === 'invalid') offenders.push(p.name);
      else if (v === 'unknown') uncertain.push(p.name);
      else query[p.name] = p.value;
    }
  }
  const cross = ep.cross ? ep.cross(query) : [];
  if (offenders.length === 0 && uncertain.length === 0) offenders.push(...cross);
  else uncertain.push(...cross);
  if (pooled) {
    const binding = bindingOf(ep, query);
    if (pooled.endpoint !== ep.endpoint || pooled.workspace !== world.wid || pooled.norm !== binding.norm) cursor = 'invalid';
    else if (pooled.raw === binding.raw && uncertain.length === 0) cursor = 'valid';
    else cursor = 'maybe';
  }
  return { offenders, uncertain, cursor, query, pooled, encoded: resolved.map((p) => p.raw).join('&') };
}

/**
 * Sends a list request and checks it: errors against the query oracle, pages against `expectedIds`
 * (the full filtered, ordered list of ids) and the cursor position.
 */
async function listRequest(
  world: World,
  ep: ListEndpoint,
  pairs: readonly Pair[],
  expectedIds: (q: Record<string, string>) => string[] | null,
): Promise<Response> {
  const v = classifyQuery(ep, world, pairs);
  const sent: Sent = { method: 'GET', path: `${ep.path}?${v.encoded}` };
  const res = await send(world, { method: 'GET', path: ep.path }, v.encoded);
  checkEnvelope(sent, res, world);
  const allowed: Outcome[] = [];
  const named = [...v.offenders, ...v.uncertain];
  if (named.length > 0) allowed.push({ status: 400, code: 'invalid_parameter', params: named });
  if (v.cursor === 'invalid' || v.cursor === 'maybe') allowed.push({ status: 400, code: 'invalid_cursor', params: ['cursor'] });
  if (v.offenders.length === 0 && v.cursor !== 'invalid') allowed.push({ status: 200 });
  expectOutcome(sent, res, allowed);
  if (res.status !== 200) return res;

  const body = res.body as { data?: unknown; pagination?: { next_cursor?: unknown } };
  if (!isPlainObject(body) || !Array.isArray(body.data) || !isPlainObject(body.pagination)) fail(sent, res, 'not a list envelope');
  const next = body.pagination.next_cursor;
  if (next !== null && (typeof next !== 'string' || next.length === 0)) fail(sent, res, 'next_cursor must be a non-empty string or null');
  const limit = v.query.limit ? Number(v.query.limit) : 100;
  const data = body.data as Array<{ id: string }>;
  if (data.length > limit && v.uncertain.length === 0) fail(sent, res, `page of ${data.length} for limit ${limit}`);
  const all = v.uncertain.length === 0 ? expectedIds(v.query) : null;
  if (all) {
    let start = 0;
    if (v.query.cursor !== undefined && v.pooled) {
      const last = v.pooled.lastId;
      const at = all.indexOf(last);
      // KB lists only run newest first; a record deleted since still marks the position.
      start = at >= 0 ? at + 1 : ep.endpoint.startsWith('kb/') ? all.findIndex((id) => id < last) : -1;
      if (start < 0) start = all.length;
    }
    const want = all.slice(start, start + limit);
    const got = data.map((r) => r.id);
    if (JSON.stringify(got) !== JSON.stringify(want)) fail(sent, res, `page ${JSON.stringify(got)} but expected ${JSON.stringify(want)}`);
    if (next === null && start + data.length < all.length) fail(sent, res, 'next_cursor is null before the end');
  }
  if (typeof next === 'string' && data.length > 0 && v.uncertain.length === 0) {
    const binding = bindingOf(ep, v.query);
    cursorPool.push({ cursor: next, endpoint: ep.endpoint, workspace: world.wid, ...binding, lastId: data[data.length - 1].id });
    if (cursorPool.length > 200) cursorPool.shift();
  }
  assertNotPolluted();
  return res;
}

// ---------------------------------------------------------------------------------------------
// Activities
// ---------------------------------------------------------------------------------------------

const isoSecondsArb = fc
  .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
  .map((d) => `${d.toISOString().slice(0, 19)}Z`);
const clean = (max: number) => textValidArb(max).map((s) => s.trim());
const externalIdArb = fc.oneof(
  fc.constantFrom(
    'ext-1',
    'ext-2',
    ' ext-1 ',
    "ext-'; DROP TABLE activities; --",
    'ext-<script>alert(1)</script>',
    'ext-😀',
    'ext-\u202e1',
  ),
  fc.uuid(),
);
const identityArb = fc
  .record(
    {
      email: fc.oneof(fc.emailAddress(), fc.constantFrom("o'brien@example.com", 'x@y.co')),
      hem: fc.record({ type: fc.constantFrom('sha256', 'sha1', 'md5'), value: fc.stringMatching(/^[0-9a-f]{32,64}$/) }),
      linkedin: fc.constantFrom('https://www.linkedin.com/in/someone', 'linkedin.com/in/ada'),
      ip: fc.ipV4(),
    },
    { requiredKeys: [] },
  )
  .filter((i) => i.email !== undefined || i.hem !== undefined || i.linkedin !== undefined);
const hintArb = fc.record(
  {
    name: fc.record({ first: clean(30), last: clean(30) }, { requiredKeys: [] }),
    role: fc.record({ title: clean(40), seniority: fc.constantFrom('vp', 'c_level') }, { requiredKeys: [] }),
    industries: fc.array(clean(20), { maxLength: 3 }),
    employee_count: fc.nat(100_000),
  },
  { requiredKeys: [] },
);
const typeObjectArb = (type: SignalType): fc.Arbitrary<Record<string, unknown>> => {
  switch (type) {
    case 'website':
      return fc.record(
        {
          url: pageUrlArb,
          session: fc.record({ id: fc.uuid(), duration_secs: fc.nat(10_000) }, { requiredKeys: [] }),
          device: fc.record({ browser: clean(20), language: fc.constantFrom('en', 'ar', 'he') }, { requiredKeys: [] }),
          location: fc.record({ country: clean(20), latitude: fc.double({ min: -90, max: 90, noNaN: true }) }, { requiredKeys: [] }),
          page: fc.record({ time_spent_secs: fc.nat(1000) }, { requiredKeys: [] }),
        },
        { requiredKeys: ['url'] },
      );
    case 'market':
      return fc.record({ topic: clean(60), company_website: domainArb });
    default:
      return fc.record(
        {
          source: fc.constantFrom('company_page', 'post'),
          url: linkedinArb.map((u) => `https://${u.replace(/^(https?:\/\/)/, '')}`),
          comment: clean(80),
          reaction_type: fc.constantFrom('like', 'celebrate'),
          company_name: clean(40),
          post_title: clean(60),
        },
        { requiredKeys: ['url', 'company_name'] },
      );
  }
};
const validActivityArb: fc.Arbitrary<Record<string, unknown>> = fc.constantFrom(...SIGNAL_TYPES).chain((type) =>
  fc.record(
    {
      external_id: externalIdArb,
      type: fc.constant(type),
      trigger: fc.constantFrom(...TRIGGERS[type]),
      occurred_at: isoSecondsArb,
      identity: identityArb,
      contact: hintArb,
      company: hintArb,
      attribution: fc.record(
        { type: clean(20), source: clean(20), source_name: clean(20), source_logo: imageUrlArb },
        { requiredKeys: [] },
      ),
      [type]: typeObjectArb(type),
    },
    { requiredKeys: ['type', 'trigger', 'occurred_at', 'identity', type] },
  ),
);

type ActMutation = { op: 'drop'; key: string } | { op: 'set'; key: string; text: string };
const hostileObjectTextArb = (keys: string[]): fc.Arbitrary<string> =>
  fc
    .array(
      fc.tuple(
        fc.constantFrom(...keys),
        hostileTextArb.filter((s) => s.length < 20_000),
      ),
      { minLength: 1, maxLength: 4 },
    )
    .map((es) => objectText(es.map(([key, v]) => ({ key, text: jsonText(v) }))));
const actMutationArb: fc.Arbitrary<ActMutation> = fc.oneof(
  fc.record({
    op: fc.constant('drop' as const),
    key: fc.constantFrom('type', 'trigger', 'occurred_at', 'identity', 'website', 'market', 'linkedin'),
  }),
  fc.record({
    op: fc.constant('set' as const),
    key: fc.constantFrom(
      'type',
      'trigger',
      'occurred_at',
      'identity',
      'external_id',
      'contact',
      'company',
      'attribution',
      'website',
      'market',
      'linkedin',
    ),
    text: anyValueTextArb,
  }),
  fc.record({ op: fc.constant('set' as const), key: extraKeyArb, text: anyValueTextArb }),
  fc.record({
    op: fc.constant('set' as const),
    key: fc.constant('identity'),
    text: fc.constantFrom(
      '{}',
      '{"ip":"10.0.0.1"}',
      '{"email":""}',
      '{"email":"  "}',
      '{"email":123}',
      '{"email":"a@b.co","__proto__":{"polluted_by_fuzz":"yes"}}',
      '{"email":"a@b.co","constructor":{"prototype":{"polluted_by_fuzz":"yes"}}}',
      '{"email":"a@b.co","extra":1}',
      '[]',
      '"a@b.co"',
      '{"email":"\' OR 1=1 --"}',
      '{"email":"<script>alert(1)</script>@x.co"}',
      '{"email":"a\\u0000@b.co"}',
      '{"email":"\\ud800@b.co"}',
    ),
  }),
  fc.record({ op: fc.constant('set' as const), key: fc.constant('occurred_at'), text: tsInvalidArb.map(jsonText) }),
  fc.record({ op: fc.constant('set' as const), key: fc.constant('trigger'), text: fc.constantFrom(...ALL_TRIGGERS).map(jsonText) }),
  fc.record({
    op: fc.constant('set' as const),
    key: fc.constantFrom('type', 'trigger'),
    text: fc.constantFrom(...SQL, ...SCRIPT, ...UNICODE_BAD).map(jsonText),
  }),
  fc.record({
    op: fc.constant('set' as const),
    key: fc.constantFrom('contact', 'company'),
    text: fc.oneof(fc.constantFrom(...POLLUTION_VALUES), hostileObjectTextArb(['name', 'title', '__proto__', 'x'])),
  }),
  fc.record({ op: fc.constant('set' as const), key: fc.constant('market'), text: hostileObjectTextArb(MARKET_KEYS) }),
  fc.record({ op: fc.constant('set' as const), key: fc.constant('linkedin'), text: hostileObjectTextArb(LINKEDIN_KEYS) }),
  fc.record({
    op: fc.constant('set' as const),
    key: fc.constant('website'),
    text: hostileTextArb.filter((s) => s.length < 20_000).map((u) => `{"url":${jsonText(u)}}`),
  }),
  fc.record({ op: fc.constant('set' as const), key: fc.constant('external_id'), text: hostileTextArb.map(jsonText) }),
);

const activityTextArb: fc.Arbitrary<string> = fc
  .tuple(
    validActivityArb,
    fc.oneof(
      { weight: 2, arbitrary: fc.constant([] as ActMutation[]) },
      { weight: 3, arbitrary: fc.array(actMutationArb, { minLength: 1, maxLength: 2 }) },
    ),
  )
  .map(([activity, muts]) => {
    let entries: Entry[] = Object.entries(activity).map(([key, v]) => ({ key, text: jsonText(v) }));
    for (const m of muts) {
      entries = entries.filter((e) => e.key !== m.key);
      if (m.op === 'set') entries.push({ key: m.key, text: m.text });
    }
    return objectText(entries);
  });

const batchArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.array(activityTextArb, { minLength: 1, maxLength: 4 }).map((items) => `{"activities":[${items.join(',')}]}`) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.array(activityTextArb, { minLength: 1, maxLength: 2 }), extraKeyArb, anyValueTextArb, fc.boolean())
      .map(([items, k, v, first]) => {
        const list = `"activities":[${items.join(',')}]`;
        const extra = `${jsonText(k)}:${v}`;
        return first ? `{${extra},${list}}` : `{${list},${extra}}`;
      }),
  },
  {
    weight: 1,
    arbitrary: fc.oneof(
      anyValueTextArb.map((v) => `{"activities":${v}}`),
      fc.constantFrom('{"activities":[]}', '{}', '{"activities":null}', '{"activities":{"0":{}}}', '{"__proto__":{"activities":[]}}'),
      fc.jsonValue({ maxDepth: 2 }).map(jsonText),
    ),
  },
  { weight: 1, arbitrary: validActivityArb.map((a) => `{"activities":[${Array(1001).fill(jsonText(a)).join(',')}]}`) },
);

async function ingest(world: World, body: string, contentType = 'application/json', ctVerdict: Verdict = 'valid'): Promise<Response> {
  const sent: Sent = { method: 'POST', path: '/ingest/v1/activities', contentType, body };
  const res = await send(world, sent);
  checkEnvelope(sent, res, world);
  const bom = body.startsWith('\ufeff');
  const v = classifyIngest(bom ? body.slice(1) : body);
  let allowed: Outcome[];
  const itemParam = (from: number, to: number) => (p: string) => {
    const m = /^activities\[(\d+)\](?:\.|$)/.exec(p);
    return m !== null && Number(m[1]) >= from && Number(m[1]) <= to;
  };
  if (Buffer.byteLength(body) > ONE_MIB) allowed = [TOO_LARGE];
  else if (ctVerdict === 'invalid') allowed = [bad(['body'])];
  else if (v.batchParams !== null) allowed = [bad(v.batchParams.length > 0 ? v.batchParams : null)];
  else {
    const first = v.items.findIndex((i) => i.verdict !== 'valid');
    const firstInvalid = v.items.findIndex((i) => i.verdict === 'invalid');
    if (first < 0) allowed = [{ status: 202 }];
    else if (v.items[first].verdict === 'invalid') allowed = [bad(itemParam(first, first))];
    else
      allowed = [
        bad(itemParam(first, firstInvalid < 0 ? v.items.length - 1 : firstInvalid)),
        ...(firstInvalid < 0 ? [{ status: 202 }] : []),
      ];
  }
  if (ctVerdict === 'unknown' || bom) allowed = [...allowed, bad(['body'])];
  expectOutcome(sent, res, allowed);

  if (res.status === 202) {
    const data = (res.body as { data?: unknown }).data;
    if (!Array.isArray(data) || data.length !== v.items.length) fail(sent, res, `202 must list ${v.items.length} activities`);
    const inBatch = new Map<string, string>();
    data.forEach((d: { id?: unknown; status?: unknown }, i: number) => {
      if (typeof d.id !== 'string' || !/^act_\d{19}$/.test(d.id)) fail(sent, res, `activities[${i}] id`);
      const item = v.items[i];
      const known = item.externalId !== undefined ? (world.external.get(item.externalId) ?? inBatch.get(item.externalId)) : undefined;
      if (item.externalUnknown) {
        if (d.status !== 'queued' && d.status !== 'duplicate') fail(sent, res, `activities[${i}] status`);
      } else if (known !== undefined) {
        if (d.status !== 'duplicate' || d.id !== known)
          fail(sent, res, `activities[${i}] repeats external_id ${JSON.stringify(item.externalId)}: expected duplicate of ${known}`);
      } else if (d.status !== 'queued') fail(sent, res, `activities[${i}] expected queued`);
      if (d.status === 'queued') {
        if (world.activities.has(d.id)) fail(sent, res, `activities[${i}] reuses id ${d.id}`);
        world.activities.set(d.id, item.externalId ?? null);
        if (item.externalId !== undefined) inBatch.set(item.externalId, d.id);
      }
    });
    for (const [ext, id] of inBatch) world.external.set(ext, id);
    const firstQueued = data.find((d: { status: string }) => d.status === 'queued') as { id: string } | undefined;
    if (firstQueued) {
      const statusSent: Sent = { method: 'GET', path: `/ingest/v1/activities/${firstQueued.id}` };
      const st = await send(world, statusSent);
      checkEnvelope(statusSent, st, world);
      if (st.status !== 200) fail(sent, res, `queued activity reads as ${st.status}`);
      expect(st.body).toMatchObject({
        id: firstQueued.id,
        status: 'queued',
        signal_id: null,
        buyer_id: null,
        discard_reason: null,
        near_miss: null,
      });
    }
  }
  await checkActivityCount(world, sent, res);
  assertNotPolluted();
  return res;
}

// ---------------------------------------------------------------------------------------------
// Set-up
// ---------------------------------------------------------------------------------------------

let kbWorld: World;
let readWorld: World;
let ingestWorld: World;
let otherWorld: World;

interface SeedBuyer {
  id: string;
  created_at: string;
}
interface SeedSignal {
  id: string;
  buyer: string;
  type: SignalType;
  trigger: string;
  captured_at: string;
}
const seedBuyers: SeedBuyer[] = [];
const seedSignals: SeedSignal[] = [];
let foreignBuyer = '';
let foreignActivity = '';

beforeAll(async () => {
  t = await startTestApp();
  ds = t.app.get(DataSource);
  const tables: Array<{ tablename: string }> = await ds.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`);
  tablesBefore = tables.map((r) => r.tablename);
  kbWorld = new World(await t.newWorkspace('fuzz kb'));
  readWorld = new World(await t.newWorkspace('fuzz read'));
  ingestWorld = new World(await t.newWorkspace('fuzz ingest'));
  otherWorld = new World(await t.newWorkspace('fuzz other'));

  for (const kb of KB_CASES) {
    const rec = await kbCreateValid(otherWorld, kb);
    foreign.set(kb.path, [rec.id]);
  }
  const times = [
    '2025-06-01T00:00:00Z',
    '2026-01-15T09:59:59Z',
    '2026-01-15T10:00:00Z',
    '2026-01-15T10:00:00Z',
    '2026-01-15T10:00:01Z',
    '2026-03-01T12:00:00Z',
  ];
  const buyers = await insertBuyers(
    ds,
    readWorld.ws.workspace_id,
    [...times, ...times.slice(2, 5)].map((created_at) => ({ created_at })),
  );
  buyers.forEach((b, i) => seedBuyers.push({ id: b.public_id, created_at: [...times, ...times.slice(2, 5)][i] }));
  const signalInputs = SIGNAL_TYPES.flatMap((type, ti) =>
    TRIGGERS[type].flatMap((trigger, gi) =>
      [0, 1].map((k) => ({ buyer_id: buyers[(ti + gi + k) % 3].id, type, trigger, captured_at: times[(ti * 3 + gi + k) % times.length] })),
    ),
  );
  const signals = await insertSignals(ds, readWorld.ws.workspace_id, signalInputs);
  signals.forEach((s, i) =>
    seedSignals.push({
      id: s.public_id,
      buyer: s.buyer_public_id,
      type: s.type,
      trigger: s.trigger,
      captured_at: signalInputs[i].captured_at,
    }),
  );
  const [other] = await insertBuyers(ds, otherWorld.ws.workspace_id, [{ created_at: '2026-01-15T10:00:00Z' }]);
  foreignBuyer = other.public_id;
  const res = await ingest(
    otherWorld,
    JSON.stringify({
      activities: [
        {
          type: 'market',
          trigger: 'researched_topic',
          occurred_at: '2026-01-01T00:00:00Z',
          identity: { email: 'a@b.co' },
          market: { topic: 'x', company_website: 'b.co' },
        },
      ],
    }),
  );
  foreignActivity = res.body.data[0].id;
}, 60_000);

/**
 * After every test, so that each one, run alone or with the others, proves it: the generated input
 * polluted no prototype and dropped no table, and the workspaces it was sent as, and the one whose
 * records are tried as another workspace's, hold exactly what the accepted requests wrote.
 */
afterEach(async () => {
  assertNotPolluted();
  for (const key of ['polluted_by_fuzz', 'polluted']) expect(key in ({} as object)).toBe(false);
  const tables: Array<{ tablename: string }> = await ds.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`);
  expect(tables.map((r) => r.tablename)).toEqual(tablesBefore);
  for (const table of [...KB_TABLES, 'activities', 'buyers', 'signals', 'workspaces', 'api_keys']) {
    const [row] = await ds.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [`public.${table}`]);
    expect({ table, present: row.present }).toEqual({ table, present: true });
  }
  const worlds = new Set([...touched, otherWorld]);
  await Promise.all([...worlds].map((world) => reconcile(world)));
  touched.clear();
}, LONG);

afterAll(async () => {
  if (process.env.FUZZ_STATS) {
    console.log(
      [...stats.entries()]
        .sort()
        .map(([k, n]) => `${String(n).padStart(6)}  ${k}`)
        .join('\n'),
    );
  }
  await t?.close();
});

// ---------------------------------------------------------------------------------------------
// Knowledge base
// ---------------------------------------------------------------------------------------------

describe.each(KB_CASES.map((kb) => [kb.path, kb] as const))('KB %s under generated input', (_path, kb) => {
  test('the documented field table matches the shared resource description', () => {
    const docs = FIELD_DOCS[kb.path];
    expect(Object.keys(docs).sort()).toEqual([...kb.required, ...kb.optional].sort());
    expect(computedOf(kb)).toEqual(kb.computed);
  });

  test(
    'POST with generated bodies: documented answers, and exactly the accepted records are stored',
    async () => {
      await fc.assert(
        fc.asyncProperty(kbBodyArb(kb, 'create'), async (body) => {
          await kbPost(kbWorld, kb, body);
        }),
        runs(40),
      );
      await reconcile(kbWorld);
    },
    LONG,
  );

  test(
    'PATCH with generated ids and bodies: documented answers, refused requests change nothing',
    async () => {
      for (let i = 0; i < 3; i++) await kbCreateValid(kbWorld, kb);
      await fc.assert(
        fc.asyncProperty(idChoiceArb(kb), kbBodyArb(kb, 'update'), async (choice, body) => {
          const target = await resolveTarget(kbWorld, kb, choice);
          await kbPatch(kbWorld, kb, target, body);
        }),
        runs(40),
      );
      await reconcile(kbWorld);
    },
    LONG,
  );

  test(
    'GET one and DELETE with generated ids: 200/204 for active records, 404 well-formed, 400 malformed',
    async () => {
      for (let i = 0; i < 3; i++) await kbCreateValid(kbWorld, kb);
      await fc.assert(
        fc.asyncProperty(fc.constantFrom('GET' as const, 'DELETE' as const), idChoiceArb(kb), async (method, choice) => {
          const target = await resolveTarget(kbWorld, kb, choice);
          await kbGetOrDelete(kbWorld, kb, method, target);
        }),
        runs(40),
      );
      await reconcile(kbWorld);
    },
    LONG,
  );

  test(
    'GET list with generated queries: invalid_parameter / invalid_cursor, or the right page',
    async () => {
      for (let i = 0; i < 4; i++) await kbCreateValid(kbWorld, kb);
      const ep: ListEndpoint = { endpoint: `kb/${kb.path}`, path: `/v1/kb/${kb.path}`, params: { limit: LIMIT_SPEC }, bound: {} };
      const expected = () => [...kbWorld.state(kb).active.keys()].sort().reverse();
      // Real cursors in the pool: of this list, and of the same list in another workspace.
      await listRequest(kbWorld, ep, [pair('limit', '1')], expected);
      await kbCreateValid(otherWorld, kb);
      const other = await listRequest(otherWorld, ep, [pair('limit', '1')], () => [...otherWorld.state(kb).active.keys()].sort().reverse());
      expect(typeof other.body.pagination.next_cursor).toBe('string');
      await fc.assert(
        fc.asyncProperty(queryArb(ep), async (pairs) => {
          await listRequest(kbWorld, ep, pairs, expected);
        }),
        runs(40),
      );
      await reconcile(kbWorld);
    },
    LONG,
  );
});

describe('KB bodies of every shape', () => {
  const kbArb = fc.constantFrom(...KB_CASES.map((kb) => kb.path));

  test(
    'deeply nested values (depth 50 to 60k) in any field are 400 validation_error naming the field, nothing written',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          kbArb,
          fc.nat(),
          fc.constantFrom('POST', 'PATCH'),
          fc.oneof(nestedTextArb(50, 1000), nestedTextArb(3000, 60_000)),
          fc.boolean(),
          async (path, fieldIndex, method, deep, unknownKey) => {
            const kb = kbOf(path);
            const names = Object.keys(FIELD_DOCS[kb.path]);
            const field = unknownKey ? 'nested' : names[fieldIndex % names.length];
            if (method === 'POST') {
              const valid = kb.valid(unique());
              const entries = [
                ...Object.entries(valid)
                  .filter(([k]) => k !== field)
                  .map(([key, v]) => ({ key, text: jsonText(v) })),
                { key: field, text: deep },
              ];
              const body = objectText(entries);
              const res = await kbPost(kbWorld, kb, body);
              if (Buffer.byteLength(body) <= ONE_MIB) expect([res.status, res.body.error?.param]).toEqual([400, field]);
            } else {
              const target = await resolveTarget(kbWorld, kb, { t: 'active', n: fieldIndex, encode: [], double: false });
              const body = objectText([{ key: field, text: deep }]);
              const res = await kbPatch(kbWorld, kb, target, body);
              if (Buffer.byteLength(body) <= ONE_MIB) expect([res.status, res.body.error?.param]).toEqual([400, field]);
            }
          },
        ),
        runs(30),
      );
      await reconcile(kbWorld);
    },
    LONG,
  );

  test(
    'prototype-pollution keys at top level and nested in any field are 400 validation_error naming it; Object.prototype untouched',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          kbArb,
          fc.constantFrom('POST', 'PATCH'),
          fc.nat(),
          pollutionArb,
          fc.boolean(),
          async (path, method, n, polluted, topLevel) => {
            const kb = kbOf(path);
            const names = Object.keys(FIELD_DOCS[kb.path]);
            const field = topLevel ? polluted.key : names[n % names.length];
            const text = topLevel ? polluted.value : polluted.wrapped;
            let body: string;
            let res: Response;
            if (method === 'POST') {
              const entries = Object.entries(kb.valid(unique()))
                .filter(([k]) => k !== field)
                .map(([key, v]) => ({ key, text: jsonText(v) }));
              body = objectText([...entries, { key: field, text }]);
              res = await kbPost(kbWorld, kb, body);
            } else {
              body = objectText([{ key: field, text }]);
              res = await kbPatch(kbWorld, kb, await resolveTarget(kbWorld, kb, { t: 'active', n, encode: [], double: false }), body);
            }
            expect([res.status, res.body.error?.param]).toEqual([400, field]);
            assertNotPolluted();
          },
        ),
        runs(40),
      );
      await reconcile(kbWorld);
    },
    LONG,
  );

  test(
    'malformed JSON text and arbitrary JSON values on every write are 400 validation_error (param body when not an object)',
    async () => {
      await fc.assert(
        fc.asyncProperty(kbArb, fc.constantFrom('POST', 'PATCH', 'INGEST'), fc.nat(), malformedArb, async (path, op, n, body) => {
          const kb = kbOf(path);
          if (op === 'PATCH')
            await kbPatch(kbWorld, kb, await resolveTarget(kbWorld, kb, { t: 'active', n, encode: [], double: false }), body);
          else if (op === 'POST') await kbPost(kbWorld, kb, body);
          else await ingest(ingestWorld, body);
        }),
        runs(60),
      );
      await reconcile(kbWorld);
      await reconcile(ingestWorld);
    },
    LONG,
  );

  test(
    'wrong content types are 400 validation_error param body, nothing written',
    async () => {
      const ctArb = fc.constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=xyz',
        'application/xml',
        'text/json',
        'application/json-patch+json',
        'application/vnd.api+json',
        'application/jsonx',
        'json',
        'application/octet-stream',
        'text/html; charset=utf-8',
        'application/json; charset=utf-8',
        'application/json',
        'APPLICATION/JSON',
        'Application/Json; Charset=UTF-8',
        'application/json; charset=latin1',
        'application/json; charset=utf-16',
        'application/json;',
        'application/json, text/plain',
        "application/json' OR 1=1 --",
        'application/<script>',
      );
      const classifyCt = (ct: string): Verdict => {
        if (/^application\/json\s*(;\s*charset="?utf-8"?\s*)?$/i.test(ct)) return 'valid';
        if (/^application\/json\s*;\s*charset=/i.test(ct) || /^application\/json[;,' ]/i.test(ct)) return 'unknown';
        return 'invalid';
      };
      await fc.assert(
        fc.asyncProperty(kbArb, fc.constantFrom('POST', 'PATCH', 'INGEST'), ctArb, fc.nat(), async (path, op, ct, n) => {
          const kb = kbOf(path);
          const verdict = classifyCt(ct);
          if (op === 'INGEST') {
            const body = JSON.stringify({
              activities: [
                {
                  type: 'market',
                  trigger: 'researched_topic',
                  occurred_at: '2026-01-01T00:00:00Z',
                  identity: { email: 'ct@b.co' },
                  market: { topic: 't', company_website: 'b.co' },
                },
              ],
            });
            await ingest(ingestWorld, body, ct, verdict);
          } else if (op === 'POST') {
            await kbPost(kbWorld, kb, JSON.stringify(kb.valid(unique())), ct, verdict);
          } else {
            const target = await resolveTarget(kbWorld, kb, { t: 'active', n, encode: [], double: false });
            await kbPatch(kbWorld, kb, target, JSON.stringify({ description: `changed ${unique()}` }), ct, verdict);
          }
        }),
        runs(40),
      );
      await reconcile(kbWorld);
      await reconcile(ingestWorld);
    },
    LONG,
  );

  test(
    'bodies just over 1 MiB are 413 payload_too_large on every write endpoint, nothing written',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          kbArb,
          fc.constantFrom('POST', 'PATCH', 'INGEST'),
          fc.oneof(fc.constant(1), fc.integer({ min: 2, max: 200_000 })),
          fc.constantFrom('string', 'padding', 'garbage', 'nested'),
          fc.nat(),
          async (path, op, over, shape, n) => {
            const kb = kbOf(path);
            const size = ONE_MIB + over;
            let body: string;
            if (shape === 'string') {
              const head = '{"description":"';
              body = head + 'x'.repeat(size - head.length - 2) + '"}';
            } else if (shape === 'padding') {
              const base = JSON.stringify(kb.valid(unique()));
              body = base + ' '.repeat(size - base.length);
            } else if (shape === 'garbage') {
              body = '{'.repeat(size);
            } else {
              const d = Math.floor(size / 2);
              body = '['.repeat(d) + ']'.repeat(size - d);
            }
            expect(Buffer.byteLength(body)).toBe(size);
            if (op === 'INGEST') await ingest(ingestWorld, body);
            else if (op === 'POST') await kbPost(kbWorld, kb, body);
            else await kbPatch(kbWorld, kb, await resolveTarget(kbWorld, kb, { t: 'active', n, encode: [], double: false }), body);
          },
        ),
        runs(10),
      );
      await reconcile(kbWorld);
      await reconcile(ingestWorld);
    },
    LONG,
  );
});

describe('path ids with invalid percent-encoding', () => {
  test(
    'are answered like any malformed id: KB 400 validation_error naming the id parameter, Buyers and activities 404',
    async () => {
      const badEscapes = fc.constantFrom('%ZZ', '%', '%E0%A4%A', '%ED%A0%80', '%FF', '%C3%28', '%C0%AF', '%2', '%%30');
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...KB_CASES.map((kb) => kb.path)),
          fc.constantFrom('KB_GET', 'KB_PATCH', 'KB_DELETE', 'BUYER', 'ACTIVITY'),
          badEscapes,
          fc.constantFrom('', 'prefix', 'prefix1'),
          async (path, op, escape, lead) => {
            const kb = kbOf(path);
            if (op.startsWith('KB_')) {
              const segment = (lead === '' ? '' : lead === 'prefix' ? kb.prefix : `${kb.prefix}1`) + escape;
              const target: Target = { kind: 'malformed', segment };
              if (op === 'KB_PATCH') await kbPatch(kbWorld, kb, target, JSON.stringify({ description: 'x' }));
              else await kbGetOrDelete(kbWorld, kb, op === 'KB_GET' ? 'GET' : 'DELETE', target);
              return;
            }
            const prefix = op === 'BUYER' ? 'buy_' : 'act_';
            const segment = (lead === '' ? '' : lead === 'prefix' ? prefix : `${prefix}1`) + escape;
            const sent: Sent = { method: 'GET', path: op === 'BUYER' ? `/v1/buyers/${segment}` : `/ingest/v1/activities/${segment}` };
            const world = op === 'BUYER' ? readWorld : ingestWorld;
            const res = await send(world, sent);
            checkEnvelope(sent, res, world);
            expectOutcome(sent, res, op === 'BUYER' ? [NOT_FOUND] : [NOT_FOUND, bad(['id'])]);
          },
        ),
        runs(30),
      );
    },
    LONG,
  );
});

// ---------------------------------------------------------------------------------------------
// Buyers and Signals
// ---------------------------------------------------------------------------------------------

const byOrder = <T>(items: T[], at: (x: T) => string, id: (x: T) => string, order: string): T[] =>
  [...items].sort((a, b) => {
    const c = at(a) < at(b) ? -1 : at(a) > at(b) ? 1 : id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0;
    return order === 'asc' ? c : -c;
  });

const BUYERS_EP: ListEndpoint = {
  endpoint: 'buyers',
  path: '/v1/buyers',
  params: {
    limit: LIMIT_SPEC,
    created_after: TS_SPEC,
    created_before: TS_SPEC,
    sort_by: enumSpec(
      ['created_at'],
      ['id', 'name', 'updated_at', 'captured_at', 'CREATED_AT', '-created_at', 'created_at,id', 'created_at '],
    ),
    sort_order: enumSpec(['asc', 'desc'], ['ASC', 'ascending', 'up', '1', '-1', 'desc ', 'random']),
  },
  bound: { created_after: null, created_before: null, sort_by: 'created_at', sort_order: 'desc' },
};

const SIGNALS_EP: ListEndpoint = {
  endpoint: 'signals',
  path: '/v1/signals',
  params: {
    limit: LIMIT_SPEC,
    buyer_id: {
      valid: fc.oneof(
        fc.constant('buy_0000000000000000001'),
        fc.nat(2).map((i) => seedBuyers[i].id),
      ),
      invalid: fc.oneof(
        fc.constantFrom('buy_', 'buy_abc', 'buy_-1', 'BUY_1', 'sig_1', 'icp_1', 'buy_1 ', "buy_1' OR 1=1 --"),
        hostileQueryTextArb,
      ),
      classify: (v) => (/^buy_[0-9]+$/.test(v) ? (/^buy_[0-9]{19}$/.test(v) ? 'valid' : 'unknown') : 'invalid'),
    },
    type: enumSpec(SIGNAL_TYPES, ['Website', 'email', 'web', 'website,market']),
    trigger: enumSpec(ALL_TRIGGERS, ['visit', 'VISITED_PAGE', 'visited_page,filled_form']),
    captured_after: TS_SPEC,
    captured_before: TS_SPEC,
    sort_by: enumSpec(['captured_at'], ['created_at', 'id', 'type', 'CAPTURED_AT']),
    sort_order: enumSpec(['asc', 'desc'], ['ASC', 'ascending', 'down', '0']),
  },
  bound: {
    buyer_id: null,
    type: null,
    trigger: null,
    captured_after: null,
    captured_before: null,
    sort_by: 'captured_at',
    sort_order: 'desc',
  },
  cross: (q) => {
    if (q.trigger === undefined) return [];
    if (q.type === undefined || !TRIGGERS[q.type as SignalType].includes(q.trigger)) return ['trigger'];
    return [];
  },
};

function expectedBuyers(q: Record<string, string>): string[] {
  const after = q.created_after ? Date.parse(q.created_after) : -Infinity;
  const before = q.created_before ? Date.parse(q.created_before) : Infinity;
  const rows = seedBuyers.filter((b) => Date.parse(b.created_at) >= after && Date.parse(b.created_at) < before);
  return byOrder(
    rows,
    (b) => new Date(b.created_at).toISOString(),
    (b) => b.id,
    q.sort_order ?? 'desc',
  ).map((b) => b.id);
}

function expectedSignals(q: Record<string, string>): string[] {
  const after = q.captured_after ? Date.parse(q.captured_after) : -Infinity;
  const before = q.captured_before ? Date.parse(q.captured_before) : Infinity;
  const rows = seedSignals.filter(
    (s) =>
      Date.parse(s.captured_at) >= after &&
      Date.parse(s.captured_at) < before &&
      (q.type === undefined || s.type === q.type) &&
      (q.trigger === undefined || s.trigger === q.trigger) &&
      (q.buyer_id === undefined || BigInt(s.buyer.slice(4)) === BigInt(q.buyer_id.slice(4))),
  );
  return byOrder(
    rows,
    (s) => new Date(s.captured_at).toISOString(),
    (s) => s.id,
    q.sort_order ?? 'desc',
  ).map((s) => s.id);
}

describe('Buyers and Signals under generated input', () => {
  test(
    'GET /v1/buyers with generated queries: invalid_parameter / invalid_cursor, or exactly the filtered page',
    async () => {
      await listRequest(readWorld, BUYERS_EP, [pair('limit', '2')], expectedBuyers);
      await fc.assert(
        fc.asyncProperty(queryArb(BUYERS_EP), async (pairs) => {
          await listRequest(readWorld, BUYERS_EP, pairs, expectedBuyers);
        }),
        runs(60),
      );
      await reconcile(readWorld);
    },
    LONG,
  );

  test(
    'GET /v1/signals with generated queries: invalid_parameter / invalid_cursor, or exactly the filtered page',
    async () => {
      await listRequest(readWorld, SIGNALS_EP, [pair('limit', '2')], expectedSignals);
      await listRequest(readWorld, SIGNALS_EP, [pair('limit', '1'), pair('type', 'market')], expectedSignals);
      await fc.assert(
        fc.asyncProperty(queryArb(SIGNALS_EP), async (pairs) => {
          await listRequest(readWorld, SIGNALS_EP, pairs, expectedSignals);
        }),
        runs(60),
      );
      await reconcile(readWorld);
    },
    LONG,
  );

  test(
    'GET /v1/buyers/{id} with generated ids: 200 for own Buyers, 404 not_found for everything else',
    async () => {
      const idArb = fc.oneof(
        fc.record({ t: fc.constant('own' as const), n: fc.nat(), encode: fc.array(fc.nat(30), { maxLength: 3 }) }),
        fc.constant({ t: 'foreign' as const }),
        idTrickArb('buy_').map((segment) => ({ t: 'raw' as const, segment })),
      );
      await fc.assert(
        fc.asyncProperty(idArb, async (choice) => {
          let segment: string;
          if (choice.t === 'own') {
            const chars = [...seedBuyers[choice.n % seedBuyers.length].id];
            for (const i of choice.encode) chars[i % chars.length] = hex(chars[i % chars.length]);
            segment = chars.join('');
          } else segment = choice.t === 'foreign' ? foreignBuyer : choice.segment;
          const sent: Sent = { method: 'GET', path: `/v1/buyers/${segment}` };
          const res = await send(readWorld, sent);
          checkEnvelope(sent, res, readWorld);
          const decoded = decodeSegment(segment);
          const own = seedBuyers.find((b) => b.id === decoded);
          const sameNumber =
            decoded !== null && /^buy_[0-9]+$/.test(decoded) && seedBuyers.some((b) => BigInt(b.id.slice(4)) === BigInt(decoded.slice(4)));
          expectOutcome(sent, res, own ? [{ status: 200 }] : sameNumber ? [{ status: 200 }, NOT_FOUND] : [NOT_FOUND]);
          if (res.status === 200) {
            const body = res.body as Record<string, unknown>;
            if (!seedBuyers.some((b) => b.id === body.id) || body.client_id !== readWorld.ws.workspace_id)
              fail(sent, res, 'not an own Buyer');
          }
          assertNotPolluted();
        }),
        runs(50),
      );
    },
    LONG,
  );

  test(
    'timestamp filters across the whole 0000–9999 range are accepted and filter exactly',
    async () => {
      const boundaryTsArb = fc.oneof(
        fc.constantFrom(
          '0000-01-01T00:00:00Z',
          '0001-01-01T00:00:00Z',
          '1969-12-31T23:59:59Z',
          '1970-01-01T00:00:00Z',
          '2000-02-29T00:00:00Z',
          '9999-12-31T23:59:59Z',
        ),
        fc
          .date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true })
          .map((d) => `${d.toISOString().slice(0, 19)}Z`),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('created_after', 'created_before', 'captured_after', 'captured_before'),
          boundaryTsArb,
          async (name, ts) => {
            const ep = name.startsWith('created') ? BUYERS_EP : SIGNALS_EP;
            const res = await listRequest(readWorld, ep, [pair(name, ts)], ep === BUYERS_EP ? expectedBuyers : expectedSignals);
            expect(res.status).toBe(200);
          },
        ),
        runs(40),
      );
    },
    LONG,
  );
});

// ---------------------------------------------------------------------------------------------
// Activity intake
// ---------------------------------------------------------------------------------------------

describe('activity intake under generated input', () => {
  test(
    'POST /ingest/v1/activities with generated batches: all-or-nothing, rows == activities answered queued',
    async () => {
      await fc.assert(
        fc.asyncProperty(batchArb, async (body) => {
          await ingest(ingestWorld, body);
        }),
        runs(60),
      );
      await reconcile(ingestWorld);
    },
    LONG,
  );

  test(
    'prototype-pollution keys anywhere in an activity: 400 naming the activity, or stored (free-form hints); never a 5xx',
    async () => {
      const placeArb = fc.constantFrom('activity', 'identity', 'contact', 'company', 'website.session', 'attribution', 'website', 'body');
      await fc.assert(
        fc.asyncProperty(placeArb, pollutionArb, async (place, polluted) => {
          // Entries, not an object literal: a "__proto__" key must stay an own key of the JSON text.
          const activity = new Map<string, string>([
            ['type', '"website"'],
            ['trigger', '"visited_page"'],
            ['occurred_at', '"2026-01-01T00:00:00Z"'],
            ['identity', '{"email":"proto@b.co"}'],
            ['website', '{"url":"https://example.com/pricing"}'],
          ]);
          const pair = `${jsonText(polluted.key)}:${polluted.value}`;
          if (place === 'activity') activity.set(polluted.key, polluted.value);
          else if (place === 'identity') activity.set('identity', `{"email":"proto@b.co",${pair}}`);
          else if (place === 'website') activity.set('website', `{"url":"https://example.com/pricing",${pair}}`);
          else if (place === 'website.session')
            activity.set('website', `{"url":"https://example.com/pricing","session":${polluted.wrapped}}`);
          else if (place === 'attribution') activity.set('attribution', `{"type":"paid",${pair}}`);
          else if (place !== 'body') activity.set(place, polluted.wrapped);
          const item = objectText([...activity].map(([key, text]) => ({ key, text })));
          const body = place === 'body' ? `{"activities":[${item}],${pair}}` : `{"activities":[${item}]}`;
          const res = await ingest(ingestWorld, body);
          if (['activity', 'identity', 'website', 'attribution'].includes(place)) {
            expect(res.status).toBe(400);
            expect(res.body.error.param).toMatch(/^activities\[0\]\./);
          }
          if (place === 'body') expect([res.status, res.body.error?.param]).toEqual([400, polluted.key]);
          assertNotPolluted();
        }),
        runs(40),
      );
      await reconcile(ingestWorld);
    },
    LONG,
  );

  test(
    'deeply nested values (depth 50 to 60k) anywhere in an activity are never a 5xx',
    async () => {
      const placeArb = fc.constantFrom(
        'contact',
        'company',
        'website.session',
        'attribution.type',
        'type',
        'identity.email',
        'activities',
        'external_id',
      );
      await fc.assert(
        fc.asyncProperty(placeArb, fc.oneof(nestedTextArb(50, 1000), nestedTextArb(5000, 60_000)), async (place, deep) => {
          const activity: Entry[] = [
            { key: 'type', text: '"website"' },
            { key: 'trigger', text: '"visited_page"' },
            { key: 'occurred_at', text: '"2026-01-01T00:00:00Z"' },
            { key: 'identity', text: '{"email":"deep@b.co"}' },
            { key: 'website', text: '{"url":"https://example.com/pricing"}' },
          ];
          const set = (key: string, text: string) => {
            const i = activity.findIndex((e) => e.key === key);
            if (i >= 0) activity[i] = { key, text };
            else activity.push({ key, text });
          };
          if (place === 'website.session') set('website', `{"url":"https://example.com/pricing","session":{"x":${deep}}}`);
          else if (place === 'attribution.type') set('attribution', `{"type":${deep}}`);
          else if (place === 'identity.email') set('identity', `{"email":${deep}}`);
          else if (place === 'contact' || place === 'company') set(place, `{"x":${deep}}`);
          else if (place !== 'activities') set(place, deep);
          const body = place === 'activities' ? `{"activities":${deep}}` : `{"activities":[${objectText(activity)}]}`;
          const res = await ingest(ingestWorld, body);
          const validated = ['attribution.type', 'type', 'identity.email', 'external_id'];
          if (validated.includes(place) && Buffer.byteLength(body) <= ONE_MIB)
            expect([res.status, res.body.error?.param]).toEqual([400, `activities[0].${place}`]);
        }),
        runs(30),
      );
      await reconcile(ingestWorld);
    },
    LONG,
  );

  test(
    'occurred_at across the whole 0000–9999 range: 202 or 400 naming occurred_at, never a 5xx',
    async () => {
      const boundaryTsArb = fc.oneof(
        fc.constantFrom(
          '0000-01-01T00:00:00Z',
          '0001-01-01T00:00:00Z',
          '1969-12-31T23:59:59Z',
          '9999-12-31T23:59:59Z',
          '2000-02-29T00:00:00Z',
        ),
        fc
          .date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true })
          .map((d) => `${d.toISOString().slice(0, 19)}Z`),
      );
      await fc.assert(
        fc.asyncProperty(boundaryTsArb, async (ts) => {
          const body = JSON.stringify({
            activities: [
              {
                type: 'market',
                trigger: 'researched_topic',
                occurred_at: ts,
                identity: { email: 'ts@b.co' },
                market: { topic: 't', company_website: 'b.co' },
              },
            ],
          });
          const res = await ingest(ingestWorld, body);
          if (res.status !== 202) expect(res.body.error.param).toBe('activities[0].occurred_at');
        }),
        runs(30),
      );
      await reconcile(ingestWorld);
    },
    LONG,
  );

  test(
    'GET /ingest/v1/activities/{id} with generated ids: own queued activities read back, everything else 404',
    async () => {
      await ingest(
        ingestWorld,
        JSON.stringify({
          activities: [
            {
              type: 'market',
              trigger: 'researched_topic',
              occurred_at: '2026-01-01T00:00:00Z',
              identity: { email: 'get@b.co' },
              market: { topic: 't', company_website: 'b.co' },
            },
          ],
        }),
      );
      const idArb = fc.oneof(
        fc.record({ t: fc.constant('own' as const), n: fc.nat(), encode: fc.array(fc.nat(30), { maxLength: 3 }) }),
        fc.constant({ t: 'foreign' as const }),
        idTrickArb('act_').map((segment) => ({ t: 'raw' as const, segment })),
      );
      await fc.assert(
        fc.asyncProperty(idArb, async (choice) => {
          const own = [...ingestWorld.activities.keys()];
          let segment: string;
          if (choice.t === 'own') {
            const chars = [...own[choice.n % own.length]];
            for (const i of choice.encode) chars[i % chars.length] = hex(chars[i % chars.length]);
            segment = chars.join('');
          } else segment = choice.t === 'foreign' ? foreignActivity : choice.segment;
          const sent: Sent = { method: 'GET', path: `/ingest/v1/activities/${segment}` };
          const res = await send(ingestWorld, sent);
          checkEnvelope(sent, res, ingestWorld);
          const decoded = decodeSegment(segment);
          const exact = decoded !== null && ingestWorld.activities.has(decoded);
          const wellFormed = decoded !== null && /^act_[0-9]+$/.test(decoded);
          const sameNumber = wellFormed && own.some((id) => BigInt(id.slice(4)) === BigInt(decoded.slice(4)));
          expectOutcome(
            sent,
            res,
            exact ? [{ status: 200 }] : sameNumber ? [{ status: 200 }, NOT_FOUND] : wellFormed ? [NOT_FOUND] : [NOT_FOUND, bad(['id'])],
          );
          if (res.status === 200) {
            const body = res.body as Record<string, unknown>;
            if (!ingestWorld.activities.has(body.id as string)) fail(sent, res, 'read an activity of another workspace');
            expect(body).toMatchObject({
              id: body.id,
              status: 'queued',
              signal_id: null,
              buyer_id: null,
              discard_reason: null,
              near_miss: null,
            });
          }
          assertNotPolluted();
        }),
        runs(40),
      );
    },
    LONG,
  );
});

// ---------------------------------------------------------------------------------------------
// Authentication
// ---------------------------------------------------------------------------------------------

describe('authentication under generated input', () => {
  test(
    'any Authorization other than the exact key, or a key in the query, is 401 authentication_error on every route',
    async () => {
      const printable = fc.string({
        unit: fc.constantFrom(...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i))),
        maxLength: 80,
      });
      const headerArb = fc.oneof(
        fc.constant({ t: 'none' as const }),
        printable.map((h) => ({ t: 'raw' as const, h })),
        fc
          .constantFrom(
            'Bearer',
            'Bearer ',
            'Basic dXNlcjpwYXNz',
            'Bearer null',
            'Bearer undefined',
            "Bearer ' OR 1=1 --",
            'Bearer <script>alert(1)</script>',
            'Bearer svc_live_',
            `Bearer svc_live_${'a'.repeat(40)}`,
            'Token x',
          )
          .map((h) => ({ t: 'raw' as const, h })),
        fc.record({ t: fc.constant('mutated' as const), n: fc.nat(), c: fc.constantFrom('a', 'Z', '0', '_', "'", ' ') }),
        fc
          .constantFrom('truncated', 'extended', 'noScheme', 'lower', 'double', 'exact', 'queryKey', 'queryValue')
          .map((kind) => ({ t: kind })),
      );
      const routes: Sent[] = [
        { method: 'GET', path: '/v1/kb/icps' },
        { method: 'GET', path: '/v1/kb/icps/icp_0000000000000000001' },
        { method: 'POST', path: '/v1/kb/personas', contentType: 'application/json', body: '{' },
        { method: 'PATCH', path: '/v1/kb/topics/top_1', contentType: 'application/json', body: '{' },
        { method: 'DELETE', path: '/v1/kb/exclusions/exc_1' },
        { method: 'GET', path: '/v1/buyers' },
        { method: 'GET', path: '/v1/buyers/buy_1' },
        { method: 'GET', path: '/v1/signals' },
        { method: 'POST', path: '/ingest/v1/activities', contentType: 'application/json', body: '{' },
        { method: 'GET', path: '/ingest/v1/activities/act_1' },
        { method: 'GET', path: '/v1/no-such-route' },
      ];
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...routes), headerArb, async (route, choice) => {
          const key = kbWorld.ws.api_key;
          let auth: string | null;
          let query = '';
          let verdict: Verdict = 'invalid';
          switch (choice.t) {
            case 'none':
              auth = null;
              break;
            case 'raw':
              auth = choice.h;
              break;
            case 'mutated': {
              const i = choice.n % key.length;
              auth = `Bearer ${key.slice(0, i)}${choice.c}${key.slice(i + 1)}`;
              if (key[i] === choice.c) verdict = 'valid';
              break;
            }
            case 'truncated':
              auth = `Bearer ${key.slice(0, -1)}`;
              break;
            case 'extended':
              auth = `Bearer ${key}x`;
              break;
            case 'noScheme':
              auth = key;
              break;
            case 'lower':
              auth = `bearer ${key}`;
              verdict = 'unknown';
              break;
            case 'double':
              auth = `Bearer  ${key}`;
              verdict = 'unknown';
              break;
            case 'queryKey':
              auth = `Bearer ${key}`;
              query = `api_key=${encodeURIComponent(key)}`;
              break;
            case 'queryValue':
              auth = `Bearer ${key}`;
              query = `cursor=${encodeURIComponent(key)}`;
              break;
            default:
              auth = `Bearer ${key}`;
              verdict = 'valid';
          }
          const sent: Sent = { ...route, auth, path: route.path + (query ? `?${query}` : '') };
          const res = await send(kbWorld, { ...route, auth }, query);
          checkEnvelope(sent, res, kbWorld);
          if (verdict === 'invalid') expectOutcome(sent, res, [{ status: 401, code: 'authentication_error' }]);
          else if (verdict === 'valid' && res.status === 401) fail(sent, res, 'the exact key was refused');
          assertNotPolluted();
        }),
        runs(50),
      );
      await reconcile(kbWorld);
    },
    LONG,
  );
});

describe('overlong request lines and headers', () => {
  // Past the server's 16 KiB limit on the request line and headers, the request never reaches the
  // router: it is refused as a bad request, still with the envelope and a request id.
  const REFUSED: Outcome = { status: 400, code: 'validation_error' };

  test(
    'ids and Authorization headers of 16–64 KiB are still answered with the documented envelope',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...KB_CASES.map((kb) => kb.path)),
          fc.constantFrom('digits', 'letters', 'header'),
          fc.integer({ min: 16 * 1024, max: 64 * 1024 }),
          async (path, shape, n) => {
            const kb = kbOf(path);
            const sent: Sent =
              shape === 'header'
                ? { method: 'GET', path: `/v1/kb/${kb.path}`, auth: `Bearer svc_live_${'a'.repeat(n)}` }
                : { method: 'GET', path: `/v1/kb/${kb.path}/${kb.prefix}${(shape === 'digits' ? '9' : 'a').repeat(n)}` };
            const res = await send(kbWorld, sent);
            checkEnvelope(sent, res, kbWorld);
            expectOutcome(sent, res, [REFUSED]);
            expect(res.body.error.param).toBe('headers');
          },
        ),
        runs(10),
      );
    },
    LONG,
  );

  test(
    'ids and Authorization headers just under the limit reach the API and get its usual answers',
    async () => {
      const kb = KB_CASES[0];
      const n = 8 * 1024;
      const header = await send(kbWorld, { method: 'GET', path: `/v1/kb/${kb.path}`, auth: `Bearer svc_live_${'a'.repeat(n)}` });
      expectOutcome({ method: 'GET', path: `/v1/kb/${kb.path}` }, header, [{ status: 401, code: 'authentication_error' }]);
      await kbGetOrDelete(kbWorld, kb, 'GET', { kind: 'absent', segment: kb.prefix + '9'.repeat(n) });
      await kbGetOrDelete(kbWorld, kb, 'GET', { kind: 'malformed', segment: kb.prefix + 'a'.repeat(n) });
    },
    LONG,
  );
});
