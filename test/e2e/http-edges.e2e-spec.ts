import { expectError } from '../support/assertions';
import { startTestApp, TestApp, TestWorkspace } from '../support/test-app';

let t: TestApp;
let ws: TestWorkspace;

beforeAll(async () => {
  t = await startTestApp();
  ws = await t.newWorkspace();
});

afterAll(() => t?.close());

describe('a known path asked with a method it does not answer', () => {
  test.each([
    ['put', '/v1/kb/icps/icp_0000000000000000001', 'DELETE, GET, HEAD, PATCH'],
    ['post', '/v1/buyers', 'GET, HEAD'],
    ['delete', '/v1/signals', 'GET, HEAD'],
    ['patch', '/v1/kb/topics', 'GET, HEAD, POST'],
    ['put', '/ingest/v1/activities', 'GET, HEAD, POST'],
  ] as const)('%s %s is 405 method_not_allowed with Allow: %s', async (method, path, allow) => {
    const res = await t.http[method](path).set('Authorization', ws.auth).send({});
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe(allow);
    expect(res.body.error.message).toContain(allow);
  });

  it('is still asked for a key first, like every other route', async () => {
    const res = await t.http.put('/v1/buyers').send({});
    expectError(res, 401, 'authentication_error');
  });

  it('leaves an unknown path 404', async () => {
    expectError(await t.http.put('/v1/nothing-here').set('Authorization', ws.auth).send({}), 404, 'not_found');
  });
});

describe('GET /', () => {
  it('is no route of its own: without a key it is 401 like any path outside the public ones, and the 401 says where the documentation is', async () => {
    const refused = await t.http.get('/');
    expectError(refused, 401, 'authentication_error');
    expect(refused.body.error.message).toContain('/docs');
    const docs = await t.http.get('/openapi.json').expect(200);
    expect(docs.body.openapi).toMatch(/^3\./);
  });
});

describe('a query string on a route that reads none', () => {
  it('is 400 invalid_parameter naming it, on retrieve, update and delete alike, and changes nothing', async () => {
    const topic = await t.http
      .post('/v1/kb/topics')
      .set('Authorization', ws.auth)
      .send({ name: 'Query probe', short_name: `qp-${Date.now()}`, description: 'A topic' })
      .expect(201);
    const path = `/v1/kb/topics/${topic.body.id}`;
    expectError(await t.http.get(`${path}?expand=all`).set('Authorization', ws.auth), 400, 'invalid_parameter', 'expand');
    expectError(
      await t.http.patch(`${path}?dry_run=1`).set('Authorization', ws.auth).send({ name: 'Changed' }),
      400,
      'invalid_parameter',
      'dry_run',
    );
    expectError(await t.http.delete(`${path}?force=true`).set('Authorization', ws.auth), 400, 'invalid_parameter', 'force');
    const after = await t.http.get(path).set('Authorization', ws.auth).expect(200);
    expect(after.body).toEqual(topic.body);
    expectError(
      await t.http.get('/v1/buyers/buy_0000000000000000001?foo=1').set('Authorization', ws.auth),
      400,
      'invalid_parameter',
      'foo',
    );
    // The key is still checked first.
    expectError(await t.http.get(`${path}?expand=all`), 401, 'authentication_error');
  });
});

describe('an error quoting what the client sent', () => {
  it('quotes a bounded part of it: a 100,000-character field name is not echoed back whole', async () => {
    const ws = await t.newWorkspace();
    const name = 'x'.repeat(100_000);
    const res = await t.http
      .post('/v1/kb/topics')
      .set('Authorization', ws.auth)
      .send({ name: 'Privacy', short_name: 'privacy', description: 'GDPR', [name]: 1 });
    expectError(res, 400, 'validation_error', `${'x'.repeat(199)}…`);
    expect(res.body.error.param.startsWith('xxxx')).toBe(true);
    expect(JSON.stringify(res.body).length).toBeLessThan(2_000);
  });
});
