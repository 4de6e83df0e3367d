/**
 * `Idempotency-Key` on the POST and PATCH routes (ADR 0045): replays, mismatches, a key in use,
 * leases, expiry, workspaces, failures giving the key up, and invalid keys, over HTTP against
 * PostgreSQL. Requests held in flight are held by a row lock a test connection takes on what the
 * handler needs (the workspace's event counter), never by timing.
 */
import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { DataSource, QueryRunner } from 'typeorm';
import { CompetitorsService } from '../../src/modules/kb/competitors/competitor.resource';
import { bodyHash } from '../../src/shared/domain/idempotency';
import { IdempotencyPruner } from '../../src/shared/infrastructure/idempotency-pruner';
import { IdempotencyRepository } from '../../src/shared/infrastructure/idempotency.repository';
import { SecretBox } from '../../src/shared/infrastructure/secret-box';
import { expectError } from '../support/assertions';
import { KB_CASES, unique } from '../support/kb-resources';
import { websiteActivity } from '../support/pipeline';
import { startTestApp, TestApp, TestWorkspace } from '../support/test-app';
import { waitFor } from '../support/wait';

let t: TestApp;
let db: DataSource;

beforeAll(async () => {
  // Webhook endpoints on loopback addresses may be created (nothing is delivered: no workers).
  t = await startTestApp({ WEBHOOK_ALLOW_INSECURE_URLS: 'true' });
  db = t.app.get(DataSource);
});
afterAll(() => t?.close());

const COMPETITORS = '/v1/kb/competitors';
const INGEST = '/ingest/v1/activities';
const PRODUCTS = KB_CASES.find((kb) => kb.path === 'products')!;

/** A key no other test uses, distinctive enough to be found if any answer echoed it. */
const newKey = (): string => `idem-${randomUUID()}`;

const competitor = (n = unique()) => ({ name: `Rival ${n}`, short_name: `rival-${n}`, domain: `rival-${n}.com` });

const internalId = (ws: TestWorkspace): string => BigInt(ws.workspace_id.replace(/^wor_/, '')).toString();

type Method = 'post' | 'patch';

/** Sends a request, with `key` as `Idempotency-Key` when given; no answer may ever contain the key. */
async function send(method: Method, path: string, auth: string, body: unknown, key?: string): Promise<Response> {
  let req = t.http[method](path).set('Authorization', auth);
  if (key !== undefined) req = req.set('Idempotency-Key', key);
  const res = body === undefined ? await req : await req.send(body as object);
  if (key !== undefined && key !== '') expect(res.text).not.toContain(key);
  return res;
}

/** Asserts that `res` is `original` replayed: its status, type and bytes, marked `Idempotent-Replayed: true`. */
function expectReplayOf(res: Response, original: Response): void {
  const seen = (r: Response, replayed: unknown) => ({ status: r.status, replayed, type: r.headers['content-type'], text: r.text });
  expect(seen(res, res.headers['idempotent-replayed'])).toEqual(seen(original, 'true'));
  expect(original.headers['idempotent-replayed']).toBeUndefined();
}

async function listCompetitors(ws: TestWorkspace): Promise<Array<Record<string, any>>> {
  const res = await t.http.get(`${COMPETITORS}?limit=1000`).set('Authorization', ws.auth);
  expect(res.status).toBe(200);
  return res.body.data as Array<Record<string, any>>;
}

interface KeyRow {
  method: string;
  path: string;
  lock_token: string;
  response_status: number | null;
  response_body: string | null;
}

async function keyRows(ws: TestWorkspace, key: string): Promise<KeyRow[]> {
  return db.query(
    `SELECT method, path, lock_token, response_status, response_body FROM idempotency_keys WHERE workspace_id = $1 AND key = $2`,
    [internalId(ws), key],
  );
}

/**
 * Holds the workspace's event counter row locked in an open transaction: every change of the
 * workspace that writes an event (a KB create does) waits for it until `release`.
 */
async function holdWorkspaceWrites(ws: TestWorkspace): Promise<{ release(): Promise<void> }> {
  const runner: QueryRunner = db.createQueryRunner();
  await runner.connect();
  await runner.startTransaction();
  await runner.query(
    `INSERT INTO event_sequences AS s (workspace_id, last) VALUES ($1, 0)
     ON CONFLICT (workspace_id) DO UPDATE SET last = s.last`,
    [internalId(ws)],
  );
  return {
    async release() {
      await runner.rollbackTransaction();
      await runner.release();
    },
  };
}

