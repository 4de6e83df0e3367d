import { expectError, TIMESTAMP } from '../support/assertions';
import { KB_CASES, KbCase, unique } from '../support/kb-resources';
import { startTestApp, TestApp, TestWorkspace } from '../support/test-app';

const SYSTEM_FIELDS: Record<string, unknown> = {
  id: 'icp_0000000000000000001',
  client_id: 'wor_0000000000000000001',
  created_by: { type: 'api_key', id: 'key_0000000000000000001' },
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};

describe.each(KB_CASES)('/v1/kb/$path (what all resources share)', (kb: KbCase) => {
  let t: TestApp;
  let ws: TestWorkspace;
  const base = `/v1/kb/${kb.path}`;
  const idPattern = new RegExp(`^${kb.prefix}\\d{19}$`);

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    ws = await t.newWorkspace();
  });

  const create = (body: unknown, auth = ws.auth) =>
    t.http
      .post(base)
      .set('Authorization', auth)
      .send(body as object);
  const createOk = async (body = kb.valid(unique())) => {
    const res = await create(body);
    expect(res.status).toBe(201);
    return res.body as Record<string, unknown> & { id: string };
  };

  it('lists nothing for a new workspace', async () => {
    const res = await t.http.get(base).set('Authorization', ws.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], pagination: { next_cursor: null } });
  });

  it('creates a record with its system-managed fields, and reads it back identically', async () => {
    const body = kb.valid(unique());
    const created = await createOk(body);
    expect(created).toEqual({
      ...Object.fromEntries(kb.optional.map((f) => [f, ''])),
      ...body,
      ...Object.fromEntries(kb.computed.map((f) => [f, expect.any(String)])),
      id: expect.stringMatching(idPattern),
      client_id: ws.workspace_id,
      created_by: { type: 'api_key', id: ws.key_id },
      created_at: expect.stringMatching(TIMESTAMP),
      updated_at: created.created_at,
    });
    const fetched = await t.http.get(`${base}/${created.id}`).set('Authorization', ws.auth);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(created);
    const list = await t.http.get(base).set('Authorization', ws.auth);
    expect(list.body.data).toEqual([created]);
  });

  it('trims values', async () => {
    const body = kb.valid(unique());
    const created = await createOk({ ...body, name: `  ${body.name}\n` });
    expect(created.name).toBe(body.name);
  });

  it.each(['missing', 'empty', 'whitespace', 'number', 'null'])('rejects every required field when %s', async (how) => {
    for (const field of kb.required) {
      const body: Record<string, unknown> = kb.valid(unique());
      if (how === 'missing') delete body[field];
      else body[field] = { empty: '', whitespace: ' \t ', number: 42, null: null }[how];
      expectError(await create(body), 400, 'validation_error', field);
    }
    const list = await t.http.get(base).set('Authorization', ws.auth);
    expect(list.body.data).toEqual([]);
  });

  it.each(Object.keys(SYSTEM_FIELDS))('rejects the system-managed field %s on create and update', async (field) => {
    expectError(await create({ ...kb.valid(unique()), [field]: SYSTEM_FIELDS[field] }), 400, 'validation_error', field);
    const record = await createOk();
    const patched = await t.http
      .patch(`${base}/${record.id}`)
      .set('Authorization', ws.auth)
      .send({ name: 'New name', [field]: SYSTEM_FIELDS[field] });
    expectError(patched, 400, 'validation_error', field);
    const after = await t.http.get(`${base}/${record.id}`).set('Authorization', ws.auth);
    expect(after.body).toEqual(record);
  });

  it('rejects unknown fields', async () => {
    expectError(await create({ ...kb.valid(unique()), colour: 'blue' }), 400, 'validation_error', 'colour');
  });

  it('updates only the supplied fields, keeps id and created_at, and moves updated_at', async () => {
    const record = await createOk();
    const res = await t.http.patch(`${base}/${record.id}`).set('Authorization', ws.auth).send({ name: 'Renamed' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...record, name: 'Renamed', updated_at: expect.stringMatching(TIMESTAMP) });
    expect(res.body.updated_at > (record.updated_at as string)).toBe(true);
    const again = await t.http.patch(`${base}/${record.id}`).set('Authorization', ws.auth).send({ name: 'Renamed' });
    expect(again.status).toBe(200);
    expect(again.body.updated_at > res.body.updated_at).toBe(true);
    const fetched = await t.http.get(`${base}/${record.id}`).set('Authorization', ws.auth);
    expect(fetched.body).toEqual(again.body);
  });

  it('rejects an empty update and invalid values without changing the record', async () => {
    const record = await createOk();
    expectError(await t.http.patch(`${base}/${record.id}`).set('Authorization', ws.auth).send({}), 400, 'validation_error', 'body');
    for (const field of kb.required) {
      const res = await t.http
        .patch(`${base}/${record.id}`)
        .set('Authorization', ws.auth)
        .send({ [field]: '   ' });
      expectError(res, 400, 'validation_error', field);
    }
    const fetched = await t.http.get(`${base}/${record.id}`).set('Authorization', ws.auth);
    expect(fetched.body).toEqual(record);
  });

  it('soft-deletes: 204 with no body, then 404 everywhere and gone from the list', async () => {
    const kept = await createOk();
    const record = await createOk();
    const res = await t.http.delete(`${base}/${record.id}`).set('Authorization', ws.auth);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectError(await t.http.get(`${base}/${record.id}`).set('Authorization', ws.auth), 404, 'not_found');
    expectError(await t.http.patch(`${base}/${record.id}`).set('Authorization', ws.auth).send({ name: 'x' }), 404, 'not_found');
    expectError(await t.http.delete(`${base}/${record.id}`).set('Authorization', ws.auth), 404, 'not_found');
    const list = await t.http.get(base).set('Authorization', ws.auth);
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([kept.id]);
  });

  it('frees the short_name of a deleted record', async () => {
    const body = kb.valid(unique());
    const first = await createOk(body);
    expectError(await create(body), 409, 'conflict', 'short_name');
    await t.http.delete(`${base}/${first.id}`).set('Authorization', ws.auth).expect(204);
    const second = await createOk(body);
    expect(second.id).not.toBe(first.id);
  });

  it('answers 409 when an update takes an active short_name, and short names are case-sensitive', async () => {
    const a = await createOk();
    const b = await createOk();
    const res = await t.http.patch(`${base}/${b.id}`).set('Authorization', ws.auth).send({ short_name: a.short_name });
    expectError(res, 409, 'conflict', 'short_name');
    const upper = await t.http
      .patch(`${base}/${b.id}`)
      .set('Authorization', ws.auth)
      .send({ short_name: (a.short_name as string).toUpperCase() });
    expect(upper.status).toBe(200);
    const same = await t.http.patch(`${base}/${a.id}`).set('Authorization', ws.auth).send({ short_name: a.short_name });
    expect(same.status).toBe(200);
  });

  it('lets the same short_name exist in two workspaces', async () => {
    const body = kb.valid(unique());
    await createOk(body);
    const other = await t.newWorkspace();
    expect((await create(body, other.auth)).status).toBe(201);
  });

  it('gives exactly one 201 when 20 creates of one short_name race, the rest 409', async () => {
    const body = kb.valid(unique());
    const results = await Promise.all(Array.from({ length: 20 }, () => create(body)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    for (const r of results.filter((x) => x.status === 409)) expectError(r, 409, 'conflict', 'short_name');
    const list = await t.http.get(base).set('Authorization', ws.auth);
    expect(list.body.data).toHaveLength(1);
  });

  it('rejects malformed ids with 400 naming the path parameter, and answers well-formed unknown ids with 404', async () => {
    const wrongPrefix = kb.prefix === 'icp_' ? 'per_0000000000000000001' : 'icp_0000000000000000001';
    for (const id of [wrongPrefix, `${kb.prefix}abc`, 'abc', `${kb.prefix}`, `${kb.prefix}12x`]) {
      expectError(await t.http.get(`${base}/${id}`).set('Authorization', ws.auth), 400, 'validation_error', kb.idParam);
      expectError(
        await t.http.patch(`${base}/${id}`).set('Authorization', ws.auth).send({ name: 'x' }),
        400,
        'validation_error',
        kb.idParam,
      );
      expectError(await t.http.delete(`${base}/${id}`).set('Authorization', ws.auth), 400, 'validation_error', kb.idParam);
    }
    for (const id of [`${kb.prefix}0000000000000000001`, `${kb.prefix}123`, `${kb.prefix}99999999999999999999999`]) {
      expectError(await t.http.get(`${base}/${id}`).set('Authorization', ws.auth), 404, 'not_found');
      expectError(await t.http.patch(`${base}/${id}`).set('Authorization', ws.auth).send({ name: 'x' }), 404, 'not_found');
      expectError(await t.http.delete(`${base}/${id}`).set('Authorization', ws.auth), 404, 'not_found');
    }
  });

  it('reaches a record by its one spelling only: other digit counts are other ids', async () => {
    const record = await createOk();
    const digits = record.id.slice(kb.prefix.length);
    const unpadded = `${kb.prefix}${digits.replace(/^0+/, '')}`;
    for (const id of [`${kb.prefix}0${digits}`, `${kb.prefix}000${digits}`, unpadded]) {
      expectError(await t.http.get(`${base}/${id}`).set('Authorization', ws.auth), 404, 'not_found');
      expectError(await t.http.patch(`${base}/${id}`).set('Authorization', ws.auth).send({ name: 'x' }), 404, 'not_found');
      expectError(await t.http.delete(`${base}/${id}`).set('Authorization', ws.auth), 404, 'not_found');
    }
    const fetched = await t.http.get(`${base}/${record.id}`).set('Authorization', ws.auth);
    expect(fetched.body).toEqual(record);
  });

  it('names the path parameter when the id segment is not valid percent-encoding', async () => {
    for (const segment of [`${kb.prefix}%ZZ`, '%E0%A4%A']) {
      expectError(await t.http.get(`${base}/${segment}`).set('Authorization', ws.auth), 400, 'validation_error', kb.idParam);
    }
  });

  it("answers another workspace's record exactly like a missing one", async () => {
    const record = await createOk();
    const intruder = await t.newWorkspace();
    const missing = `${kb.prefix}0000000000000000001`;
    const read = await t.http.get(`${base}/${record.id}`).set('Authorization', intruder.auth);
    const readMissing = await t.http.get(`${base}/${missing}`).set('Authorization', intruder.auth);
    expectError(read, 404, 'not_found');
    expect(read.body.error.message).toBe(readMissing.body.error.message);
    expectError(await t.http.patch(`${base}/${record.id}`).set('Authorization', intruder.auth).send({ name: 'x' }), 404, 'not_found');
    expectError(await t.http.delete(`${base}/${record.id}`).set('Authorization', intruder.auth), 404, 'not_found');
    const list = await t.http.get(base).set('Authorization', intruder.auth);
    expect(list.body.data).toEqual([]);
    const owner = await t.http.get(`${base}/${record.id}`).set('Authorization', ws.auth);
    expect(owner.body).toEqual(record);
  });

  it('pages newest first with cursors, each record once, while limit changes between pages', async () => {
    const created: string[] = [];
    for (let i = 0; i < 7; i++) created.push((await createOk()).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    const limits = [2, 3, 1, 5];
    for (let page = 0; page < 10; page++) {
      const query: Record<string, string | number> = { limit: limits[page % limits.length] };
      if (cursor) query.cursor = cursor;
      const res = await t.http.get(base).query(query).set('Authorization', ws.auth);
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(query.limit as number);
      seen.push(...res.body.data.map((r: { id: string }) => r.id));
      cursor = res.body.pagination.next_cursor;
      if (cursor === null) break;
      expect(typeof cursor).toBe('string');
    }
    expect(cursor).toBeNull();
    expect(seen).toEqual([...created].reverse());
  });

  it('returns at most 100 records by default', async () => {
    const auth = ws.auth;
    const bodies = Array.from({ length: 101 }, () => kb.valid(unique()));
    for (const body of bodies) await create(body, auth).expect(201);
    const first = await t.http.get(base).set('Authorization', auth);
    expect(first.body.data).toHaveLength(100);
    expect(first.body.pagination.next_cursor).toEqual(expect.any(String));
    const rest = await t.http.get(base).query({ cursor: first.body.pagination.next_cursor }).set('Authorization', auth);
    expect(rest.body.data).toHaveLength(1);
    expect(rest.body.pagination.next_cursor).toBeNull();
  });
});
