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
