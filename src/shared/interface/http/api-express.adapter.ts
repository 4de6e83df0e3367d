import { NestApplicationOptions, StreamableFile } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express, Response } from 'express';
import { createServer, IncomingMessage, ServerOptions, ServerResponse } from 'node:http';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Makes `target` what `source` is: the same prototype and the same own properties. */
function takeOver(target: object, source: object): void {
  Object.setPrototypeOf(target, Object.getPrototypeOf(source));
  Object.defineProperties(target, Object.getOwnPropertyDescriptors(source));
}

/**
 * Request and response classes for the HTTP server whose prototypes are the ones Express gives
 * this application's requests and responses, so that the server creates them as Express wants
 * them. Express otherwise moves every request and response it receives onto those prototypes
 * (`Object.setPrototypeOf`), and V8 then keeps each request's and response's whole object graph
 * — Express's and Nest's per-request closures, headers, listeners — through young-generation
 * collections until a full collection: under load nearly everything a request allocated was
 * copied and promoted to the old generation, which then had to be marked and swept. With the
 * prototypes already in place Express's call changes nothing. `app.request` and `app.response`
 * are re-pointed at the new prototypes, which carry what the old ones carried.
 */
export function expressMessageClasses(app: Express): ServerOptions {
  class ApiIncomingMessage extends IncomingMessage {}
  class ApiServerResponse extends ServerResponse<ApiIncomingMessage> {}
  takeOver(ApiIncomingMessage.prototype, app.request);
  takeOver(ApiServerResponse.prototype, app.response);
  app.request = ApiIncomingMessage.prototype as Express['request'];
  app.response = ApiServerResponse.prototype as Express['response'];
  return { IncomingMessage: ApiIncomingMessage, ServerResponse: ApiServerResponse as unknown as ServerOptions['ServerResponse'] };
}

/**
 * Express as Nest drives it, with two differences. Its HTTP server creates requests and
 * responses on Express's prototypes (see `expressMessageClasses`). And a handler's JSON answer is
 * written directly: serialised once, measured with `Buffer.byteLength` and handed to `end` as a
 * string. Express's `res.json` produces the same bytes and headers, but on the way it looks up
 * four settings, parses and rebuilds the Content-Type it has just set, copies any body over 1,000
 * characters into a Buffer to measure it, and checks the request's freshness against validators
 * the API never sends: about 5 % of a small request. Anything else (no body, a 204, a stream, a
 * buffer, a response whose Content-Type a handler has chosen) goes Express's way as before.
 *
 * The JSON answers of one turn of the event loop are ended together, at its end (see
 * `endThisTurn`): status and headers are set at once, the body is written after the turn's
 * other callbacks have run.
 */
export class ApiExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    // HTTPS and forced connection closing stay as Nest sets them up; the API uses neither.
    if (options?.httpsOptions || options?.forceCloseConnections) return super.initHttpServer(options);
    const app = this.getInstance<Express>();
    this.httpServer = createServer(expressMessageClasses(app), app);
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
    if (response.req.method === 'HEAD') return response.end();
    endThisTurn(response, json);
    return undefined;
  }
}

/** Responses to end at the end of this turn of the event loop, each followed by its body. */
let ending: Array<Response | string> = [];

/**
 * Ends `response` with `body` once the current turn of the event loop has run its callbacks
 * (`setImmediate`), together with every other response given in the same turn, in order. Under
 * load a turn completes several requests (their PostgreSQL results arrive together); writing
 * their answers between the turn's other work — the next requests' reads, Redis and PostgreSQL
 * calls — cost more CPU per request than writing them in one run after it: measured on the ICPs
 * list, 103 against 114 µs (docs/performance.md). A response whose client has gone by then is
 * left as it is. Until then the response counts as answered (`isAnswered`).
 */
function endThisTurn(response: Response, body: string): void {
  ending.push(response, body);
  if (ending.length === 2) setImmediate(endAll);
}

function endAll(): void {
  const batch = ending;
  ending = [];
  for (let i = 0; i < batch.length; i += 2) {
    const response = batch[i] as Response;
    if (response.writableEnded || response.destroyed) continue;
    try {
      response.end(batch[i + 1] as string);
    } catch (error) {
      // The socket failed under the write: that connection is lost, the others' answers are not.
      response.destroy(error as Error);
    }
  }
}

/** Whether an answer has been sent, or is about to be at the end of this turn. */
export function isAnswered(response: ServerResponse): boolean {
  return response.headersSent || ending.includes(response as Response);
}
