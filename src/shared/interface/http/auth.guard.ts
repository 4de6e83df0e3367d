import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppError } from '../../application/app-error';
import { ErrorCode } from '../../domain/errors';
import { AppRequest } from './request-context';

const IS_PUBLIC = 'isPublic';
/** Opts a route out of authentication (operational routes only). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Global and deny by default: a route without `@Public()` needs the key the middleware
 * authenticated, and a read-only key may not write. Never returns false (Nest would answer a
 * generic 403); it throws the documented error instead.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  /** Whether a route is public, by handler and class: the metadata is read once per route. */
  private readonly publicRoutes = new WeakMap<object, WeakMap<object, boolean>>();

  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (this.isPublic(context.getHandler(), context.getClass())) return true;
    const req = context.switchToHttp().getRequest<AppRequest>();
    const auth = req.state?.auth;
    if (!auth) throw AppError.unauthenticated();
    if (auth.scope !== 'write' && !READ_METHODS.has(req.method)) {
      throw new AppError(ErrorCode.permissionDenied, 'This API key is read-only; a key with write scope is required.');
    }
    return true;
  }

  private isPublic(handler: object, controller: object): boolean {
    let byClass = this.publicRoutes.get(handler);
    if (!byClass) this.publicRoutes.set(handler, (byClass = new WeakMap()));
    let isPublic = byClass.get(controller);
    if (isPublic === undefined) {
      isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [handler as () => void, controller as () => void]) === true;
      byClass.set(controller, isPublic);
    }
    return isPublic;
  }
}
