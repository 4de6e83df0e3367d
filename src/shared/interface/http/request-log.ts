import { Injectable, NestMiddleware } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { formatId, ID_PREFIXES } from '../../domain/ids';
import { REDACTED, redactSecrets } from '../../domain/secrets';
import { AppRequest } from './request-context';
import { newRequestId } from './request-id';

const CREDENTIAL_PARAMETER = /((?:api_?key|key|access_token|token|password|passwd|pwd|secret|client_secret)=)[^&#]*/gi;

/**
 * A URL fit for logs: the values of credential parameters, and anything that is or decodes to a
 * key or secret, replaced by `[redacted]`. (Every log line is also redacted as it is written —
 * `processLogOptions` — so this is the URL's own rule, not the only guard.)
 */
export function redactUrl(url: string | undefined): string {
  return redactSecrets((url ?? '').replace(CREDENTIAL_PARAMETER, `$1${REDACTED}`));
}

/**
 * The request headers a line carries: what tells clients and payloads apart. Credentials, cookies
 * and the rest are not logged at all, so nothing has to be redacted from them.
 */
const LOGGED_HEADERS = ['user-agent', 'content-type', 'content-length', 'x-forwarded-for'] as const;

/** The request's headers as logged: the few in LOGGED_HEADERS that it has. */
export function loggedHeaders(headers: IncomingMessage['headers']): Record<string, unknown> {
  const logged: Record<string, unknown> = {};
  for (const name of LOGGED_HEADERS) if (headers[name] !== undefined) logged[name] = headers[name];
  return logged;
}

/** Probes and metric scrapes, which would drown the requests that matter. */
const PROBES = /^\/(health\/|metrics(?:[/?]|$))/;

type LoggedRequest = AppRequest & { id?: string };

/**
 * The request's way in: it gets its id (`req_…`, sent back as `X-Request-Id` on every response
 * and used in every error envelope), and when it is over one JSON line is written through the
 * process's pino logger (nestjs-pino's root): `req` (id, method, URL with credentials
 * redacted, a few headers and the client's address), `res.statusCode`, `responseTime` in ms and, once the key is
 * known, `workspace_id`; "request completed", "request aborted" when the client went away first,
 * or "request errored" with an `err` for a 5xx. Health probes and metric scrapes get their id but
 * no line.
 *
 * The line is built once the request is over, through pino's public API, rather than by
 * pino-http, which makes two child loggers per request and serialises the request when it
 * arrives: on a small answer that cost a third of the API's CPU time (docs/performance.md).
 */
@Injectable()
export class RequestLogMiddleware implements NestMiddleware {
  constructor(private readonly pino: PinoLogger) {}

  use(req: LoggedRequest, res: ServerResponse, next: () => void): void {
    const id = newRequestId();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    const url = req.originalUrl ?? req.url ?? '';
    const logger = this.pino.logger;
    if (!PROBES.test(url) && logger.isLevelEnabled('info')) {
      const started = performance.now();
      // `close` follows `finish`, and comes alone when the client went away first; it comes once.
      res.once('close', () => {
        const fields: Record<string, unknown> = {
          req: {
            id,
            method: req.method,
            url: redactUrl(url),
            headers: loggedHeaders(req.headers),
            remoteAddress: req.socket?.remoteAddress,
          },
          res: { statusCode: res.statusCode },
          responseTime: Math.round(performance.now() - started),
        };
        const workspaceId = req.state?.auth?.workspaceId ?? req.state?.console?.workspaceId;
        if (workspaceId) fields.workspace_id = formatId(ID_PREFIXES.workspace, workspaceId);
        if (req.state?.console) fields.console_user_id = req.state.console.userId;
        if (res.statusCode >= 500) {
          fields.err = new Error(`failed with status code ${res.statusCode}`);
          logger.info(fields, 'request errored');
        } else {
          logger.info(fields, res.writableFinished ? 'request completed' : 'request aborted');
        }
      });
    }
    next();
  }
}
