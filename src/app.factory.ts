import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { Logger } from 'nestjs-pino';
import { ApiExpressAdapter } from './shared/interface/http/api-express.adapter';
import { newRequestId } from './shared/interface/http/request-id';
import { APP_CONFIG, AppConfig, ConfigError } from './config/config';
import { consoleUi } from './modules/console/console-ui';
import { CONSOLE_PATH, HTTP_SURFACES, HttpSurfaces } from './shared/interface/http/request-context';
import { AppModule } from './app.module';
import { setupOpenApi } from './openapi';

/**
 * Requests Node's HTTP parser refuses before Express sees them (a request line or headers over
 * 16 KiB, malformed framing) still get the error envelope (400 validation_error, param
 * `headers`) and a request id.
 */
function answerUnparsableRequests(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const requestId = newRequestId();
    const body = JSON.stringify({
      error: {
        code: 'validation_error',
        message: tooLarge ? 'The request line or headers are too large.' : 'The request is malformed.',
        request_id: requestId,
        param: 'headers',
      },
    });
    socket.end(
      // 400 rather than 431: the API documents its statuses, and this is a bad request like any other.
      `HTTP/1.1 400 Bad Request\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

/** Express settings every instance of the API needs, in production and in tests alike. */
export function configureApp(app: INestApplication): INestApplication {
  // Every log line, framework's included, goes through the structured logger.
  app.useLogger(app.get(Logger));
  const express = app as NestExpressApplication;
  express.disable('x-powered-by');
  // No ETag: it would hash every body (pages run to 100 KB and more) for a header the API does not document.
  express.set('etag', false);
  // One string per query parameter name; a repeated name becomes an array and is rejected.
  express.set('query parser', 'simple');
  answerUnparsableRequests(app.getHttpServer() as Server);
  const config = app.get<AppConfig>(APP_CONFIG);
  // How many proxies to believe about the client's address and protocol (`req.ip`, `req.secure`).
  express.set('trust proxy', config.trustProxyHops);
  const surfaces = app.get<HttpSurfaces>(HTTP_SURFACES);
  // The console's pages, before Nest's middleware (which it mounts at init); `/console/api/…` passes on to Nest.
  if (surfaces.console) express.use(CONSOLE_PATH, consoleUi(config.console.uiDirectory ?? undefined));
  // Registered before the middleware (which Nest mounts at init), and listed in PUBLIC_PATHS too.
  if (surfaces.api) setupOpenApi(app);
  return app;
}

const DRAIN_TIMEOUT_MS = 25_000;

/**
 * Orderly stop on SIGTERM/SIGINT: let the requests in flight finish (answering with
 * `Connection: close`), stop listening once no request has run for a moment, and only then close
 * the application —
 * its database pool, queues and workers — so no request in flight loses its connections.
 */
const QUIET_MS = 250;

export function drainOnSignals(app: INestApplication, logger: { log(message: string): void }): void {
  let stopping = false;
  let active = 0;
  const server = app.getHttpServer() as Server;
  server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    active += 1;
    // While draining, every response asks its client to close the connection.
    if (stopping) res.setHeader('Connection', 'close');
    res.once('close', () => (active -= 1));
  });
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal}: finishing requests in flight, then stopping`);
    // Keep serving until no request has been running for a short quiet spell: closing the
    // listener at once would also reset connections whose request is still on its way in.
    const deadline = Date.now() + DRAIN_TIMEOUT_MS;
    let quietSince = Date.now();
    while (Date.now() < deadline) {
      if (active > 0) quietSince = Date.now();
      else if (Date.now() - quietSince >= QUIET_MS) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    server.close();
    server.closeAllConnections();
    await app.close();
    process.exit(0);
  };
  process.once('SIGTERM', (signal) => void stop(signal));
  process.once('SIGINT', (signal) => void stop(signal));
}

/**
 * The API application; the body parser is ours (see RequestPipelineMiddleware, which parses only
 * once the key is known), so Nest's is off.
 */
export async function createApp(config: AppConfig, surfaces?: HttpSurfaces): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, undefined, surfaces), new ApiExpressAdapter(), {
    bodyParser: false,
    bufferLogs: true,
  });
  return configureApp(app);
}

/** How an HTTP entry point (the API, the console) ends when it cannot start: the reason on stderr, exit 1. */
export function exitOnStartupFailure(error: unknown): never {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error('Start-up failed:', error instanceof Error ? error.message : error);
  }
  process.exit(1);
}
