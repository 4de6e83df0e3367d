import { Inject, Injectable, NestMiddleware, Type } from '@nestjs/common';

type Next = (error?: unknown) => void;

/**
 * Several middleware mounted as one: each middleware Nest mounts is a layer of Express's router
 * that every request walks through, paying a path match and two wrappers; mounted as one, a
 * request pays that once.
 *
 * They run in the order given. Every one but the last must call `next` before it returns, as
 * middleware that only set headers or attach listeners do; the last may finish in its own time,
 * and its returned promise is Nest's, so a rejection still reaches the exception filter (so does
 * an earlier step's, should it be async). A step that neither calls `next` nor fails ends the
 * request there, as it would on its own.
 */
export function middlewareSequence(...types: Type<NestMiddleware>[]): Type<NestMiddleware> {
  if (types.length === 0) throw new Error('middlewareSequence needs at least one middleware');

  @Injectable()
  class MiddlewareSequence implements NestMiddleware {
    private readonly steps: NestMiddleware[];

    constructor(...steps: NestMiddleware[]) {
      this.steps = steps;
    }

    use(req: unknown, res: unknown, next: Next): unknown {
      return this.run(0, req, res, next);
    }

    private run(index: number, req: unknown, res: unknown, next: Next): unknown {
      const step = this.steps[index];
      if (index === this.steps.length - 1) return step.use(req, res, next);
      let result: unknown;
      const returned: unknown = step.use(req, res, (error?: unknown) => {
        result = error === undefined ? this.run(index + 1, req, res, next) : next(error);
      });
      // An async step's rejection is the sequence's, not an unhandled one.
      return returned instanceof Promise ? returned.then(() => result) : result;
    }
  }
  types.forEach((type, index) => Inject(type)(MiddlewareSequence, undefined, index));
  Object.defineProperty(MiddlewareSequence, 'name', { value: `Sequence(${types.map((type) => type.name).join(', ')})` });
  return MiddlewareSequence;
}
