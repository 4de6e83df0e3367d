import { randomBytes } from 'node:crypto';
import type { Response } from 'supertest';
import { expectError } from '../support/assertions';
import { KB_CASES, unique } from '../support/kb-resources';
import { startTestApp, TestApp } from '../support/test-app';

const REQUEST_ID = /^req_[0-9a-z]+$/;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});

afterAll(async () => {
  await t?.close();
});

/** A key of the documented shape that no workspace owns. */
function unknownKey(): string {
  let secret = '';
  for (const byte of randomBytes(40)) secret += BASE62[byte % 62];
  return `svc_live_${secret}`;
}

/** 401 `authentication_error` without `param`, and nothing in the response echoes a secret. */
function expectUnauthenticated(res: Response, ...secrets: string[]): void {
  const error = expectError(res, 401, 'authentication_error');
  expect(error.message).toMatch(/key/i);
  expect(res.headers['www-authenticate']).toBe('Bearer');
  const everything = JSON.stringify(res.body) + JSON.stringify(res.headers) + (res.text ?? '');
  for (const secret of secrets.filter((s) => s.length > 0)) {
    expect(error.message).not.toContain(secret);
    expect(everything).not.toContain(secret);
    const secretPart = secret.startsWith('svc_live_') ? secret.slice('svc_live_'.length) : '';
    if (secretPart.length >= 8) expect(everything).not.toContain(secretPart);
  }
}

