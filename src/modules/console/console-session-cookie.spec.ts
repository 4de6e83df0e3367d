import { sameSecret } from '../../shared/domain/constant-time';
import {
  clearedSessionCookie,
  csrfTokenFor,
  hashSessionToken,
  newSessionToken,
  readSessionCookie,
  sessionCookie,
  SESSION_COOKIE,
} from './console-session-cookie';

describe('the console session cookie', () => {
  it('is httpOnly, SameSite=Lax, on /console, Secure only over HTTPS', () => {
    const token = newSessionToken();
    expect(sessionCookie(token, { secure: false, maxAgeSeconds: 60 })).toBe(
      `${SESSION_COOKIE}=${token}; Path=/console; HttpOnly; SameSite=Lax; Max-Age=60`,
    );
    expect(sessionCookie(token, { secure: true, maxAgeSeconds: 60 })).toMatch(/; Secure$/);
    expect(clearedSessionCookie({ secure: false })).toBe(`${SESSION_COOKIE}=; Path=/console; HttpOnly; SameSite=Lax; Max-Age=0`);
  });

  it('reads its own token from a Cookie header, and nothing shaped otherwise', () => {
    const token = newSessionToken();
    expect(readSessionCookie(`a=1; ${SESSION_COOKIE}=${token}; b=2`)).toBe(token);
    expect(readSessionCookie(`${SESSION_COOKIE}=short`)).toBeNull();
    expect(readSessionCookie(`other=${token}`)).toBeNull();
    expect(readSessionCookie(undefined)).toBeNull();
  });

  it('stores a hash, never the token', () => {
    const token = newSessionToken();
    expect(hashSessionToken(token)).toHaveLength(32);
    expect(hashSessionToken(token).toString('base64url')).not.toBe(token);
    expect(newSessionToken()).not.toBe(token);
  });
});

describe('CSRF tokens', () => {
  it('are per session, stable within it, and not the session token', () => {
    const token = newSessionToken();
    expect(csrfTokenFor(token)).toBe(csrfTokenFor(token));
    expect(csrfTokenFor(token)).not.toBe(csrfTokenFor(newSessionToken()));
    expect(csrfTokenFor(token)).not.toContain(token);
  });

  it('compare equal only to themselves, whatever the type or length presented', () => {
    const csrf = csrfTokenFor(newSessionToken());
    expect(sameSecret(csrf, csrf)).toBe(true);
    expect(sameSecret(csrf, `${csrf}x`)).toBe(false);
    expect(sameSecret(csrf, csrf.slice(1))).toBe(false);
    expect(sameSecret(csrf, '')).toBe(false);
    expect(sameSecret(csrf, undefined)).toBe(false);
    expect(sameSecret(csrf, [csrf])).toBe(false);
    expect(sameSecret('', '')).toBe(false);
  });
});
