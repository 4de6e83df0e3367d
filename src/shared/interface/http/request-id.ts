import { randomFillSync } from 'node:crypto';

const ALPHABET = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyz', 'latin1');
const ID_LENGTH = 24;

/**
 * Random bytes drawn in blocks, each turned into a letter or digit as the block is drawn: one
 * `randomBytes` call per request was a measurable share of a small request's CPU time, and so
 * was building each id a character at a time. The block is refilled from the CSPRNG before any
 * byte is reused.
 */
const pool = Buffer.alloc(ID_LENGTH * 256);
let offset = pool.length;

/** `req_` + 24 random lowercase letters and digits. */
export function newRequestId(): string {
  if (offset + ID_LENGTH > pool.length) {
    randomFillSync(pool);
    for (let i = 0; i < pool.length; i++) pool[i] = ALPHABET[pool[i] % ALPHABET.length];
    offset = 0;
  }
  const id = `req_${pool.toString('latin1', offset, offset + ID_LENGTH)}`;
  offset += ID_LENGTH;
  return id;
}
