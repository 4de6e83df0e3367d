import { INestApplication, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Logger as PinoLogger } from 'nestjs-pino';
import { AppConfig } from './config/config';
import { AppModule } from './app.module';

const LOG_LEVELS: Record<AppConfig['logLevel'], LogLevel[]> = {
  silent: [],
  fatal: ['fatal'],
  error: ['fatal', 'error'],
  warn: ['fatal', 'error', 'warn'],
  info: ['fatal', 'error', 'warn', 'log'],
  debug: ['fatal', 'error', 'warn', 'log', 'debug'],
  trace: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'],
};

export function nestLogLevels(config: AppConfig): LogLevel[] {
  return LOG_LEVELS[config.logLevel];
}

/** Express settings every instance of the API needs, in production and in tests alike. */
export function configureApp(app: INestApplication): INestApplication {
  const express = app as NestExpressApplication;
  express.disable('x-powered-by');
  // One string per query parameter name; a repeated name becomes an array and is rejected.
  express.set('query parser', 'simple');
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  return app;
}

/** The API application; the body parser is ours (see JsonBodyMiddleware), so Nest's is off. */
export async function createApp(config: AppConfig): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bodyParser: false,
    bufferLogs: true,
  });
  // Every log line, framework's included, goes through the structured logger.
  app.useLogger(app.get(PinoLogger));
  return configureApp(app);
}
