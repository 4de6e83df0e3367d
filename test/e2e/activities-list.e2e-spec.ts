/**
 * `GET /ingest/v1/activities`: the workspace's activities with what the pipeline made of them,
 * filtered and paged like the other lists, and the near miss a discarded website activity keeps.
 * End to end with the pipeline workers running.
 */
import { expectError, TIMESTAMP } from '../support/assertions';
import { walkList } from '../support/list-walk';
import {
  activityStatus,
  ActivityStatus,
  ingestAndWait,
  linkedinActivity,
  marketActivity,
  PIPELINE_APP_ENV,
  RawActivity,
  targetForm,
  targetPage,
  uniq,
  websiteActivity,
} from '../support/pipeline';
import { startTestApp, TestApp, TestWorkspace } from '../support/test-app';
import { waitFor } from '../support/wait';

const LIST = '/ingest/v1/activities';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp(PIPELINE_APP_ENV);
});

afterAll(async () => {
  await t?.close();
});

const idValue = (id: string) => BigInt(id.slice('act_'.length));
const newestFirst = (a: string, b: string) => (idValue(a) > idValue(b) ? -1 : idValue(a) < idValue(b) ? 1 : 0);

interface Fixture {
  ws: TestWorkspace;
  site: string;
  page: Record<string, any>;
  form: Record<string, any>;
  /** Final statuses by name, and every id newest first. */
  by: Record<string, ActivityStatus>;
  all: string[];
}

/**
 * A workspace with a Target Page `<site>/pricing` and a Target Form `<site>/contact`, and one
 * activity of each outcome, ingested in two requests.
 */
async function fixture(): Promise<Fixture> {
  const ws = await t.newWorkspace();
  const site = `list-${uniq()}.com`;
  const page = await targetPage(t, ws, `https://${site}/pricing`);
  const form = await targetForm(t, ws, `https://${site}/contact`);
  const named: Array<[string, RawActivity]> = [
    ['matched', websiteActivity('visited_page', `https://${site}/pricing?utm_source=news`)],
    ['www', websiteActivity('visited_page', `https://www.${site}/pricing`)],
    ['form', websiteActivity('filled_form', `https://${site}/contact-us`)],
    ['topic', marketActivity('researched_topic', { topic: 'Nothing we know' })],
  ];
  const later: Array<[string, RawActivity]> = [
    ['unresolved', websiteActivity('visited_page', `https://${site}/pricing`, { identity: { email: 'nope' } })],
    ['linkedin', linkedinActivity('followed_page', { url: 'https://www.linkedin.com/company/nobody', company_name: 'Nobody' })],
    ['elsewhere', websiteActivity('abandoned_form', `https://other-${site}/contact`)],
  ];
  const by: Record<string, ActivityStatus> = {};
  for (const batch of [named, later]) {
    const statuses = await ingestAndWait(
      t,
      ws,
      batch.map(([, raw]) => raw),
    );
    batch.forEach(([name], k) => (by[name] = statuses[k]));
  }
  return {
    ws,
    site,
    page,
    form,
    by,
    all: Object.values(by)
      .map((s) => s.id)
      .sort(newestFirst),
  };
}

let f: Fixture;
beforeAll(async () => {
  f = await fixture();
});

async function list(ws: TestWorkspace, query: Record<string, string>) {
  return t.http.get(LIST).query(query).set('Authorization', ws.auth);
}

async function ids(query: Record<string, string>, ws = f.ws): Promise<string[]> {
  const { items } = await walkList<ActivityStatus>(t.http, ws.auth, LIST, query, [2, 3]);
  return items.map((item) => item.id);
}

