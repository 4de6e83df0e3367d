import { isPlainObject } from './plain-object';

describe('isPlainObject', () => {
  it('accepts object literals, parsed JSON objects and null-prototype objects', () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject(JSON.parse('{"a":1}'))).toBe(true);
    expect(isPlainObject(Object.create(null))).toBe(true);
  });

  it('refuses null, arrays, primitives, class instances and boxed values', () => {
    for (const value of [null, undefined, [], [1], 'x', 3, true, new Date(), new Map(), new String('x'), () => 1]) {
      expect(isPlainObject(value)).toBe(false);
    }
  });
});
