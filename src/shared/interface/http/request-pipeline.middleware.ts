import { Inject, Injectable, NestMiddleware, Optional } from '@nestjs/common';
import express, { NextFunction, Response } from 'express';
import { isUtf8 } from 'node:buffer';
import { AppError } from '../../application/app-error';
import { ErrorCode } from '../../domain/errors';
import {
  ApiKeyAuthenticator,
  API_KEY_AUTHENTICATOR,
  AppRequest,
  CONSOLE_API_PATH,
  CONSOLE_SESSION_AUTHENTICATOR,
  ConsoleSessionAuthenticator,
  HTTP_SURFACES,
  HttpSurfaces,
  isConsoleApiPath,
  isConsolePath,
  isPublicPath,
  pathOfUrl,
} from './request-context';
import { RateLimitCounter } from './rate-limit';
import { newRequestId } from './request-id';

export const MAX_BODY_BYTES = 1024 * 1024;

const BEARER = /^Bearer[ ]+(\S+)[ ]*$/i;
const KEY_QUERY_NAMES = new Set(['api_key', 'apikey', 'key', 'access_token', 'token']);

const looksLikeKey = (value: unknown): boolean => typeof value === 'string' && value.includes('svc_live_');

/** True when the query string carries something that looks like a credential, as a value or a name. */
function queryCarriesKey(req: AppRequest): boolean {
  const query = (req.query ?? {}) as Record<string, unknown>;
  for (const name in query) {
    if (KEY_QUERY_NAMES.has(name.toLowerCase()) || looksLikeKey(name)) return true;
    const value = query[name];
    if (looksLikeKey(value) || (Array.isArray(value) && value.some(looksLikeKey))) return true;
  }
  return false;
}

/**
 * The request's way in, before routing, in this order:
 * 1. its request id (given by the request log, which runs first) kept for the error envelope;
 * 2. the API key, before routing and before the body, so a request without a valid key gets 401
 *    even on an unknown route or with a malformed body; a failed attempt counts against the
 *    client's address. Authorisation (scope, deny by default) and the workspace's rate limit are
 *    the guards' work once the route is known;
 * 3. the JSON body of POST/PATCH/PUT. Parse errors are kept on the request and raised by the auth
 *    guard, i.e. only for a known route and after authentication.
 *
 * Authentication is decided by the path (ADR 0058): `/console/api/…` by the console's session
 * cookie only (an `Authorization` header counts for nothing there), everything else by API key
 * only (a cookie counts for nothing there). A surface the application does not serve (the public
 * API in the console's own process, the console when CONSOLE_ENABLED is off) is no route: 404.
 */
@Injectable()
export class RequestPipelineMiddleware implements NestMiddleware {
  constructor(
    @Inject(API_KEY_AUTHENTICATOR) private readonly authenticator: ApiKeyAuthenticator,
    private readonly failedAuthentication: RateLimitCounter,
    @Optional() @Inject(HTTP_SURFACES) private readonly surfaces: HttpSurfaces = { api: true, console: false },
    @Optional() @Inject(CONSOLE_SESSION_AUTHENTICATOR) private readonly sessions?: ConsoleSessionAuthenticator,
  ) {}

  async use(req: AppRequest, res: Response, next: NextFunction): Promise<void> {
    assignRequestId(req, res);
    // req.path is relative to the middleware's mount point; the original URL is not.
    const path = pathOfUrl(req.originalUrl);
    if (isPublicPath(path)) return next();
    if (isConsolePath(path)) {
      if (!this.surfaces.console || !this.sessions) throw new AppError(ErrorCode.notFound, 'No such route.');
      // The console's pages, when no built UI answered them: no route.
      if (!isConsoleApiPath(path)) throw new AppError(ErrorCode.notFound, 'No such route.');
      req.state.surface = 'console';
      await this.authenticateSession(req, path, this.sessions);
    } else {
      if (!this.surfaces.api) throw new AppError(ErrorCode.notFound, 'No such route.');
      req.state.surface = 'api';
      await this.authenticate(req);
    }
    parseBody(req, res, next);
  }

  /**
   * The session the cookie names. Signing in (`POST /console/api/session`) needs none and ignores
   * any cookie it is sent (it always starts a new session); every other console route needs one.
   */
  private async authenticateSession(req: AppRequest, path: string, sessions: ConsoleSessionAuthenticator): Promise<void> {
    if (req.method === 'POST' && path === `${CONSOLE_API_PATH}/session`) return;
    const session = await sessions.authenticate(req.headers.cookie);
    if (!session) throw AppError.noConsoleSession();
    req.state.console = session;
  }

  private async authenticate(req: AppRequest): Promise<void> {
    // A key in the URL has leaked already; refuse it rather than let it work.
    const header = req.headers.authorization;
    const match = typeof header === 'string' && !queryCarriesKey(req) ? BEARER.exec(header) : null;
    const auth = match ? await this.authenticator.authenticate(match[1]) : null;
    if (!auth) {
      await this.failedAuthentication.count(req);
      throw AppError.unauthenticated();
    }
    req.state.auth = auth;
  }
}

function assignRequestId(req: AppRequest, res: Response): void {
  // The request logger assigns the id first when it runs; otherwise it is made here.
  const logged = (req as unknown as { id?: unknown }).id;
  const requestId = typeof logged === 'string' && logged.startsWith('req_') ? logged : newRequestId();
  req.state = { requestId };
  if (requestId !== logged) res.setHeader('X-Request-Id', requestId);
}

/**
 * A body that is not valid UTF-8 is refused rather than decoded with replacement characters
 * (which would store `a��b` for `a\xff\xfeb`); checked on the raw bytes before parsing.
 */
function requireUtf8(_req: unknown, _res: unknown, raw: Buffer): void {
  if (!isUtf8(raw)) throw Object.assign(new Error('The request body is not valid UTF-8.'), { status: 400, type: 'invalid_utf8' });
}

const parseJson = express.json({ limit: MAX_BODY_BYTES, type: () => true, strict: false, verify: requireUtf8 });
const BODY_METHODS = new Set(['POST', 'PATCH', 'PUT']);

function parseBody(req: AppRequest, res: Response, next: NextFunction): void {
  if (!BODY_METHODS.has(req.method)) return next();
  // No body at all (an action such as rotate-secret): nothing to parse; a route that needs one says so.
  const json = req.is('application/json');
  if (json === null || (!json && req.headers['content-length'] === '0' && !req.headers['content-type'])) return next();
  if (!json) {
    req.state.bodyError = { status: 415, type: 'content_type' };
    // Drain the body so the connection can be reused.
    req.resume();
    return next();
  }
  parseJson(req, res, (error?: { status?: number; type?: string }) => {
    if (error) req.state.bodyError = { status: error.status ?? 400, type: error.type };
    next();
  });
}
