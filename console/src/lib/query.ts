/** Query strings and times as the API reads them. */

export type QueryValue = string | number | boolean | null | undefined;

/** `?a=1&b=x` from the given values, leaving out empty ones (the API refuses empty filters). */
export function toQuery(params: Readonly<Record<string, QueryValue>>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    search.append(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * A `<input type="datetime-local">` value (the user's local time, `2025-01-31T09:30`) as an
 * ISO 8601 UTC instant; `undefined` when empty or unreadable.
 */
export function localToIso(local: string): string | undefined {
  if (!local.trim()) return undefined;
  const time = new Date(local);
  return Number.isNaN(time.getTime()) ? undefined : apiTimestamp(time);
}

/**
 * An instant as the API's time filters take it: `YYYY-MM-DDTHH:mm:ssZ`, whole seconds (rounded
 * down). `toISOString()`'s milliseconds are refused `400 invalid_parameter`.
 */
export function apiTimestamp(time: Date): string {
  return time.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A short, locale-formatted date and time; the raw text when it is not a date, `—` when empty. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? iso : time.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** The first `max` characters of a text, cut at a word when it can be, with an ellipsis. */
export function snippet(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
