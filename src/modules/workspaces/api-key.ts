import { hash, randomBytes } from 'node:crypto';

/** `svc_live_` + 40 base62 characters (~238 bits of randomness). */
export const API_KEY_PREFIX = 'svc_live_';
const SECRET_LENGTH = 40;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const API_KEY_SHAPE = /^svc_live_[0-9A-Za-z]{20,128}$/;

export function generateApiKey(): string {
  let secret = '';
  // 248 is the largest multiple of 62 below 256: rejecting bytes above it keeps the draw uniform.
  while (secret.length < SECRET_LENGTH) {
    for (const byte of randomBytes(SECRET_LENGTH * 2)) {
      if (byte < 248 && secret.length < SECRET_LENGTH) secret += ALPHABET[byte % 62];
    }
  }
  return API_KEY_PREFIX + secret;
}

export function isApiKeyShaped(value: string): boolean {
  return API_KEY_SHAPE.test(value);
}

/** Keys are looked up by hash, so the secret itself is never compared byte by byte. */
export function hashApiKey(key: string): Buffer {
  return hash('sha256', key, 'buffer');
}

/**
 * The key's hash as base64 text, for keys kept in memory by hash: the same digest as
 * `hashApiKey`, asked of `crypto.hash` as text rather than made a Buffer and then text, which
 * costs every request two allocations and most of the hash's time.
 */
export function apiKeyHashText(key: string): string {
  return hash('sha256', key, 'base64');
}

/** What may be shown of a key later: the prefix and four characters of the secret. */
export function displayPrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX.length + 4);
}
