import { expectError } from '../support/assertions';
import { KB_CASES, KbCase, unique } from '../support/kb-resources';
import { startTestApp, TestApp, TestWorkspace } from '../support/test-app';

const ICPS = KB_CASES.find((kb) => kb.path === 'icps') as KbCase;
const PERSONAS = KB_CASES.find((kb) => kb.path === 'personas') as KbCase;
const ONE_MIB = 1024 * 1024;

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});

afterAll(async () => {
  await t?.close();
});

async function listOf(ws: TestWorkspace, kb: KbCase): Promise<Array<Record<string, unknown>>> {
  const res = await t.http.get(`/v1/kb/${kb.path}`).set('Authorization', ws.auth);
  expect(res.status).toBe(200);
  return res.body.data;
}

async function expectNothingWritten(ws: TestWorkspace, kb: KbCase = ICPS): Promise<void> {
  expect(await listOf(ws, kb)).toEqual([]);
}

async function create(ws: TestWorkspace, kb: KbCase): Promise<Record<string, string>> {
  const res = await t.http.post(`/v1/kb/${kb.path}`).set('Authorization', ws.auth).send(kb.valid(unique()));
  expect(res.status).toBe(201);
  return res.body;
}

/** A workspace with two ICPs and the cursor after the first of them (limit=1). */
async function workspaceWithCursor(kb: KbCase = ICPS): Promise<{ ws: TestWorkspace; cursor: string; ids: string[] }> {
  const ws = await t.newWorkspace();
  const a = await create(ws, kb);
  const b = await create(ws, kb);
  const res = await t.http.get(`/v1/kb/${kb.path}?limit=1`).set('Authorization', ws.auth);
  expect(res.status).toBe(200);
  expect(res.body.data).toHaveLength(1);
  expect(typeof res.body.pagination.next_cursor).toBe('string');
  return { ws, cursor: res.body.pagination.next_cursor, ids: [a.id, b.id] };
}

function alterAt(cursor: string, index: number): string {
  const current = cursor[index];
  const replacement = current === 'A' ? 'B' : 'A';
  return cursor.slice(0, index) + replacement + cursor.slice(index + 1);
}

