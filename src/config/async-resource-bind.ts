import { AsyncResource } from 'node:async_hooks';

// As `AsyncResource.bind` is typed.
type AnyFunction = (...args: any[]) => any;

/**
 * `AsyncResource.prototype.bind` as Node has it since the `asyncResource` property of bound
 * functions reached its end of life (DEP0172, nodejs/node#58618): the function run in the
 * resource's async scope, with `this` and its arguments passed through and its `length` kept, and
 * nothing else attached.
 *
 * Node 20 still attaches that property, as a getter and a setter each wrapped by
 * `util.deprecate`, which sets the prototype of one freshly made function to another
 * (nodejs/node#58218). V8 then keeps what the bound function's closures reach through young
 * collections until a full collection. NestJS binds two functions for every interceptor it runs,
 * so every request's objects were copied and promoted to the old generation, to be marked and
 * swept there.
 */
export function leanBind<F extends AnyFunction>(this: AsyncResource, fn: F, thisArg?: unknown): F {
  if (typeof fn !== 'function') {
    throw Object.assign(new TypeError(`The "fn" argument must be of type function. Received ${typeof fn}`), { code: 'ERR_INVALID_ARG_TYPE' });
  }
  const resource = this;
  const bound =
    thisArg === undefined
      ? function (this: unknown, ...args: unknown[]) {
          return resource.runInAsyncScope(fn, this, ...args);
        }
      : resource.runInAsyncScope.bind(resource, fn, thisArg);
  Object.defineProperty(bound, 'length', { configurable: true, enumerable: false, value: fn.length, writable: false });
  return bound as F;
}

/**
 * Puts `leanBind` in place of `AsyncResource.prototype.bind` (which `AsyncResource.bind` calls)
 * when this Node still attaches the deprecated property; true when it did. For the whole process,
 * once.
 */
export function installLeanAsyncResourceBind(): boolean {
  if (AsyncResource.prototype.bind === leanBind) return false;
  const probe = new AsyncResource('probe').bind(() => undefined);
  if (!Object.prototype.hasOwnProperty.call(probe, 'asyncResource')) return false;
  AsyncResource.prototype.bind = leanBind;
  return true;
}
