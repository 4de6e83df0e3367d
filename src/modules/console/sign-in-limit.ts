import { createHash } from 'node:crypto';

/** The throttler name of console sign-in failures in the rate limit's store. */
export const SIGN_IN_THROTTLER = 'console-signin';

/**
 * What failed console sign-ins are counted against (ADR 0058): the email (hashed: Redis keys are
 * no place for people's addresses) and the client's address.
 */
export function signInTrackers(email: string, address: string): string[] {
  const emailDigest = createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 32);
  return [`signin:email:${emailDigest}`, `signin:ip:${address}`];
}
