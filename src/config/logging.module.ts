import { DynamicModule, Global, Inject, Injectable, LoggerService, Module, NestMiddleware } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { Level, Logger as Pino } from 'pino';
import { formatId, ID_PREFIXES } from '../shared/domain/ids';
import { AppRequest } from '../shared/interface/http/request-context';
import { newRequestId } from '../shared/interface/http/request-id';
import { APP_CONFIG, AppConfig } from './config';

const SECRET_IN_URL = /((?:api_?key|key|access_token|token)=)[^&#]*|svc_live_[0-9A-Za-z]*/gi;

/** A URL fit for logs: credential parameters and anything key-shaped replaced by `[redacted]`. */
export function redactUrl(url: string | undefined): string {
  return (url ?? '').replace(SECRET_IN_URL, (_match, name?: string) => (name ? `${name}[redacted]` : '[redacted]'));
}

/** The process's one pino logger; every line, the framework's included, goes through it. */
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');
/** The request logger (`createHttpLogger`): one line per finished request. */
export const HTTP_LOGGER = Symbol('HTTP_LOGGER');

const PROBES = /^\/(health\/|metrics(?:[/?]|$))/;

/**
 * Probes and metric scrapes, which would drown the requests that matter. The original URL: in a
 * middleware Nest mounts, `req.url` is relative to the mount point.
 */
function isProbe(req: IncomingMessage): boolean {
  return PROBES.test((req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '');
}

const REDACTED_HEADERS = new Set(['authorization', 'cookie', 'x-api-key']);

/** The request's headers as logged: credentials and cookies replaced by `[redacted]`. */
export function loggedHeaders(headers: IncomingMessage['headers']): Record<string, unknown> {
  const logged: Record<string, unknown> = {};
  for (const name in headers) logged[name] = REDACTED_HEADERS.has(name) ? '[redacted]' : headers[name];
  return logged;
}

type LoggedRequest = IncomingMessage & { id?: string; originalUrl?: string };

function workspaceOf(req: IncomingMessage): string | undefined {
  const auth = (req as AppRequest).state?.auth;
  return auth ? formatId(ID_PREFIXES.workspace, auth.workspaceId) : undefined;
}

/** What a finished request reports to those watching (the metrics): its time in seconds. */
export type FinishedRequestListener = (req: IncomingMessage, res: ServerResponse, seconds: number) => void;

/** The request logger: a middleware, and the root logger its lines are written through. */
export interface HttpLogger {
  (req: IncomingMessage, res: ServerResponse, next: () => void): void;
  readonly logger: Pino;
  /**
   * Calls `listener` for every request whose response was sent in full, probes included, from
   * the one listener the request has anyway.
   */
  onFinished(listener: FinishedRequestListener): void;
}

/** The request as logged: credentials left out of its URL and headers. */
function loggedRequest(req: LoggedRequest, remoteAddress: string | undefined): Record<string, unknown> {
  return {
    id: req.id,
    method: req.method,
    url: redactUrl(req.originalUrl ?? req.url),
    headers: loggedHeaders(req.headers),
    remoteAddress,
  };
}

/** pino's own state, read once: the stream it writes to, and what it puts after `time` on every line. */
interface PinoInternals {
  stream: NodeJS.WritableStream;
  bindings: string;
  level: number;
}

function pinoInternals(logger: Pino): PinoInternals {
  const internal = logger as unknown as Record<symbol, unknown>;
  return {
    stream: internal[pino.symbols.streamSym] as NodeJS.WritableStream,
    bindings: internal[pino.symbols.chindingsSym] as string,
    level: logger.levels.values.info,
  };
}

/**
 * The line of a request that completed, as pino writes it — `level`, `time`, its bindings
 * (`pid`, `hostname`), the fields, `msg` — but serialised by `JSON.stringify` in one call rather
 * than by pino field by field: the line every request pays for, at a third of the cost.
 */
function completedLine(pinoState: PinoInternals, fields: Record<string, unknown>): string {
  const body = JSON.stringify(fields);
  return `{"level":${pinoState.level},"time":${Date.now()}${pinoState.bindings},${body.slice(1, -1)},"msg":"request completed"}\n`;
}

/** The line of a finished (or abandoned) request. */
function logFinished(
  logger: Pino,
  direct: PinoInternals | null,
  req: LoggedRequest,
  res: ServerResponse,
  remoteAddress: string | undefined,
  milliseconds: number,
): void {
  const fields: Record<string, unknown> = {
    req: loggedRequest(req, remoteAddress),
    res: { statusCode: res.statusCode },
    responseTime: Math.round(milliseconds),
  };
  const workspace = workspaceOf(req);
  if (workspace) fields.workspace_id = workspace;
  if (res.statusCode >= 500) {
    fields.err = new Error(`failed with status code ${res.statusCode}`);
    logger.info(fields, 'request errored');
  } else if (!res.writableFinished) {
    logger.info(fields, 'request aborted');
  } else if (direct) {
    direct.stream.write(completedLine(direct, fields));
  } else {
    logger.info(fields, 'request completed');
  }
}

/**
 * Structured JSON request logs: one line per request with its request id and workspace id;
 * `Authorization`, `X-Api-Key` and cookies are redacted and so are credentials in URLs. Lines are
 * written to `destination`, or to stdout (readable lines when stdout is a terminal).
 *
 * The line is pino-http's (`req`, `res`, `responseTime`, `msg` "request completed" or "request
 * errored" with an `err` for a 5xx), written by a few lines of our own on pino because every
 * request pays for it: pino-http builds two child loggers per request and serialises the request
 * when it arrives, so that it is held, serialised, for as long as the request waits on Redis and
 * PostgreSQL, and adds three listeners to each response. Here a request gets its id, one `close`
 * listener and nothing else until it has finished; then its line is built and written. The
 * workspace id is only known then anyway. The line of a request that completed — nearly every
 * line — is serialised in one `JSON.stringify` and written to pino's stream as pino would write
 * it (`completedLine`); the others go through pino. Through a terminal's readable transport every
 * line goes through pino.
 *
 * The same `close` listener reports finished requests to the metrics (`onFinished`), so that a
 * request carries one listener for both.
 *
 * No per-request async context: apart from this line, only the exception filter logs about a
 * request, and it names the request id itself.
 */
export function createHttpLogger(config: AppConfig, destination?: NodeJS.WritableStream): HttpLogger {
  // People reading a terminal get readable lines; pipes and files get JSON.
  const pretty = !destination && process.stdout.isTTY ? { transport: { target: 'pino-pretty', options: { singleLine: true } } } : {};
  const logger = pino(
    { level: config.logLevel, ...pretty, serializers: { err: pino.stdSerializers.err } },
    destination as pino.DestinationStream | undefined,
  );
  const direct = 'transport' in pretty ? null : pinoInternals(logger);
  const listeners: FinishedRequestListener[] = [];
  const finished = (req: LoggedRequest, res: ServerResponse, remoteAddress: string | undefined, started: number, log: boolean): void => {
    const milliseconds = performance.now() - started;
    if (res.writableFinished) for (const listener of listeners) listener(req, res, milliseconds / 1000);
    if (log) logFinished(logger, direct, req, res, remoteAddress, milliseconds);
  };
  const middleware = (req: LoggedRequest, res: ServerResponse, next: () => void): void => {
    const id = newRequestId();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    const log = !isProbe(req) && logger.isLevelEnabled('info');
    if (log || listeners.length > 0) {
      const started = performance.now();
      const remoteAddress = log ? req.socket?.remoteAddress : undefined;
      // `close` follows `finish`, and comes alone when the client went away first; it comes once.
      res.on('close', () => finished(req, res, remoteAddress, started, log));
    }
    next();
  };
  return Object.assign(middleware, { logger, onFinished: (listener: FinishedRequestListener) => void listeners.push(listener) });
}

/**
 * Nest's `LoggerService` on pino. Nest calls `log(message, context)` and
 * `error(message, stack, context)`; an object message becomes the line's fields.
 */
@Injectable()
export class AppLogger implements LoggerService {
  constructor(@Inject(ROOT_LOGGER) private readonly pino: Pino) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const rest = [...params];
    const context = rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? (rest.pop() as string) : undefined;
    const extra = rest.find((value): value is string => typeof value === 'string');
    const fields: Record<string, unknown> = context ? { context } : {};
    if (message instanceof Error) {
      this.pino[level]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.pino[level]({ ...fields, ...(message as Record<string, unknown>) }, extra ?? '');
    } else {
      // error(message, stack, context): the stack belongs to the line.
      this.pino[level](extra ? { ...fields, stack: extra } : fields, String(message));
    }
  }
}

/** Writes the request's log line when it finishes; first in the middleware chain. */
@Injectable()
export class RequestLogMiddleware implements NestMiddleware {
  constructor(@Inject(HTTP_LOGGER) private readonly http: HttpLogger) {}

  use(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    this.http(req, res, next);
  }
}

@Global()
@Module({})
export class LoggingModule {
  /** `destination`: where log lines go (stdout when omitted). */
  static forRoot(destination?: NodeJS.WritableStream): DynamicModule {
    return {
      module: LoggingModule,
      providers: [
        { provide: HTTP_LOGGER, inject: [APP_CONFIG], useFactory: (config: AppConfig) => createHttpLogger(config, destination) },
        { provide: ROOT_LOGGER, inject: [HTTP_LOGGER], useFactory: (http: HttpLogger) => http.logger },
        AppLogger,
        RequestLogMiddleware,
      ],
      exports: [HTTP_LOGGER, ROOT_LOGGER, AppLogger, RequestLogMiddleware],
    };
  }
}
