import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether two secrets (a CSRF token, say) are equal, in time that does not depend on where they
 * differ: both are hashed first, so their lengths do not show either.
 */
export function sameSecret(expected: string, presented: unknown): boolean {
  if (typeof presented !== 'string' || presented === '' || expected === '') return false;
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(expected), digest(presented));
}
