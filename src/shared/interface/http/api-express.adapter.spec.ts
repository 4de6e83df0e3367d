import type { Express, Response } from 'express';
import { IncomingMessage, Server, ServerResponse } from 'node:http';
import request from 'supertest';
import { ApiExpressAdapter, isAnswered } from './api-express.adapter';

describe('ApiExpressAdapter', () => {
  afterEach(() => jest.restoreAllMocks());

  it("creates requests and responses on Express's prototypes, so Express does not move them", async () => {
    const adapter = new ApiExpressAdapter();
    adapter.initHttpServer({});
    const app = adapter.getInstance<Express>();
    // Express's own request and response methods still work on them.
    app.get('/x', (req, res) => res.status(201).json({ path: req.path, query: req.query, protocol: req.protocol, app: req.app === app }));
    const moved: string[] = [];
    const setPrototypeOf = Object.setPrototypeOf.bind(Object);
    jest.spyOn(Object, 'setPrototypeOf').mockImplementation((target: object, proto: object | null) => {
      const message = target instanceof IncomingMessage || target instanceof ServerResponse;
      if (message && Object.getPrototypeOf(target) !== proto) moved.push(target.constructor.name);
      return setPrototypeOf(target, proto);
    });
    const server = adapter.getHttpServer() as Server;
    try {
      const response = await request(server).get('/x?a=1');
      expect(response.status).toBe(201);
      expect(response.body).toEqual({ path: '/x', query: { a: '1' }, protocol: 'http', app: true });
      expect(moved).toEqual([]);
    } finally {
      server.close();
    }
  });

  describe('JSON answers', () => {
    let adapter: ApiExpressAdapter;
    let server: Server;
    let app: Express;

    beforeEach(() => {
      adapter = new ApiExpressAdapter();
      adapter.initHttpServer({});
      app = adapter.getInstance<Express>();
      server = adapter.getHttpServer() as Server;
    });
    afterEach(() => server.close());

    it('are written at the end of the turn, with their status, type and length set at once', async () => {
      const seen: Array<Record<string, unknown>> = [];
      app.get('/x', (req, res) => {
        adapter.reply(res, { ok: true, text: 'é' }, 201);
        seen.push({ answered: isAnswered(res), ended: res.writableEnded, status: res.statusCode, length: res.getHeader('Content-Length') });
        setImmediate(() => seen.push({ ended: res.writableEnded }));
      });
      const response = await request(server).get('/x');
      expect(response.status).toBe(201);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.text).toBe('{"ok":true,"text":"é"}');
      expect(seen).toEqual([{ answered: true, ended: false, status: 201, length: 23 }, { ended: true }]);
    });

    it('given in one turn are all ended together, each with its own body', async () => {
      const responses: Response[] = [];
      const ended: boolean[] = [];
      // Three requests held until all have arrived, then answered in one turn.
      app.get('/n/:n', (req, res) => {
        responses.push(res);
        if (responses.length < 3) return;
        responses.forEach((held, i) => adapter.reply(held, { n: Number(held.req.params.n), i }));
        ended.push(...responses.map((held) => held.writableEnded));
      });
      const bodies = await Promise.all([1, 2, 3].map(async (n) => (await request(server).get(`/n/${n}`)).body as { n: number; i: number }));
      expect(ended).toEqual([false, false, false]);
      expect(bodies.map((body) => body.n)).toEqual([1, 2, 3]);
      expect(new Set(bodies.map((body) => body.i))).toEqual(new Set([0, 1, 2]));
    });

    it('skip a response whose client has gone, and still answer the others of the turn', async () => {
      const held: Response[] = [];
      app.get('/gone', (req, res) => held.push(res));
      app.get('/here', (req, res) => {
        const gone = held[0];
        gone.destroy();
        adapter.reply(gone, { never: true });
        adapter.reply(res, { here: true });
      });
      const goneRequest = request(server).get('/gone').then(
        () => 'answered',
        () => 'failed',
      );
      while (held.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      const here = await request(server).get('/here');
      expect(here.body).toEqual({ here: true });
      expect(await goneRequest).toBe('failed');
    });

    it('to HEAD have their headers and no body', async () => {
      app.head('/x', (req, res) => adapter.reply(res, { ok: true }));
      const response = await request(server).head('/x');
      expect(response.status).toBe(200);
      expect(response.headers['content-length']).toBe('11');
      expect(response.text).toBeUndefined();
    });
  });
});
