import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const ID_LENGTH = 24;

/**
 * Random bytes drawn in blocks: one `randomBytes` call per request was a measurable share of a
 * small request's CPU time. The block is refilled from the CSPRNG before any byte is reused.
 */
const pool = Buffer.alloc(ID_LENGTH * 256);
let offset = pool.length;

/** `req_` + 24 random lowercase letters and digits. */
export function newRequestId(): string {
  if (offset + ID_LENGTH > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  let id = 'req_';
  for (let i = offset; i < offset + ID_LENGTH; i++) id += ALPHABET[pool[i] % 36];
  offset += ID_LENGTH;
  return id;
}
