/**
 * The events feed: events written with their changes (pipeline and knowledge base), read in a
 * stable order with resumable cursors, and nothing for a change that did not happen.
 */
import { expectError } from '../support/assertions';
import {
  createKb,
  deleteKb,
  email,
  getBuyer,
  ingestAndWait,
  patchKb,
  PIPELINE_APP_ENV,
  targetPage,
  uniq,
  websiteActivity,
} from '../support/pipeline';
import { DataSource } from 'typeorm';
import { EventsPruner } from '../../src/modules/events/events-pruner';
import { mintedAt } from '../../src/shared/domain/ids';
import { startTestApp, TestApp, TestWorkspace } from '../support/test-app';
import { waitFor } from '../support/wait';
import { internalId, startCli, stopWorker } from '../support/worker-process';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp(PIPELINE_APP_ENV);
});

afterAll(async () => {
  await t?.close();
});

type Event = Record<string, any>;

async function page(
  ws: TestWorkspace,
  query = '',
): Promise<{ data: Event[]; pagination: { next_cursor: string | null; resume_cursor: string } }> {
  const res = await t.http.get(`/v1/events${query}`).set('Authorization', ws.auth);
  if (res.status !== 200) throw new Error(`GET /v1/events${query}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Every event from `cursor` (or the start) to the end, and the cursor to resume from. */
async function readAll(ws: TestWorkspace, cursor?: string, extra = '', limit = 100): Promise<{ events: Event[]; resume: string }> {
  const events: Event[] = [];
  let next: string | undefined = cursor;
  for (;;) {
    const params = new URLSearchParams({ limit: String(limit), ...(next ? { cursor: next } : {}) });
    const body = await page(ws, `?${params.toString()}${extra}`);
    events.push(...body.data);
    if (body.pagination.next_cursor === null) return { events, resume: body.pagination.resume_cursor };
    next = body.pagination.next_cursor;
  }
}

describe('GET /v1/events', () => {
  test('a Signal and its new Buyer become signal.created then buyer.created, with the objects as the API returns them', async () => {
    const ws = await t.newWorkspace();
    const url = `https://www.ev-${uniq()}.com/pricing`;
    await targetPage(t, ws, url);
    const [status] = await ingestAndWait(t, ws, [websiteActivity('visited_page', url)]);
    const { events } = await readAll(ws);
    const types = events.map((e) => e.type);
    expect(types).toEqual(['kb.target_page.created', 'signal.created', 'buyer.created']);
    const [, signal, buyer] = events;
    expect(signal).toMatchObject({ object: 'event', id: expect.stringMatching(/^evt_\d{19}$/) });
    // Ids of the form of every other: the time they were minted, then a sequence (DESIGN §1).
    for (const event of events) {
      const minted = mintedAt(event.id.slice('evt_'.length)).getTime();
      expect(Math.abs(minted - Date.parse(event.created_at))).toBeLessThan(2_000);
    }
    expect(BigInt(buyer.id.slice(4))).toBeGreaterThan(BigInt(signal.id.slice(4)));
    const [listed] = (await t.http.get(`/v1/signals?buyer_id=${status.buyer_id}`).set('Authorization', ws.auth)).body.data;
    expect(listed.id).toBe(status.signal_id);
    expect(signal.data.object).toEqual(listed);
    expect(buyer.data.object).toEqual(await getBuyer(t, ws, status.buyer_id!));
    expect(buyer.data.previous_attributes).toBeUndefined();
    // One event by its id, as in the list.
    const one = await t.http.get(`/v1/events/${signal.id}`).set('Authorization', ws.auth);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(signal);
  });

  test('a later Signal updates the Buyer with previous_attributes; an ICP match is its own event', async () => {
    const ws = await t.newWorkspace();
    const url = `https://www.ev-${uniq()}.com/pricing`;
    await targetPage(t, ws, url);
    const address = email();
    await ingestAndWait(t, ws, [websiteActivity('visited_page', url, { identity: { email: address } })]);
    const { resume } = await readAll(ws);
    await createKb(t, ws, 'icps', { name: 'Banks', short_name: `banks-${uniq()}`, description: 'Industries: Banking' });
    await ingestAndWait(t, ws, [
      websiteActivity('visited_page', url, {
        identity: { email: address },
        occurred_at: '2026-03-03T10:00:00Z',
        company: { name: 'Bank AG', industries: ['Banking'] },
      }),
    ]);
    const { events } = await readAll(ws, resume);
    expect(events.map((e) => e.type)).toEqual(['kb.icp.created', 'signal.created', 'buyer.updated', 'buyer.icp_matched']);
    const updated = events[2];
    expect(updated.data.object.signal_count.total).toBe(2);
    expect(updated.data.previous_attributes.signal_count).toEqual({ total: 1, website: 1 });
    expect(updated.data.previous_attributes.company_info).toMatchObject({ is_icp: false, icp_id: '' });
    expect(events[3].data.object.company_info.is_icp).toBe(true);
  });

  test('previous_attributes show a match whose ICP was deleted since as the API showed it: none', async () => {
    const ws = await t.newWorkspace();
    const url = `https://www.ev-${uniq()}.com/pricing`;
    await targetPage(t, ws, url);
    const icp = await createKb(t, ws, 'icps', { name: 'Banks', short_name: `banks-${uniq()}`, description: 'Industries: Banking' });
    const address = email();
    const visit = (occurredAt: string) =>
      websiteActivity('visited_page', url, {
        identity: { email: address },
        occurred_at: occurredAt,
        company: { name: 'Bank AG', industries: ['Banking'] },
      });
    await ingestAndWait(t, ws, [visit('2026-03-02T10:00:00Z')]);
    await t.http.delete(`/v1/kb/icps/${icp.id}`).set('Authorization', ws.auth).expect(204);
    const { resume } = await readAll(ws);
    await ingestAndWait(t, ws, [visit('2026-03-03T10:00:00Z')]);
    const updated = (await readAll(ws, resume)).events.find((e) => e.type === 'buyer.updated')!;
    expect(updated.data.object.company_info).toMatchObject({ is_icp: false, icp_id: '' });
    expect(updated.data.previous_attributes.signal_count).toEqual({ total: 1, website: 1 });
    // Before the Signal, GET showed no match (its ICP was deleted) and no reasoning: the match did
    // not change, only the reasoning, which now says why nothing matched.
    expect(updated.data.previous_attributes.company_info).toEqual({ icp_reasoning: '' });
  });

  test("an earlier Signal arriving later changes the Buyer's attribution, and previous_attributes says from what", async () => {
    const ws = await t.newWorkspace();
    const url = `https://www.ev-${uniq()}.com/pricing`;
    await targetPage(t, ws, url);
    const address = email();
    const visit = (occurredAt: string, source: string) =>
      websiteActivity('visited_page', url, {
        identity: { email: address },
        occurred_at: occurredAt,
        attribution: { type: 'paid', source, source_name: source },
      });
    await ingestAndWait(t, ws, [visit('2026-03-20T10:00:00Z', 'google')]);
    const { resume } = await readAll(ws);
    await ingestAndWait(t, ws, [visit('2026-03-01T10:00:00Z', 'linkedin')]);
    const updated = (await readAll(ws, resume)).events.find((e) => e.type === 'buyer.updated')!;
    expect(updated.data.object.attribution).toMatchObject({ source: 'linkedin' });
    expect(updated.data.previous_attributes.attribution).toMatchObject({ source: 'google' });
  });

  test('an activity that happened days ago still comes after what the client has read: resuming sees it once', async () => {
    const ws = await t.newWorkspace();
    const url = `https://www.ev-${uniq()}.com/pricing`;
    await targetPage(t, ws, url);
    await ingestAndWait(t, ws, [websiteActivity('visited_page', url, { occurred_at: '2026-03-10T10:00:00Z' })]);
    const first = await readAll(ws);
    expect(first.events).toHaveLength(3);
    // Polling at the end gives nothing new, and the same resume cursor works again.
    const again = await page(ws, `?cursor=${encodeURIComponent(first.resume)}`);
    expect(again.data).toEqual([]);
    expect(again.pagination.next_cursor).toBeNull();
    await ingestAndWait(t, ws, [websiteActivity('visited_page', url, { occurred_at: '2026-02-01T10:00:00Z' })]);
    const second = await readAll(ws, again.pagination.resume_cursor);
    expect(second.events.map((e) => e.type)).toEqual(['signal.created', 'buyer.created']);
    expect(second.events[0].data.object.captured_at).toBe('2026-02-01T10:00:00Z');
    const ids = [...first.events, ...second.events].map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('a long transaction elsewhere (another session holding a transaction id) does not hold the feed back', async () => {
    const ws = await t.newWorkspace();
    const other = t.app.get(DataSource).createQueryRunner();
    await other.connect();
    await other.startTransaction();
    try {
      await other.query('SELECT pg_current_xact_id()');
      const topic = await createKb(t, ws, 'topics', { name: 'Now', short_name: `n-${uniq()}`, description: 'x' });
      const { events } = await readAll(ws);
      expect(events.map((e) => e.data.object.id)).toEqual([topic.id]);
    } finally {
      await other.rollbackTransaction();
      await other.release();
    }
  });

  test('knowledge-base changes: created, updated with previous_attributes, deleted with the record as it was', async () => {
    const ws = await t.newWorkspace();
    const topic = await createKb(t, ws, 'topics', { name: 'Privacy', short_name: `p-${uniq()}`, description: 'GDPR' });
    await patchKb(t, ws, 'topics', topic.id, { description: 'GDPR and CCPA' });
    await deleteKb(t, ws, 'topics', topic.id);
    const { events } = await readAll(ws);
    expect(events.map((e) => e.type)).toEqual(['kb.topic.created', 'kb.topic.updated', 'kb.topic.deleted']);
    expect(events[0].data.object).toEqual(topic);
    expect(events[1].data.object.description).toBe('GDPR and CCPA');
    expect(events[1].data.previous_attributes).toEqual({ description: 'GDPR', updated_at: topic.updated_at });
    expect(events[2].data.object).toMatchObject({ id: topic.id, description: 'GDPR and CCPA' });
  });

  test('concurrent knowledge-base writes of one workspace: one event each, numbered without a gap; the early commit stays in its own transaction', async () => {
    const ws = await t.newWorkspace();
    const topics = await Promise.all(
      Array.from({ length: 30 }, (_, k) => createKb(t, ws, 'topics', { name: `T${k}`, short_name: `c${k}-${uniq()}`, description: 'x' })),
    );
    await Promise.all(topics.slice(0, 10).map((topic) => deleteKb(t, ws, 'topics', topic.id)));
    const { events } = await readAll(ws, undefined, '', 7);
    expect(events).toHaveLength(40);
    expect(new Set(events.filter((e) => e.type === 'kb.topic.created').map((e) => e.data.object.id))).toEqual(
      new Set(topics.map((x) => x.id)),
    );
    const [{ seqs }]: Array<{ seqs: string[] }> = await t.app
      .get(DataSource)
      .query(`SELECT array_agg(seq::text ORDER BY seq) AS seqs FROM events WHERE workspace_id = $1`, [internalId(ws.workspace_id)]);
    expect(seqs).toEqual(Array.from({ length: 40 }, (_, k) => String(k + 1)));
    // Every pooled connection commits synchronously again: the setting lasted one transaction.
    const settings: Array<Array<{ synchronous_commit: string }>> = await Promise.all(
      Array.from({ length: 10 }, () => t.app.get(DataSource).query('SHOW synchronous_commit')),
    );
    expect(settings.map(([row]) => row.synchronous_commit)).toEqual(Array(10).fill('on'));
  });

  test('a write that fails leaves no event: a short_name conflict, an update or delete of nothing', async () => {
    const ws = await t.newWorkspace();
    const shortName = `dup-${uniq()}`;
    await createKb(t, ws, 'topics', { name: 'A', short_name: shortName, description: 'a' });
    const conflict = await t.http
      .post('/v1/kb/topics')
      .set('Authorization', ws.auth)
      .send({ name: 'B', short_name: shortName, description: 'b' });
    expect(conflict.status).toBe(409);
    expectError(await t.http.patch('/v1/kb/topics/top_999999999').set('Authorization', ws.auth).send({ name: 'x' }), 404, 'not_found');
    expectError(await t.http.delete('/v1/kb/topics/top_999999999').set('Authorization', ws.auth), 404, 'not_found');
    const { events } = await readAll(ws);
    expect(events.map((e) => e.type)).toEqual(['kb.topic.created']);
  });

  test('type filters with wildcards; created_after; cursors bound to their filters', async () => {
    const ws = await t.newWorkspace();
    const url = `https://www.ev-${uniq()}.com/pricing`;
    await targetPage(t, ws, url);
    await ingestAndWait(t, ws, [websiteActivity('visited_page', url), websiteActivity('visited_page', url)]);
    expect((await readAll(ws, undefined, '&type=buyer.*')).events.map((e) => e.type)).toEqual(['buyer.created', 'buyer.created']);
    expect((await readAll(ws, undefined, '&type=signal.created,kb.*')).events.map((e) => e.type)).toEqual([
      'kb.target_page.created',
      'signal.created',
      'signal.created',
    ]);
    expect((await readAll(ws, undefined, '&created_after=2999-01-01T00:00:00Z')).events).toEqual([]);
    const first = await page(ws, '?limit=1&type=signal.created');
    expect(first.pagination.next_cursor).not.toBeNull();
    expectError(
      await t.http.get(`/v1/events?limit=1&cursor=${encodeURIComponent(first.pagination.next_cursor!)}`).set('Authorization', ws.auth),
      400,
      'invalid_cursor',
      'cursor',
    );
  });

  test('bad parameters are 400 with param; another workspace sees none of the events', async () => {
    const ws = await t.newWorkspace();
    await createKb(t, ws, 'topics', { name: 'A', short_name: `a-${uniq()}`, description: 'a' });
    const get = (query: string, auth = ws.auth) => t.http.get(`/v1/events${query}`).set('Authorization', auth);
    expectError(await get('?type=buyer.deleted'), 400, 'invalid_parameter', 'type');
    expectError(await get('?type=nothing.*'), 400, 'invalid_parameter', 'type');
    expectError(await get('?type='), 400, 'invalid_parameter', 'type');
    expectError(await get('?type=signal.created%20'), 400, 'invalid_parameter', 'type');
    expectError(await get('?type=signal.created,%20buyer.updated'), 400, 'invalid_parameter', 'type');
    expectError(await get('?limit=0'), 400, 'invalid_parameter', 'limit');
    expectError(await get('?created_after=yesterday'), 400, 'invalid_parameter', 'created_after');
    expectError(await get('?sort_order=asc'), 400, 'invalid_parameter', 'sort_order');
    expectError(await get('?cursor=abc'), 400, 'invalid_cursor', 'cursor');
    const { events } = await readAll(ws);
    expect(events).toHaveLength(1);
    const other = await t.newWorkspace();
    expect((await readAll(other)).events).toEqual([]);
    expectError(await t.http.get(`/v1/events/${events[0].id}`).set('Authorization', other.auth), 404, 'not_found');
    expectError(await t.http.get('/v1/events/evt_nope').set('Authorization', ws.auth), 404, 'not_found');
    // A workspace's resume cursor is no cursor in another.
    const mine = await page(ws);
    expectError(await get(`?cursor=${encodeURIComponent(mine.pagination.resume_cursor)}`, other.auth), 400, 'invalid_cursor', 'cursor');
  });

  test('retention: events past EVENTS_RETENTION_DAYS are pruned; a cursor from before them still reads on', async () => {
    const ws = await t.newWorkspace();
    for (const name of ['old1', 'old2', 'new'])
      await createKb(t, ws, 'topics', { name, short_name: `${name}-${uniq()}`, description: 'x' });
    const first = await page(ws, '?limit=1');
    const ds = t.app.get(DataSource);
    await ds.query(
      `UPDATE events SET created_at = now() - interval '31 days' WHERE workspace_id = $1 AND data->>'name' IN ('old1', 'old2')`,
      [internalId(ws.workspace_id)],
    );
    expect(await t.app.get(EventsPruner).prune()).toBeGreaterThanOrEqual(2);
    const { events } = await readAll(ws, first.pagination.next_cursor!);
    expect(events.map((e) => e.data.object.name)).toEqual(['new']);
    expect((await readAll(ws)).events.map((e) => e.data.object.name)).toEqual(['new']);
  });

  test('events tail follows the feed from now on, one JSON line per event, and says where to resume', async () => {
    const ws = await t.newWorkspace();
    await createKb(t, ws, 'topics', { name: 'Before', short_name: `b-${uniq()}`, description: 'x' });
    const tail = startCli(t.config, ['events', 'tail', '--workspace', ws.workspace_id, '--interval-ms', '50'], {
      CURSOR_SECRET: t.config.cursorSecret.toString(),
    });
    const lines = () =>
      tail
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'));
    await waitFor(
      () => tail.output(),
      (output) => output.includes('following the events'),
      { what: 'the tail to start' },
    );
    const after = await createKb(t, ws, 'topics', { name: 'After', short_name: `a-${uniq()}`, description: 'x' });
    await waitFor(
      () => lines().length,
      (n) => n >= 1,
      { what: 'the tail to print the new event' },
    );
    const exit = await stopWorker(tail, 'SIGINT');
    expect(exit?.code).toBe(0);
    const printed = lines().map((line) => JSON.parse(line));
    expect(printed.map((event) => [event.type, event.data.object.id])).toEqual([['kb.topic.created', after.id]]);
    expect(tail.output()).toMatch(/resume with --cursor \S+/);
  });
});

describe('EVENTS_ENABLED=false', () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await startTestApp({ ...PIPELINE_APP_ENV, EVENTS_ENABLED: 'false' });
  });
  afterAll(async () => {
    await off?.close();
  });

  test('changes write no events, and the feed is empty', async () => {
    const ws = await off.newWorkspace();
    const url = `https://www.ev-${uniq()}.com/pricing`;
    await targetPage(off, ws, url);
    const [status] = await ingestAndWait(off, ws, [websiteActivity('visited_page', url)]);
    expect(status.status).toBe('processed');
    const rows = await off.app
      .get(DataSource)
      .query('SELECT count(*)::int AS n FROM events WHERE workspace_id = $1', [internalId(ws.workspace_id)]);
    expect(rows[0].n).toBe(0);
    const res = await off.http.get('/v1/events').set('Authorization', ws.auth);
    expect(res.body.data).toEqual([]);
  });
});
