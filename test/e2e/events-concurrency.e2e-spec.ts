/**
 * The events feed under concurrent writers: worker processes and the API write events while a
 * reader polls from its last position every 50 ms. What the reader saw must be the whole table for
 * the workspace, in the feed's order, each event once: no event may commit behind a position the
 * reader has already passed.
 */
import { Client } from 'pg';
import { createKb, ingest, PIPELINE_APP_ENV, targetPage, uniq, websiteActivity } from '../support/pipeline';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { internalId, killAllChildren, startWorker } from '../support/worker-process';

let t: TestApp;
let db: Client;

beforeAll(async () => {
  t = await startTestApp(PIPELINE_APP_ENV);
  db = new Client({ connectionString: t.config.databaseUrl });
  await db.connect();
});

afterAll(async () => {
  await killAllChildren();
  await db?.end();
  await t?.close();
});

test('a reader polling every 50 ms sees every one of 20,000+ events exactly once, in order, while three processes write them', async () => {
  const ws = await t.newWorkspace();
  const url = `https://www.feed-${uniq()}.com/pricing`;
  await targetPage(t, ws, url);
  const workers = [startWorker(t.config), startWorker(t.config)];

  const seen: string[] = [];
  let cursor: string | undefined;
  let reading = true;
  const reader = (async () => {
    while (reading) {
      const query = new URLSearchParams({ limit: '1000', ...(cursor ? { cursor } : {}) });
      const res = await t.http.get(`/v1/events?${query.toString()}`).set('Authorization', ws.auth);
      if (res.status !== 200) throw new Error(`GET /v1/events: ${res.status} ${JSON.stringify(res.body)}`);
      seen.push(...res.body.data.map((event: { id: string }) => event.id));
      cursor = res.body.pagination.resume_cursor;
      if (res.body.pagination.next_cursor === null) await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();

  // 10,000 activities of distinct people (a Signal and a new Buyer each), in batches, while the
  // API also writes knowledge-base events of the same workspace.
  const ACTIVITIES = 10_000;
  const batches = Array.from({ length: ACTIVITIES / 1_000 }, (_, b) =>
    Array.from({ length: 1_000 }, (_, i) =>
      websiteActivity('visited_page', url, {
        identity: { email: `p${b}-${i}-${uniq()}@feed.example` },
        occurred_at: `2026-0${1 + (i % 9)}-01T10:00:00Z`,
      }),
    ),
  );
  const topics = Array.from({ length: 200 }, (_, i) =>
    createKb(t, ws, 'topics', { name: `T${i}`, short_name: `t${i}-${uniq()}`, description: 'x' }),
  );
  for (const batch of batches) await ingest(t, ws, batch);
  await Promise.all(topics);

  const workspaceId = internalId(ws.workspace_id);
  const expected = 1 + 200 + 2 * ACTIVITIES;
  await waitFor(
    async () => Number((await db.query('SELECT count(*)::int AS n FROM events WHERE workspace_id = $1', [workspaceId])).rows[0].n),
    (n) => n >= expected,
    { timeoutMs: 120_000, intervalMs: 200, what: 'every event to be written' },
  );
  await waitFor(
    () => seen.length,
    (n) => n >= expected,
    { timeoutMs: 30_000, intervalMs: 50, what: 'the reader to catch up' },
  );
  reading = false;
  await reader;
  for (const worker of workers) expect(worker.hasExited()).toBe(false);

  const table = (await db.query('SELECT id FROM events WHERE workspace_id = $1 ORDER BY seq', [workspaceId])).rows.map(
    (row) => `evt_${String(row.id).padStart(19, '0')}`,
  );
  expect(table).toHaveLength(expected);
  expect(new Set(seen).size).toBe(seen.length);
  expect(seen).toEqual(table);
}, 240_000);
