import { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import { InterceptorsConsumer } from '@nestjs/core/interceptors';
import { Observable } from 'rxjs';

/**
 * An interceptor that acts only before the route handler and passes the handler's result on as
 * it is: `intercept` is `before`, then `next.handle()`. Nest runs it as any other interceptor;
 * once `installPassThroughInterceptors` has run, a route whose interceptors are all of this kind
 * has them run without Nest's Observable chain (below).
 */
export abstract class PassThroughInterceptor implements NestInterceptor {
  /** Runs before the handler; throwing here answers the request with the error, as from `intercept`. */
  abstract before(context: ExecutionContext): void;

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    this.before(context);
    return next.handle();
  }
}

let installed = false;

const isPassThrough = (interceptor: NestInterceptor): boolean => interceptor instanceof PassThroughInterceptor;

/**
 * Nest wraps every route that has an interceptor in an Observable chain — `defer`, `mergeAll`, a
 * bound async scope per interceptor, `lastValueFrom`, and a watch for the client's disconnect on
 * the result — whatever the interceptor does. For a route whose interceptors are all
 * pass-through that chain changes nothing but the cost: 7–10 % of the CPU of a small API request
 * (docs/performance.md). Here such a route has its interceptors' `before` run in order, with the
 * execution context Nest would have given them, and then the handler, whose result (a value, a
 * promise or an Observable) goes on to Nest's response handling as it would without
 * interceptors. Any other mix of interceptors goes Nest's way. For the whole process, once; true
 * when it installed.
 */
export function installPassThroughInterceptors(): boolean {
  if (installed) return false;
  installed = true;
  const nestIntercept = InterceptorsConsumer.prototype.intercept;
  InterceptorsConsumer.prototype.intercept = async function intercept(
    this: InterceptorsConsumer,
    interceptors: NestInterceptor[],
    args: unknown[],
    instance: object,
    callback: (...args: unknown[]) => unknown,
    next: () => Promise<unknown>,
    type?: string,
  ): Promise<unknown> {
    if (interceptors.length === 0 || !interceptors.every(isPassThrough)) {
      return nestIntercept.call(this, interceptors, args, instance, callback, next, type);
    }
    const context = this.createContext(args, instance, callback);
    if (type !== undefined) context.setType(type);
    for (const interceptor of interceptors as PassThroughInterceptor[]) interceptor.before(context);
    return next();
  } as InterceptorsConsumer['intercept'];
  return true;
}
