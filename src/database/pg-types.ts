import { CustomTypesConfig, types } from 'pg';

/** `timestamptz`'s type OID. */
const TIMESTAMPTZ = 1184;

/** Character codes of the text's digits and separators. */
const ZERO = 48;
const DASH = 45;
const SPACE = 32;
const COLON = 58;
const DOT = 46;
const PLUS = 43;
/** What each of a fraction's first three digits is worth in milliseconds. */
const MILLIS_PLACE = [100, 10, 1];

/** The number written by `text`'s characters from `start` to `end`, or -1 unless all are digits. */
function digits(text: string, start: number, end: number): number {
  let value = 0;
  for (let i = start; i < end; i++) {
    const digit = text.charCodeAt(i) - ZERO;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

const defaultTimestamptz = types.getTypeParser(TIMESTAMPTZ, 'text') as (text: string) => Date | number | null;

/**
 * A `timestamptz` as PostgreSQL writes it in the ISO date style, `2026-11-24 10:11:12.345678+00`
 * (fraction and minutes of the offset optional), parsed by position. It gives the same `Date` as
 * pg's own parser (`postgres-date`), which matches the text with regular expressions and
 * `parseInt`s each part: a fifth of the CPU of a small list answer went there. Anything else (years
 * outside 1000–9999, `BC`, infinities, offsets with seconds) goes to pg's parser.
 */
export function parseTimestamptz(text: string): Date | number | null {
  const length = text.length;
  if (length < 22 || text.charCodeAt(4) !== DASH || text.charCodeAt(7) !== DASH || text.charCodeAt(10) !== SPACE) {
    return defaultTimestamptz(text);
  }
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 7);
  const day = digits(text, 8, 10);
  const hour = digits(text, 11, 13);
  const minute = digits(text, 14, 16);
  const second = digits(text, 17, 19);
  const separators = text.charCodeAt(13) === COLON && text.charCodeAt(16) === COLON;
  if (!separators || year < 1000 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) {
    return defaultTimestamptz(text);
  }
  // Milliseconds: the fraction's first three digits (microseconds are dropped, as pg's parser does).
  let at = 19;
  let millis = 0;
  if (text.charCodeAt(at) === DOT) {
    const fraction = ++at;
    for (; at < length; at++) {
      const digit = text.charCodeAt(at) - ZERO;
      if (digit < 0 || digit > 9) break;
      if (at - fraction < 3) millis += digit * MILLIS_PLACE[at - fraction];
    }
  }
  // The offset: +HH or +HH:MM (or -), and nothing after it.
  const sign = text.charCodeAt(at);
  if ((sign !== PLUS && sign !== DASH) || (length !== at + 3 && length !== at + 6)) return defaultTimestamptz(text);
  const offsetHours = digits(text, at + 1, at + 3);
  const offsetMinutes = length === at + 6 ? (text.charCodeAt(at + 3) === COLON ? digits(text, at + 4, at + 6) : -1) : 0;
  if (offsetHours < 0 || offsetMinutes < 0) return defaultTimestamptz(text);
  const offset = (sign === PLUS ? 1 : -1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, millis) - offset);
}

/**
 * The type parsers of every pool the service opens: pg's, with `timestamptz` parsed by
 * `parseTimestamptz`. Passed per pool (`types`), so a process that imports the service's modules
 * keeps pg's global parsers as they are.
 */
export const PG_TYPES: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMPTZ && format !== 'binary'
      ? parseTimestamptz
      : (types.getTypeParser(oid, format) as (value: string) => unknown)) as CustomTypesConfig['getTypeParser'],
};