describe('request body errors', () => {
  test('malformed JSON on POST is 400 validation_error param body, nothing written', async () => {
    const ws = await t.newWorkspace();
    for (const raw of ['{"name": ', '{name: "x"}', "{'name':'x'}", '{"name":"x",}', 'not json']) {
      const res = await t.http.post('/v1/kb/icps').set('Authorization', ws.auth).set('Content-Type', 'application/json').send(raw);
      expectError(res, 400, 'validation_error', 'body');
    }
    await expectNothingWritten(ws);
  });

  test('a body that is not valid UTF-8 is 400 param body, on KB writes and intake, nothing written', async () => {
    const ws = await t.newWorkspace();
    // The bytes as they are: supertest would send a Buffer given as JSON as its JSON form.
    const post = (path: string, raw: Buffer) =>
      t.http
        .post(path)
        .set('Authorization', ws.auth)
        .set('Content-Type', 'application/json')
        .serialize((body: Buffer) => body as unknown as string)
        .send(raw);
    const bodies = [
      Buffer.concat([Buffer.from('{"name":"a'), Buffer.from([0xff, 0xfe]), Buffer.from('b","short_name":"s","description":"d"}')]),
      // An overlong encoding of "/" and a lone continuation byte.
      Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('","short_name":"t","description":"d"}')]),
      Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0x80]), Buffer.from('","short_name":"u","description":"d"}')]),
    ];
    for (const raw of bodies) {
      const res = await post('/v1/kb/icps', raw);
      expectError(res, 400, 'validation_error', 'body');
      expect(res.body.error.message).toBe('The request body is not valid UTF-8.');
    }
    const intake = Buffer.concat([
      Buffer.from('{"activities":[{"type":"website","trigger":"visited_page","occurred_at":"2026-01-01T00:00:00Z","identity":{"email":"a'),
      Buffer.from([0xff]),
      Buffer.from('@b.co"},"website":{"url":"https://example.com/"}}]}'),
    ]);
    expectError(await post('/ingest/v1/activities', intake), 400, 'validation_error', 'body');
    await expectNothingWritten(ws);
    // Valid multi-byte UTF-8 is text like any other.
    const ok = await post('/v1/kb/icps', Buffer.from('{"name":"Café 😀","short_name":"cafe","description":"Ünïcode"}', 'utf8'));
    expect(ok.status).toBe(201);
    expect(ok.body.name).toBe('Café 😀');
  });

  test('malformed JSON on PATCH is 400 param body and the record is unchanged', async () => {
    const ws = await t.newWorkspace();
    const record = await create(ws, ICPS);
    const res = await t.http
      .patch(`/v1/kb/icps/${record.id}`)
      .set('Authorization', ws.auth)
      .set('Content-Type', 'application/json')
      .send('{"name": "changed"');
    expectError(res, 400, 'validation_error', 'body');
    const after = await t.http.get(`/v1/kb/icps/${record.id}`).set('Authorization', ws.auth);
    expect(after.status).toBe(200);
    expect(after.body.name).toBe(record.name);
    expect(after.body.updated_at).toBe(record.updated_at);
  });

  test.each(['text/plain', 'application/x-www-form-urlencoded', 'text/html', 'application/xml'])(
    'a body sent as %s is 400 param body, nothing written',
    async (type) => {
      const ws = await t.newWorkspace();
      const res = await t.http
        .post('/v1/kb/icps')
        .set('Authorization', ws.auth)
        .set('Content-Type', type)
        .send(JSON.stringify(ICPS.valid(unique())));
      expectError(res, 400, 'validation_error', 'body');
      await expectNothingWritten(ws);
    },
  );

  test('a non-JSON content type on PATCH is 400 param body and the record is unchanged', async () => {
    const ws = await t.newWorkspace();
    const record = await create(ws, ICPS);
    const res = await t.http
      .patch(`/v1/kb/icps/${record.id}`)
      .set('Authorization', ws.auth)
      .set('Content-Type', 'text/plain')
      .send(JSON.stringify({ name: 'Changed' }));
    expectError(res, 400, 'validation_error', 'body');
    const after = await t.http.get(`/v1/kb/icps/${record.id}`).set('Authorization', ws.auth);
    expect(after.body.name).toBe(record.name);
  });

  test('application/json with a charset parameter is accepted', async () => {
    const ws = await t.newWorkspace();
    const body = ICPS.valid(unique());
    const res = await t.http
      .post('/v1/kb/icps')
      .set('Authorization', ws.auth)
      .set('Content-Type', 'application/json; charset=utf-8')
      .send(JSON.stringify(body));
    expect(res.status).toBe(201);
    expect(res.body.short_name).toBe(body.short_name);
  });

  test.each([
    ['an array', '[]'],
    ['an array of a valid record', JSON.stringify([ICPS.valid('arr')])],
    ['a string', '"hello"'],
    ['null', 'null'],
    ['a number', '42'],
    ['a boolean', 'true'],
  ])('a top-level JSON %s is 400 param body, nothing written', async (_label, raw) => {
    const ws = await t.newWorkspace();
    const res = await t.http.post('/v1/kb/icps').set('Authorization', ws.auth).set('Content-Type', 'application/json').send(raw);
    expectError(res, 400, 'validation_error', 'body');
    await expectNothingWritten(ws);
  });

  test('a top-level JSON array or null on PATCH is 400 param body', async () => {
    const ws = await t.newWorkspace();
    const record = await create(ws, ICPS);
    for (const raw of ['[]', 'null', '"x"']) {
      const res = await t.http
        .patch(`/v1/kb/icps/${record.id}`)
        .set('Authorization', ws.auth)
        .set('Content-Type', 'application/json')
        .send(raw);
      expectError(res, 400, 'validation_error', 'body');
    }
  });

  test('a body over 1 MiB is 413 payload_too_large, nothing written', async () => {
    const ws = await t.newWorkspace();
    const body = { ...ICPS.valid(unique()), description: 'a'.repeat(ONE_MIB + 16) };
    const res = await t.http
      .post('/v1/kb/icps')
      .set('Authorization', ws.auth)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(body));
    expectError(res, 413, 'payload_too_large');
    await expectNothingWritten(ws);
  });

  test('a body over 1 MiB on PATCH is 413 and the record is unchanged', async () => {
    const ws = await t.newWorkspace();
    const record = await create(ws, ICPS);
    const res = await t.http
      .patch(`/v1/kb/icps/${record.id}`)
      .set('Authorization', ws.auth)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ description: 'b'.repeat(2 * ONE_MIB) }));
    expectError(res, 413, 'payload_too_large');
    const after = await t.http.get(`/v1/kb/icps/${record.id}`).set('Authorization', ws.auth);
    expect(after.body.description).toBe(record.description);
  });

  test('a body just under 1 MiB is parsed and judged on its fields (too long description), not 413', async () => {
    const ws = await t.newWorkspace();
    const body = { ...ICPS.valid(unique()), description: 'a'.repeat(ONE_MIB - 4096) };
    const raw = JSON.stringify(body);
    expect(Buffer.byteLength(raw)).toBeLessThan(ONE_MIB);
    const res = await t.http.post('/v1/kb/icps').set('Authorization', ws.auth).set('Content-Type', 'application/json').send(raw);
    expectError(res, 400, 'validation_error', 'description');
    await expectNothingWritten(ws);
  });
});

