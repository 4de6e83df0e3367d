import { createHash } from 'node:crypto';
import { bodyHash, isValidIdempotencyKey } from './idempotency';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('isValidIdempotencyKey', () => {
  it.each([
    ['one character', 'k'],
    ['a UUID', '7f1c0a52-5b8e-4d4e-9a43-1c2f0e6b9d11'],
    ['255 characters', 'x'.repeat(255)],
    ['spaces and punctuation', 'order 42: retry #1 ~ {ok}'],
    ['every printable character', Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i)).join('')],
  ])('accepts %s', (_what, key) => {
    expect(isValidIdempotencyKey(key)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['256 characters', 'x'.repeat(256)],
    ['a tab', 'a\tb'],
    ['a newline', 'a\nb'],
    ['DEL', 'a\x7fb'],
    ['a Latin-1 letter', 'clé'],
    ['an emoji', 'key-🙂'],
    ['a NUL', 'a\0b'],
  ])('refuses %s', (_what, key) => {
    expect(isValidIdempotencyKey(key)).toBe(false);
  });

  it('refuses anything that is not one string', () => {
    expect(isValidIdempotencyKey(['a', 'b'])).toBe(false);
    expect(isValidIdempotencyKey(undefined)).toBe(false);
    expect(isValidIdempotencyKey(42)).toBe(false);
  });
});

describe('bodyHash', () => {
  it('is SHA-256 of the canonical JSON: members sorted by name, no whitespace', () => {
    const body = { b: 1, a: [true, null, 'x', { d: 2.5, c: 'é"\n' }] };
    expect(bodyHash(body)).toBe(sha256('{"a":[true,null,"x",{"c":"é\\"\\n","d":2.5}],"b":1}'));
  });

  it('hashes a byte-identical body the same, however often it is parsed', () => {
    const text = '{"activities":[{"type":"website","identity":{"email":"a@b.de"},"n":1e21}]}';
    expect(bodyHash(JSON.parse(text))).toBe(bodyHash(JSON.parse(text)));
  });

  it('ignores the order of an object’s members, not of an array’s elements', () => {
    expect(bodyHash({ a: 1, b: { c: 2, d: 3 } })).toBe(bodyHash({ b: { d: 3, c: 2 }, a: 1 }));
    expect(bodyHash([1, 2])).not.toBe(bodyHash([2, 1]));
  });

  it('tells apart bodies that differ in a value, a type or a name', () => {
    const hashes = [
      { a: 1 },
      { a: '1' },
      { a: true },
      { a: null },
      { a: [] },
      { a: {} },
      { b: 1 },
      { a: 1, b: null },
      [{ a: 1 }],
      '{"a":1}',
      null,
      {},
      [],
      '',
    ].map(bodyHash);
    expect(new Set(hashes).size).toBe(hashes.length);
  });

  it('keeps structure apart from text: a name or string holding JSON punctuation is not confused with nesting', () => {
    expect(bodyHash({ 'a":1,"b': 2 })).not.toBe(bodyHash({ a: 1, b: 2 }));
    expect(bodyHash(['a,b'])).not.toBe(bodyHash(['a', 'b']));
  });

  it('hashes no body at all as empty text, unlike any JSON value', () => {
    expect(bodyHash(undefined)).toBe(sha256(''));
    expect(bodyHash(undefined)).not.toBe(bodyHash(null));
    expect(bodyHash(undefined)).not.toBe(bodyHash({}));
  });

  it('includes a __proto__ member as the parser keeps it, as an own property', () => {
    const body: unknown = JSON.parse('{"__proto__":{"x":1},"a":1}');
    expect(bodyHash(body)).toBe(sha256('{"__proto__":{"x":1},"a":1}'));
  });

  it('walks a body nested 200,000 deep without overflowing the stack', () => {
    const depth = 200_000;
    const body: unknown = JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);
    expect(bodyHash(body)).toBe(sha256(`${'['.repeat(depth)}${']'.repeat(depth)}`));
  });
});
