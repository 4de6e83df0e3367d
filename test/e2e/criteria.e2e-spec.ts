import { DataSource } from 'typeorm';
import { expectError } from '../support/assertions';
import { workspaceInternalId } from '../support/read-model-fixtures';
import { startTestApp, TestApp, TestWorkspace } from '../support/test-app';

let t: TestApp;
let ds: DataSource;

beforeAll(async () => {
  t = await startTestApp();
  ds = t.app.get(DataSource);
});

afterAll(async () => {
  await t?.close();
});

const ICP_TEXT = 'B2B software companies with 100 to 2,000 employees in the UK or Ireland. Mid-market preferred; no agencies.';
const PERSONA_TEXT = 'Titles: CFO, VP Finance\nSeniority: Director+. Never interns.';

const uniq = () => Math.random().toString(36).slice(2, 10);

/** A workspace with one ICP and one Persona of the texts above. */
async function seedWorkspace(): Promise<{ ws: TestWorkspace; icpId: string; personaId: string }> {
  const ws = await t.newWorkspace();
  const icp = await t.http
    .post('/v1/kb/icps')
    .set('Authorization', ws.auth)
    .send({ name: 'UK software', short_name: `uk-${uniq()}`, description: ICP_TEXT });
  expect(icp.status).toBe(201);
  const persona = await t.http
    .post('/v1/kb/personas')
    .set('Authorization', ws.auth)
    .send({ name: 'Finance leaders', short_name: `fin-${uniq()}`, description: PERSONA_TEXT });
  expect(persona.status).toBe(201);
  return { ws, icpId: icp.body.id as string, personaId: persona.body.id as string };
}

/** Every KB and Buyer row of the workspace as stored, to show that nothing was written. */
async function snapshot(ws: TestWorkspace): Promise<string> {
  const id = workspaceInternalId(ws.workspace_id);
  const rows = async (table: string): Promise<unknown[]> => ds.query(`SELECT * FROM ${table} WHERE workspace_id = $1 ORDER BY id`, [id]);
  return JSON.stringify({ icps: await rows('icps'), personas: await rows('personas'), buyers: await rows('buyers') });
}

const slices = (body: { description: string; criteria: Array<{ spans: Array<{ start: number; end: number; text: string }> }> }) =>
  body.criteria.flatMap((c) => c.spans).every((s) => body.description.slice(s.start, s.end) === s.text);

describe('GET /v1/kb/icps/{icp_id}/criteria', () => {
  test("shows the stored description's criteria, where each comes from, what was ignored and assumed", async () => {
    const { ws, icpId } = await seedWorkspace();
    const res = await t.http.get(`/v1/kb/icps/${icpId}/criteria`).set('Authorization', ws.auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'criteria', subject: 'icp', description: ICP_TEXT });
    expect(res.body.criteria.map((c: { kind: string }) => c.kind)).toEqual(['industry', 'employees', 'country', 'exclusion']);
    const [industry, employees, country, exclusion] = res.body.criteria;
    expect(industry).toEqual({
      kind: 'industry',
      label: 'industry',
      negated: false,
      values: ['Software'],
      expected: 'Software',
      assumed: null,
      span: { start: 4, end: 12, text: 'software' },
      spans: [{ start: 4, end: 12, text: 'software' }],
    });
    // A labelled or written number wins over a size word; the words that say the range are its span.
    expect(employees).toMatchObject({
      values: ['100–2,000'],
      ranges: [{ min: 100, max: 2000, min_exclusive: false, max_exclusive: false }],
      expected: '100–2,000',
      span: { text: '100 to 2,000 employees' },
    });
    expect(employees).not.toHaveProperty('currency');
    expect(country).toMatchObject({ values: ['United Kingdom', 'Ireland'], span: { text: 'UK or Ireland' } });
    expect(industry).not.toHaveProperty('ranges');
    expect(exclusion).toMatchObject({
      negated: true,
      values: [{ kind: 'industry', value: 'Marketing and advertising' }],
      expected: 'not agencies',
      span: { text: 'no agencies' },
    });
    expect(res.body.ignored.map((s: { text: string }) => s.text)).toEqual(['B2B', 'preferred']);
    expect(slices(res.body)).toBe(true);
  });

  test('refuses unknown query parameters as the lists do', async () => {
    const { ws, icpId } = await seedWorkspace();
    expectError(
      await t.http.get(`/v1/kb/icps/${icpId}/criteria?verbose=1`).set('Authorization', ws.auth),
      400,
      'invalid_parameter',
      'verbose',
    );
  });

  test("another workspace's ICP and a missing one are 404 as on GET; a malformed id is 400 as on GET", async () => {
    const { icpId } = await seedWorkspace();
    const other = await t.newWorkspace();
    for (const id of [icpId, 'icp_999999999']) {
      const res = await t.http.get(`/v1/kb/icps/${id}/criteria`).set('Authorization', other.auth);
      const get = await t.http.get(`/v1/kb/icps/${id}`).set('Authorization', other.auth);
      expectError(res, 404, 'not_found');
      expect(res.body.error.message).toBe(get.body.error.message);
    }
    const malformed = await t.http.get('/v1/kb/icps/nonsense/criteria').set('Authorization', other.auth);
    const get = await t.http.get('/v1/kb/icps/nonsense').set('Authorization', other.auth);
    expectError(malformed, 400, 'validation_error', 'icp_id');
    expect(malformed.body.error.message).toBe(get.body.error.message);
  });

  test('a deleted ICP is 404', async () => {
    const { ws, icpId } = await seedWorkspace();
    expect((await t.http.delete(`/v1/kb/icps/${icpId}`).set('Authorization', ws.auth)).status).toBe(204);
    expectError(await t.http.get(`/v1/kb/icps/${icpId}/criteria`).set('Authorization', ws.auth), 404, 'not_found');
  });

  test('needs a key', async () => {
    const { icpId } = await seedWorkspace();
    expectError(await t.http.get(`/v1/kb/icps/${icpId}/criteria`), 401, 'authentication_error');
  });
});

