import { createHash } from 'node:crypto';

/** The request header a client sends to make a POST or PATCH safe to retry (ADR 0045). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** The response header of an answer replayed from an earlier request with the same key. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

/** A key is 1–255 printable ASCII characters (space to tilde). */
export function isValidIdempotencyKey(value: unknown): value is string {
  return typeof value === 'string' && KEY_PATTERN.test(value);
}

/** A piece of canonical text, told apart on the work stack from the JSON values still to write. */
class Text {
  constructor(readonly text: string) {}
}

/**
 * SHA-256 (hex) of a parsed JSON body in a canonical form: object members sorted by name, no
 * whitespace, strings and numbers as `JSON.stringify` writes them. A byte-identical retry hashes
 * the same, and so does one whose only difference is the order of an object's members or its
 * spacing, which no handler can tell apart either. No body at all (`undefined`) hashes as empty
 * text, which no JSON value serialises to.
 *
 * The walk keeps its own stack instead of recursing, so a body nested as deep as 1 MiB allows
 * costs memory in proportion to its size, never the call stack.
 */
export function bodyHash(body: unknown): string {
  const hash = createHash('sha256');
  const pending: unknown[] = body === undefined ? [] : [body];
  while (pending.length > 0) {
    const item = pending.pop();
    if (item instanceof Text) {
      hash.update(item.text);
    } else if (Array.isArray(item)) {
      // Pushed in reverse, so they come off the stack in order: [ a , b ]
      pending.push(new Text(']'));
      for (let i = item.length - 1; i >= 0; i--) {
        pending.push(item[i] as unknown);
        if (i > 0) pending.push(new Text(','));
      }
      pending.push(new Text('['));
    } else if (item !== null && typeof item === 'object') {
      const record = item as Record<string, unknown>;
      const names = Object.keys(record).sort();
      pending.push(new Text('}'));
      for (let i = names.length - 1; i >= 0; i--) {
        pending.push(record[names[i]]);
        pending.push(new Text(`${i > 0 ? ',' : ''}${JSON.stringify(names[i])}:`));
      }
      pending.push(new Text('{'));
    } else {
      // Parsed JSON holds only strings, finite numbers, booleans and null.
      hash.update(JSON.stringify(item) ?? 'null');
    }
  }
  return hash.digest('hex');
}
