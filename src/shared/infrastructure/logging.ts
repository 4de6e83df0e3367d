import { DynamicModule } from '@nestjs/common';
import { LoggerModule, Params } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import type { Options } from 'pino-http';
import { redactSecrets } from '../domain/secrets';
import { APP_CONFIG, AppConfig } from '../../config/config';

const asIs = (value: unknown): unknown => value;

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
 * The logging module of a process: nestjs-pino's `Logger` and `PinoLogger` on one pino logger,
 * writing to `destination` (stdout when omitted; tests read it). Nest's own lines go through it
 * once the application calls `app.useLogger(app.get(Logger))`. nestjs-pino's automatic request
 * logging is not mounted (`forRoutes: []`): the HTTP API writes its own request line through the
 * same logger (`RequestLogMiddleware`).
 */
export function loggingModule(destination?: DestinationStream): DynamicModule {
  return LoggerModule.forRootAsync({
    inject: [APP_CONFIG],
    useFactory: (config: AppConfig): Params => ({
      pinoHttp: [processLogOptions(config, destination), destination as DestinationStream],
      forRoutes: [],
    }),
  });
}
