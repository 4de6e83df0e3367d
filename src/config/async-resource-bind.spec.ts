import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { installLeanAsyncResourceBind, leanBind } from './async-resource-bind';

describe('leanBind', () => {
  const storage = new AsyncLocalStorage<string>();

  it('runs the function in the async context it was bound in, with its this and arguments', () => {
    const seen: unknown[] = [];
    function record(this: unknown, a: number, b: number) {
      seen.push(storage.getStore(), this, a + b);
      return 'done';
    }
    const bound = storage.run('bound here', () => leanBind.call(new AsyncResource('test'), record));
    const receiver = { name: 'receiver' };
    const result = storage.run('called here', () => bound.call(receiver, 1, 2));
    expect(result).toBe('done');
    expect(seen).toEqual(['bound here', receiver, 3]);
    expect(bound.length).toBe(2);
  });

  it('binds this when given', () => {
    const self = { value: 7 };
    const bound = leanBind.call(new AsyncResource('test'), function (this: typeof self) {
      return this.value;
    }, self);
    expect(bound.call({ value: 1 })).toBe(7);
  });

  it('attaches nothing to the bound function but its length', () => {
    const bound = leanBind.call(new AsyncResource('test'), (a: number) => a);
    // What every function has, and nothing more.
    expect(Object.getOwnPropertyNames(bound).filter((name) => !['length', 'name', 'prototype'].includes(name))).toEqual([]);
    expect(bound).not.toHaveProperty('asyncResource');
  });

  it('refuses what is not a function', () => {
    expect(() => leanBind.call(new AsyncResource('test'), 'nope' as never)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }));
  });
});

describe('installLeanAsyncResourceBind', () => {
  it("replaces Node's bind when it attaches the deprecated property, once", () => {
    const attached = Object.prototype.hasOwnProperty.call(new AsyncResource('probe').bind(() => undefined), 'asyncResource');
    const original = AsyncResource.prototype.bind;
    try {
      expect(installLeanAsyncResourceBind()).toBe(attached);
      expect(AsyncResource.prototype.bind === leanBind).toBe(attached || original === leanBind);
      expect(installLeanAsyncResourceBind()).toBe(false);
      // The static form goes through it too.
      expect(AsyncResource.bind(() => 1)).not.toHaveProperty('asyncResource');
    } finally {
      AsyncResource.prototype.bind = original;
    }
  });
});
