import { CanActivate, createParamDecorator, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppError } from '../../application/app-error';
import { WorkspaceContext } from '../../application/workspace-context';
import { sameSecret } from '../../domain/constant-time';
import { formatId, ID_PREFIXES } from '../../domain/ids';
import { ConsoleErrorCode, ErrorCode } from '../../domain/errors';
import { noQueryPipe } from './list-query.pipe';
import { AppRequest, RequestState } from './request-context';

const IS_PUBLIC = 'isPublic';
const READS_ONLY = 'readsOnly';
/** Opts a route out of authentication (operational routes only). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
/** Lets a read-only key call a route whose method is not GET: it computes an answer and writes nothing. */
export const ReadsOnly = () => SetMetadata(READS_ONLY, true);

const API_ONLY = 'apiOnly';
const WITHOUT_SESSION = 'withoutSession';
/** A route of a shared controller that the console does not serve (activity intake): 404 under `/console/api`. */
export const ApiOnly = () => SetMetadata(API_ONLY, true);
/** The console route that runs without a session: signing in. */
export const WithoutSession = () => SetMetadata(WITHOUT_SESSION, true);

const TAKES_QUERY = 'takesQuery';
/**
 * A route that reads its query string (a list, through its own pipe). Every other route refuses
 * one with `400 invalid_parameter`, as the lists refuse an unknown parameter: no query input is
 * silently ignored.
 */
export const TakesQuery = () => SetMetadata(TAKES_QUERY, true);

/** The header a console write carries its session's CSRF token in. */
export const CSRF_HEADER = 'x-csrf-token';

/** Per flag, controller class and handler: the flag's value. Metadata is fixed once the app is built. */
const routeFlags = new Map<string, WeakMap<object, WeakMap<object, boolean>>>();

/**
 * Whether the route `context` runs carries a flag set with `SetMetadata(key, true)`, on its
 * handler or its controller. Guards ask on every request, so each route's answer is read from the
 * metadata once.
 */
function routeFlag(reflector: Reflector, context: ExecutionContext, key: string): boolean {
  const controller = context.getClass();
  const handler = context.getHandler();
  let byController = routeFlags.get(key);
  if (!byController) routeFlags.set(key, (byController = new WeakMap()));
  let routes = byController.get(controller);
  if (!routes) byController.set(controller, (routes = new WeakMap()));
  let value = routes.get(handler);
  if (value === undefined) {
    value = reflector.getAllAndOverride<boolean>(key, [handler, controller]) === true;
    routes.set(handler, value);
  }
  return value;
}

/** Whether the route `context` runs is `@Public()`, by its handler or its controller. */
export function isPublicRoute(reflector: Reflector, context: ExecutionContext): boolean {
  return routeFlag(reflector, context, IS_PUBLIC);
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function bodyError(error: NonNullable<RequestState['bodyError']>): AppError {
  if (error.status === 413) {
    return new AppError(ErrorCode.payloadTooLarge, 'The request body is larger than 1 MiB.');
  }
  if (error.type === 'content_type') {
    return AppError.validation('body', 'The request body must be JSON sent with Content-Type: application/json.');
  }
  if (error.type === 'invalid_utf8') return AppError.validation('body', 'The request body is not valid UTF-8.');
  return AppError.validation('body', 'The request body is not valid JSON.');
}

/**
 * Global and deny by default: a route without `@Public()` needs the key the request middleware
 * authenticated, and a read-only key may not write (it may call GETs and `@ReadsOnly()` routes). It then binds the key's workspace to the
 * request (`@CurrentWorkspace()`), and raises a body that failed to parse — here, because only
 * now are the route and the key known to be good. Never returns false (Nest would answer a
 * generic 403); it throws the documented error instead.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (isPublicRoute(this.reflector, context)) return true;
    const req = context.switchToHttp().getRequest<AppRequest>();
    if (req.state?.surface === 'console') return this.authoriseConsole(req, context);
    const auth = req.state?.auth;
    if (!auth) throw AppError.unauthenticated();
    if (auth.scope !== 'write' && !READ_METHODS.has(req.method) && !routeFlag(this.reflector, context, READS_ONLY)) {
      throw new AppError(ErrorCode.permissionDenied, 'This API key is read-only; a key with write scope is required.');
    }
    req.state.workspace = WorkspaceContext.forApiKey(auth.workspaceId, auth.keyId, auth.scope);
    this.refuseUnreadQuery(req, context);
    if (req.state.bodyError) throw bodyError(req.state.bodyError);
    return true;
  }

  /** A query string on a route that reads none: its first parameter is `invalid_parameter`. */
  private refuseUnreadQuery(req: AppRequest, context: ExecutionContext): void {
    if (!routeFlag(this.reflector, context, TAKES_QUERY)) noQueryPipe.transform(req.query);
  }

  /**
   * A console request: the route must be one the console serves, the session the middleware found
   * is required (except to sign in), and every write must carry the session's CSRF token.
   */
  private authoriseConsole(req: AppRequest, context: ExecutionContext): boolean {
    if (routeFlag(this.reflector, context, API_ONLY)) throw new AppError(ErrorCode.notFound, 'No such route.');
    const session = req.state.console;
    if (!session) {
      if (!routeFlag(this.reflector, context, WITHOUT_SESSION)) throw AppError.noConsoleSession();
    } else {
      if (!READ_METHODS.has(req.method) && !sameSecret(session.csrfToken, req.headers[CSRF_HEADER])) {
        throw new AppError(ConsoleErrorCode.csrfFailed, 'Missing or wrong X-CSRF-Token header.');
      }
      req.state.workspace = WorkspaceContext.forConsole(formatId(ID_PREFIXES.workspace, session.workspaceId), session.userId);
    }
    this.refuseUnreadQuery(req, context);
    if (req.state.bodyError) throw bodyError(req.state.bodyError);
    return true;
  }
}

/** The request's workspace; fails closed when a route somehow runs without one. */
export const CurrentWorkspace = createParamDecorator((_: unknown, context: ExecutionContext): WorkspaceContext => {
  const workspace = context.switchToHttp().getRequest<AppRequest>().state?.workspace;
  if (!workspace) throw new Error('No workspace bound to this request');
  return workspace;
});
