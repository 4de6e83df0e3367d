import { createHash, createHmac, randomBytes } from 'node:crypto';

/** The console's session cookie (docs/console.md). */
export const SESSION_COOKIE = 'bi_console_session';

/** A new session token: 32 random bytes, base64url; only its hash is stored. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored of a session token: its SHA-256. */
export function hashSessionToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/**
 * The session's CSRF token, derived from the session token (an HMAC of a fixed label under it), so
 * it needs no storage, is the same for the whole session and tells nothing about the cookie.
 */
export function csrfTokenFor(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('bi-console-csrf').digest('base64url');
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** The session token in a `Cookie` header, or null (absent, or not shaped like one of ours). */
export function readSessionCookie(header: string | undefined): string | null {
  if (typeof header !== 'string') return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    if (TOKEN_SHAPE.test(value)) return value;
  }
  return null;
}

const ATTRIBUTES = 'Path=/console; HttpOnly; SameSite=Lax';

/** `Set-Cookie` for a new session: HttpOnly, SameSite=Lax, Path=/console, Secure when the request came over HTTPS. */
export function sessionCookie(token: string, options: { secure: boolean; maxAgeSeconds: number }): string {
  return `${SESSION_COOKIE}=${token}; ${ATTRIBUTES}; Max-Age=${options.maxAgeSeconds}${options.secure ? '; Secure' : ''}`;
}

/** `Set-Cookie` that removes the session cookie. */
export function clearedSessionCookie(options: { secure: boolean }): string {
  return `${SESSION_COOKIE}=; ${ATTRIBUTES}; Max-Age=0${options.secure ? '; Secure' : ''}`;
}
