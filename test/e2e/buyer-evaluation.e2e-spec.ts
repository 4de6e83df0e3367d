/**
 * `GET /v1/buyers/{buyer_id}/evaluation`: a Buyer's evaluation criterion by criterion, made by
 * the pipeline from activities and the enrichment directory, agreeing with the Buyer's own
 * `is_icp`/`icp_reasoning` and `is_persona`/`persona_reasoning`.
 */
import { expectError } from '../support/assertions';
import { DirectoryRepository } from '../../src/modules/directory/directory.repository';
import {
  createKb,
  deleteKb,
  email,
  getBuyer,
  ingestAndWait,
  PIPELINE_APP_ENV,
  targetPage,
  uniq,
  websiteActivity,
} from '../support/pipeline';
import { startTestApp, TestApp, TestWorkspace } from '../support/test-app';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp(PIPELINE_APP_ENV);
});

afterAll(async () => {
  await t?.close();
});

const ICP = 'Industries: Financial Services. Employees: 50-1000. Countries: Germany.';
const PERSONA = 'Finance leaders: CFOs and VPs of Finance.';
const CFO = { name: { first: 'Greta', last: 'Vogel' }, role: { title: 'CFO' } };

interface Setup {
  ws: TestWorkspace;
  url: string;
  icp: Record<string, any>;
  persona: Record<string, any>;
  domain: string;
}

/** A workspace with a Target Page, the ICP and the Persona, and a company the directory knows (industry and size). */
async function setup(
  directoryCompany: Record<string, unknown> = { industries: ['Financial Services'], employee_count: 200 },
): Promise<Setup> {
  const ws = await t.newWorkspace();
  const url = `https://www.eval-${uniq()}.com/pricing`;
  await targetPage(t, ws, url);
  const icp = await createKb(t, ws, 'icps', { name: 'DE fintech', short_name: `de-fin-${uniq()}`, description: ICP });
  const persona = await createKb(t, ws, 'personas', { name: 'Finance leaders', short_name: `fin-${uniq()}`, description: PERSONA });
  const domain = `finanz-${uniq()}.de`;
  await t.app.get(DirectoryRepository).upsertCompanies([{ domain, data: { name: 'Finanzhaus GmbH', ...directoryCompany } }]);
  return { ws, url, icp, persona, domain };
}

async function evaluationOf(ws: TestWorkspace, buyerId: string): Promise<Record<string, any>> {
  const res = await t.http.get(`/v1/buyers/${buyerId}/evaluation`).set('Authorization', ws.auth);
  expect(res.status).toBe(200);
  return res.body;
}

const byKind = (side: Record<string, any>, kind: string) => side.criteria.find((c: Record<string, any>) => c.kind === kind);

/** The rule the evaluator matches by: every criterion with data passes, and at least one does. */
function expectConsistent(side: Record<string, any>): void {
  const statuses = side.criteria.map((c: Record<string, any>) => c.status);
  const fits = statuses.includes('pass') && !statuses.includes('fail');
  expect(fits).toBe(side.matched);
}

