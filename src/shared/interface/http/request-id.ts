import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** `req_` + 24 random lowercase letters and digits. */
export function newRequestId(): string {
  let id = 'req_';
  for (const byte of randomBytes(24)) id += ALPHABET[byte % 36];
  return id;
}
