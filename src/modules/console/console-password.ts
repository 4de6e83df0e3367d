import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Console passwords: scrypt from `node:crypto` with a random 16-byte salt per password. What is
 * stored names the parameters with the hash, `scrypt$N$r$p$<salt>$<hash>` (base64url), so they can
 * be raised later without making old hashes unreadable.
 */
const PARAMETERS = { N: 16_384, r: 8, p: 1 } as const;
const KEY_BYTES = 32;
const SALT_BYTES = 16;

function derive(password: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, { N, r, p, maxmem: 256 * N * r }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** The stored form of `password`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, PARAMETERS.N, PARAMETERS.r, PARAMETERS.p);
  return ['scrypt', PARAMETERS.N, PARAMETERS.r, PARAMETERS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

const STORED = /^scrypt\$([0-9]{1,7})\$([0-9]{1,3})\$([0-9]{1,3})\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

/** Whether `password` is the one `stored` was made from; compared in constant time. A malformed `stored` matches nothing. */
export async function verifyPassword(password: unknown, stored: string): Promise<boolean> {
  const match = STORED.exec(stored);
  if (!match || typeof password !== 'string') return false;
  const [N, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const expected = Buffer.from(match[5], 'base64url');
  if (expected.length !== KEY_BYTES || N < 2 || (N & (N - 1)) !== 0 || r < 1 || p < 1) return false;
  const key = await derive(password, Buffer.from(match[4], 'base64url'), N, r, p);
  return timingSafeEqual(key, expected);
}

/**
 * A stored hash of a password nobody has: a sign-in for an unknown email is checked against it,
 * so it takes as long as one for a known email.
 */
export const UNUSABLE_PASSWORD_HASH = `scrypt$${PARAMETERS.N}$${PARAMETERS.r}$${PARAMETERS.p}$${'A'.repeat(22)}$${'A'.repeat(43)}`;

/** A one-time password for a new user: 24 random characters (144 bits), URL-safe. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
