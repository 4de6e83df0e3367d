import { domainToASCII } from 'node:url';

/**
 * The one URL canonicaliser. Target Pages and Target Forms store its result, and the pipeline
 * compares a visited URL's canonical form against them, so both sides must come from this function.
 *
 * Canonical form: `host[:port]/path?query` — scheme dropped, scheme and host lowercased, default
 * ports 80/443 dropped, fragment dropped, trailing slash dropped (the root becomes the bare host),
 * tracking parameters dropped, the remaining parameters sorted by name (stable for repeated names).
 * Path case, `www.` and every other parameter are kept. An internationalised host is its ASCII
 * (punycode) name, and characters outside ASCII in the path and query are percent-encoded, as
 * browsers send them (ADR 0065). The query string is handled raw (split on
 * `&`, re-joined as received) because decoding and re-encoding would turn `%2F` into `/`.
 */

const TRACKING_PARAMS = new Set([
  'gclid',
  'gbraid',
  'wbraid',
  'dclid',
  'li_fat_id',
  'msclkid',
  'fbclid',
  'ttclid',
  'twclid',
  'igshid',
  'yclid',
  'mc_cid',
  'mc_eid',
  '_hsenc',
  '_hsmi',
  '_ga',
  '_gl',
]);
const TRACKING_PREFIXES = ['utm_', 'hsa_'];

export const UTM_FIELDS = ['source', 'medium', 'campaign', 'term', 'content'] as const;
export const CLICK_ID_FIELDS = ['gclid', 'gbraid', 'wbraid', 'dclid', 'li_fat_id', 'msclkid', 'fbclid', 'ttclid', 'twclid'] as const;

export type Utm = Record<(typeof UTM_FIELDS)[number], string>;
export type ClickIds = Record<(typeof CLICK_ID_FIELDS)[number], string | null>;

export interface CanonicalUrl {
  /** `host[:port]/path?query`, the form Target Pages/Forms are matched on. */
  canonical: string;
  /** Lowercase host name, without port. */
  domain: string;
  /** The path as received (non-ASCII characters percent-encoded), `/` for the root. */
  path: string;
  /** Values of the stripped `utm_*` parameters (`""` when absent). */
  utm: Utm;
  /** Values of the stripped click-id parameters (`null` when absent). */
  clickIds: ClickIds;
}

export const MAX_URL_LENGTH = 2048;

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;
const PORT = /^[0-9]{1,5}$/;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

function isHostName(host: string): boolean {
  if (host.length > 253 || !host.includes('.')) return false;
  const labels = host.split('.');
  if (!labels.every((label) => LABEL.test(label))) return false;
  const tld = labels[labels.length - 1];
  return TLD.test(tld) || (labels.every((label) => /^[0-9]{1,3}$/.test(label) && Number(label) <= 255) && labels.length === 4);
}

function decodeComponent(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

function isTracking(name: string): boolean {
  const lower = decodeComponent(name).toLowerCase();
  return TRACKING_PARAMS.has(lower) || TRACKING_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

/**
 * Canonicalises an `http`/`https` URL or a bare `host/path` form whose host has a dot.
 * Returns `null` for anything that is not a website location.
 */
export function canonicalizeUrl(input: string): CanonicalUrl | null {
  let rest = input.trim();
  // Control characters are what the test looks for.
  // eslint-disable-next-line no-control-regex
  if (rest.length === 0 || rest.length > MAX_URL_LENGTH || /[\s\u0000-\u001f\u007f]/.test(rest)) return null;

  const scheme = SCHEME.exec(rest);
  if (scheme) {
    const name = scheme[1].toLowerCase();
    if (name !== 'http' && name !== 'https') return null;
    rest = rest.slice(scheme[0].length);
  } else if (rest.includes('://') || rest.startsWith('/')) {
    return null;
  }

  const hashAt = rest.indexOf('#');
  if (hashAt >= 0) rest = rest.slice(0, hashAt);

  const authorityEnd = rest.search(/[/?]/);
  const authority = authorityEnd < 0 ? rest : rest.slice(0, authorityEnd);
  const afterAuthority = authorityEnd < 0 ? '' : rest.slice(authorityEnd);
  if (authority.includes('@')) return null;

  const colonAt = authority.lastIndexOf(':');
  let host = (colonAt >= 0 ? authority.slice(0, colonAt) : authority).toLowerCase();
  // An internationalised name ("bücher.de") is the ASCII name a browser connects to ("xn--bcher-kva.de").
  // eslint-disable-next-line no-control-regex
  if (/[^\u0000-\u007f]/.test(host)) host = domainToASCII(host);
  const port = colonAt >= 0 ? authority.slice(colonAt + 1) : '';
  if (colonAt >= 0 && (!PORT.test(port) || Number(port) < 1 || Number(port) > 65535)) return null;
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (!isHostName(host)) return null;
  const keepPort = port !== '' && Number(port) !== 80 && Number(port) !== 443;

  // As a browser sends it: characters outside ASCII percent-encoded ("/café" is "/caf%C3%A9");
  // escapes already there are kept as written (DESIGN: no re-encoding).
  const encoded = afterAuthority.replace(/[^\x21-\x7e]/gu, (char) => encodeURIComponent(char));
  const queryAt = encoded.indexOf('?');
  const rawPath = queryAt < 0 ? encoded : encoded.slice(0, queryAt);
  const rawQuery = queryAt < 0 ? '' : encoded.slice(queryAt + 1);

  const utm: Utm = { source: '', medium: '', campaign: '', term: '', content: '' };
  const clickIds = Object.fromEntries(CLICK_ID_FIELDS.map((f) => [f, null])) as ClickIds;
  const kept: Array<{ name: string; piece: string }> = [];
  for (const piece of rawQuery.split('&')) {
    if (piece === '') continue;
    const eq = piece.indexOf('=');
    const name = eq < 0 ? piece : piece.slice(0, eq);
    const value = eq < 0 ? '' : piece.slice(eq + 1);
    if (!isTracking(name)) {
      kept.push({ name, piece });
      continue;
    }
    const lower = decodeComponent(name).toLowerCase();
    const utmField = lower.startsWith('utm_') ? (lower.slice(4) as keyof Utm) : undefined;
    if (utmField && UTM_FIELDS.includes(utmField) && utm[utmField] === '') utm[utmField] = decodeComponent(value);
    if ((CLICK_ID_FIELDS as readonly string[]).includes(lower) && clickIds[lower as keyof ClickIds] === null) {
      clickIds[lower as keyof ClickIds] = decodeComponent(value);
    }
  }
  // Array.prototype.sort is stable, so repeated names keep their received order.
  kept.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

  const path = rawPath.replace(/\/+$/, '');
  const query = kept.map((k) => k.piece).join('&');
  const canonical = host + (keepPort ? `:${Number(port)}` : '') + path + (query ? `?${query}` : '');
  return { canonical, domain: host, path: rawPath === '' ? '/' : rawPath, utm, clickIds };
}
