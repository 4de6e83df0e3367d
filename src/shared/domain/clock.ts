/** The one source of "now" for records, so tests and the pipeline can agree on time. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

const twoDigits = (n: number): string => (n < 10 ? `0${n}` : `${n}`);

/**
 * `YYYY-MM-DDTHH:mm:ssZ`, the only timestamp form of the public API: `toISOString()` without its
 * milliseconds. Built from the UTC fields, because every list answer formats two or more per row
 * and `toISOString()` costs three times as much: it also works out the local time it does not
 * print, and formats with `snprintf`. Years outside 1000–9999, which `toISOString()` writes
 * zero-padded or with a sign, and an invalid date (a `RangeError`) are left to it.
 */
export function formatTimestamp(date: Date): string {
  const year = date.getUTCFullYear();
  if (!(year >= 1000 && year <= 9999)) return `${date.toISOString().slice(0, 19)}Z`;
  const month = twoDigits(date.getUTCMonth() + 1);
  const day = twoDigits(date.getUTCDate());
  const time = `${twoDigits(date.getUTCHours())}:${twoDigits(date.getUTCMinutes())}:${twoDigits(date.getUTCSeconds())}`;
  return `${year}-${month}-${day}T${time}Z`;
}

/** Whether `YYYY-MM-DD` at the start of `text` is a day of the calendar (not 2025-02-30). */
export function isCalendarDate(text: string): boolean {
  const [year, month, day] = [Number(text.slice(0, 4)), Number(text.slice(5, 7)), Number(text.slice(8, 10))];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The full ISO form of a stored time, or null (the operations CLI's records). */
export const isoOrNull = (value: Date | null): string | null => (value === null ? null : new Date(value).toISOString());
