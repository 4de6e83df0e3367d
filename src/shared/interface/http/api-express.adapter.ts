import { StreamableFile } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Express as Nest drives it, except that a handler's JSON answer is written directly: serialised
 * once, measured with `Buffer.byteLength` and handed to `end` as a string. Express's `res.json`
 * produces the same bytes and headers, but on the way it looks up four settings, parses and
 * rebuilds the Content-Type it has just set, copies any body over 1,000 characters into a Buffer
 * to measure it, and checks the request's freshness against validators the API never sends:
 * about 5 % of a small request. Anything else (no body, a 204, a stream, a buffer, a response
 * whose Content-Type a handler has chosen) goes Express's way as before.
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