describe('GET /ingest/v1/activities', () => {
  it('lists every activity exactly once, newest first, each as the single route shows it', async () => {
    for (const limits of [[1], [2, 5], [1000]]) {
      const { items, pages } = await walkList<ActivityStatus>(t.http, f.ws.auth, LIST, {}, limits);
      expect(items.map((item) => item.id)).toEqual(f.all);
      expect(pages[pages.length - 1].next_cursor).toBeNull();
      for (const item of items) expect(item).toEqual(await activityStatus(t, f.ws, item.id));
    }
    const res = await list(f.ws, {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: expect.any(Array), pagination: { next_cursor: null } });
    expect(res.body.data[0]).toEqual({
      id: f.by.elsewhere.id,
      status: 'discarded',
      signal_id: null,
      buyer_id: null,
      discard_reason: 'no_target_match',
      near_miss: null,
      type: 'website',
      trigger: 'abandoned_form',
      occurred_at: '2026-03-02T10:00:00Z',
      received_at: expect.stringMatching(TIMESTAMP),
    });
  });

  it('lists oldest first with sort_order=asc', async () => {
    expect(await ids({ sort_order: 'asc' })).toEqual([...f.all].reverse());
    expect(await ids({ sort_by: 'received_at', sort_order: 'desc' })).toEqual(f.all);
  });

  it('filters by status, discard_reason, type and trigger, combined with AND', async () => {
    const { by } = f;
    const expectIds = async (query: Record<string, string>, names: string[]) =>
      expect(await ids(query)).toEqual(names.map((name) => by[name].id).sort(newestFirst));
    await expectIds({ status: 'processed' }, ['matched']);
    await expectIds({ status: 'queued' }, []);
    await expectIds({ status: 'discarded' }, ['www', 'form', 'topic', 'unresolved', 'linkedin', 'elsewhere']);
    await expectIds({ discard_reason: 'no_target_match' }, ['www', 'form', 'topic', 'linkedin', 'elsewhere']);
    await expectIds({ status: 'discarded', discard_reason: 'unresolved_identity' }, ['unresolved']);
    await expectIds({ discard_reason: 'excluded_company' }, []);
    await expectIds({ type: 'website' }, ['matched', 'www', 'form', 'unresolved', 'elsewhere']);
    await expectIds({ type: 'website', trigger: 'visited_page' }, ['matched', 'www', 'unresolved']);
    await expectIds({ type: 'website', trigger: 'visited_page', status: 'discarded', discard_reason: 'no_target_match' }, ['www']);
    await expectIds({ type: 'market', status: 'processed' }, []);
  });

  it('filters by arrival: received_after is inclusive, received_before exclusive', async () => {
    const ws = await t.newWorkspace();
    const [first] = await ingestAndWait(t, ws, [marketActivity('researched_topic', { topic: 'a' })]);
    // The next activity must arrive in a later second than the first (received_at is to the second).
    const firstSecond = Date.parse(first.received_at);
    await waitFor(
      () => Date.now(),
      (now) => now >= firstSecond + 1000,
      { what: 'the next second' },
    );
    const [second] = await ingestAndWait(t, ws, [marketActivity('researched_topic', { topic: 'b' })]);
    expect(Date.parse(second.received_at)).toBeGreaterThan(firstSecond);
    const at = second.received_at;
    expect(await ids({ received_after: at }, ws)).toEqual([second.id]);
    expect(await ids({ received_before: at }, ws)).toEqual([first.id]);
    expect(await ids({ received_after: first.received_at, received_before: at }, ws)).toEqual([first.id]);
    expect(await ids({ received_after: '2100-01-01T00:00:00Z' }, ws)).toEqual([]);
    expect(await ids({ received_before: '2024-01-01T00:00:00Z' }, ws)).toEqual([]);
    expect(await ids({ received_after: '2000-01-01T00:00:00Z' }, ws)).toEqual([second.id, first.id]);
  });

  it('answers a read-only key as a write key', async () => {
    const read = await t.workspaces.createKey(f.ws.workspace_id, 'read');
    const { items } = await walkList<ActivityStatus>(t.http, `Bearer ${read.api_key}`, LIST, {}, [4]);
    expect(items.map((item) => item.id)).toEqual(f.all);
    expectError(await t.http.get(LIST), 401, 'authentication_error');
  });

  it('never shows another workspace its activities', async () => {
    const other = await t.newWorkspace();
    const [theirs] = await ingestAndWait(t, other, [websiteActivity('visited_page', `https://www.${f.site}/pricing`)]);
    expect(await ids({}, other)).toEqual([theirs.id]);
    // Their www. visit found no Target Page of theirs to come close to.
    expect(theirs.near_miss).toBeNull();
    expect(await ids({})).toEqual(f.all);
    expect(await ids({ status: 'discarded', type: 'website' })).not.toContain(theirs.id);
    expectError(await t.http.get(`${LIST}/${theirs.id}`).set('Authorization', f.ws.auth), 404, 'not_found');
  });

  describe('near misses', () => {
    it('names the Target Page a www. visit missed by its host (www.example.com/pricing against example.com/pricing)', async () => {
      const expected = { target_page_id: f.page.id, url: `${f.site}/pricing`, differences: ['host'] };
      expect(f.by.www).toMatchObject({ status: 'discarded', discard_reason: 'no_target_match', near_miss: expected });
      const res = await list(f.ws, { type: 'website', trigger: 'visited_page', discard_reason: 'no_target_match' });
      expect(res.body.data).toEqual([expect.objectContaining({ id: f.by.www.id, near_miss: expected })]);
    });

    it('names the Target Form a submission missed by its path', () => {
      expect(f.by.form.near_miss).toEqual({ target_form_id: f.form.id, url: `${f.site}/contact`, differences: ['path'] });
    });

    it('is null when nothing came close, for other reasons and for matched activities', () => {
      for (const name of ['matched', 'topic', 'unresolved', 'linkedin', 'elsewhere']) expect(f.by[name].near_miss).toBeNull();
    });
  });

  describe('invalid parameters', () => {
    it.each([
      [{ foo: '1' }, 'foo'],
      [{ status: 'done' }, 'status'],
      [{ status: '' }, 'status'],
      [{ discard_reason: 'bored' }, 'discard_reason'],
      [{ status: 'processed', discard_reason: 'no_target_match' }, 'discard_reason'],
      [{ type: 'email' }, 'type'],
      [{ trigger: 'visited_page' }, 'trigger'],
      [{ type: 'market', trigger: 'visited_page' }, 'trigger'],
      [{ received_after: '2026-03-02' }, 'received_after'],
      [{ received_before: '2026-02-30T00:00:00Z' }, 'received_before'],
      [{ limit: '0' }, 'limit'],
      [{ limit: '1001' }, 'limit'],
      [{ limit: 'ten' }, 'limit'],
      [{ sort_by: 'created_at' }, 'sort_by'],
      [{ sort_order: 'up' }, 'sort_order'],
    ])('%j → 400 invalid_parameter with param %s', async (query, param) => {
      expectError(await list(f.ws, query), 400, 'invalid_parameter', param);
    });

    it('refuses a repeated parameter', async () => {
      const res = await t.http.get(`${LIST}?status=processed&status=discarded`).set('Authorization', f.ws.auth);
      expectError(res, 400, 'invalid_parameter', 'status');
    });
  });

  describe('cursors', () => {
    async function firstCursor(query: Record<string, string>): Promise<string> {
      const res = await list(f.ws, { ...query, limit: '1' });
      expect(res.status).toBe(200);
      expect(typeof res.body.pagination.next_cursor).toBe('string');
      return res.body.pagination.next_cursor;
    }

    it('binds a cursor to its filters and sort; limit may change', async () => {
      const cursor = await firstCursor({ status: 'discarded' });
      const next = await list(f.ws, { status: 'discarded', cursor, limit: '2' });
      expect(next.status).toBe(200);
      expect(next.body.data).toHaveLength(2);
      for (const query of [
        {} as Record<string, string>,
        { status: 'processed' },
        { status: 'discarded', type: 'website' },
        { status: 'discarded', sort_order: 'asc' },
        { status: 'discarded', received_after: '2024-01-01T00:00:00Z' },
      ]) {
        expectError(await list(f.ws, { ...query, cursor }), 400, 'invalid_cursor', 'cursor');
      }
    });

    it('refuses an altered cursor, another list’s cursor and another workspace’s cursor', async () => {
      const cursor = await firstCursor({});
      const altered = cursor.slice(0, -2) + (cursor.endsWith('A') ? 'BB' : 'AA');
      expectError(await list(f.ws, { cursor: altered }), 400, 'invalid_cursor', 'cursor');
      expectError(await list(f.ws, { cursor: 'not-a-cursor' }), 400, 'invalid_cursor', 'cursor');
      const other = await t.newWorkspace();
      expectError(await list(other, { cursor }), 400, 'invalid_cursor', 'cursor');
      expectError(await t.http.get('/v1/signals').query({ cursor }).set('Authorization', f.ws.auth), 400, 'invalid_cursor', 'cursor');
    });
  });
});
