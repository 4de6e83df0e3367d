import { DataSource } from 'typeorm';
import { expectError } from '../support/assertions';
import { insertBuyers, InsertedBuyer, workspaceInternalId } from '../support/read-model-fixtures';
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

const STORED = 'Industries: Computer Software\nEmployees: 50-1000\nCountries: Germany';

const company = (employees: number, country: string, industry = 'Computer Software', name = 'Acme') => ({
  name,
  industries: [industry],
  employee_count: employees,
  location: { country },
});

/** Five Buyers, oldest first: in both, too big, Austrian, too small, a bank. */
async function seedWorkspace(): Promise<{ ws: TestWorkspace; icpId: string; buyers: InsertedBuyer[] }> {
  const ws = await t.newWorkspace();
  const icp = await t.http
    .post('/v1/kb/icps')
    .set('Authorization', ws.auth)
    .send({ name: 'DE software', short_name: 'de-software', description: STORED });
  expect(icp.status).toBe(201);
  const buyers = await insertBuyers(
    ds,
    ws.workspace_id,
    [
      company(200, 'Germany', 'Computer Software', 'Fits GmbH'),
      company(3_000, 'Germany', 'Computer Software', 'Big GmbH'),
      company(300, 'Austria', 'Computer Software', 'Wien Soft'),
      company(40, 'Germany', 'Computer Software', 'Tiny GmbH'),
      company(200, 'Germany', 'Banking', 'Bank AG'),
    ].map((company_info, i) => ({
      company_info,
      contact_info: { name: { first: `Person${i}`, last: 'Test' }, role: { title: 'VP Engineering' } },
      created_at: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
    })),
  );
  return { ws, icpId: icp.body.id as string, buyers };
}

/** Every Buyer and ICP row of the workspace as stored, to show that nothing was written. */
async function snapshot(ws: TestWorkspace): Promise<string> {
  const id = workspaceInternalId(ws.workspace_id);
  const buyers: unknown[] = await ds.query(`SELECT * FROM buyers WHERE workspace_id = $1 ORDER BY id`, [id]);
  const icps: unknown[] = await ds.query(`SELECT * FROM icps WHERE workspace_id = $1 ORDER BY id`, [id]);
  const personas: unknown[] = await ds.query(`SELECT * FROM personas WHERE workspace_id = $1 ORDER BY id`, [id]);
  return JSON.stringify({ buyers, icps, personas });
}

