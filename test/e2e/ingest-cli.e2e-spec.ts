import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { PipelineProducer } from '../../src/modules/pipeline/pipeline.producer';
import { expectFailure, oneJsonLine } from '../support/cli';
import { unique } from '../support/kb-resources';
import { startTestApp, TestApp, TestWorkspace } from '../support/test-app';
import { waitFor } from '../support/wait';
import { activityProgress, internalId, killAllChildren, runCliWith } from '../support/worker-process';

jest.setTimeout(60_000);

/** The app runs the pipeline workers inline; the CLI shares its database and queue prefix. */
let t: TestApp;
let db: Client;
let dir: string;

beforeAll(async () => {
  t = await startTestApp({ RUN_WORKERS: 'true' });
  db = new Client({ connectionString: t.config.databaseUrl });
  await db.connect();
  dir = mkdtempSync(join(tmpdir(), 'ingest-cli-'));
});

afterAll(async () => {
  await killAllChildren();
  await db?.end();
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const cli = (...args: string[]) => runCliWith(t.config, args);

let fileCounter = 0;
/** Writes `lines` (objects are serialised, strings written as they are) to a fresh file. */
function ndjson(lines: Array<Record<string, unknown> | string>): string {
  fileCounter += 1;
  const path = join(dir, `file-${fileCounter}.ndjson`);
  writeFileSync(path, lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n');
  return path;
}

function minute(i: number): string {
  return new Date(Date.UTC(2026, 1, 1) + i * 60_000).toISOString().replace('.000Z', 'Z');
}

function visit(identity: Record<string, unknown>, url: string, i: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'website', trigger: 'visited_page', occurred_at: minute(i), identity, website: { url }, ...extra };
}

async function targetPage(ws: TestWorkspace): Promise<string> {
  const n = unique();
  const url = `https://www.initech-${n}.com/demo`;
  await t.http
    .post('/v1/kb/target-pages')
    .set('Authorization', ws.auth)
    .send({ name: `Demo ${n}`, short_name: `demo-${n}`, url, description: 'Book a demo' })
    .expect(201);
  return url;
}

async function activityCount(ws: TestWorkspace): Promise<number> {
  return (await activityProgress(db, ws.workspace_id)).total;
}

describe('ingest', () => {
  test('prints the accepted and duplicate counts of a file, and stores each new activity once', async () => {
    const ws = await t.newWorkspace();
    const url = 'https://www.example.com/anything';
    const lines = [
      visit({ email: 'a@one.com' }, url, 1, { external_id: 'ext-1' }),
      visit({ email: 'b@one.com' }, url, 2, { external_id: 'ext-2' }),
      visit({ email: 'c@one.com' }, url, 3),
      visit({ email: 'b@one.com' }, url, 2, { external_id: 'ext-2' }),
      visit({ email: 'd@one.com' }, url, 4, { external_id: 'ext-3' }),
    ];
    const file = ndjson(lines);
    const out = oneJsonLine(await cli('ingest', '--workspace', ws.workspace_id, '--file', file));
    expect(out).toEqual({ workspace_id: ws.workspace_id, accepted: 4, duplicates: 1 });
    expect(await activityCount(ws)).toBe(4);
    const external = await db.query('SELECT external_id FROM activities WHERE workspace_id = $1 AND external_id IS NOT NULL ORDER BY 1', [
      internalId(ws.workspace_id),
    ]);
    expect(external.rows.map((r) => r.external_id)).toEqual(['ext-1', 'ext-2', 'ext-3']);

    // The same file again: only the line without an external_id is new.
    const again = oneJsonLine(await cli('ingest', '--workspace', ws.workspace_id, '--file', file));
    expect(again).toEqual({ workspace_id: ws.workspace_id, accepted: 1, duplicates: 4 });
    expect(await activityCount(ws)).toBe(5);
  });

  test('--wait returns when the pipeline has finished the file: processed + discarded = accepted', async () => {
    const ws = await t.newWorkspace();
    const url = await targetPage(ws);
    const lines = [
      ...Array.from({ length: 8 }, (_, i) => visit({ email: `w${i % 3}@two.com` }, url, i, { external_id: `wait-${i}` })),
      // No Target Page for this URL: discarded.
      visit({ email: 'w0@two.com' }, 'https://www.elsewhere.com/', 20),
      visit({ email: 'w1@two.com' }, 'https://www.elsewhere.com/blog', 21),
      // Nothing that identifies a person: discarded.
      visit({ linkedin: 'https://www.linkedin.com/company/not-a-person' }, url, 22),
      visit({ email: 'w0@two.com' }, url, 0, { external_id: 'wait-0' }),
    ];
    const out = oneJsonLine(await cli('ingest', '--workspace', ws.workspace_id, '--file', ndjson(lines), '--wait'));
    expect(out).toEqual({ workspace_id: ws.workspace_id, accepted: 11, duplicates: 1, processed: 8, discarded: 3 });
    expect((out.processed as number) + (out.discarded as number)).toBe(out.accepted);
    // When it returns, nothing of the file is still in the pipeline.
    expect(await activityProgress(db, ws.workspace_id)).toEqual({ total: 11, processed: 8, discarded: 3, pending: 0 });
    const signals = await db.query('SELECT count(*)::int AS n FROM signals WHERE workspace_id = $1', [internalId(ws.workspace_id)]);
    expect(signals.rows[0].n).toBe(8);
  });

  test('--wait on a file whose lines are all duplicates still reports processed and discarded', async () => {
    const ws = await t.newWorkspace();
    const url = await targetPage(ws);
    const file = ndjson([
      visit({ email: 'r1@two.com' }, url, 1, { external_id: 'rerun-1' }),
      visit({ email: 'r2@two.com' }, 'https://www.elsewhere.com/', 2, { external_id: 'rerun-2' }),
    ]);
    const first = oneJsonLine(await cli('ingest', '--workspace', ws.workspace_id, '--file', file, '--wait'));
    expect(first).toEqual({ workspace_id: ws.workspace_id, accepted: 2, duplicates: 0, processed: 1, discarded: 1 });
    const again = oneJsonLine(await cli('ingest', '--workspace', ws.workspace_id, '--file', file, '--wait'));
    expect(again).toEqual({ workspace_id: ws.workspace_id, accepted: 0, duplicates: 2, processed: 0, discarded: 0 });
  });

  test('an invalid activity on line 3 stops the import with a message naming line 3', async () => {
    const ws = await t.newWorkspace();
    const url = 'https://www.example.com/x';
    const file = ndjson([
      visit({ email: 'a@three.com' }, url, 1),
      visit({ email: 'b@three.com' }, url, 2),
      { ...visit({ email: 'c@three.com' }, url, 3), trigger: 'teleported' },
      visit({ email: 'd@three.com' }, url, 4),
    ]);
    const result = await cli('ingest', '--workspace', ws.workspace_id, '--file', file);
    expectFailure(result);
    expect(result.stderr).toMatch(/\bline 3\b/);
    expect(result.stderr).toMatch(/trigger/);
    // The batch is validated whole: nothing of it is stored.
    expect(await activityCount(ws)).toBe(0);
  });

  test('a line that is not JSON is reported by its line number, blank lines counted', async () => {
    const ws = await t.newWorkspace();
    const file = ndjson([visit({ email: 'a@four.com' }, 'https://www.example.com/', 1), '', '{"type": "website",', '']);
    const result = await cli('ingest', '--workspace', ws.workspace_id, '--file', file);
    expectFailure(result);
    expect(result.stderr).toMatch(/\bline 3\b/);
    expect(await activityCount(ws)).toBe(0);
  });

  test('an unknown or malformed workspace, or a missing file, fails without output', async () => {
    const ws = await t.newWorkspace();
    const file = ndjson([visit({ email: 'a@six.com' }, 'https://www.example.com/', 1)]);

    const unknown = await cli('ingest', '--workspace', 'wor_0000000000000000001', '--file', file);
    expectFailure(unknown);
    expect(unknown.stderr).toContain('wor_0000000000000000001');

    expectFailure(await cli('ingest', '--workspace', 'wor_abc', '--file', file));
    expectFailure(await cli('ingest', '--workspace', ws.workspace_id, '--file', join(dir, 'does-not-exist.ndjson')));
    expectFailure(await cli('ingest', '--file', file));
    expect(await activityCount(ws)).toBe(0);
    const all = await db.query('SELECT count(*)::int AS n FROM activities WHERE workspace_id = 1');
    expect(all.rows[0].n).toBe(0);
  });
});

describe('directory import and enrichment', () => {
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
  const md5 = (text: string) => createHash('md5').update(text).digest('hex');
  let ws: TestWorkspace;
  let url: string;
  let suffix: string;
  const emailOf = (local: string) => `${local}@${suffix}.example.org`;

  beforeAll(async () => {
    ws = await t.newWorkspace();
    url = await targetPage(ws);
    suffix = unique();
    const companies = ndjson([
      {
        domain: `globex-${suffix}.com`,
        name: 'Globex Corporation',
        industries: ['Computer Software', 'Information Technology'],
        employee_count: 1200,
        company_type: 'private',
        location: { city: 'Berlin', country: 'Germany' },
      },
      { domain: `initrode-${suffix}.com`, name: 'Initrode', industries: ['Insurance'], employee_count: 75 },
    ]);
    const people = ndjson([
      {
        email: emailOf('Ada.Lovelace'),
        name: { first: 'Ada', last: 'Lovelace' },
        role: { title: 'VP Engineering', seniority: 'VP' },
        linkedin: `https://www.linkedin.com/in/ada-${suffix}`,
        company_domain: `globex-${suffix}.com`,
      },
      {
        email: emailOf('grace'),
        name: { first: 'Grace', last: 'Hopper' },
        role: { title: 'Chief Technology Officer' },
        company_domain: `initrode-${suffix}.com`,
      },
      {
        email: emailOf('alan'),
        name: { first: 'Alan', last: 'Turing' },
        role: { title: 'Head of Research' },
        linkedin: `linkedin.com/in/alan-${suffix}/`,
        company_domain: `globex-${suffix}.com`,
      },
    ]);
    const out = oneJsonLine(await cli('directory', 'import', '--companies', companies, '--people', people));
    expect(out).toEqual({ companies: 2, people: 3 });
  });

  async function ingestOne(activity: Record<string, unknown>): Promise<Record<string, any>> {
    const res = await t.http
      .post('/ingest/v1/activities')
      .set('Authorization', ws.auth)
      .send({ activities: [activity] });
    expect(res.status).toBe(202);
    const id = res.body.data[0].id as string;
    return waitFor(
      async () => (await t.http.get(`/ingest/v1/activities/${id}`).set('Authorization', ws.auth).expect(200)).body,
      (s) => s.status !== 'queued',
      { what: `${id} to finish` },
    );
  }

  async function buyer(id: string): Promise<Record<string, any>> {
    return (await t.http.get(`/v1/buyers/${id}`).set('Authorization', ws.auth).expect(200)).body;
  }

  test('an activity with only an email yields a Buyer carrying the directory’s person and company', async () => {
    const done = await ingestOne(visit({ email: emailOf('ada.lovelace') }, url, 1));
    expect(done).toMatchObject({ status: 'processed', buyer_id: expect.stringMatching(/^buy_\d{19}$/) });
    const b = await buyer(done.buyer_id);
    expect(b.contact_info).toMatchObject({
      name: { first: 'Ada', last: 'Lovelace' },
      role: { title: 'VP Engineering', seniority: 'VP' },
      email: { work: emailOf('ada.lovelace').toLowerCase() },
      social: { linkedin: `https://www.linkedin.com/in/ada-${suffix}` },
    });
    expect(b.company_info).toMatchObject({
      name: 'Globex Corporation',
      website: `https://globex-${suffix}.com`,
      industries: ['Computer Software', 'Information Technology'],
      employee_count: 1200,
      company_type: 'private',
      location: { city: 'Berlin', country: 'Germany' },
    });
  });

  test('the activity’s company hint wins over the directory, which fills the other fields', async () => {
    const done = await ingestOne(
      visit({ email: emailOf('grace') }, url, 2, { company: { name: 'Initrode Global Holdings' }, contact: { role: { title: 'CTO' } } }),
    );
    expect(done.status).toBe('processed');
    const b = await buyer(done.buyer_id);
    expect(b.company_info).toMatchObject({ name: 'Initrode Global Holdings', industries: ['Insurance'], employee_count: 75 });
    expect(b.contact_info).toMatchObject({ name: { first: 'Grace', last: 'Hopper' }, role: { title: 'CTO' } });
  });

  test('a LinkedIn-only or hem-only identity of a directory person resolves to the Buyer of their email', async () => {
    const byEmail = await ingestOne(visit({ email: emailOf('alan') }, url, 3));
    expect(byEmail.status).toBe('processed');
    const byLinkedin = await ingestOne(visit({ linkedin: `https://linkedin.com/in/Alan-${suffix}?trk=profile` }, url, 4));
    expect(byLinkedin).toMatchObject({ status: 'processed', buyer_id: byEmail.buyer_id });
    const byHem = await ingestOne(visit({ hem: { type: 'sha256', value: sha256(emailOf('alan')) } }, url, 5));
    expect(byHem).toMatchObject({ status: 'processed', buyer_id: byEmail.buyer_id });

    const byMd5 = await ingestOne(visit({ hem: { type: 'md5', value: md5(emailOf('alan')) } }, url, 6));
    expect(byMd5).toMatchObject({ status: 'processed', buyer_id: byEmail.buyer_id });

    const b = await buyer(byEmail.buyer_id);
    expect(b.signal_count).toEqual({ total: 4, website: 4, market: 0, linkedin: 0 });
    expect(b.contact_info).toMatchObject({ name: { first: 'Alan', last: 'Turing' }, email: { work: emailOf('alan') } });
    expect(b.company_info.name).toBe('Globex Corporation');
    const buyers = await db.query(`SELECT count(*)::int AS n FROM buyers WHERE workspace_id = $1 AND person_key LIKE '%alan%'`, [
      internalId(ws.workspace_id),
    ]);
    expect(buyers.rows[0].n).toBe(1);
  });

  test('a person the directory does not know still gets the directory’s company of their email domain', async () => {
    const done = await ingestOne(visit({ email: `newcomer@initrode-${suffix}.com` }, url, 7));
    expect(done.status).toBe('processed');
    const b = await buyer(done.buyer_id);
    expect(b.company_info).toMatchObject({ name: 'Initrode', industries: ['Insurance'], employee_count: 75 });
    expect(b.contact_info).toMatchObject({ name: { first: '', last: '' }, email: { work: `newcomer@initrode-${suffix}.com` } });
  });

  test('a malformed NDJSON line fails the import with its line number', async () => {
    const people = ndjson([{ email: `x-${suffix}@example.org`, name: { first: 'X' } }, '{"email": "broken@example.org",', '']);
    const result = await cli('directory', 'import', '--people', people);
    expectFailure(result);
    expect(result.stderr).toMatch(/(\bline 2\b|:2\b)/);

    const companies = ndjson([{ domain: `ok-${suffix}.com`, name: 'Ok' }, '', { name: 'No domain at all' }]);
    const noDomain = await cli('directory', 'import', '--companies', companies);
    expectFailure(noDomain);
    expect(noDomain.stderr).toMatch(/(\bline 3\b|:3\b)/);
  });
});

/**
 * With the pipeline paused: these files only test what the CLI stores, and thousands of queued
 * activities would otherwise keep the inline workers busy until the app closes. Their jobs are
 * removed before the pipeline runs again, so tests after these find it running and idle.
 */
describe('large files', () => {
  beforeAll(async () => {
    await t.app.get(PipelineProducer).queue('resolve').pause();
  });
  afterAll(async () => {
    const resolveQueue = t.app.get(PipelineProducer).queue('resolve');
    await resolveQueue.drain();
    await resolveQueue.resume();
  });

  test('a bad line in a later batch names its own line; the earlier batch stays accepted', async () => {
    const ws = await t.newWorkspace();
    const url = 'https://www.example.com/batches';
    const lines: Array<Record<string, unknown>> = Array.from({ length: 1500 }, (_, i) => visit({ email: `p${i}@five.com` }, url, i));
    lines[1202] = { ...lines[1202], occurred_at: 'yesterday' };
    const result = await cli('ingest', '--workspace', ws.workspace_id, '--file', ndjson(lines));
    expectFailure(result);
    expect(result.stderr).toMatch(/\bline 1203\b/);
    expect(result.stderr).toMatch(/occurred_at/);
    expect(await activityCount(ws)).toBe(1000);
  });

  test('a 5,000-line file is ingested completely', async () => {
    const ws = await t.newWorkspace();
    const url = 'https://www.example.com/large';
    const lines = Array.from({ length: 5000 }, (_, i) =>
      visit({ email: `bulk${i % 400}@seven.com` }, url, i, i % 2 === 0 ? { external_id: `bulk-${i}` } : {}),
    );
    const resolveQueue = t.app.get(PipelineProducer).queue('resolve');
    const queuedBefore = await resolveQueue.count();
    const out = oneJsonLine(await cli('ingest', '--workspace', ws.workspace_id, '--file', ndjson(lines)));
    expect(out).toEqual({ workspace_id: ws.workspace_id, accepted: 5000, duplicates: 0 });
    // Every accepted activity is waiting for Resolve (the queue is paused).
    expect((await resolveQueue.count()) - queuedBefore).toBe(5000);
    expect(await activityCount(ws)).toBe(5000);
    const distinct = await db.query(
      'SELECT count(DISTINCT external_id)::int AS n, count(DISTINCT id)::int AS ids FROM activities WHERE workspace_id = $1',
      [internalId(ws.workspace_id)],
    );
    expect(distinct.rows[0]).toEqual({ n: 2500, ids: 5000 });
  });
});
