import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../application/app-error';

/** What a cursor is bound to: it is only valid for the same workspace, endpoint and parameters. */
export interface CursorBinding {
  workspaceId: string;
  endpoint: string;
  /** Filters, `sort_by` and `sort_order` as given (after defaults); `limit` is not part of it. */
  params: Record<string, string>;
}

const MAX_CURSOR_LENGTH = 2048;
const VERSION = 1;

/**
 * Opaque, HMAC-signed page cursors. The payload carries only the position; the binding enters the
 * MAC, so a cursor replayed against another workspace, endpoint or filter set fails verification
 * exactly like an altered one.
 */
export class CursorCodec {
  constructor(private readonly secret: Buffer) {
    if (secret.length < 16) throw new Error('The cursor secret must be at least 16 bytes');
  }

  encode(binding: CursorBinding, position: readonly unknown[]): string {
    const payload = Buffer.from(JSON.stringify([VERSION, ...position])).toString('base64url');
    return `${payload}.${this.sign(binding, payload).toString('base64url')}`;
  }

  /** The position the cursor was made with; throws `invalid_cursor` for anything else. */
  decode(binding: CursorBinding, cursor: string): unknown[] {
    if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH) throw AppError.invalidCursor();
    const dot = cursor.indexOf('.');
    if (dot < 0) throw AppError.invalidCursor();
    const payload = cursor.slice(0, dot);
    const mac = cursor.slice(dot + 1);
    if (!/^[A-Za-z0-9_-]+$/.test(payload) || !/^[A-Za-z0-9_-]{43}$/.test(mac)) throw AppError.invalidCursor();
    // Compare the text, not decoded bytes: the last base64url character carries two spare bits,
    // and decoding would accept the variants that differ only there.
    const expected = Buffer.from(this.sign(binding, payload).toString('base64url'));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw AppError.invalidCursor();
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw AppError.invalidCursor();
    }
    if (!Array.isArray(decoded) || decoded[0] !== VERSION) throw AppError.invalidCursor();
    return decoded.slice(1);
  }

  private sign(binding: CursorBinding, payload: string): Buffer {
    const params = Object.keys(binding.params)
      .sort()
      .map((key) => [key, binding.params[key]]);
    return createHmac('sha256', this.secret)
      .update(JSON.stringify([binding.workspaceId, binding.endpoint, params, payload]))
      .digest();
  }
}
