import { DynamicModule, LoggerService } from '@nestjs/common';
import { LoggerModule, Params } from 'nestjs-pino';
import pino, { DestinationStream } from 'pino';
import type { Options } from 'pino-http';
import { redactSecrets } from '../domain/secrets';
import { APP_CONFIG, AppConfig } from '../../config/config';

const asIs = (value: unknown): unknown => value;

/**
 * Where a process's lines go when no destination is given: stdout, each line written as it is
 * logged, with one synchronous write (`pino.destination({ sync: true })`, pino's documented
 * synchronous mode). pino's default destination writes asynchronously, through libuv's thread
 * pool: every write wakes a pool thread and then the event loop again, which on a small API
 * answer cost more CPU than building the line (docs/performance.md). A synchronous line is also
 * never lost in a crash. It waits only while stdout's reader does not read at all.
 */
function stdoutDestination(): DestinationStream {
  return pino.destination({ dest: 1, sync: true });
}

/**
 * What every process logs with (nestjs-pino on pino): structured JSON lines at `LOG_LEVEL`, or
 * readable lines through pino-pretty when stdout is a terminal and no other destination is given.
 */
export function processLogOptions(config: AppConfig, destination?: DestinationStream): Options {
  const pretty = !destination && process.stdout.isTTY;
  return {
    level: config.logLevel,
    // The request line's `req` and `res` are logged as the API builds them (RequestLogMiddleware),
    // not through pino-http's serializers for Node's request and response objects.
    wrapSerializers: false,
    serializers: { req: asIs, res: asIs },
    // The last guard for secrets: whatever a line carries (a URL, a header, an error message),
    // a key or signing secret in it — as sent or percent-encoded — is written as `[redacted]`.
    hooks: { streamWrite: redactSecrets },
    ...(pretty ? { transport: { target: 'pino-pretty', options: { singleLine: true } } } : {}),
  };
}

/**
 * The options and the stream a process logs with: `destination` when given (tests read it), else
 * pino-pretty's transport on a terminal (no stream of ours), else stdout (`stdoutDestination`).
 */
function processLogStream(config: AppConfig, destination?: DestinationStream): [Options, DestinationStream | undefined] {
  const options = processLogOptions(config, destination);
  return [options, destination ?? (options.transport ? undefined : stdoutDestination())];
}

/**
 * The logging module of a process: nestjs-pino's `Logger` and `PinoLogger` on one pino logger,
 * writing to `destination` (stdout when omitted; tests read it). Nest's own lines go through it
 * once the application calls `app.useLogger(app.get(Logger))`. nestjs-pino's automatic request
 * logging is not mounted (`forRoutes: []`): the HTTP API writes its own request line through the
 * same logger (`RequestLogMiddleware`).
 */
export function loggingModule(destination?: DestinationStream): DynamicModule {
  return LoggerModule.forRootAsync({
    inject: [APP_CONFIG],
    useFactory: (config: AppConfig): Params => {
      const [options, stream] = processLogStream(config, destination);
      return { pinoHttp: stream ? [options, stream] : options, forRoutes: [] };
    },
  });
}

/**
 * The lines a process writes before its application (and nestjs-pino's logger) exists — applied
 * migrations, configuration warnings — through pino with the same options, so that they too are
 * JSON when stdout is not a terminal (install with `Logger.overrideLogger`; the application's
 * logger replaces it once it is up).
 */
export function startupLogger(config: AppConfig): LoggerService {
  const [{ level, hooks, transport }, stream] = processLogStream(config);
  const logger = pino({ level, hooks, transport }, stream);
  const line = (write: (object: object, message: string) => void) => (message: unknown, context?: unknown) =>
    write({ context: typeof context === 'string' ? context : undefined }, String(message));
  return {
    log: line((object, message) => logger.info(object, message)),
    warn: line((object, message) => logger.warn(object, message)),
    error: line((object, message) => logger.error(object, message)),
    debug: line((object, message) => logger.debug(object, message)),
    verbose: line((object, message) => logger.trace(object, message)),
  };
}
