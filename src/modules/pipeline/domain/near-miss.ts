/**
 * Which Target Page (or Target Form) a website activity that matched none came closest to, and
 * how its canonical URL differed. Matching stays exact (spec: "URL matching … is exact against a
 * normalised canonical URL"); this only explains a `no_target_match`.
 *
 * Both sides are canonical URLs (`host[:port]/path?query`, `canonicalizeUrl`). A record is close
 * when each part is close and at most two parts differ:
 * - host: the same registered domain — the last two labels of the name, or three under a country
 *   domain with a generic second level (`co.uk`, `com.au`, `org.nz`; `SECOND_LEVELS`). `www.example.com`, `app.example.com`
 *   and `example.com` are close; a different port counts as a host difference. IP addresses are
 *   close only to themselves.
 * - path: equal but for letter case, or one segment apart (one segment replaced, or one more or
 *   one fewer at the end).
 * - query: any difference (the page needs a parameter the visit lacks, or the reverse).
 * The closest record has the fewest differences; then a host that differs only by `www.` before
 * any other subdomain; then a path differing only in case before one a segment apart; then the
 * order of the candidates (oldest first, as matching picks).
 */

export type UrlPart = 'host' | 'path' | 'query';

export interface NearMissCandidate {
  id: string;
  /** The record's canonical URL. */
  url: string;
}

export interface NearMissResult {
  id: string;
  url: string;
  /** The parts that differ, in the order host, path, query. */
  differences: UrlPart[];
}

interface Parts {
  name: string;
  port: string;
  path: string;
  query: string;
}

/** Splits a canonical URL into host name, port, path (without trailing slash) and query. */
export function urlParts(canonical: string): Parts {
  const queryAt = canonical.indexOf('?');
  const beforeQuery = queryAt < 0 ? canonical : canonical.slice(0, queryAt);
  const query = queryAt < 0 ? '' : canonical.slice(queryAt + 1);
  const slashAt = beforeQuery.indexOf('/');
  const authority = slashAt < 0 ? beforeQuery : beforeQuery.slice(0, slashAt);
  const path = slashAt < 0 ? '' : beforeQuery.slice(slashAt).replace(/\/+$/, '');
  const colonAt = authority.lastIndexOf(':');
  return {
    name: (colonAt < 0 ? authority : authority.slice(0, colonAt)).toLowerCase(),
    port: colonAt < 0 ? '' : authority.slice(colonAt + 1),
    path,
    query,
  };
}

const IPV4 = /^[0-9]{1,3}(\.[0-9]{1,3}){3}$/;
/** Second levels under which country domains register names (`example.co.uk`). */
const SECOND_LEVELS = new Set(['co', 'com', 'net', 'org', 'gov', 'edu', 'ac', 'ltd', 'plc', 'ne', 'or', 'go']);

/** `www.shop.example.co.uk` → `example.co.uk`; `app.example.com` → `example.com`; an IP address stays whole. */
export function registeredDomain(name: string): string {
  if (IPV4.test(name)) return name;
  const labels = name.split('.');
  const tld = labels[labels.length - 1];
  const second = labels[labels.length - 2] ?? '';
  const take = labels.length >= 3 && tld.length === 2 && SECOND_LEVELS.has(second) ? 3 : 2;
  return labels.slice(-take).join('.');
}

const withoutWww = (name: string) => name.replace(/^www\./, '');

/** 0 equal, 1 differ only by `www.`, 2 same registered domain, null unrelated. */
function hostRank(a: Parts, b: Parts): number | null {
  if (a.name === b.name) return a.port === b.port ? 0 : 2;
  if (registeredDomain(a.name) !== registeredDomain(b.name)) return null;
  return withoutWww(a.name) === withoutWww(b.name) && a.port === b.port ? 1 : 2;
}

/** 0 equal, 1 equal but for case, 2 one segment apart, null further. */
function pathRank(a: string, b: string): number | null {
  if (a === b) return 0;
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  if (x === y) return 1;
  const [xs, ys] = [x.split('/').filter(Boolean), y.split('/').filter(Boolean)];
  const [short, long] = xs.length <= ys.length ? [xs, ys] : [ys, xs];
  if (long.length - short.length > 1) return null;
  const differing = long.filter((segment, i) => short[i] !== segment).length;
  return differing === 1 ? 2 : null;
}

/** The closest candidate to `visited` (a canonical URL) by the rule above, or null when none is close. */
export function nearestTarget(visited: string, candidates: readonly NearMissCandidate[]): NearMissResult | null {
  const seen = urlParts(visited);
  let best: { result: NearMissResult; key: number[] } | null = null;
  candidates.forEach((candidate, order) => {
    const target = urlParts(candidate.url);
    const host = hostRank(seen, target);
    const path = host === null ? null : pathRank(seen.path, target.path);
    if (host === null || path === null) return;
    const differences: UrlPart[] = [];
    if (host > 0) differences.push('host');
    if (path > 0) differences.push('path');
    if (seen.query !== target.query) differences.push('query');
    if (differences.length === 0 || differences.length > 2) return;
    const key = [differences.length, host, path, order];
    if (!best || compareKeys(key, best.key) < 0) best = { result: { id: candidate.id, url: candidate.url, differences }, key };
  });
  return (best as { result: NearMissResult } | null)?.result ?? null;
}

function compareKeys(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}