describe('GET /v1/kb/personas/{persona_id}/criteria', () => {
  test("shows a Persona's titles, seniority and excluded roles with their spans", async () => {
    const { ws, personaId } = await seedWorkspace();
    const res = await t.http.get(`/v1/kb/personas/${personaId}/criteria`).set('Authorization', ws.auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'criteria', subject: 'persona', description: PERSONA_TEXT, ignored: [], assumptions: [] });
    expect(res.body.criteria).toEqual([
      expect.objectContaining({
        kind: 'title',
        values: ['CFO', 'VP Finance'],
        span: expect.objectContaining({ text: 'Titles: CFO, VP Finance' }),
      }),
      expect.objectContaining({
        kind: 'seniority',
        values: ['C-level', 'VP', 'Head/Director'],
        span: expect.objectContaining({ text: 'Seniority: Director+' }),
      }),
      expect.objectContaining({
        kind: 'exclusion',
        negated: true,
        values: [{ kind: 'title', value: 'interns' }],
        span: expect.objectContaining({ text: 'Never interns' }),
      }),
    ]);
    expect(slices(res.body)).toBe(true);
  });

  test("another workspace's Persona and a missing one are 404; an unknown parameter is 400", async () => {
    const { ws, personaId } = await seedWorkspace();
    const other = await t.newWorkspace();
    expectError(await t.http.get(`/v1/kb/personas/${personaId}/criteria`).set('Authorization', other.auth), 404, 'not_found');
    expectError(await t.http.get(`/v1/kb/personas/per_999999999/criteria`).set('Authorization', ws.auth), 404, 'not_found');
    expectError(
      await t.http.get(`/v1/kb/personas/${personaId}/criteria?limit=5`).set('Authorization', ws.auth),
      400,
      'invalid_parameter',
      'limit',
    );
  });
});