describe('list query errors', () => {
  test.each(['foo', 'offset', 'page', 'sort_by', 'sort_order', 'created_after', 'total'])(
    'unknown parameter %s on a KB list is 400 invalid_parameter naming it',
    async (name) => {
      const ws = await t.newWorkspace();
      const res = await t.http.get(`/v1/kb/icps?${name}=1`).set('Authorization', ws.auth);
      expectError(res, 400, 'invalid_parameter', name);
    },
  );

  test('an unknown parameter is reported even next to valid ones', async () => {
    const ws = await t.newWorkspace();
    const res = await t.http.get('/v1/kb/personas?limit=10&colour=blue').set('Authorization', ws.auth);
    expectError(res, 400, 'invalid_parameter', 'colour');
  });

  test('an unknown parameter on every KB collection is invalid_parameter', async () => {
    const ws = await t.newWorkspace();
    for (const kb of KB_CASES) {
      const res = await t.http.get(`/v1/kb/${kb.path}?unknown_param=x`).set('Authorization', ws.auth);
      expectError(res, 400, 'invalid_parameter', 'unknown_param');
    }
  });

  test('a repeated limit is 400 invalid_parameter param limit', async () => {
    const ws = await t.newWorkspace();
    for (const query of ['limit=10&limit=20', 'limit=10&limit=10']) {
      const res = await t.http.get(`/v1/kb/icps?${query}`).set('Authorization', ws.auth);
      expectError(res, 400, 'invalid_parameter', 'limit');
    }
  });

  test('a repeated cursor is 400 invalid_parameter param cursor', async () => {
    const { ws, cursor } = await workspaceWithCursor();
    const res = await t.http
      .get(`/v1/kb/icps?cursor=${encodeURIComponent(cursor)}&cursor=${encodeURIComponent(cursor)}`)
      .set('Authorization', ws.auth);
    expectError(res, 400, 'invalid_parameter', 'cursor');
  });

  test.each(['0', '1001', '-1', '1.5', 'abc', '', '10abc', '99999999999999999999'])(
    'limit=%p is 400 invalid_parameter param limit',
    async (value) => {
      const ws = await t.newWorkspace();
      const res = await t.http.get(`/v1/kb/icps?limit=${encodeURIComponent(value)}`).set('Authorization', ws.auth);
      expectError(res, 400, 'invalid_parameter', 'limit');
    },
  );

  test('limit=1 returns one record and a cursor; limit=1000 returns everything and a null cursor', async () => {
    const ws = await t.newWorkspace();
    const a = await create(ws, ICPS);
    const b = await create(ws, ICPS);

    const one = await t.http.get('/v1/kb/icps?limit=1').set('Authorization', ws.auth);
    expect(one.status).toBe(200);
    expect(one.body.data).toHaveLength(1);
    expect(typeof one.body.pagination.next_cursor).toBe('string');

    const all = await t.http.get('/v1/kb/icps?limit=1000').set('Authorization', ws.auth);
    expect(all.status).toBe(200);
    expect(all.body.data.map((r: { id: string }) => r.id).sort()).toEqual([a.id, b.id].sort());
    expect(all.body.pagination.next_cursor).toBeNull();
  });

  test('a cursor works for the next page of the same list (limit may change)', async () => {
    const { ws, cursor, ids } = await workspaceWithCursor();
    const first = await t.http.get('/v1/kb/icps?limit=1').set('Authorization', ws.auth);
    const next = await t.http.get(`/v1/kb/icps?limit=5&cursor=${encodeURIComponent(cursor)}`).set('Authorization', ws.auth);
    expect(next.status).toBe(200);
    expect(next.body.data).toHaveLength(1);
    expect(next.body.pagination.next_cursor).toBeNull();
    const seen = [first.body.data[0].id, next.body.data[0].id];
    expect(seen.sort()).toEqual([...ids].sort());
  });

  test.each(['garbage', 'AAAA', '%%%', 'eyJ0ZXN0IjoxfQ', 'null', 'x'.repeat(600)])(
    'cursor=%p is 400 invalid_cursor param cursor',
    async (value) => {
      const ws = await t.newWorkspace();
      await create(ws, ICPS);
      const res = await t.http.get(`/v1/kb/icps?cursor=${encodeURIComponent(value)}`).set('Authorization', ws.auth);
      expectError(res, 400, 'invalid_cursor', 'cursor');
    },
  );

  test('an empty cursor is rejected (invalid_cursor or invalid_parameter, param cursor)', async () => {
    const ws = await t.newWorkspace();
    const res = await t.http.get('/v1/kb/icps?cursor=').set('Authorization', ws.auth);
    expect(res.status).toBe(400);
    expect(['invalid_cursor', 'invalid_parameter']).toContain(res.body.error?.code);
    expect(res.body.error.param).toBe('cursor');
  });

  test('a cursor from ICPs used on Personas is invalid_cursor', async () => {
    const { ws, cursor } = await workspaceWithCursor(ICPS);
    await create(ws, PERSONAS);
    await create(ws, PERSONAS);
    const res = await t.http.get(`/v1/kb/personas?cursor=${encodeURIComponent(cursor)}`).set('Authorization', ws.auth);
    expectError(res, 400, 'invalid_cursor', 'cursor');
  });

  test('a cursor from ICPs is invalid_cursor on every other KB collection', async () => {
    const { ws, cursor } = await workspaceWithCursor(ICPS);
    for (const kb of KB_CASES.filter((k) => k.path !== 'icps')) {
      const res = await t.http.get(`/v1/kb/${kb.path}?cursor=${encodeURIComponent(cursor)}`).set('Authorization', ws.auth);
      expectError(res, 400, 'invalid_cursor', 'cursor');
    }
  });

  test("workspace A's cursor used by workspace B is invalid_cursor", async () => {
    const { cursor } = await workspaceWithCursor(ICPS);
    const other = await t.newWorkspace();
    await create(other, ICPS);
    await create(other, ICPS);
    const res = await t.http.get(`/v1/kb/icps?cursor=${encodeURIComponent(cursor)}`).set('Authorization', other.auth);
    expectError(res, 400, 'invalid_cursor', 'cursor');
  });

  test('an altered cursor (one character changed) is invalid_cursor', async () => {
    const { ws, cursor } = await workspaceWithCursor(ICPS);
    expect(cursor.length).toBeGreaterThan(4);
    const positions = [0, Math.floor(cursor.length / 2), Math.floor(cursor.length / 3)];
    for (const index of positions) {
      const altered = alterAt(cursor, index);
      expect(altered).not.toBe(cursor);
      const res = await t.http.get(`/v1/kb/icps?cursor=${encodeURIComponent(altered)}`).set('Authorization', ws.auth);
      expectError(res, 400, 'invalid_cursor', 'cursor');
    }
    // The original still works.
    const ok = await t.http.get(`/v1/kb/icps?cursor=${encodeURIComponent(cursor)}`).set('Authorization', ws.auth);
    expect(ok.status).toBe(200);
  });

  test('a cursor with its last character changed is invalid_cursor, including changes to low bits only', async () => {
    const { ws, cursor } = await workspaceWithCursor(ICPS);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = cursor[cursor.length - 1];
    const index = alphabet.indexOf(last);
    const replacements = index >= 0 ? [1, 2, 3].map((bits) => alphabet[index ^ bits]) : ['A', 'B'];
    for (const replacement of replacements) {
      const altered = cursor.slice(0, -1) + replacement;
      expect(altered).not.toBe(cursor);
      const res = await t.http.get(`/v1/kb/icps?cursor=${encodeURIComponent(altered)}`).set('Authorization', ws.auth);
      expectError(res, 400, 'invalid_cursor', 'cursor');
    }
  });

  test('a truncated or extended cursor is invalid_cursor', async () => {
    const { ws, cursor } = await workspaceWithCursor(ICPS);
    for (const altered of [cursor.slice(0, -4), `${cursor}AAAA`, cursor.slice(4)]) {
      const res = await t.http.get(`/v1/kb/icps?cursor=${encodeURIComponent(altered)}`).set('Authorization', ws.auth);
      expectError(res, 400, 'invalid_cursor', 'cursor');
    }
  });

  test('a rejected list query does not depend on there being records', async () => {
    const ws = await t.newWorkspace();
    expectError(await t.http.get('/v1/kb/topics?limit=0').set('Authorization', ws.auth), 400, 'invalid_parameter', 'limit');
    expectError(await t.http.get('/v1/kb/topics?cursor=garbage').set('Authorization', ws.auth), 400, 'invalid_cursor', 'cursor');
  });
});
