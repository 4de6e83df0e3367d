import { randomInt } from 'node:crypto';

/**
 * Identifiers are a type prefix plus 19 decimal digits of a time-ordered 64-bit integer:
 * milliseconds since ID_EPOCH in the high bits, a per-millisecond sequence in the low 22 bits.
 * The sequence starts at a random point each millisecond so that two processes minting ids in the
 * same millisecond are very unlikely to collide; the primary key catches the rest.
 *
 * The prefixes of the knowledge-base resources are declared with each resource (`idPrefix` in
 * `<x>.resource.ts`); these are the others.
 */
export const ID_PREFIXES = {
  workspace: 'wor_',
  apiKey: 'key_',
  targetList: 'lis_',
  buyer: 'buy_',
  signal: 'sig_',
  activity: 'act_',
  request: 'req_',
  event: 'evt_',
  webhookEndpoint: 'whe_',
  webhookDelivery: 'whd_',
  consoleUser: 'usr_',
} as const;

const ID_EPOCH_MS = Date.UTC(2024, 0, 1);
const SEQUENCE_BITS = 22n;
const SEQUENCE_MASK = (1n << SEQUENCE_BITS) - 1n;
const RANDOM_START_LIMIT = 1 << 20; // leaves room for 3M ids in one millisecond before borrowing the next
export const MAX_ID = (1n << 63n) - 1n;
const DIGITS = 19;

export class IdGenerator {
  private lastMs = -1;
  private sequence = 0n;

  constructor(private readonly now: () => number = Date.now) {}

  /** A new id as a decimal string (the form PostgreSQL `bigint` columns take and return). */
  next(): string {
    let ms = Math.max(this.now() - ID_EPOCH_MS, 0);
    if (ms > this.lastMs) {
      this.lastMs = ms;
      this.sequence = BigInt(randomInt(RANDOM_START_LIMIT));
    } else {
      // Same millisecond, or the clock went back: keep counting on the last millisecond used.
      ms = this.lastMs;
      this.sequence += 1n;
      if (this.sequence > SEQUENCE_MASK) {
        this.lastMs += 1;
        ms = this.lastMs;
        this.sequence = 0n;
      }
    }
    return ((BigInt(ms) << SEQUENCE_BITS) | this.sequence).toString();
  }
}

export const ids = new IdGenerator();

/**
 * The smallest id minted at or after `at`: its millisecond since ID_EPOCH, sequence 0 (before the
 * epoch: 0). Ids minted before `at` are smaller; ids minted from `at` on are at least this (a
 * sequence that overflows only borrows later milliseconds), so it bounds a time range of ids.
 */
export function firstIdAt(at: Date): bigint {
  return BigInt(Math.max(at.getTime() - ID_EPOCH_MS, 0)) << SEQUENCE_BITS;
}

/** The millisecond an id was minted in (as its high bits say). */
export function mintedAt(id: string | bigint): Date {
  return new Date(ID_EPOCH_MS + Number(BigInt(id) >> SEQUENCE_BITS));
}

/** `icp_` + `123` → `icp_0000000000000000123`. */
export function formatId(prefix: string, value: string | bigint): string {
  return prefix + value.toString().padStart(DIGITS, '0');
}

export type ParsedId =
  | { kind: 'ok'; value: string }
  /** Prefix and digits, but no record can have it (beyond the 64-bit range). */
  | { kind: 'absent' }
  | { kind: 'malformed' };

/**
 * Reads a public id. A wrong prefix or anything but digits after it is malformed; digits that
 * are not the canonical 19, or a number that cannot exist, are `absent`, so that callers answer
 * them like any missing record.
 */
export function parseId(prefix: string, raw: unknown): ParsedId {
  if (typeof raw !== 'string' || !raw.startsWith(prefix)) return { kind: 'malformed' };
  const digits = raw.slice(prefix.length);
  if (!/^[0-9]+$/.test(digits)) return { kind: 'malformed' };
  // One record, one spelling: only the 19-digit form names it (`icp_123` and
  // `icp_00000000000000000000123` are other ids, which no record has).
  if (digits.length !== DIGITS) return { kind: 'absent' };
  const value = BigInt(digits);
  if (value < 1n || value > MAX_ID) return { kind: 'absent' };
  return { kind: 'ok', value: value.toString() };
}
