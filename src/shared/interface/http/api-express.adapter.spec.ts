import type { Express } from 'express';
import type { Server } from 'node:http';
import request from 'supertest';
import { ApiExpressAdapter } from './api-express.adapter';

describe('ApiExpressAdapter', () => {
  let adapter: ApiExpressAdapter;
  let server: Server;
  let app: Express;

  beforeEach(() => {
    adapter = new ApiExpressAdapter();
    adapter.initHttpServer({});
    app = adapter.getInstance<Express>();
    server = adapter.getHttpServer();
  });
  afterEach(() => {
    server.close();
  });

  it('writes a JSON answer at once, with its status, type and length in bytes', async () => {
    const seen: Array<Record<string, unknown>> = [];
    app.get('/x', (_req, res) => {
      adapter.reply(res, { ok: true, text: 'é' }, 201);
      seen.push({ ended: res.writableEnded, status: res.statusCode, length: res.getHeader('Content-Length') });
    });
    const response = await request(server).get('/x');
    expect(response.status).toBe(201);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.text).toBe('{"ok":true,"text":"é"}');
    expect(seen).toEqual([{ ended: true, status: 201, length: 23 }]);
  });

  it('answers HEAD with the headers and no body', async () => {
    app.head('/x', (_req, res) => adapter.reply(res, { ok: true }));
    const response = await request(server).head('/x');
    expect(response.status).toBe(200);
    expect(response.headers['content-length']).toBe('11');
    expect(response.text).toBeUndefined();
  });

  it('leaves what is not a JSON object to Express: a 204, a string, a Content-Type the handler chose', async () => {
    app.get('/empty', (_req, res) => adapter.reply(res, { ignored: true }, 204));
    app.get('/text', (_req, res) => adapter.reply(res, 'plain'));
    app.get('/chosen', (_req, res) => {
      res.setHeader('Content-Type', 'application/problem+json');
      adapter.reply(res, { title: 'x' });
    });
    const [empty, text, chosen] = await Promise.all(['/empty', '/text', '/chosen'].map((path) => request(server).get(path)));
    expect([empty.status, empty.text]).toEqual([204, '']);
    expect([text.status, text.headers['content-type'], text.text]).toEqual([200, 'text/html; charset=utf-8', 'plain']);
    expect([chosen.headers['content-type'], chosen.text]).toEqual(['application/problem+json; charset=utf-8', '{"title":"x"}']);
  });
});
