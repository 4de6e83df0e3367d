import { NestApplicationOptions, StreamableFile } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express, Response } from 'express';
import { createServer, IncomingMessage, ServerOptions, ServerResponse } from 'node:http';

type MessageClasses = Required<Pick<ServerOptions, 'IncomingMessage' | 'ServerResponse'>>;

/**
 * The request and response classes for `app`'s HTTP server: each constructs Node's message as
 * usual (`Reflect.construct` with its own `new.target`), but on the prototype Express gives this
 * application's requests and responses (`app.request`, `app.response`, Express's documented
 * per-application extension points, which inherit from Node's). Express sets those prototypes on
 * every request it handles (`Object.setPrototypeOf`); on a message created with them already it
 * changes nothing, and V8 keeps its fast object shapes instead of treating every request and
 * response as a new kind of object: on this service that was about half of a small request's
 * CPU time (docs/performance.md).
 */
export function expressMessageClasses(app: Express): MessageClasses {
  function ApiRequest(this: unknown, ...args: unknown[]): object {
    return Reflect.construct(IncomingMessage, args, new.target) as object;
  }
  ApiRequest.prototype = app.request;
  function ApiResponse(this: unknown, ...args: unknown[]): object {
    return Reflect.construct(ServerResponse, args, new.target) as object;
  }
  ApiResponse.prototype = app.response;
  return { IncomingMessage: ApiRequest, ServerResponse: ApiResponse } as unknown as MessageClasses;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Nest's Express adapter (its documented extension point for HTTP platforms) with two
 * differences, both through public API:
 * - its HTTP server creates requests and responses with `expressMessageClasses` (Node's
 *   `createServer` options); HTTPS and forced connection closing, which the API does not use,
 *   keep Nest's own server;
 * - a handler's JSON answer is serialised once and ended with its length (`reply`). Express's
 *   `res.json` writes the same bytes and headers, but on the way it looks up its settings, parses
 *   and rebuilds the Content-Type it has just set, copies a body over 1,000 characters into a
 *   Buffer to measure it and checks freshness against validators the API never sends. Anything
 *   else (no body, 204/205/304, a stream, a buffer, a Content-Type a handler chose) goes Express's
 *   way.
 */
export class ApiExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    if (options?.httpsOptions || options?.forceCloseConnections) return super.initHttpServer(options);
    const app = this.getInstance<Express>();
    this.setHttpServer(createServer(expressMessageClasses(app), app));
  }

  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    const status = statusCode ?? response.statusCode;
    if (
      body === null ||
      typeof body !== 'object' ||
      body instanceof StreamableFile ||
      ArrayBuffer.isView(body) ||
      status === 204 ||
      status === 205 ||
      status === 304 ||
      response.hasHeader('Content-Type')
    ) {
      return super.reply(response, body, statusCode);
    }
    const json = JSON.stringify(body);
    response.statusCode = status;
    response.setHeader('Content-Type', JSON_TYPE);
    response.setHeader('Content-Length', Buffer.byteLength(json));
    return response.req.method === 'HEAD' ? response.end() : response.end(json);
  }
}
