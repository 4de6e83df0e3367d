/**
 * The stack's floor: `GET /health/live` answering `{"status":"ok"}` with nothing else to do, on
 * each layer of the API's stack in turn, so the benchmark can say what a request costs before the
 * API does any work of its own:
 *
 *   node-http                bare `node:http`, as the baseline
 *   express                  Express 5 as the API configures it (no ETag, no X-Powered-By)
 *   nest                     NestJS on Express as the API runs it, one controller, nothing global
 *   nest-guards              the same with two global guards that do nothing (the API has two
 *                            on every route: the rate limit and the auth guard)
 *
 * Environment: FLOOR_STACK (one of the above), PORT.
 */
import 'reflect-metadata';
import { CanActivate, Controller, Get, Injectable, Module, Provider } from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import { createServer } from 'node:http';

export const FLOOR_STACKS = ['node-http', 'express', 'nest', 'nest-guards'] as const;
export type FloorStack = (typeof FLOOR_STACKS)[number];

const LIVE = { status: 'ok' };

@Controller('health')
class LiveController {
  @Get('live')
  live(): typeof LIVE {
    return LIVE;
  }
}

@Injectable()
class PassGuard implements CanActivate {
  canActivate(): boolean {
    return true;
  }
}

@Injectable()
class SecondPassGuard extends PassGuard {}

function nestModule(providers: Provider[]) {
  @Module({ controllers: [LiveController], providers })
  class FloorModule {}
  return FloorModule;
}

async function listen(stack: FloorStack, port: number): Promise<void> {
  switch (stack) {
    case 'node-http': {
      const body = JSON.stringify(LIVE);
      const headers = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) };
      createServer((req, res) => {
        if (req.url === '/health/live') res.writeHead(200, headers).end(body);
        else res.writeHead(404).end();
      }).listen(port, '127.0.0.1');
      return;
    }
    case 'express': {
      const app = express();
      app.disable('x-powered-by');
      app.set('etag', false);
      app.get('/health/live', (_req, res) => void res.json(LIVE));
      createServer(app).listen(port, '127.0.0.1');
      return;
    }
    case 'nest':
    case 'nest-guards': {
      const global: Provider[] =
        stack === 'nest'
          ? []
          : [
              { provide: APP_GUARD, useClass: PassGuard },
              { provide: APP_GUARD, useClass: SecondPassGuard },
            ];
      const app = await NestFactory.create<NestExpressApplication>(nestModule(global), {
        logger: false,
        bodyParser: false,
      });
      app.disable('x-powered-by');
      app.set('etag', false);
      await app.listen(port, '127.0.0.1');
      return;
    }
  }
}

function main(): void {
  const stack = process.env.FLOOR_STACK as FloorStack;
  if (!FLOOR_STACKS.includes(stack)) throw new Error(`FLOOR_STACK must be one of ${FLOOR_STACKS.join(', ')}`);
  const port = Number(process.env.PORT);
  listen(stack, port).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
  process.once('SIGTERM', () => process.exit(0));
}

if (require.main === module) main();