/** Waits until a statement on `table` waits for a lock: the held request is inside its handler. */
async function waitForBlockedStatement(table: string): Promise<void> {
  await waitFor(
    async () => {
      const rows: Array<{ n: number }> = await db.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE $1`,
        [`%${table}%`],
      );
      return rows[0].n;
    },
    (n) => n > 0,
    { what: 'a request waiting on the held lock' },
  );
}

/** Inserts a claim as a request that is still running (or died) would have left it. */
async function insertClaim(ws: TestWorkspace, key: string, path: string, body: unknown, lease: string): Promise<void> {
  await db.query(
    `INSERT INTO idempotency_keys (workspace_id, key, method, path, body_hash, lock_token, locked_until)
     VALUES ($1, $2, 'POST', $3, $4, $5, now() + $6::interval)`,
    [internalId(ws), key, path, bodyHash(body), randomUUID(), lease],
  );
}

/** Ends the lease of the claim on `key`, as time would. */
async function endLease(ws: TestWorkspace, key: string): Promise<void> {
  await db.query(`UPDATE idempotency_keys SET locked_until = now() - interval '1 second' WHERE workspace_id = $1 AND key = $2`, [
    internalId(ws),
    key,
  ]);
}

describe('Idempotency-Key', () => {
  it('replays a KB create: same 201 and bytes, Idempotent-Replayed, one record', async () => {
    const ws = await t.newWorkspace();
    const key = newKey();
    const body = competitor();
    const first = await send('post', COMPETITORS, ws.auth, body, key);
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    const again = await send('post', COMPETITORS, ws.auth, body, key);
    expectReplayOf(again, first);
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);

    // Another key of the same workspace shares the keys.
    const second = await t.workspaces.createKey(ws.workspace_id, 'write');
    const byOtherKey = await send('post', COMPETITORS, `Bearer ${second.api_key}`, body, key);
    expectReplayOf(byOtherKey, first);

    const listed = await listCompetitors(ws);
    expect(listed.map((c) => c.id)).toEqual([first.body.id]);
  });

  it('replays a PATCH without running it again', async () => {
    const ws = await t.newWorkspace();
    const created = await send('post', COMPETITORS, ws.auth, competitor());
    expect(created.status).toBe(201);
    const path = `${COMPETITORS}/${created.body.id}`;
    const key = newKey();
    const first = await send('patch', path, ws.auth, { description: 'first' }, key);
    expect(first.status).toBe(200);
    expect(first.body.description).toBe('first');

    // A change in between, without a key: a second run of the keyed PATCH would undo it.
    const between = await send('patch', path, ws.auth, { description: 'between' });
    expect(between.status).toBe(200);

    const again = await send('patch', path, ws.auth, { description: 'first' }, key);
    expectReplayOf(again, first);
    const stored = await t.http.get(path).set('Authorization', ws.auth);
    expect(stored.body.description).toBe('between');
    expect(stored.body.updated_at).toBe(between.body.updated_at);
  });

  it('replays an intake without external_id: the same ids, no second activity stored', async () => {
    const ws = await t.newWorkspace();
    const key = newKey();
    const body = { activities: [websiteActivity('visited_page', `https://www.${unique()}.com/pricing`)] };
    expect(body.activities[0]).not.toHaveProperty('external_id');
    const first = await send('post', INGEST, ws.auth, body, key);
    expect(first.status).toBe(202);
    const again = await send('post', INGEST, ws.auth, body, key);
    expectReplayOf(again, first);
    expect(again.body.data.map((a: { id: string }) => a.id)).toEqual(first.body.data.map((a: { id: string }) => a.id));
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM activities WHERE workspace_id = $1`, [internalId(ws)]);
    expect(n).toBe(1);
  });

  it('without the header, runs every request as before', async () => {
    const ws = await t.newWorkspace();
    const body = { activities: [websiteActivity('visited_page', `https://www.${unique()}.com/pricing`)] };
    const first = await send('post', INGEST, ws.auth, body);
    const second = await send('post', INGEST, ws.auth, body);
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.body.data[0].id).not.toBe(first.body.data[0].id);
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM idempotency_keys WHERE workspace_id = $1`, [internalId(ws)]);
    expect(n).toBe(0);
  });

  it('replays a webhook endpoint creation with its secret, stored sealed', async () => {
    const ws = await t.newWorkspace();
    const key = newKey();
    const body = { url: 'http://127.0.0.1:9/hooks', enabled_events: ['signal.created'] };
    const first = await send('post', '/v1/webhook-endpoints', ws.auth, body, key);
    expect(first.status).toBe(201);
    expect(first.body.secret).toMatch(/^whsec_/);
    const again = await send('post', '/v1/webhook-endpoints', ws.auth, body, key);
    expectReplayOf(again, first);
    const listed = await t.http.get('/v1/webhook-endpoints').set('Authorization', ws.auth);
    expect(listed.body.data.map((e: { id: string }) => e.id)).toEqual([first.body.id]);
    // The stored answer carries the signing secret, so it is kept encrypted.
    const [row] = await keyRows(ws, key);
    expect(row.response_status).toBe(201);
    expect(row.response_body).not.toContain(first.body.secret);
    expect(row.response_body).not.toContain(first.body.id);
  });

  it('answers 400 idempotency_key_mismatch for another body, path or method, and runs none of them', async () => {
    const ws = await t.newWorkspace();
    const key = newKey();
    const body = competitor();
    const first = await send('post', COMPETITORS, ws.auth, body, key);
    expect(first.status).toBe(201);

    const attempts = [
      await send('post', COMPETITORS, ws.auth, { ...body, description: 'changed' }, key),
      await send('post', '/v1/kb/products', ws.auth, PRODUCTS.valid(unique()), key),
      await send('patch', `${COMPETITORS}/${first.body.id}`, ws.auth, { description: 'changed' }, key),
    ];
    for (const res of attempts) {
      const error = expectError(res, 400, 'idempotency_key_mismatch');
      expect(error.message).toMatch(/Idempotency-Key/);
    }
    const listed = await listCompetitors(ws);
    expect(listed).toEqual([first.body]);
    const products = await t.http.get('/v1/kb/products').set('Authorization', ws.auth);
    expect(products.body.data).toEqual([]);
    // The key still replays its own request.
    expectReplayOf(await send('post', COMPETITORS, ws.auth, body, key), first);
  });

  it('treats the same members in another order and spacing as the same body', async () => {
    const ws = await t.newWorkspace();
    const key = newKey();
    const n = unique();
    const first = await t.http
      .post(COMPETITORS)
      .set('Authorization', ws.auth)
      .set('Idempotency-Key', key)
      .set('Content-Type', 'application/json')
      .send(`{"name":"Rival ${n}","short_name":"rival-${n}","domain":"rival-${n}.com"}`);
    expect(first.status).toBe(201);
    const again = await t.http
      .post(COMPETITORS)
      .set('Authorization', ws.auth)
      .set('Idempotency-Key', key)
      .set('Content-Type', 'application/json')
      .send(`{ "domain": "rival-${n}.com", "short_name": "rival-${n}", "name": "Rival ${n}" }`);
    expectReplayOf(again, first);
  });

  it('answers 409 idempotency_key_in_use with Retry-After while the first request runs, then replays it', async () => {
    const ws = await t.newWorkspace();
    const key = newKey();
    const body = competitor();
    const held = await holdWorkspaceWrites(ws);
    let first: Promise<Response> | undefined;
    try {
      first = send('post', COMPETITORS, ws.auth, body, key);
      await waitForBlockedStatement('event_sequences');
      expect(await keyRows(ws, key)).toEqual([expect.objectContaining({ method: 'POST', path: COMPETITORS, response_status: null })]);

      const during = await send('post', COMPETITORS, ws.auth, body, key);
      expectError(during, 409, 'idempotency_key_in_use');
      expect(during.headers['retry-after']).toBe('1');
    } finally {
      await held.release();
    }
    const done = await first;
    expect(done.status).toBe(201);
    const after = await send('post', COMPETITORS, ws.auth, body, key);
    expectReplayOf(after, done);
    expect((await listCompetitors(ws)).map((c) => c.id)).toEqual([done.body.id]);
  });

  it('takes over a claim whose request died, once its lease is over', async () => {
    const ws = await t.newWorkspace();
    const key = newKey();
    const body = competitor();
    // What a process that crashed after claiming leaves behind.
    await insertClaim(ws, key, COMPETITORS, body, '60 seconds');
    expectError(await send('post', COMPETITORS, ws.auth, body, key), 409, 'idempotency_key_in_use');
    expect(await listCompetitors(ws)).toEqual([]);

    await endLease(ws, key);
    const takeover = await send('post', COMPETITORS, ws.auth, body, key);
    expect(takeover.status).toBe(201);
    expect(takeover.headers['idempotent-replayed']).toBeUndefined();
    const replay = await send('post', COMPETITORS, ws.auth, body, key);
    expectReplayOf(replay, takeover);
    expect((await listCompetitors(ws)).map((c) => c.id)).toEqual([takeover.body.id]);
  });

  it('keeps the answer of the request that took over, not of the one whose lease ran out', async () => {
    const ws = await t.newWorkspace();
    const key = newKey();
    const body = { activities: [websiteActivity('visited_page', `https://www.${unique()}.com/pricing`)] };
    // Intake inserts activities; holding the table in SHARE mode makes every intake wait.
    const runner = db.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    let slow: Promise<Response> | undefined;
    let second: Promise<Response> | undefined;
    try {
      await runner.query(`LOCK TABLE activities IN SHARE MODE`);
      slow = send('post', INGEST, ws.auth, body, key);
      await waitForBlockedStatement('activities');
      const [claimed] = await keyRows(ws, key);
      // The slow request outlives its lease (as a request on a stalled process would).
      await endLease(ws, key);
      second = send('post', INGEST, ws.auth, body, key);
      await waitFor(
        () => keyRows(ws, key),
        (rows) => rows.length === 1 && rows[0].lock_token !== claimed.lock_token,
        { what: 'the claim taken over' },
      );
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    const [slowRes, secondRes] = await Promise.all([slow, second]);
    expect([slowRes.status, secondRes.status]).toEqual([202, 202]);
    // The duplicate window ADR 0045 describes: past its lease, a request that still runs runs twice.
    expect(slowRes.body.data[0].id).not.toBe(secondRes.body.data[0].id);
    // Only the holder of the claim stores its answer; the slow one cannot overwrite it.
    const replay = await send('post', INGEST, ws.auth, body, key);
    expectReplayOf(replay, secondRes);
  });

  it('treats an expired record as absent: the same request runs anew, and retention deletes it', async () => {
    const ws = await t.newWorkspace();
    const key = newKey();
    const body = { activities: [websiteActivity('visited_page', `https://www.${unique()}.com/pricing`)] };
    const first = await send('post', INGEST, ws.auth, body, key);
    expect(first.status).toBe(202);
    const age = (hours: number) =>
      db.query(`UPDATE idempotency_keys SET created_at = now() - make_interval(hours => $3) WHERE workspace_id = $1 AND key = $2`, [
        internalId(ws),
        key,
        hours,
      ]);
    // Just inside the 24 hours: still replayed.
    await age(23);
    expectReplayOf(await send('post', INGEST, ws.auth, body, key), first);

    await age(25);
    const anew = await send('post', INGEST, ws.auth, body, key);
    expect(anew.status).toBe(202);
    expect(anew.headers['idempotent-replayed']).toBeUndefined();
    expect(anew.body.data[0].id).not.toBe(first.body.data[0].id);
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM activities WHERE workspace_id = $1`, [internalId(ws)]);
    expect(n).toBe(2);
    expectReplayOf(await send('post', INGEST, ws.auth, body, key), anew);

    // Retention: the expired record goes, a fresh one stays.
    const fresh = newKey();
    expect((await send('post', INGEST, ws.auth, body, fresh)).status).toBe(202);
    await age(25);
    const pruner = new IdempotencyPruner(t.app.get(IdempotencyRepository), t.config);
    expect(await pruner.prune()).toBeGreaterThanOrEqual(1);
    expect(await keyRows(ws, key)).toEqual([]);
    expect(await keyRows(ws, fresh)).toHaveLength(1);
  });

  it('keeps workspaces apart: the same key in two workspaces is two records', async () => {
    const a = await t.newWorkspace();
    const b = await t.newWorkspace();
    const key = newKey();
    const body = competitor();
    const inA = await send('post', COMPETITORS, a.auth, body, key);
    const inB = await send('post', COMPETITORS, b.auth, body, key);
    expect([inA.status, inB.status]).toEqual([201, 201]);
    expect(inB.headers['idempotent-replayed']).toBeUndefined();
    expect(inB.body.id).not.toBe(inA.body.id);
    expect(inB.body.client_id).toBe(b.workspace_id);
    const replayB = await send('post', COMPETITORS, b.auth, body, key);
    expect(replayB.text).toBe(inB.text);
    expect(await keyRows(a, key)).toHaveLength(1);
    expect(await keyRows(b, key)).toHaveLength(1);
    expect((await listCompetitors(a)).map((c) => c.id)).toEqual([inA.body.id]);
    expect((await listCompetitors(b)).map((c) => c.id)).toEqual([inB.body.id]);
  });

  it('gives the key up after a 4xx, so the corrected retry runs', async () => {
    const ws = await t.newWorkspace();
    const key = newKey();
    const body = competitor();
    const bad = await send('post', COMPETITORS, ws.auth, { ...body, domain: 'not a domain' }, key);
    expectError(bad, 400, 'validation_error', 'domain');
    expect(await keyRows(ws, key)).toEqual([]);
    const good = await send('post', COMPETITORS, ws.auth, body, key);
    expect(good.status).toBe(201);
    expect(good.headers['idempotent-replayed']).toBeUndefined();
    expectReplayOf(await send('post', COMPETITORS, ws.auth, body, key), good);

    // A conflict is a 4xx as well: the key is given up, and a retry meets the conflict again.
    const other = newKey();
    expectError(await send('post', COMPETITORS, ws.auth, body, other), 409, 'conflict', 'short_name');
    expect(await keyRows(ws, other)).toEqual([]);
  });

  it('gives the key up after a 5xx, so the retry runs', async () => {
    const ws = await t.newWorkspace();
    const key = newKey();
    const body = competitor();
    const service = t.app.get(CompetitorsService);
    const failing = jest.spyOn(service, 'create').mockRejectedValueOnce(new Error('the database went away mid-request'));
    try {
      expectError(await send('post', COMPETITORS, ws.auth, body, key), 500, 'internal_error');
    } finally {
      failing.mockRestore();
    }
    expect(await keyRows(ws, key)).toEqual([]);
    const retry = await send('post', COMPETITORS, ws.auth, body, key);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expectReplayOf(await send('post', COMPETITORS, ws.auth, body, key), retry);
    expect((await listCompetitors(ws)).map((c) => c.id)).toEqual([retry.body.id]);
  });

  it('replays a request without a body (rotate-secret): the same new secret, rotated once', async () => {
    const ws = await t.newWorkspace();
    const created = await send('post', '/v1/webhook-endpoints', ws.auth, { url: 'http://127.0.0.1:9/hooks', enabled_events: ['*'] });
    expect(created.status).toBe(201);
    const path = `/v1/webhook-endpoints/${created.body.id}/rotate-secret`;
    const key = newKey();
    const first = await send('post', path, ws.auth, undefined, key);
    expect(first.status).toBe(200);
    expect(first.body.secret).not.toBe(created.body.secret);
    const again = await send('post', path, ws.auth, undefined, key);
    expectReplayOf(again, first);
    // Rotated once: the secret before the keyed request still signs beside the new one, which a
    // second rotation would have dropped.
    const [row] = await db.query(`SELECT secret, previous_secret FROM webhook_endpoints WHERE workspace_id = $1`, [internalId(ws)]);
    const box = new SecretBox(t.config.secretsKey);
    expect(box.open(row.previous_secret)).toBe(created.body.secret);
    expect(box.open(row.secret)).toBe(first.body.secret);
    expectError(await send('post', path, ws.auth, {}, key), 400, 'idempotency_key_mismatch');
  });

  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['a non-ASCII character', 'clé-1'],
    ['a control character', 'key\tone'],
  ])('refuses a key that is %s with 400 param Idempotency-Key, and runs nothing', async (_what, key) => {
    const ws = await t.newWorkspace();
    const res = await send('post', COMPETITORS, ws.auth, competitor(), key);
    const error = expectError(res, 400, 'validation_error', 'Idempotency-Key');
    if (key.length > 3) expect(String(error.message)).not.toContain(key);
    expect(await listCompetitors(ws)).toEqual([]);
  });

  it('refuses the header sent twice, even with one value', async () => {
    const ws = await t.newWorkspace();
    const key = newKey();
    // An array becomes one header line per value (Node's setHeader); superagent's types know only Cookie arrays.
    const twice = [key, key] as unknown as string;
    const res = await t.http.post(COMPETITORS).set('Authorization', ws.auth).set('Idempotency-Key', twice).send(competitor());
    expectError(res, 400, 'validation_error', 'Idempotency-Key');
    expect(res.text).not.toContain(key);
    expect(await listCompetitors(ws)).toEqual([]);
  });

  it('accepts a key of 255 printable characters, spaces included', async () => {
    const ws = await t.newWorkspace();
    const key = `a b~!${'x'.repeat(250)}`;
    expect(key).toHaveLength(255);
    const body = competitor();
    const first = await send('post', COMPETITORS, ws.auth, body, key);
    expect(first.status).toBe(201);
    expectReplayOf(await send('post', COMPETITORS, ws.auth, body, key), first);
  });
});
