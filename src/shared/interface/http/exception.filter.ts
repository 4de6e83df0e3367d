import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Inject, Logger, Optional } from '@nestjs/common';
import type { Response } from 'express';
import { AppError } from '../../application/app-error';
import { KB_ID_PARAMS, KbIdParams } from '../../application/kb-resource';
import { ErrorCode, ERROR_STATUS } from '../../domain/errors';
import { redactSecrets } from '../../domain/secrets';
import { isTransientConflict, isUnavailable } from '../../infrastructure/postgres-errors';
import { AppRequest } from './request-context';
import { RateLimitCounter } from './rate-limit';
import { newRequestId } from './request-id';
import { RouteMethods } from './route-methods';

const STATUS_CODES: Record<number, ErrorCode> = {
  400: ErrorCode.validation,
  401: ErrorCode.authentication,
  403: ErrorCode.permissionDenied,
  404: ErrorCode.notFound,
  413: ErrorCode.payloadTooLarge,
  429: ErrorCode.rateLimitExceeded,
  503: ErrorCode.serviceUnavailable,
};

/**
 * A path segment that is not valid percent-encoding cannot be any id: on KB paths it is a
 * malformed id (400 naming the parameter), elsewhere simply not found.
 */
function undecodablePath(path: string, kbIdParams: KbIdParams): AppError {
  const kb = /^\/(?:v1|console\/api)\/kb\/([a-z-]+)\//.exec(path);
  if (kb) {
    const param = kbIdParams[kb[1]] ?? 'id';
    return AppError.validation(param, `${param} is not a valid id.`);
  }
  return AppError.notFound();
}

/** A known path asked with another method: `405` with the methods it answers; else no route. */
function noRoute(method: string, path: string, routes: RouteMethods | undefined): AppError {
  const allowed = routes?.allowed(path) ?? [];
  if (allowed.length === 0 || allowed.includes(method)) return new AppError(ErrorCode.notFound, 'No such route.');
  return new AppError(ErrorCode.methodNotAllowed, `${path} does not answer ${method}; it answers ${allowed.join(', ')}.`, undefined, {
    Allow: allowed.join(', '),
  });
}

function toAppError(
  exception: unknown,
  req: { method: string; path: string },
  kbIdParams: KbIdParams,
  routes?: RouteMethods,
): AppError | null {
  const path = req.path;
  if (exception instanceof AppError) return exception;
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status === 400 && /Failed to decode param/i.test(exception.message)) return undecodablePath(path, kbIdParams);
    const code = STATUS_CODES[status];
    if (!code) return null;
    if (status === 404) return noRoute(req.method, path, routes);
    if (code === ErrorCode.validation) return AppError.validation('body', 'The request is invalid.');
    return new AppError(code, exception.message);
  }
  if (isUnavailable(exception)) {
    return AppError.serviceUnavailable('The service is temporarily unavailable; retry shortly.', 5);
  }
  if (isTransientConflict(exception)) {
    return AppError.serviceUnavailable('The request met a concurrent one; retry it.', 1);
  }
  return null;
}

/** What an error may quote of the request is bounded: a 500,000-character field name is not echoed back whole. */
const MAX_MESSAGE = 1_000;
const MAX_PARAM = 200;
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

const withHeaders = (error: AppError, headers: Record<string, string>) =>
  new AppError(error.code, error.message, error.param, { ...error.headers, ...headers });

/**
 * Renders every failure as the public envelope. Unexpected errors become a bare 500: their
 * details go to the log (with the request id), never to the client.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  /** `kbIdParams`: the id parameter of each KB path, from the KB module (none without it). */
  constructor(
    @Optional() @Inject(KB_ID_PARAMS) private readonly kbIdParams: KbIdParams = {},
    @Optional() private readonly routes?: RouteMethods,
    @Optional() private readonly rateLimit?: RateLimitCounter,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<AppRequest>();
    const res = http.getResponse<Response>();
    const path = req.originalUrl?.split('?', 1)[0] ?? req.path ?? '';
    const error = toAppError(exception, { method: req.method, path }, this.kbIdParams, this.routes);
    // A workspace's request that reached no route (404, 405) never met the rate-limit guard; it
    // counts all the same (every API request does), and past the budget it is the 429.
    const workspaceId = req.state?.auth?.workspaceId ?? req.state?.console?.workspaceId;
    const unrouted = exception instanceof HttpException && exception.getStatus() === 404 && !(exception instanceof AppError);
    if (error && unrouted && workspaceId && this.rateLimit) {
      this.rateLimit.countUnrouted(workspaceId).then(
        (headers) => this.respond(req, res, withHeaders(error, headers), exception),
        (limited: unknown) => this.respond(req, res, limited instanceof AppError ? limited : error, exception),
      );
      return;
    }
    this.respond(req, res, error, exception);
  }

  private respond(req: AppRequest, res: Response, error: AppError | null, exception: unknown): void {
    const requestId = req.state?.requestId ?? newRequestId();
    if (!error) {
      // The error with its stack, and the request it failed (when logged within a request, the
      // line also carries the request log's `req`).
      this.logger.error({ requestId, method: req.method, path: req.path, err: exception }, 'Unexpected error');
    }
    const status = error?.status ?? ERROR_STATUS.internal_error;
    // Messages and `param` may name what the client sent (a field, a parameter); a key or a
    // signing secret sent that way is never echoed back.
    const body = {
      error: {
        code: error?.code ?? ErrorCode.internal,
        message: error
          ? clip(redactSecrets(error.message), MAX_MESSAGE)
          : 'An unexpected error occurred. Quote the request_id when reporting it.',
        request_id: requestId,
        ...(error?.param !== undefined ? { param: clip(redactSecrets(error.param), MAX_PARAM) } : {}),
      },
    };
    // An error after the answer has gone (a failed stream, say) can only be logged.
    if (res.headersSent) return;
    res.setHeader('X-Request-Id', requestId);
    for (const [name, value] of Object.entries(error?.headers ?? {})) res.setHeader(name, value);
    res.status(status).json(body);
  }
}
