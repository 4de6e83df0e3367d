import type { Express } from 'express';
import { IncomingMessage, Server, ServerResponse } from 'node:http';
import request from 'supertest';
import { ApiExpressAdapter } from './api-express.adapter';

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
});