describe('GET /v1/buyers/{buyer_id}/evaluation', () => {
  test('a match: each criterion passes, with the value checked and where it came from (activity or directory)', async () => {
    const { ws, url, icp, persona, domain } = await setup();
    const [status] = await ingestAndWait(t, ws, [
      websiteActivity('visited_page', url, {
        contact: CFO,
        company: { website: `https://www.${domain}`, location: { country: 'Germany' } },
      }),
    ]);
    const buyer = await getBuyer(t, ws, status.buyer_id!);
    const evaluation = await evaluationOf(ws, status.buyer_id!);

    expect(evaluation).toMatchObject({ object: 'buyer_evaluation', buyer_id: buyer.id, activity_id: status.id });
    expect(evaluation.icp).toMatchObject({
      matched: true,
      profile: { id: icp.id, name: 'DE fintech' },
      reasoning: buyer.company_info.icp_reasoning,
    });
    expect(buyer.company_info.is_icp).toBe(true);
    const directory = { type: 'enrichment', provider: 'directory' };
    const activity = { type: 'activity', activity_id: status.id };
    expect(byKind(evaluation.icp, 'industry')).toMatchObject({ status: 'pass', value: 'Financial Services', source: directory });
    expect(byKind(evaluation.icp, 'employees')).toMatchObject({ status: 'pass', value: '200', source: directory });
    expect(byKind(evaluation.icp, 'country')).toMatchObject({ status: 'pass', value: 'Germany', source: activity });
    expectConsistent(evaluation.icp);

    expect(evaluation.persona).toMatchObject({
      matched: true,
      profile: { id: persona.id, name: 'Finance leaders' },
      reasoning: buyer.contact_info.persona_reasoning,
    });
    expect(buyer.contact_info.is_persona).toBe(true);
    expect(evaluation.persona.criteria.length).toBeGreaterThan(0);
    for (const row of evaluation.persona.criteria) {
      expect(row).toMatchObject({ status: 'pass', value: expect.stringContaining('CFO'), source: activity });
    }
  });

  test('no match: the closest profile, the criterion that failed with the Buyer value, and the same reasoning', async () => {
    const { ws, url, icp, domain } = await setup({ industries: ['Financial Services'], employee_count: 20_000 });
    const [status] = await ingestAndWait(t, ws, [
      websiteActivity('visited_page', url, {
        contact: { name: { first: 'Sam' }, role: { title: 'Software Engineer' } },
        company: { website: `https://www.${domain}`, location: { country: 'Austria' } },
      }),
    ]);
    const buyer = await getBuyer(t, ws, status.buyer_id!);
    const evaluation = await evaluationOf(ws, status.buyer_id!);

    expect(buyer.company_info.is_icp).toBe(false);
    expect(evaluation.icp).toMatchObject({ matched: false, profile: { id: icp.id }, reasoning: buyer.company_info.icp_reasoning });
    expect(byKind(evaluation.icp, 'employees')).toMatchObject({ status: 'fail', value: '20,000', expected: expect.stringContaining('50') });
    expect(byKind(evaluation.icp, 'country')).toMatchObject({ status: 'fail', value: 'Austria' });
    expect(byKind(evaluation.icp, 'industry')).toMatchObject({ status: 'pass' });
    expectConsistent(evaluation.icp);
    // Every failed criterion the rows show is named in the reasoning.
    for (const row of evaluation.icp.criteria.filter((c: Record<string, any>) => c.status === 'fail')) {
      expect(buyer.company_info.icp_reasoning).toContain(row.value);
    }
    expect(evaluation.persona).toMatchObject({ matched: false, reasoning: buyer.contact_info.persona_reasoning });
    expect(evaluation.persona.criteria.some((c: Record<string, any>) => c.status === 'fail')).toBe(true);
  });

  test('a value without data is unknown with no source; a later activity with no details keeps the first one as source', async () => {
    const { ws, url, domain } = await setup({ industries: ['Financial Services'] });
    const address = email('greta');
    const [first] = await ingestAndWait(t, ws, [
      websiteActivity('visited_page', url, {
        identity: { email: address },
        contact: CFO,
        company: { website: `https://www.${domain}`, location: { country: 'Germany' } },
      }),
    ]);
    const before = await evaluationOf(ws, first.buyer_id!);
    expect(byKind(before.icp, 'employees')).toMatchObject({ status: 'unknown', value: '', source: null });

    const [second] = await ingestAndWait(t, ws, [
      websiteActivity('visited_page', url, { identity: { email: address }, occurred_at: '2026-03-03T10:00:00Z' }),
    ]);
    expect(second.buyer_id).toBe(first.buyer_id);
    const after = await evaluationOf(ws, first.buyer_id!);
    expect(after.activity_id).toBe(second.id);
    expect(byKind(after.icp, 'country')).toMatchObject({
      status: 'pass',
      value: 'Germany',
      source: { type: 'activity', activity_id: first.id },
    });
    expect(byKind(after.persona, 'title') ?? after.persona.criteria[0]).toMatchObject({
      status: 'pass',
      source: { type: 'activity', activity_id: first.id },
    });
  });

  test('a deleted matched ICP reads as no match with no criteria, as on the Buyer; the Persona is unchanged', async () => {
    const { ws, url, icp, domain } = await setup();
    const [status] = await ingestAndWait(t, ws, [
      websiteActivity('visited_page', url, {
        contact: CFO,
        company: { website: `https://www.${domain}`, location: { country: 'Germany' } },
      }),
    ]);
    await deleteKb(t, ws, 'icps', icp.id);
    const buyer = await getBuyer(t, ws, status.buyer_id!);
    const evaluation = await evaluationOf(ws, status.buyer_id!);
    expect(buyer.company_info).toMatchObject({ is_icp: false, icp_reasoning: '' });
    expect(evaluation.icp).toEqual({ matched: false, profile: null, reasoning: '', criteria: [] });
    expect(evaluation.persona.matched).toBe(true);
  });

  test("another workspace's Buyer and a missing one are 404, a malformed id too; a read key may read", async () => {
    const { ws, url, domain } = await setup();
    const [status] = await ingestAndWait(t, ws, [
      websiteActivity('visited_page', url, { contact: CFO, company: { website: `https://www.${domain}` } }),
    ]);
    const other = await t.newWorkspace();
    expectError(await t.http.get(`/v1/buyers/${status.buyer_id}/evaluation`).set('Authorization', other.auth), 404, 'not_found');
    expectError(await t.http.get('/v1/buyers/buy_999999999999/evaluation').set('Authorization', ws.auth), 404, 'not_found');
    expectError(await t.http.get('/v1/buyers/nonsense/evaluation').set('Authorization', ws.auth), 404, 'not_found');
    const read = await t.workspaces.createKey(ws.workspace_id, 'read');
    const res = await t.http.get(`/v1/buyers/${status.buyer_id}/evaluation`).set('Authorization', `Bearer ${read.api_key}`);
    expect(res.status).toBe(200);
    expect(res.body.buyer_id).toBe(status.buyer_id);
    expectError(await t.http.get(`/v1/buyers/${status.buyer_id}/evaluation`), 401, 'authentication_error');
  });
});