describe('401 authentication_error', () => {
  test('no Authorization header', async () => {
    const res = await t.http.get('/v1/kb/icps');
    expectUnauthenticated(res);
  });

  test('no Authorization header on every knowledge-base collection', async () => {
    for (const kb of KB_CASES) {
      const res = await t.http.get(`/v1/kb/${kb.path}`);
      expectUnauthenticated(res);
    }
  });

  test('Basic credentials, even when they carry a valid key', async () => {
    const ws = await t.newWorkspace();
    const basic = `Basic ${Buffer.from(`user:${ws.api_key}`).toString('base64')}`;
    expectUnauthenticated(await t.http.get('/v1/kb/icps').set('Authorization', basic), ws.api_key);
    expectUnauthenticated(await t.http.get('/v1/kb/icps').set('Authorization', `Basic ${ws.api_key}`), ws.api_key);
    // The same key as a Bearer token does work.
    expect((await t.http.get('/v1/kb/icps').set('Authorization', ws.auth)).status).toBe(200);
  });

  test('Bearer with nothing after it', async () => {
    expectUnauthenticated(await t.http.get('/v1/kb/icps').set('Authorization', 'Bearer'));
    expectUnauthenticated(await t.http.get('/v1/kb/icps').set('Authorization', 'Bearer '));
    expectUnauthenticated(await t.http.get('/v1/kb/icps').set('Authorization', ''));
  });

  test.each([
    ['not a key at all', 'not-a-key'],
    ['only the prefix', 'svc_live_'],
    ['a test-mode prefix', `svc_test_${'a'.repeat(40)}`],
    ['a secret with forbidden characters', `svc_live_${'a'.repeat(20)}!$%^&*`],
    ['a truncated secret', 'svc_live_abc'],
  ])('a malformed key (%s)', async (_label, key) => {
    const res = await t.http.get('/v1/kb/icps').set('Authorization', `Bearer ${key}`);
    expectUnauthenticated(res, key);
  });

  test('a valid key with extra characters appended is refused', async () => {
    const ws = await t.newWorkspace();
    const key = `${ws.api_key}x`;
    expectUnauthenticated(await t.http.get('/v1/kb/icps').set('Authorization', `Bearer ${key}`), key);
  });

  test('a well-formed but unknown svc_live_ key', async () => {
    const key = unknownKey();
    const res = await t.http.get('/v1/kb/icps').set('Authorization', `Bearer ${key}`);
    expectUnauthenticated(res, key);
  });

  test('a revoked key is refused from the very next request; other keys of the workspace still work', async () => {
    const ws = await t.newWorkspace();
    const second = await t.workspaces.createKey(ws.workspace_id, 'write');
    expect((await t.http.get('/v1/kb/icps').set('Authorization', ws.auth)).status).toBe(200);

    await t.workspaces.revokeKey(ws.key_id);

    expectUnauthenticated(await t.http.get('/v1/kb/icps').set('Authorization', ws.auth), ws.api_key);
    const kb = KB_CASES[0];
    const post = await t.http.post(`/v1/kb/${kb.path}`).set('Authorization', ws.auth).send(kb.valid(unique()));
    expectUnauthenticated(post, ws.api_key);

    const other = await t.http.get('/v1/kb/icps').set('Authorization', `Bearer ${second.api_key}`);
    expect(other.status).toBe(200);
    // The refused POST wrote nothing.
    expect(other.body.data).toEqual([]);
  });

  test('a valid key sent as ?api_key= in the query string is refused', async () => {
    const ws = await t.newWorkspace();
    const res = await t.http.get(`/v1/kb/icps?api_key=${ws.api_key}`);
    expectUnauthenticated(res, ws.api_key);
  });

  test('a key in the query string is refused even alongside a valid Authorization header', async () => {
    const ws = await t.newWorkspace();
    const res = await t.http.get(`/v1/kb/icps?api_key=${ws.api_key}`).set('Authorization', ws.auth);
    expectUnauthenticated(res, ws.api_key);
  });

  test.each([
    ['under another name', (key: string) => `cursor=${key}`],
    ['as one of a repeated name', (key: string) => `cursor=abc&cursor=${key}`],
    ['under a credential-like name in any case', () => 'Access_Token=abc'],
  ])('a key in the query string %s is refused, even alongside a valid Authorization header', async (_, query) => {
    const ws = await t.newWorkspace();
    const res = await t.http.get(`/v1/kb/icps?${query(ws.api_key)}`).set('Authorization', ws.auth);
    expectUnauthenticated(res, ws.api_key);
  });

  test('a key in the query string on a POST is refused and nothing is written', async () => {
    const ws = await t.newWorkspace();
    const kb = KB_CASES[0];
    const res = await t.http.post(`/v1/kb/${kb.path}?api_key=${ws.api_key}`).send(kb.valid(unique()));
    expectUnauthenticated(res, ws.api_key);
    const list = await t.http.get(`/v1/kb/${kb.path}`).set('Authorization', ws.auth);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([]);
  });

  test('POST with a malformed JSON body and no key: authentication wins (401, not 400)', async () => {
    const res = await t.http.post('/v1/kb/icps').set('Content-Type', 'application/json').send('{"name": ');
    expectUnauthenticated(res);
  });

  test('POST with a malformed JSON body and an unknown key: 401, not 400', async () => {
    const key = unknownKey();
    const res = await t.http
      .post('/v1/kb/icps')
      .set('Authorization', `Bearer ${key}`)
      .set('Content-Type', 'application/json')
      .send('{"name": ');
    expectUnauthenticated(res, key);
  });

  test('POST with a malformed JSON body and a valid key is a 400 (the body is judged after the key)', async () => {
    const ws = await t.newWorkspace();
    const res = await t.http.post('/v1/kb/icps').set('Authorization', ws.auth).set('Content-Type', 'application/json').send('{"name": ');
    expectError(res, 400, 'validation_error', 'body');
  });

  test.each(['/v1/nope', '/v1/kb/widgets', '/nope'])('unknown route %s: 401 without a key, 404 with one', async (path) => {
    expectUnauthenticated(await t.http.get(path));
    expectUnauthenticated(await t.http.post(path).send({ a: 1 }));
    const ws = await t.newWorkspace();
    expectError(await t.http.get(path).set('Authorization', ws.auth), 404, 'not_found');
  });

  test('unknown route with an unknown key is 401', async () => {
    const key = unknownKey();
    expectUnauthenticated(await t.http.get('/v1/nope').set('Authorization', `Bearer ${key}`), key);
  });

  test('retrieve, update and delete without a key are 401 as well', async () => {
    const ws = await t.newWorkspace();
    const kb = KB_CASES[0];
    const created = await t.http.post(`/v1/kb/${kb.path}`).set('Authorization', ws.auth).send(kb.valid(unique()));
    expect(created.status).toBe(201);
    const url = `/v1/kb/${kb.path}/${created.body.id}`;
    expectUnauthenticated(await t.http.get(url));
    expectUnauthenticated(await t.http.patch(url).send({ name: 'Changed' }));
    expectUnauthenticated(await t.http.delete(url));
    const after = await t.http.get(url).set('Authorization', ws.auth);
    expect(after.status).toBe(200);
    expect(after.body.name).toBe(created.body.name);
  });
});

