import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Options } from 'pino-http';
import { formatId, ID_PREFIXES } from '../../domain/ids';
import { AppRequest } from './request-context';
import { newRequestId } from './request-id';

const SECRET_IN_URL = /((?:api_?key|key|access_token|token)=)[^&#]*|svc_live_[0-9A-Za-z]*/gi;

/** A URL fit for logs: credential parameters and anything key-shaped replaced by `[redacted]`. */
export function redactUrl(url: string | undefined): string {
  return (url ?? '').replace(SECRET_IN_URL, (_match, name?: string) => (name ? `${name}[redacted]` : '[redacted]'));
}

const REDACTED_HEADERS = new Set(['authorization', 'cookie', 'x-api-key']);

/** The request's headers as logged: credentials and cookies replaced by `[redacted]`. */
export function loggedHeaders(headers: IncomingMessage['headers']): Record<string, unknown> {
  const logged: Record<string, unknown> = {};
  for (const name in headers) logged[name] = REDACTED_HEADERS.has(name) ? '[redacted]' : headers[name];
  return logged;
}

/** Probes and metric scrapes, which would drown the requests that matter. */
const PROBES = /^\/(health\/|metrics(?:[/?]|$))/;

type LoggedRequest = IncomingMessage & { originalUrl?: string };

/** pino-http's view of a request, as its serializers receive it. */
interface SerializedRequest {
  id: unknown;
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  remoteAddress?: string;
}

/**
 * The request log of the HTTP API (pino-http, through nestjs-pino): one line per finished request
 * — `req` (its id, method, URL and headers, credentials redacted, and the client's address),
 * `res.statusCode`, `responseTime` and, once the key is known, `workspace_id`; "request
 * completed", "request aborted" when the client went away first, or "request errored" with an
 * `err` for a 5xx. Health probes and metric scrapes get their request id but no line. The
 * request id (`req_…`) is given here, as the first thing a request gets, and sent back as
 * `X-Request-Id` on every response.
 */
export function requestLogOptions(): Options<LoggedRequest, ServerResponse> {
  return {
    genReqId: (_req, res) => {
      const id = newRequestId();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    autoLogging: { ignore: (req) => PROBES.test(req.originalUrl ?? req.url ?? '') },
    customProps: (req) => {
      const auth = (req as unknown as AppRequest).state?.auth;
      return auth ? { workspace_id: formatId(ID_PREFIXES.workspace, auth.workspaceId) } : {};
    },
    customSuccessMessage: (_req, res) => (res.writableFinished ? 'request completed' : 'request aborted'),
    customErrorMessage: () => 'request errored',
    serializers: {
      req: (req: SerializedRequest) => ({
        id: req.id,
        method: req.method,
        url: redactUrl(req.url),
        headers: loggedHeaders(req.headers),
        remoteAddress: req.remoteAddress,
      }),
      // Response headers are not logged (they may carry cookies).
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  };
}
