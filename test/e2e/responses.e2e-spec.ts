import type { Response } from 'supertest';
import { startTestApp, TestApp, TestWorkspace } from '../support/test-app';
import { unique } from '../support/kb-resources';

/** How answers are put on the wire: the exact bytes, their type and their length. */

let t: TestApp;
let ws: TestWorkspace;

beforeAll(async () => {
  t = await startTestApp();
  ws = await t.newWorkspace();
});

afterAll(async () => {
  await t?.close();
});

const JSON_TYPE = 'application/json; charset=utf-8';

/** The body as the bytes arrived, decoded once as UTF-8. */
function raw(res: unknown, done: (error: Error | null, body: string) => void): void {
  const stream = res as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => done(null, Buffer.concat(chunks).toString('utf8')));
}

function expectJson(res: Response, status: number): unknown {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toBe(JSON_TYPE);
  const text = res.body as string;
  expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(text));
  return JSON.parse(text);
}

async function createIcp(name: string): Promise<Record<string, string>> {
  const n = unique();
  const res = await t.http
    .post('/v1/kb/icps')
    .set('Authorization', ws.auth)
    .send({ name, short_name: `icps-${n}`, description: `Companies named ${name}` })
    .buffer(true)
    .parse(raw);
  return expectJson(res, 201) as Record<string, string>;
}

describe('JSON answers', () => {
  it('carry their length in bytes, not characters, for text beyond ASCII', async () => {
    const created = await createIcp(`Café ☕ 東京 ${'ü'.repeat(60)}`);
    const res = await t.http.get(`/v1/kb/icps/${created.id}`).set('Authorization', ws.auth).buffer(true).parse(raw);
    const body = expectJson(res, 200) as Record<string, string>;
    expect(body.name).toBe(created.name);
    expect((res.body as string).length).toBeLessThan(Number(res.headers['content-length']));
  });

  it('write a page longer than a thousand characters whole', async () => {
    await Promise.all(Array.from({ length: 12 }, (_, i) => createIcp(`Page filler ${i} ${'x'.repeat(100)}`)));
    const res = await t.http.get('/v1/kb/icps?limit=100').set('Authorization', ws.auth).buffer(true).parse(raw);
    const page = expectJson(res, 200) as { data: unknown[] };
    expect((res.body as string).length).toBeGreaterThan(1_000);
    expect(page.data.length).toBeGreaterThanOrEqual(12);
  });

  it('answer HEAD with the headers of GET and no body', async () => {
    const get = await t.http.get('/v1/kb/icps?limit=5').set('Authorization', ws.auth).buffer(true).parse(raw);
    expectJson(get, 200);
    const head = await t.http.head('/v1/kb/icps?limit=5').set('Authorization', ws.auth);
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe(JSON_TYPE);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.text ?? '').toBe('');
  });

  it('leave a 204 without a body, a type or a length', async () => {
    const created = await createIcp(`Deleted ${unique()}`);
    const res = await t.http.delete(`/v1/kb/icps/${created.id}`).set('Authorization', ws.auth).buffer(true).parse(raw);
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    expect(res.headers['content-type']).toBeUndefined();
    expect(res.headers['content-length']).toBeUndefined();
  });

  it('write errors as before: the envelope, JSON, with its length', async () => {
    const res = await t.http.get('/v1/kb/icps/icp_0000000000000000001').set('Authorization', ws.auth).buffer(true).parse(raw);
    const body = expectJson(res, 404) as { error: { code: string; request_id: string } };
    expect(body.error.code).toBe('not_found');
    expect(res.headers['x-request-id']).toBe(body.error.request_id);
  });

  it('answer the liveness probe with its one small document', async () => {
    const res = await t.http.get('/health/live').buffer(true).parse(raw);
    expect(res.body).toBe('{"status":"ok"}');
    expectJson(res, 200);
  });
});
