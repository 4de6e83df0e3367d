import { AppError } from '../application/app-error';
import { CursorBinding, CursorCodec } from './cursor-codec';

const SECRET = Buffer.from('0123456789abcdef0123456789abcdef');
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

const binding: CursorBinding = {
  workspaceId: 'wor_0000000000000000001',
  endpoint: 'GET /v1/signals',
  params: { sort_by: 'captured_at', sort_order: 'desc', type: 'website' },
};
const position = ['2026-11-20T10:00:00Z', '7341234567890123456'];

function expectInvalidCursor(fn: () => unknown) {
  let thrown: unknown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(AppError);
  const error = thrown as AppError;
  expect(error.code).toBe('invalid_cursor');
  expect(error.param).toBe('cursor');
  expect(error.status).toBe(400);
}

describe('CursorCodec', () => {
  const codec = new CursorCodec(SECRET);

  describe('round trip', () => {
    it('returns the position the cursor was made with', () => {
      const cursor = codec.encode(binding, position);
      expect(codec.decode(binding, cursor)).toEqual(position);
    });

    it.each([
      ['an empty position', []],
      ['numbers and null', [42, 0, -1.5, null]],
      ['strings with quotes and unicode', ['a"b\\c', 'café ✓ 😀', '']],
      ['nested values', [{ at: '2026-01-01T00:00:00Z' }, ['x', 1]]],
    ])('handles %s', (_what, pos) => {
      expect(codec.decode(binding, codec.encode(binding, pos))).toEqual(pos);
    });

    it('is decoded by another codec instance with the same secret', () => {
      const cursor = codec.encode(binding, position);
      expect(new CursorCodec(Buffer.from(SECRET)).decode(binding, cursor)).toEqual(position);
    });

    it('is an opaque URL-safe string', () => {
      const cursor = codec.encode(binding, position);
      expect(cursor).toMatch(/^[A-Za-z0-9_.-]+$/);
      expect(cursor).not.toContain('2026-11-20');
      expect(cursor).not.toContain(binding.workspaceId);
    });

    it('does not depend on the order of the bound params', () => {
      const reordered: CursorBinding = {
        ...binding,
        params: { type: 'website', sort_order: 'desc', sort_by: 'captured_at' },
      };
      const cursor = codec.encode(binding, position);
      expect(codec.decode(reordered, cursor)).toEqual(position);
      expect(codec.decode(binding, codec.encode(reordered, position))).toEqual(position);
    });
  });

  describe('altered cursors', () => {
    const cursor = codec.encode(binding, position);
    const dot = cursor.indexOf('.');
    const payload = cursor.slice(0, dot);
    const mac = cursor.slice(dot + 1);

    it('rejects a payload for another position carrying the original mac', () => {
      const otherPayload = Buffer.from(JSON.stringify([1, '2030-01-01T00:00:00Z', '1'])).toString('base64url');
      expectInvalidCursor(() => codec.decode(binding, `${otherPayload}.${mac}`));
    });

    it('rejects the payload of one cursor with the mac of another', () => {
      const other = codec.encode(binding, ['2030-01-01T00:00:00Z', '1']);
      const otherMac = other.slice(other.indexOf('.') + 1);
      expectInvalidCursor(() => codec.decode(binding, `${payload}.${otherMac}`));
    });

    it('rejects every single-character change of the payload', () => {
      for (let i = 0; i < payload.length; i++) {
        for (const ch of BASE64URL) {
          if (ch === payload[i]) continue;
          const altered = payload.slice(0, i) + ch + payload.slice(i + 1);
          expectInvalidCursor(() => codec.decode(binding, `${altered}.${mac}`));
        }
      }
    });

    it('rejects every single-character change of the mac', () => {
      const accepted: string[] = [];
      for (let i = 0; i < mac.length; i++) {
        for (const ch of BASE64URL) {
          if (ch === mac[i]) continue;
          const altered = `${payload}.${mac.slice(0, i)}${ch}${mac.slice(i + 1)}`;
          try {
            codec.decode(binding, altered);
            accepted.push(altered);
          } catch (error) {
            expect(error).toBeInstanceOf(AppError);
            expect((error as AppError).code).toBe('invalid_cursor');
          }
        }
      }
      expect(accepted).toEqual([]);
    });

    it('rejects a truncated or extended mac', () => {
      expectInvalidCursor(() => codec.decode(binding, cursor.slice(0, -1)));
      expectInvalidCursor(() => codec.decode(binding, `${cursor}A`));
      expectInvalidCursor(() => codec.decode(binding, `${payload}.${mac}=`));
    });

    it('rejects a truncated payload', () => {
      expectInvalidCursor(() => codec.decode(binding, `${payload.slice(1)}.${mac}`));
      expectInvalidCursor(() => codec.decode(binding, `${payload.slice(0, -1)}.${mac}`));
    });

    it('rejects swapped parts and a missing separator', () => {
      expectInvalidCursor(() => codec.decode(binding, `${mac}.${payload}`));
      expectInvalidCursor(() => codec.decode(binding, `${payload}${mac}`));
      expectInvalidCursor(() => codec.decode(binding, `${payload}..${mac}`));
      expectInvalidCursor(() => codec.decode(binding, `${payload}.${mac}.${mac}`));
    });
  });

  describe('cursors used with another binding', () => {
    const cursor = codec.encode(binding, position);

    it('rejects another workspace', () => {
      expectInvalidCursor(() => codec.decode({ ...binding, workspaceId: 'wor_0000000000000000002' }, cursor));
    });

    it('rejects another endpoint', () => {
      expectInvalidCursor(() => codec.decode({ ...binding, endpoint: 'GET /v1/buyers' }, cursor));
    });

    it('rejects another param value', () => {
      expectInvalidCursor(() => codec.decode({ ...binding, params: { ...binding.params, type: 'market' } }, cursor));
    });

    it('rejects another sort order', () => {
      expectInvalidCursor(() => codec.decode({ ...binding, params: { ...binding.params, sort_order: 'asc' } }, cursor));
    });

    it('rejects an extra param', () => {
      expectInvalidCursor(() => codec.decode({ ...binding, params: { ...binding.params, buyer_id: 'buy_0000000000000000001' } }, cursor));
    });

    it('rejects a missing param', () => {
      const { type: _type, ...rest } = binding.params;
      expectInvalidCursor(() => codec.decode({ ...binding, params: rest }, cursor));
    });

    it('rejects a param moved between name and value', () => {
      const a = codec.encode({ ...binding, params: { ab: 'c' } }, position);
      expectInvalidCursor(() => codec.decode({ ...binding, params: { a: 'bc' } }, a));
    });

    it('rejects text moved between workspace and endpoint', () => {
      const a = codec.encode({ workspaceId: 'wor_1', endpoint: '2/v1/signals', params: {} }, position);
      expectInvalidCursor(() => codec.decode({ workspaceId: 'wor_12', endpoint: '/v1/signals', params: {} }, a));
    });
  });

  describe('malformed cursors', () => {
    it.each([
      ['empty', ''],
      ['a single dot', '.'],
      ['garbage', 'not-a-cursor'],
      ['garbage with a dot', 'abc.def'],
      ['spaces', 'abc def.ghi'],
      ['JSON', '{"position":[1]}'],
      ['base64 padding', 'WzFd.===='],
      ['non-ASCII', 'Wz\u00e9.abc'],
      ['NUL', '\u0000'],
      ['plain base64 alphabet', 'WzEsMl0+/.abc+/'],
    ])('rejects %s', (_what, cursor) => {
      expectInvalidCursor(() => codec.decode(binding, cursor));
    });

    it('rejects an over-long cursor', () => {
      expectInvalidCursor(() => codec.decode(binding, 'A'.repeat(5000)));
      const valid = codec.encode(binding, position);
      expectInvalidCursor(() => codec.decode(binding, `${'A'.repeat(3000)}${valid}`));
    });

    it('rejects a cursor signed with another secret', () => {
      const other = new CursorCodec(Buffer.from('fedcba9876543210fedcba9876543210'));
      expectInvalidCursor(() => codec.decode(binding, other.encode(binding, position)));
      expectInvalidCursor(() => other.decode(binding, codec.encode(binding, position)));
    });
  });

  describe('construction', () => {
    it('throws for a secret shorter than 16 bytes', () => {
      expect(() => new CursorCodec(Buffer.alloc(0))).toThrow();
      expect(() => new CursorCodec(Buffer.from('short'))).toThrow();
      expect(() => new CursorCodec(Buffer.alloc(15, 1))).toThrow();
    });

    it('accepts a 16-byte secret', () => {
      const codec16 = new CursorCodec(Buffer.alloc(16, 1));
      expect(codec16.decode(binding, codec16.encode(binding, position))).toEqual(position);
    });
  });
});
