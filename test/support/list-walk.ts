import type TestAgent from 'supertest/lib/agent';
import { seededRandom } from '../../src/shared/domain/seeded-random';

export { seededRandom };

export interface WalkResult<T = Record<string, unknown>> {
  items: T[];
  /** Per page: the `limit` asked for and the number of rows received. */
  pages: { limit: number; received: number; next_cursor: string | null }[];
}

/**
 * Follows `next_cursor` from the first page until it is null, asking for `limits[i % n]` rows on
 * page `i` and keeping every other query parameter unchanged. Fails on anything but a 200 with the
 * list envelope, or after `maxPages` pages.
 */
export async function walkList<T = Record<string, unknown>>(
  http: TestAgent,
  auth: string,
  path: string,
  query: Record<string, string>,
  limits: number[],
  maxPages = 2000,
): Promise<WalkResult<T>> {
  const items: T[] = [];
  const pages: WalkResult['pages'] = [];
  let cursor: string | null = null;
  do {
    if (pages.length >= maxPages) throw new Error(`No end after ${maxPages} pages of ${path}`);
    const limit = limits[pages.length % limits.length];
    const res = await http
      .get(path)
      .query({ ...query, limit: String(limit), ...(cursor === null ? {} : { cursor }) })
      .set('Authorization', auth);
    if (res.status !== 200) throw new Error(`Page ${pages.length + 1} of ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    const body = res.body as { data: T[]; pagination: { next_cursor: unknown } };
    if (!Array.isArray(body.data)) throw new Error(`No data array: ${JSON.stringify(res.body)}`);
    const next = body.pagination?.next_cursor;
    if (next !== null && (typeof next !== 'string' || next.length === 0)) {
      throw new Error(`next_cursor must be a non-empty string or null, got ${JSON.stringify(next)}`);
    }
    if (body.data.length > limit) throw new Error(`Page of ${body.data.length} rows for limit ${limit}`);
    items.push(...body.data);
    pages.push({ limit, received: body.data.length, next_cursor: next });
    cursor = next;
  } while (cursor !== null);
  return { items, pages };
}

/** A copy of `items` in a deterministic shuffled order. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const random = seededRandom(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Keyset order of (time, public id): the spec's order for a list, both directions. */
export function byTimeThenId<T>(time: (item: T) => number, id: (item: T) => string, order: 'asc' | 'desc') {
  const sign = order === 'asc' ? 1 : -1;
  return (a: T, b: T): number => {
    const dt = time(a) - time(b);
    if (dt !== 0) return sign * dt;
    const ia = BigInt(id(a).replace(/^[a-z]+_/, ''));
    const ib = BigInt(id(b).replace(/^[a-z]+_/, ''));
    return sign * (ia < ib ? -1 : ia > ib ? 1 : 0);
  };
}
