import { formatTimestamp, isCalendarDate } from '../../shared/domain/clock';

/**
 * The person and company objects of a Buyer (and the nested objects of Signals), complete with every field of the spec. Absent text
 * is `""`, absent numbers `0`, absent booleans `false`; `conform` turns any partial input (an
 * activity's hints, a provider's answer) into this shape, dropping unknown keys and wrong types.
 */

export const contactInfoTemplate = () => ({
  name: { first: '', middle: '', last: '' },
  role: { title: '', function: '', seniority: '', start_date: '' },
  email: { work: '', is_valid: false },
  phone: { mobile: '', is_valid: false },
  social: {
    linkedin: '',
    twitter: '',
    github: '',
    facebook: '',
    linkedin_followers: 0,
    is_linkedin_valid: false,
  },
  location: { city: '', state: '', country: '', postal_code: '' },
  photo_url: '',
});

export const companyInfoTemplate = () => ({
  name: '',
  website: '',
  logo: '',
  company_type: '',
  industries: [] as string[],
  employee_count: 0,
  founded_year: 0,
  annual_revenue: 0,
  total_funding: 0,
  social: { linkedin: '', twitter: '', facebook: '' },
  location: { street_address: '', city: '', state: '', postal_code: '', country: '' },
  latest_funding_stage: '',
  latest_funding_round_date: '',
});

export type ContactInfo = ReturnType<typeof contactInfoTemplate>;
export type CompanyInfo = ReturnType<typeof companyInfoTemplate>;

export type { Hem } from '../../shared/domain/identity';

export const INTEGER_FIELDS: ReadonlySet<string> = new Set([
  'employee_count',
  'founded_year',
  'linkedin_followers',
  'duration_secs',
  'time_spent_secs',
  'visit_count',
  'total_time_spent_secs',
]);
/** Numbers that may be negative; every other number is a count or amount. */
const SIGNED_FIELDS = new Set(['latitude', 'longitude']);
const DATE_FIELDS = new Set(['latest_funding_round_date']);
const TIMESTAMP_FIELDS = new Set(['started_at', 'ended_at', 'visited_at', 'first_visited_at', 'last_visited_at']);
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** An ISO 8601 instant with its zone ("Z", "+02:00"); without one it names no instant. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)$/i;

/** An instant as `YYYY-MM-DDTHH:mm:ssZ`, else `""`: an impossible day or a time without its zone is not one. */
function normalizeTimestamp(text: string): string {
  if (!INSTANT.test(text) || !isCalendarDate(text)) return '';
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? '' : formatTimestamp(date);
}

function conformValue(template: unknown, value: unknown, key: string): unknown {
  if (Array.isArray(template)) {
    return Array.isArray(value)
      ? value
          .filter((v): v is string => typeof v === 'string')
          .map((v) => v.trim())
          .filter(Boolean)
      : template;
  }
  if (template !== null && typeof template === 'object') return conform(template as Record<string, unknown>, value);
  if (typeof template === 'string') {
    if (typeof value !== 'string') return template;
    const text = value.trim();
    if (DATE_FIELDS.has(key)) return DATE.test(text) && isCalendarDate(text) ? text : '';
    if (TIMESTAMP_FIELDS.has(key)) return normalizeTimestamp(text);
    return text;
  }
  if (typeof template === 'number') {
    if (typeof value !== 'number' || !Number.isFinite(value)) return template;
    if (value < 0 && !SIGNED_FIELDS.has(key)) return template;
    // A count or a year with a fraction is not one: dropped, like any value of the wrong type.
    return INTEGER_FIELDS.has(key) && !Number.isInteger(value) ? template : value;
  }
  if (typeof template === 'boolean') return typeof value === 'boolean' ? value : template;
  return template;
}

/** `template` filled from `input` where `input` has a value of the right type. */
export function conform<T extends Record<string, unknown>>(template: T, input: unknown): T {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return template;
  const source = input as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, fallback] of Object.entries(template)) {
    out[key] = Object.prototype.hasOwnProperty.call(source, key) ? conformValue(fallback, source[key], key) : fallback;
  }
  return out as T;
}

/**
 * Deep merge where `over` wins wherever it carries a value (non-empty text, non-zero number,
 * true, non-empty list); both sides must already be conformed.
 */
export function mergeKnown<T extends Record<string, unknown>>(under: T, over: T): T {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(under)) {
    const a = under[key];
    const b = over[key];
    if (a !== null && typeof a === 'object' && !Array.isArray(a)) {
      out[key] = mergeKnown(a as Record<string, unknown>, b as Record<string, unknown>);
    } else if (Array.isArray(b) ? b.length > 0 : b !== '' && b !== 0 && b !== false && b !== undefined) {
      out[key] = b;
    } else {
      out[key] = a;
    }
  }
  return out as T;
}