describe('POST /v1/kb/icps/criteria and /v1/kb/personas/criteria (drafts)', () => {
  test('reads a draft; the same text stored reads the same', async () => {
    const { ws, icpId, personaId } = await seedWorkspace();
    const draftIcp = await t.http.post('/v1/kb/icps/criteria').set('Authorization', ws.auth).send({ description: ICP_TEXT });
    expect(draftIcp.status).toBe(200);
    const storedIcp = await t.http.get(`/v1/kb/icps/${icpId}/criteria`).set('Authorization', ws.auth);
    expect(draftIcp.body).toEqual(storedIcp.body);

    const draftPersona = await t.http
      .post('/v1/kb/personas/criteria')
      .set('Authorization', ws.auth)
      .send({ description: `  ${PERSONA_TEXT}\n` });
    expect(draftPersona.status).toBe(200);
    const storedPersona = await t.http.get(`/v1/kb/personas/${personaId}/criteria`).set('Authorization', ws.auth);
    // The draft is trimmed as the KB trims a description.
    expect(draftPersona.body).toEqual(storedPersona.body);
  });

  test('reads a description sent with \\r\\n line breaks as the same text with \\n, its spans on the text as sent', async () => {
    const ws = await t.newWorkspace();
    const lf = 'Construction firms in Latin America\n\nAvoid\nBrazil\n\nNice to have:\n- Series B';
    const crlf = lf.replace(/\n/g, '\r\n');
    const read = (description: string) => t.http.post('/v1/kb/icps/criteria').set('Authorization', ws.auth).send({ description });
    const [unix, windows] = await Promise.all([read(lf), read(crlf)]);
    expect(windows.status).toBe(200);
    const meaning = (body: { criteria: Array<Record<string, unknown>> }) =>
      body.criteria.map(({ kind, negated, values }) => ({ kind, negated, values }));
    expect(meaning(windows.body)).toEqual(meaning(unix.body));
    expect(windows.body.criteria).toContainEqual(
      expect.objectContaining({
        kind: 'exclusion',
        values: [{ kind: 'country', value: 'Brazil' }],
        spans: [expect.objectContaining({ text: 'Brazil' })],
      }),
    );
    expect(windows.body.criteria.map((c: { kind: string }) => c.kind)).not.toContain('funding');
    expect(windows.body.description).toBe(crlf);
    expect(slices(windows.body)).toBe(true);
  });

  test('states the defaults it assumed, and reads a text of no criteria as context, filler words left out', async () => {
    const ws = await t.newWorkspace();
    const sized = await t.http.post('/v1/kb/icps/criteria').set('Authorization', ws.auth).send({ description: 'Mid-market fintech' });
    expect(sized.status).toBe(200);
    expect(sized.body.assumptions).toEqual(['mid-market read as 100–999 employees']);
    expect(sized.body.criteria).toContainEqual(expect.objectContaining({ kind: 'employees', assumed: 'mid-market, read as 100–999' }));

    const none = await t.http
      .post('/v1/kb/personas/criteria')
      .set('Authorization', ws.auth)
      .send({ description: 'People who love spreadsheets' });
    expect(none.body).toMatchObject({
      criteria: [],
      ignored: [{ start: 11, end: 28, text: 'love spreadsheets' }],
      assumptions: [],
    });
  });

  test('a read-only key may call all four routes, and nothing is written', async () => {
    const { ws, icpId, personaId } = await seedWorkspace();
    const before = await snapshot(ws);
    const read = `Bearer ${(await t.workspaces.createKey(ws.workspace_id, 'read')).api_key}`;
    const answers = [
      await t.http.get(`/v1/kb/icps/${icpId}/criteria`).set('Authorization', read),
      await t.http.get(`/v1/kb/personas/${personaId}/criteria`).set('Authorization', read),
      await t.http.post('/v1/kb/icps/criteria').set('Authorization', read).send({ description: ICP_TEXT }),
      await t.http.post('/v1/kb/personas/criteria').set('Authorization', read).send({ description: PERSONA_TEXT }),
    ];
    expect(answers.map((res) => [res.status, res.body.object])).toEqual(Array(4).fill([200, 'criteria']));
    expectError(
      await t.http.post('/v1/kb/icps').set('Authorization', read).send({ name: 'x', short_name: 'x', description: 'y' }),
      403,
      'permission_denied',
    );
    expect(await snapshot(ws)).toBe(before);
  });

  test('reads the longest description the KB takes', async () => {
    const ws = await t.newWorkspace();
    const description = `${'Fintech and banking companies with 50-500 employees in Germany, not agencies. '.repeat(130)}`
      .slice(0, 10_000)
      .trim();
    const res = await t.http.post('/v1/kb/icps/criteria').set('Authorization', ws.auth).send({ description });
    expect(res.status).toBe(200);
    expect(res.body.criteria.map((c: { kind: string }) => c.kind)).toEqual(['industry', 'employees', 'country', 'exclusion']);
    expect(slices(res.body)).toBe(true);
  });

  test.each([
    ['no description', {}, 'description'],
    ['a blank description', { description: '   ' }, 'description'],
    ['a description that is not text', { description: ['Fintech'] }, 'description'],
    ['a description over 10,000 characters', { description: 'x'.repeat(10_001) }, 'description'],
    ['an unknown field', { description: 'Fintech', limit: 10 }, 'limit'],
  ])('%s is 400 validation_error naming the field', async (_label, body, param) => {
    const ws = await t.newWorkspace();
    for (const path of ['icps', 'personas']) {
      expectError(await t.http.post(`/v1/kb/${path}/criteria`).set('Authorization', ws.auth).send(body), 400, 'validation_error', param);
    }
  });

  test('a body that is not a JSON object is 400 naming body', async () => {
    const ws = await t.newWorkspace();
    expectError(await t.http.post('/v1/kb/icps/criteria').set('Authorization', ws.auth).send(['Fintech']), 400, 'validation_error', 'body');
  });
});