describe('403 permission_denied for a read-scope key', () => {
  test.each(KB_CASES.map((kb) => [kb.name, kb] as const))('%s: GET works, POST/PATCH/DELETE are refused', async (_name, kb) => {
    const ws = await t.newWorkspace();
    const read = await t.workspaces.createKey(ws.workspace_id, 'read');
    const readAuth = `Bearer ${read.api_key}`;
    const created = await t.http.post(`/v1/kb/${kb.path}`).set('Authorization', ws.auth).send(kb.valid(unique()));
    expect(created.status).toBe(201);
    const url = `/v1/kb/${kb.path}/${created.body.id}`;

    const list = await t.http.get(`/v1/kb/${kb.path}`).set('Authorization', readAuth);
    expect(list.status).toBe(200);
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([created.body.id]);
    const one = await t.http.get(url).set('Authorization', readAuth);
    expect(one.status).toBe(200);
    expect(one.body.id).toBe(created.body.id);

    expectError(await t.http.post(`/v1/kb/${kb.path}`).set('Authorization', readAuth).send(kb.valid(unique())), 403, 'permission_denied');
    expectError(await t.http.patch(url).set('Authorization', readAuth).send({ name: 'Renamed' }), 403, 'permission_denied');
    expectError(await t.http.delete(url).set('Authorization', readAuth), 403, 'permission_denied');

    // Nothing changed.
    const after = await t.http.get(`/v1/kb/${kb.path}`).set('Authorization', ws.auth);
    expect(after.status).toBe(200);
    expect(after.body.data).toHaveLength(1);
    expect(after.body.data[0].id).toBe(created.body.id);
    expect(after.body.data[0].name).toBe(created.body.name);
    expect(after.body.data[0].updated_at).toBe(created.body.updated_at);
  });

  test('a read key is still 401 once revoked', async () => {
    const ws = await t.newWorkspace();
    const read = await t.workspaces.createKey(ws.workspace_id, 'read');
    expect((await t.http.get('/v1/kb/topics').set('Authorization', `Bearer ${read.api_key}`)).status).toBe(200);
    await t.workspaces.revokeKey(read.key_id);
    expectUnauthenticated(await t.http.get('/v1/kb/topics').set('Authorization', `Bearer ${read.api_key}`), read.api_key);
  });
});

describe('X-Request-Id', () => {
  test('successful responses carry X-Request-Id (200, 201, 204)', async () => {
    const ws = await t.newWorkspace();
    const kb = KB_CASES[0];
    const list = await t.http.get(`/v1/kb/${kb.path}`).set('Authorization', ws.auth);
    expect(list.status).toBe(200);
    expect(list.headers['x-request-id']).toMatch(REQUEST_ID);

    const created = await t.http.post(`/v1/kb/${kb.path}`).set('Authorization', ws.auth).send(kb.valid(unique()));
    expect(created.status).toBe(201);
    expect(created.headers['x-request-id']).toMatch(REQUEST_ID);

    const url = `/v1/kb/${kb.path}/${created.body.id}`;
    const patched = await t.http.patch(url).set('Authorization', ws.auth).send({ name: 'Renamed' });
    expect(patched.status).toBe(200);
    expect(patched.headers['x-request-id']).toMatch(REQUEST_ID);

    const deleted = await t.http.delete(url).set('Authorization', ws.auth);
    expect(deleted.status).toBe(204);
    expect(deleted.headers['x-request-id']).toMatch(REQUEST_ID);

    const ids = [list, created, patched, deleted].map((r) => r.headers['x-request-id']);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('error responses carry X-Request-Id equal to error.request_id, unique per request', async () => {
    const ws = await t.newWorkspace();
    const read = await t.workspaces.createKey(ws.workspace_id, 'read');
    const responses = [
      await t.http.get('/v1/kb/icps'),
      await t.http.get('/v1/kb/icps').set('Authorization', `Bearer ${unknownKey()}`),
      await t.http.get('/v1/nope').set('Authorization', ws.auth),
      await t.http.post('/v1/kb/icps').set('Authorization', `Bearer ${read.api_key}`).send(KB_CASES[0].valid(unique())),
      await t.http.get('/v1/kb/icps?bogus=1').set('Authorization', ws.auth),
    ];
    const expected: Array<[number, string]> = [
      [401, 'authentication_error'],
      [401, 'authentication_error'],
      [404, 'not_found'],
      [403, 'permission_denied'],
      [400, 'invalid_parameter'],
    ];
    responses.forEach((res, i) => {
      expect(res.status).toBe(expected[i][0]);
      expect(res.body.error.code).toBe(expected[i][1]);
      expect(res.body.error.request_id).toMatch(REQUEST_ID);
      expect(res.headers['x-request-id']).toBe(res.body.error.request_id);
    });
    const ids = responses.map((r) => r.body.error.request_id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
