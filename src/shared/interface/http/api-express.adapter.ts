import { StreamableFile } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Nest's Express adapter (its documented extension point for HTTP platforms) with one difference,
 * through public API: a handler's JSON answer is serialised once and ended with its length
 * (`reply`). Express's `res.json` writes the same bytes and headers, but on the way it looks up
 * its settings, parses and rebuilds the Content-Type it has just set, copies a body over 1,000
 * characters into a Buffer to measure it and checks freshness against validators the API never
 * sends. Anything else (no body, 204/205/304, a stream, a buffer, a Content-Type a handler chose)
 * goes Express's way.
 */
export class ApiExpressAdapter extends ExpressAdapter {
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
