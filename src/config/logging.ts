import { DynamicModule } from '@nestjs/common';
import { LoggerModule, Params } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import type { Options } from 'pino-http';
import { APP_CONFIG, AppConfig } from './config';

/**
 * What every process logs with (nestjs-pino on pino): structured JSON lines at `LOG_LEVEL`, or
 * readable lines through pino-pretty when stdout is a terminal and no other destination is given.
 */
export function processLogOptions(config: AppConfig, destination?: DestinationStream): Options {
  const pretty = !destination && process.stdout.isTTY;
  return {
    level: config.logLevel,
    ...(pretty ? { transport: { target: 'pino-pretty', options: { singleLine: true } } } : {}),
  };
}

/**
 * The logging module of a process: `options` adds to the process's options (the HTTP API adds
 * its request log, see `requestLogOptions`); `destination` replaces stdout (tests read it).
 * Nest's own lines go through it once the application calls `app.useLogger(app.get(Logger))`.
 */
export function loggingModule(options: (config: AppConfig) => Options = () => ({}), destination?: DestinationStream): DynamicModule {
  return LoggerModule.forRootAsync({
    inject: [APP_CONFIG],
    useFactory: (config: AppConfig): Params => ({
      pinoHttp: [{ ...processLogOptions(config, destination), ...options(config) }, destination as DestinationStream],
    }),
  });
}