describe('POST /v1/kb/icps/{icp_id}/simulate', () => {
  test('reports the Buyers a wider draft lets in, why each enters, and writes nothing', async () => {
    const { ws, icpId, buyers } = await seedWorkspace();
    const before = await snapshot(ws);
    const res = await t.http
      .post(`/v1/kb/icps/${icpId}/simulate`)
      .set('Authorization', ws.auth)
      .send({ description: 'Industries: Computer Software\nEmployees: 50-5000\nCountries: Germany, Austria' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ evaluated: 5, matched_now: 1, matched_with_draft: 3, entered: 2, left: 0 });
    expect(res.body.examples.left).toEqual([]);
    // Newest first: the Austrian company (created after the big one) comes first.
    expect(res.body.examples.entered).toEqual([
      {
        buyer_id: buyers[2].public_id,
        name: 'Person2 Test',
        company: 'Wien Soft',
        criterion: expect.objectContaining({
          kind: 'country',
          now: expect.objectContaining({ status: 'failed' }),
          draft: expect.objectContaining({ status: 'passed' }),
        }),
      },
      {
        buyer_id: buyers[1].public_id,
        name: 'Person1 Test',
        company: 'Big GmbH',
        criterion: expect.objectContaining({
          kind: 'employees',
          now: expect.objectContaining({ status: 'failed' }),
          draft: expect.objectContaining({ status: 'passed' }),
        }),
      },
    ]);
    expect(await snapshot(ws)).toBe(before);
  });

  test('reports the Buyers a draft loses and the criterion they fail', async () => {
    const { ws, icpId, buyers } = await seedWorkspace();
    const res = await t.http
      .post(`/v1/kb/icps/${icpId}/simulate`)
      .set('Authorization', ws.auth)
      .send({ description: 'Industries: Computer Software\nEmployees: 50-1000\nCountries: Austria' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ evaluated: 5, matched_now: 1, matched_with_draft: 1, entered: 1, left: 1 });
    expect(res.body.examples.left).toEqual([
      expect.objectContaining({
        buyer_id: buyers[0].public_id,
        criterion: expect.objectContaining({
          kind: 'country',
          now: expect.objectContaining({ status: 'passed' }),
          draft: expect.objectContaining({ status: 'failed' }),
        }),
      }),
    ]);
    expect(res.body.examples.entered).toEqual([expect.objectContaining({ buyer_id: buyers[2].public_id })]);
  });

  test('evaluates only the `limit` most recently created Buyers', async () => {
    const { ws, icpId } = await seedWorkspace();
    const res = await t.http.post(`/v1/kb/icps/${icpId}/simulate`).set('Authorization', ws.auth).send({ description: STORED, limit: 2 });
    expect(res.status).toBe(200);
    // The two newest are the small company and the bank: neither matches either way.
    expect(res.body).toMatchObject({ evaluated: 2, matched_now: 0, matched_with_draft: 0, entered: 0, left: 0 });
  });

  test('a read-only key may simulate; it still may not create', async () => {
    const { ws, icpId } = await seedWorkspace();
    const read = await t.workspaces.createKey(ws.workspace_id, 'read');
    const auth = `Bearer ${read.api_key}`;
    const res = await t.http.post(`/v1/kb/icps/${icpId}/simulate`).set('Authorization', auth).send({ description: STORED });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ matched_now: 1, matched_with_draft: 1, entered: 0, left: 0 });
    const created = await t.http.post('/v1/kb/icps').set('Authorization', auth).send({ name: 'x', short_name: 'x', description: 'y' });
    expectError(created, 403, 'permission_denied');
  });

  test("another workspace's ICP and a missing one are 404; a malformed id is 400 as on GET", async () => {
    const { icpId } = await seedWorkspace();
    const other = await t.newWorkspace();
    for (const id of [icpId, 'icp_1']) {
      const res = await t.http.post(`/v1/kb/icps/${id}/simulate`).set('Authorization', other.auth).send({ description: STORED });
      expectError(res, 404, 'not_found');
    }
    const malformed = await t.http.post('/v1/kb/icps/nonsense/simulate').set('Authorization', other.auth).send({ description: STORED });
    const get = await t.http.get('/v1/kb/icps/nonsense').set('Authorization', other.auth);
    expectError(malformed, 400, 'validation_error', 'icp_id');
    expect(malformed.body.error.message).toBe(get.body.error.message);
  });

  test.each([
    ['no description', {}, 'description'],
    ['a blank description', { description: '   ' }, 'description'],
    ['a description that is not text', { description: 7 }, 'description'],
    ['a description over 10,000 characters', { description: 'x'.repeat(10_001) }, 'description'],
    ['limit 0', { description: STORED, limit: 0 }, 'limit'],
    ['limit 10,001', { description: STORED, limit: 10_001 }, 'limit'],
    ['limit 2.5', { description: STORED, limit: 2.5 }, 'limit'],
    ['limit "10"', { description: STORED, limit: '10' }, 'limit'],
    ['an unknown field', { description: STORED, dry_run: true }, 'dry_run'],
  ])('%s is 400 validation_error naming the field', async (_label, body, param) => {
    const { ws, icpId } = await seedWorkspace();
    expectError(
      await t.http.post(`/v1/kb/icps/${icpId}/simulate`).set('Authorization', ws.auth).send(body),
      400,
      'validation_error',
      param,
    );
  });

  test('a body that is not a JSON object is 400 naming body', async () => {
    const { ws, icpId } = await seedWorkspace();
    const res = await t.http.post(`/v1/kb/icps/${icpId}/simulate`).set('Authorization', ws.auth).send([STORED]);
    expectError(res, 400, 'validation_error', 'body');
  });
});

describe('POST /v1/kb/icps/simulate (a new ICP)', () => {
  test('nothing matches now; every Buyer the draft matches enters', async () => {
    const { ws, buyers } = await seedWorkspace();
    const res = await t.http
      .post('/v1/kb/icps/simulate')
      .set('Authorization', ws.auth)
      .send({ description: 'Industries: Banking\nCountries: Germany' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ evaluated: 5, matched_now: 0, matched_with_draft: 1, entered: 1, left: 0 });
    expect(res.body.examples.entered).toEqual([
      expect.objectContaining({ buyer_id: buyers[4].public_id, company: 'Bank AG', criterion: expect.objectContaining({ now: null }) }),
    ]);
  });
});

describe('Persona simulation', () => {
  test('a stored Persona against a draft that names another function', async () => {
    const ws = await t.newWorkspace();
    const persona = await t.http
      .post('/v1/kb/personas')
      .set('Authorization', ws.auth)
      .send({ name: 'Eng leaders', short_name: 'eng', description: 'Titles: VP Engineering, Head of Engineering' });
    expect(persona.status).toBe(201);
    const buyers = await insertBuyers(
      ds,
      ws.workspace_id,
      ['VP Engineering', 'VP Sales', 'Software Engineer'].map((title, i) => ({
        contact_info: { name: { first: `P${i}` }, role: { title } },
        company_info: { name: `Co${i}` },
        created_at: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
      })),
    );
    const res = await t.http
      .post(`/v1/kb/personas/${persona.body.id}/simulate`)
      .set('Authorization', ws.auth)
      .send({ description: 'Titles: VP Sales, Head of Sales' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ evaluated: 3, matched_now: 1, matched_with_draft: 1, entered: 1, left: 1 });
    expect(res.body.examples.entered).toEqual([expect.objectContaining({ buyer_id: buyers[1].public_id, name: 'P1' })]);
    expect(res.body.examples.left).toEqual([expect.objectContaining({ buyer_id: buyers[0].public_id })]);

    const draft = await t.http
      .post('/v1/kb/personas/simulate')
      .set('Authorization', ws.auth)
      .send({ description: 'Titles: Software Engineer' });
    expect(draft.body).toMatchObject({ evaluated: 3, matched_now: 0, matched_with_draft: 1, entered: 1 });
  });
});
