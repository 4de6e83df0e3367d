/**
 * Tenant isolation across every endpoint and method.
 *
 * Workspace A holds real data of every kind: a few records of each knowledge-base
 * resource, Buyers and Signals made by the real pipeline from ingested activities, activities
 * that were processed and activities that were discarded, and list cursors of every list endpoint
 * (with and without filters). Workspace B has data of its own in every list. B then tries
 * everything it can with A's ids, cursors, external ids and short names, with a write key and
 * with a read-only key. B must learn nothing: another workspace's resource is answered exactly
 * like one that exists nowhere (spec, Authentication rule 6), another workspace's cursor exactly
 * like an altered one (DESIGN §1), and A's data is byte-for-byte the same afterwards.
 *
 * Both workspaces are built once, in `beforeAll`, and A's complete data is recorded then
 * (`before`). No test relies on another having run: every test that makes B write (create,
 * ingest, or try to update or delete A's records) compares A's data with `before` itself, once
 * B's writes have taken effect, so any single test run alone proves what it claims.
 *
 * Response times are deliberately not asserted: they vary with the machine and would make the
 * test flaky without proving anything the answers themselves do not.
 *
 * The endpoint tables (BY_ID_ENDPOINTS, LIST_ENDPOINTS) drive the tests: a new endpoint is one
 * more row.
 */
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { formatId, ids } from '../../src/shared/domain/ids';
import { expectError } from '../support/assertions';
import { KB_CASES, KbCase, unique } from '../support/kb-resources';
import { walkList } from '../support/list-walk';
import {
  ActivityStatus,
  activityStatus,
  email,
  ingestAndWait,
  linkedinActivity,
  marketActivity,
  PIPELINE_APP_ENV,
  postActivities,
  RawActivity,
  uniq,
  waitForActivities,
  websiteActivity,
} from '../support/pipeline';
import { startTestApp, TestApp, TestWorkspace } from '../support/test-app';
import { internalId } from '../support/worker-process';

jest.setTimeout(60_000);

type Json = Record<string, any>;

let t: TestApp;
let A: TestWorkspace;
let B: TestWorkspace;
/** B's read-only key, as an `Authorization` value. */
let bRead: string;

/** Everything A owns, filled in `beforeAll`. */
interface AFixture {
  /** Per KB path: A's records as created. */
  kb: Record<string, Json[]>;
  /** A's Buyer ids, the one with several Signals first. */
  buyerIds: string[];
  /** The Buyer with several Signals of several types. */
  busyBuyerId: string;
  /** Another Buyer of A's; B has a Buyer of its own with the same email. */
  secondBuyerId: string;
  signalIds: string[];
  /** Every activity A ingested, with its final status. */
  activities: ActivityStatus[];
  processedActivityIds: string[];
  discardedActivityIds: string[];
  /** email of the busy Buyer, external id of one of its activities. */
  sharedEmail: string;
  sharedExternalId: string;
  /** The activity A ingested with a second external id (discarded: it matches nothing), and its email. */
  lostActivityId: string;
  lostExternalId: string;
  lostEmail: string;
  /** URL of A's Target Page, host of A's Exclusion, name of A's Topic. */
  targetUrl: string;
  exclusionDomain: string;
  topicName: string;
}

let a: AFixture;

/** What B owns from the start, filled in `beforeAll`; tests that make B write add to B's data. */
interface BFixture {
  /** Per KB path: one record of B's own. */
  kb: Record<string, Json>;
  /** B's Buyer for the email of A's second Buyer. */
  sameEmailBuyerId: string;
}

let b: BFixture;

/** A's cursors: one per LIST_ENDPOINTS row, obtained with A's key and `limit=1`. */
const aCursors = new Map<string, string>();

/** A's complete data as A's key sees it, taken before B acts. */
let before: Json;

// ---------------------------------------------------------------------------------------------
// Helpers

const NOW_PLUS_YEAR = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 19) + 'Z';

/** Headers whose values (or presence) legitimately differ between any two requests. */
const VOLATILE_HEADERS = new Set(['date', 'x-request-id', 'content-length', 'etag', 'x-ratelimit-remaining', 'x-ratelimit-reset']);

/**
 * Everything a client can observe of an answer except the request id and per-request counters:
 * status, body (with `error.request_id` blanked), content type, and which headers are present
 * (with their values, where those are stable).
 */
function observable(res: Response): Json {
  const body =
    res.body && typeof res.body === 'object' && res.body.error
      ? { ...res.body, error: { ...res.body.error, request_id: '<request_id>' } }
      : res.body;
  const headers: Json = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (name === 'x-ratelimit-remaining' || name === 'x-ratelimit-reset') headers[name] = '<present>';
    else if (!VOLATILE_HEADERS.has(name)) headers[name] = value;
  }
  return { status: res.status, body, headers, text: body === res.body ? res.text : '<error envelope>' };
}

/** The two answers are indistinguishable to the client. */
function expectSameAnswer(actual: Response, reference: Response): void {
  expect(observable(actual)).toEqual(observable(reference));
}

type Method = 'get' | 'patch' | 'delete';

function send(method: Method, path: string, auth: string, body?: Json) {
  const req = t.http[method](path).set('Authorization', auth);
  return body === undefined ? req : req.send(body);
}

function get(path: string, auth: string, query: Record<string, string> = {}) {
  return t.http.get(path).query(query).set('Authorization', auth);
}

/** A well-formed id with this prefix that no record anywhere has (fresh from the shared generator). */
const missingId = (prefix: string) => formatId(prefix, ids.next());

/** The cursor with one character of its payload changed (a valid-looking but altered cursor). */
function altered(cursor: string): string {
  const i = 2;
  const swapped = cursor[i] === 'A' ? 'B' : 'A';
  return cursor.slice(0, i) + swapped + cursor.slice(i + 1);
}

/** Every id-like token (`pfx_` + 19 digits) anywhere in a JSON value. */
function idsIn(value: unknown): Set<string> {
  return new Set(JSON.stringify(value).match(/\b[a-z]{3}_\d{19}\b/g) ?? []);
}

async function createOk(ws: TestWorkspace, kb: KbCase, body: Json): Promise<Json> {
  const res = await t.http.post(`/v1/kb/${kb.path}`).set('Authorization', ws.auth).send(body);
  if (res.status !== 201) throw new Error(`POST /v1/kb/${kb.path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function walkAll(path: string, auth: string, query: Record<string, string> = {}): Promise<Json[]> {
  return (await walkList<Json>(t.http, auth, path, query, [1000])).items;
}

/** A's complete data through A's own key: every list in full and every record on its own. */
async function snapshotOfA(): Promise<Json> {
  const entries = <T>(pairs: Array<[string, T]>) => Object.fromEntries(pairs);
  const answer = async (path: string) => {
    const res = await get(path, A.auth);
    return { status: res.status, body: res.body };
  };
  const [kb, buyerList, buyers, signals, signalsByBuyer, activities, activityList] = await Promise.all([
    Promise.all(
      KB_CASES.map(async (c): Promise<[string, Json]> => {
        const [list, records] = await Promise.all([
          walkAll(`/v1/kb/${c.path}`, A.auth),
          Promise.all(
            a.kb[c.path].map(async (record): Promise<[string, Json]> => [record.id, await answer(`/v1/kb/${c.path}/${record.id}`)]),
          ),
        ]);
        return [c.path, { list, records: entries(records) }];
      }),
    ),
    walkAll('/v1/buyers', A.auth),
    Promise.all(a.buyerIds.map(async (id): Promise<[string, Json]> => [id, await answer(`/v1/buyers/${id}`)])),
    walkAll('/v1/signals', A.auth),
    Promise.all(a.buyerIds.map(async (id): Promise<[string, Json[]]> => [id, await walkAll('/v1/signals', A.auth, { buyer_id: id })])),
    Promise.all(a.activities.map(async (act): Promise<[string, ActivityStatus]> => [act.id, await activityStatus(t, A, act.id)])),
    walkAll('/ingest/v1/activities', A.auth),
  ]);
  return {
    kb: entries(kb),
    buyerList,
    buyers: entries(buyers),
    signals,
    signalsByBuyer: entries(signalsByBuyer),
    activities: entries(activities),
    activityList,
  };
}

/** A's data, through A's own key, is exactly what it was before B did anything. */
async function expectAUnchanged(): Promise<void> {
  expect(await snapshotOfA()).toEqual(before);
}

/** The public id of every KB record, Buyer and Signal the workspace has, read from PostgreSQL. */
async function idsStoredFor(ws: TestWorkspace): Promise<Set<string>> {
  const tables: Array<[string, string]> = [
    ...KB_CASES.map((kb): [string, string] => [kb.path.replace(/-/g, '_'), kb.prefix]),
    ['buyers', 'buy_'],
    ['signals', 'sig_'],
    ['activities', 'act_'],
  ];
  const db = t.app.get(DataSource);
  const out = new Set<string>([ws.workspace_id]);
  for (const [table, prefix] of tables) {
    const rows: Array<{ id: string }> = await db.query(`SELECT id FROM ${table} WHERE workspace_id = $1`, [internalId(ws.workspace_id)]);
    for (const row of rows) out.add(formatId(prefix, row.id));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Endpoint tables

/** An endpoint that addresses one resource by id. */
interface ByIdEndpoint {
  name: string;
  method: Method;
  path: (id: string) => string;
  /** A body that is valid, so only the id decides the answer. */
  body?: () => Json;
  /** A's ids to try (several states where they exist). */
  aIds: () => string[];
  /** A well-formed id that exists nowhere. */
  missing: () => string;
  /** Read-only keys may not use it (DESIGN §1: 403 `permission_denied` before any lookup). */
  writes: boolean;
}

const BY_ID_ENDPOINTS: ByIdEndpoint[] = [
  ...KB_CASES.flatMap((kb): ByIdEndpoint[] => {
    const common = {
      path: (id: string) => `/v1/kb/${kb.path}/${id}`,
      aIds: () => a.kb[kb.path].map((r) => r.id as string),
      missing: () => missingId(kb.prefix),
    };
    return [
      { ...common, name: `GET /v1/kb/${kb.path}/{${kb.idParam}}`, method: 'get', writes: false },
      {
        ...common,
        name: `PATCH /v1/kb/${kb.path}/{${kb.idParam}}`,
        method: 'patch',
        // Every editable field, so a leaky update would visibly change A's record.
        body: () => ({ ...kb.valid(`b${uniq()}`) }),
        writes: true,
      },
      { ...common, name: `DELETE /v1/kb/${kb.path}/{${kb.idParam}}`, method: 'delete', writes: true },
    ];
  }),
  {
    name: 'GET /v1/buyers/{buyer_id}',
    method: 'get',
    path: (id) => `/v1/buyers/${id}`,
    aIds: () => a.buyerIds,
    missing: () => missingId('buy_'),
    writes: false,
  },
  {
    name: 'GET /ingest/v1/activities/{id}',
    method: 'get',
    path: (id) => `/ingest/v1/activities/${id}`,
    aIds: () => [...a.processedActivityIds, ...a.discardedActivityIds],
    missing: () => missingId('act_'),
    writes: false,
  },
];

/** A list endpoint with one set of parameters; A has more than one row for it. */
interface ListEndpoint {
  name: string;
  path: string;
  query: () => Record<string, string>;
  /** B has rows of its own here (so "no A ids" is not vacuous). */
  bHasRows: boolean;
}

const LIST_ENDPOINTS: ListEndpoint[] = [
  ...KB_CASES.map((kb): ListEndpoint => ({ name: `GET /v1/kb/${kb.path}`, path: `/v1/kb/${kb.path}`, query: () => ({}), bHasRows: true })),
  { name: 'GET /v1/buyers', path: '/v1/buyers', query: () => ({}), bHasRows: true },
  { name: 'GET /v1/buyers?sort_order=asc', path: '/v1/buyers', query: () => ({ sort_order: 'asc' }), bHasRows: true },
  {
    name: 'GET /v1/buyers?created_after&created_before&sort_by&sort_order',
    path: '/v1/buyers',
    query: () => ({ created_after: '2020-01-01T00:00:00Z', created_before: NOW_PLUS_YEAR, sort_by: 'created_at', sort_order: 'desc' }),
    bHasRows: true,
  },
  { name: 'GET /v1/signals', path: '/v1/signals', query: () => ({}), bHasRows: true },
  {
    name: 'GET /v1/signals?sort_by=captured_at&sort_order=asc',
    path: '/v1/signals',
    query: () => ({ sort_by: 'captured_at', sort_order: 'asc' }),
    bHasRows: true,
  },
  { name: 'GET /v1/signals?buyer_id={A buyer}', path: '/v1/signals', query: () => ({ buyer_id: a.busyBuyerId }), bHasRows: false },
  { name: 'GET /v1/signals?type=website', path: '/v1/signals', query: () => ({ type: 'website' }), bHasRows: true },
  {
    name: 'GET /v1/signals?type=website&trigger=visited_page',
    path: '/v1/signals',
    query: () => ({ type: 'website', trigger: 'visited_page' }),
    bHasRows: true,
  },
  {
    name: 'GET /v1/signals?captured_after&captured_before',
    path: '/v1/signals',
    query: () => ({ captured_after: '2026-01-01T00:00:00Z', captured_before: '2027-01-01T00:00:00Z' }),
    bHasRows: true,
  },
  { name: 'GET /ingest/v1/activities', path: '/ingest/v1/activities', query: () => ({}), bHasRows: true },
  {
    name: 'GET /ingest/v1/activities?type=website&trigger=visited_page&status=processed&sort_order=asc',
    path: '/ingest/v1/activities',
    query: () => ({ type: 'website', trigger: 'visited_page', status: 'processed', sort_order: 'asc' }),
    bHasRows: true,
  },
  {
    name: 'GET /ingest/v1/activities?received_after&received_before',
    path: '/ingest/v1/activities',
    query: () => ({ received_after: '2024-01-01T00:00:00Z', received_before: NOW_PLUS_YEAR }),
    bHasRows: true,
  },
];

/** B's two keys; a read-only key must be refused writes with the same answer for A's and missing ids. */
const B_KEYS: Array<{ label: string; auth: () => string; scope: 'write' | 'read' }> = [
  { label: "B's write key", auth: () => B.auth, scope: 'write' },
  { label: "B's read-only key", auth: () => bRead, scope: 'read' },
];

// ---------------------------------------------------------------------------------------------
// Setup: A's data, made for real, then B's own

beforeAll(async () => {
  t = await startTestApp(PIPELINE_APP_ENV);
  [A, B] = await Promise.all([t.newWorkspace('Workspace A'), t.newWorkspace('Workspace B')]);
  bRead = `Bearer ${(await t.workspaces.createKey(B.workspace_id, 'read')).api_key}`;

  // Three records of each KB resource (so every KB list has a cursor at limit=1).
  const kb: Record<string, Json[]> = {};
  await Promise.all(
    KB_CASES.map(async (c) => {
      kb[c.path] = [];
      for (let i = 0; i < 3; i += 1) kb[c.path].push(await createOk(A, c, c.valid(unique())));
    }),
  );
  const targetUrl = kb['target-pages'][0].url as string;
  const exclusionDomain = kb.exclusions[0].domain as string;
  const topicName = kb.topics[0].name as string;
  const competitor = kb.competitors[0];

  const sharedEmail = email('shared');
  const sharedExternalId = `ext-${uniq()}`;
  const second = email('second');
  const third = email('third');
  const lostEmail = email('lost');
  const lostExternalId = `ext-${uniq()}`;
  const activities: RawActivity[] = [
    // The busy Buyer: two website Signals, a market Signal and a LinkedIn Signal.
    websiteActivity('visited_page', targetUrl, {
      identity: { email: sharedEmail },
      external_id: sharedExternalId,
      occurred_at: '2026-03-01T10:00:00Z',
    }),
    websiteActivity('visited_page', `${targetUrl}?utm_source=news`, {
      identity: { email: sharedEmail },
      occurred_at: '2026-03-02T10:00:00Z',
    }),
    marketActivity('researched_topic', { topic: topicName }, { identity: { email: sharedEmail }, occurred_at: '2026-03-03T10:00:00Z' }),
    linkedinActivity(
      'reacted_post',
      { company_name: competitor.name, reaction_type: 'like' },
      { identity: { email: sharedEmail }, occurred_at: '2026-03-04T10:00:00Z' },
    ),
    // Two more Buyers.
    marketActivity(
      'evaluated_competitor',
      { company_website: competitor.domain },
      { identity: { email: second }, occurred_at: '2026-03-05T10:00:00Z' },
    ),
    websiteActivity('visited_page', kb['target-pages'][1].url, { identity: { email: second }, occurred_at: '2026-03-06T10:00:00Z' }),
    websiteActivity('visited_page', targetUrl, { identity: { email: third }, occurred_at: '2026-03-07T10:00:00Z' }),
    // Discarded, for each reason.
    websiteActivity('visited_page', `https://www.nowhere-${uniq()}.com/page`, {
      identity: { email: lostEmail },
      external_id: lostExternalId,
    }),
    websiteActivity('visited_page', targetUrl, { identity: { email: `someone.${uniq()}@${exclusionDomain}` } }),
    websiteActivity('visited_page', targetUrl, { identity: { linkedin: 'not a url' } }),
  ];
  const statuses = await ingestAndWait(t, A, activities, 20_000);
  const reasons = statuses.map((s) => s.discard_reason ?? s.status);
  expect(reasons).toEqual([
    'processed',
    'processed',
    'processed',
    'processed',
    'processed',
    'processed',
    'processed',
    'no_target_match',
    'excluded_company',
    'unresolved_identity',
  ]);
  const busyBuyerId = statuses[0].buyer_id!;
  const buyerIds = [...new Set(statuses.map((s) => s.buyer_id).filter((id): id is string => id !== null))];
  expect(buyerIds).toHaveLength(3);
  expect(buyerIds[0]).toBe(busyBuyerId);

  a = {
    kb,
    buyerIds,
    busyBuyerId,
    secondBuyerId: statuses[4].buyer_id!,
    signalIds: statuses.map((s) => s.signal_id).filter((id): id is string => id !== null),
    activities: statuses,
    processedActivityIds: statuses.filter((s) => s.status === 'processed').map((s) => s.id),
    discardedActivityIds: statuses.filter((s) => s.status === 'discarded').map((s) => s.id),
    sharedEmail,
    sharedExternalId,
    lostActivityId: statuses[7].id,
    lostExternalId,
    lostEmail,
    targetUrl,
    exclusionDomain,
    topicName,
  };

  // A's cursors for every list row, and proof that they are good cursors for A.
  for (const list of LIST_ENDPOINTS) {
    const first = await get(list.path, A.auth, { ...list.query(), limit: '1' });
    if (first.status !== 200 || typeof first.body.pagination?.next_cursor !== 'string') {
      throw new Error(`${list.name}: no cursor for A (${first.status} ${JSON.stringify(first.body)})`);
    }
    const cursor = first.body.pagination.next_cursor as string;
    const followUp = await get(list.path, A.auth, { ...list.query(), limit: '1', cursor });
    if (followUp.status !== 200) throw new Error(`${list.name}: A's own cursor refused (${followUp.status})`);
    aCursors.set(list.name, cursor);
  }

  before = await snapshotOfA();

  // B's own data, so that none of B's lists is empty: a record of each KB resource, and Buyers
  // and Signals from visits to its own Target Page, one of them by the person of A's second Buyer.
  const bKb: Record<string, Json> = {};
  await Promise.all(KB_CASES.map(async (c) => (bKb[c.path] = await createOk(B, c, c.valid(unique())))));
  const bTarget = bKb['target-pages'].url as string;
  const bStatuses = await ingestAndWait(
    t,
    B,
    [
      websiteActivity('visited_page', bTarget, { identity: { email: second }, occurred_at: '2026-03-05T12:00:00Z' }),
      websiteActivity('visited_page', bTarget, { identity: { email: email('b-own') }, occurred_at: '2026-03-09T10:00:00Z' }),
    ],
    20_000,
  );
  expect(bStatuses.map((s) => s.status)).toEqual(['processed', 'processed']);
  b = { kb: bKb, sameEmailBuyerId: bStatuses[0].buyer_id! };
}, 60_000);

afterAll(async () => {
  await t?.close();
});

// ---------------------------------------------------------------------------------------------

describe('the fixture is real and complete', () => {
  test('A has every kind of data, and sees it through its own key', () => {
    for (const c of KB_CASES) {
      expect(before.kb[c.path].list.map((r: Json) => r.id).sort()).toEqual(a.kb[c.path].map((r) => r.id).sort());
      for (const record of a.kb[c.path]) expect(before.kb[c.path].records[record.id]).toEqual({ status: 200, body: record });
    }
    expect(before.buyerList.map((x: Json) => x.id).sort()).toEqual([...a.buyerIds].sort());
    for (const id of a.buyerIds) expect(before.buyers[id].status).toBe(200);
    expect(before.signals.map((s: Json) => s.id).sort()).toEqual([...a.signalIds].sort());
    expect(new Set(before.signals.map((s: Json) => s.type))).toEqual(new Set(['website', 'market', 'linkedin']));
    expect(before.signalsByBuyer[a.busyBuyerId]).toHaveLength(4);
    expect(a.processedActivityIds).toHaveLength(7);
    expect(a.discardedActivityIds).toHaveLength(3);
    expect(aCursors.size).toBe(LIST_ENDPOINTS.length);
  });

  test("B making its own data, after A's, changed nothing of A's", async () => {
    const bOwn = await idsStoredFor(B);
    for (const c of KB_CASES) expect(bOwn.has(b.kb[c.path].id)).toBe(true);
    expect(bOwn.has(b.sameEmailBuyerId)).toBe(true);
    await expectAUnchanged();
  });
});

describe('B creates KB records with the short names A uses', () => {
  test.each(KB_CASES.map((kb) => [kb.path, kb] as const))('POST /v1/kb/%s with an A short_name is 201', async (_path, kb) => {
    const aRecord = a.kb[kb.path][0];
    const listedBefore = (await walkAll(`/v1/kb/${kb.path}`, B.auth)).map((r) => r.id as string);
    const body = { ...kb.valid(unique()), short_name: aRecord.short_name };
    const res = await t.http.post(`/v1/kb/${kb.path}`).set('Authorization', B.auth).send(body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ ...body, client_id: B.workspace_id });
    expect(res.body.id).not.toBe(aRecord.id);
    // B's list gained exactly its own new record, and holds none of A's.
    const listed = (await walkAll(`/v1/kb/${kb.path}`, B.auth)).map((r) => r.id as string);
    expect(listed).toEqual([res.body.id, ...listedBefore]);
    for (const record of a.kb[kb.path]) expect(listed).not.toContain(record.id);
    await expectAUnchanged();
  });

  test('the same short_name twice within B still conflicts (uniqueness is per workspace, not lost)', async () => {
    const kb = KB_CASES[0];
    // Another of A's short names than the test above takes, so each works alone and after the other.
    const shortName = a.kb[kb.path][1].short_name;
    await createOk(B, kb, { ...kb.valid(unique()), short_name: shortName });
    const res = await t.http
      .post(`/v1/kb/${kb.path}`)
      .set('Authorization', B.auth)
      .send({ ...kb.valid(unique()), short_name: shortName });
    expectError(res, 409, 'conflict', 'short_name');
    await expectAUnchanged();
  });
});

describe('B ingests activities that overlap with A (external id, email, URLs, exclusion, topic)', () => {
  test("an activity with A's external_id is queued in B, and becomes B's own Buyer and Signal", async () => {
    const bTarget = b.kb['target-pages'].url as string;
    const activities: RawActivity[] = [
      // Same external id and same person as A's first activity, on B's own Target Page.
      websiteActivity('visited_page', bTarget, {
        identity: { email: a.sharedEmail },
        external_id: a.sharedExternalId,
        occurred_at: '2026-03-01T10:00:00Z',
      }),
      // A second B Signal of that person.
      websiteActivity('visited_page', bTarget, { identity: { email: a.sharedEmail }, occurred_at: '2026-03-08T10:00:00Z' }),
      // A company that is excluded in A only.
      websiteActivity('visited_page', bTarget, { identity: { email: `other.${uniq()}@${a.exclusionDomain}` } }),
      // A's Target Page URL and A's Topic mean nothing in B.
      websiteActivity('visited_page', a.targetUrl, { identity: { email: email('visitor') } }),
      marketActivity('researched_topic', { topic: a.topicName }, { identity: { email: email('reader') } }),
    ];
    const res = await postActivities(t, B.auth, { activities });
    expect(res.status).toBe(202);
    expect(res.body.data.map((d: Json) => d.status)).toEqual(['queued', 'queued', 'queued', 'queued', 'queued']);
    const ids = res.body.data.map((d: Json) => d.id as string);
    for (const id of ids) expect(a.activities.map((x) => x.id)).not.toContain(id);

    const bStatuses = await waitForActivities(t, B, ids, 20_000);
    expect(bStatuses.map((s) => s.discard_reason ?? s.status)).toEqual([
      'processed',
      'processed',
      'processed',
      'no_target_match',
      'no_target_match',
    ]);
    const [first, secondSignal, excludedInA] = bStatuses;
    // Same email, different workspace: a different Buyer, and Signals A does not have.
    expect(first.buyer_id).not.toBe(a.busyBuyerId);
    expect(a.buyerIds).not.toContain(first.buyer_id);
    expect(a.buyerIds).not.toContain(excludedInA.buyer_id);
    expect(secondSignal.buyer_id).toBe(first.buyer_id);
    for (const s of bStatuses) if (s.signal_id) expect(a.signalIds).not.toContain(s.signal_id);

    // B's Buyer for that email counts only B's Signals, and its Signal points at B's Target Page.
    const buyer = await get(`/v1/buyers/${first.buyer_id}`, B.auth);
    expect(buyer.status).toBe(200);
    expect(buyer.body.client_id).toBe(B.workspace_id);
    expect(buyer.body.signal_count).toEqual({ total: 2, website: 2, market: 0, linkedin: 0 });
    const signals = await walkAll('/v1/signals', B.auth, { buyer_id: first.buyer_id! });
    expect(signals.map((s) => s.id).sort()).toEqual([first.signal_id, secondSignal.signal_id].sort());
    for (const s of signals) expect(s.website.target_page.id).toBe(b.kb['target-pages'].id);
    await expectAUnchanged();
  });

  test("the external id again in B is a duplicate of B's activity, never of A's", async () => {
    const activity = websiteActivity('visited_page', b.kb['target-pages'].url, {
      identity: { email: a.lostEmail },
      external_id: a.lostExternalId,
    });
    // New to B, although A has it.
    const first = await postActivities(t, B.auth, { activities: [activity] });
    expect(first.status).toBe(202);
    expect(first.body.data).toEqual([{ id: expect.stringMatching(/^act_\d{19}$/), status: 'queued' }]);
    const bActivityId = first.body.data[0].id as string;
    expect(a.activities.map((x) => x.id)).not.toContain(bActivityId);
    // Again in B: a duplicate of B's own activity.
    const again = await postActivities(t, B.auth, { activities: [activity] });
    expect(again.status).toBe(202);
    expect(again.body.data).toEqual([{ id: bActivityId, status: 'duplicate' }]);
    // And in A it is still A's own duplicate.
    const inA = await postActivities(t, A.auth, { activities: [activity] });
    expect(inA.status).toBe(202);
    expect(inA.body.data).toEqual([{ id: a.lostActivityId, status: 'duplicate' }]);
    // Once the pipeline is done with B's activity, A's data is as it was.
    expect((await waitForActivities(t, B, [bActivityId], 20_000))[0].status).toBe('processed');
    await expectAUnchanged();
  });
});

describe.each(B_KEYS)("by-id endpoints with $label: A's ids are answered exactly like missing ids", ({ auth, scope }) => {
  test.each(BY_ID_ENDPOINTS.map((e) => [e.name, e] as const))('%s', async (_name, endpoint) => {
    const refused = scope === 'read' && endpoint.writes;
    for (const id of endpoint.aIds()) {
      const body = endpoint.body?.();
      const other = await send(endpoint.method, endpoint.path(id), auth(), body);
      const missing = await send(endpoint.method, endpoint.path(endpoint.missing()), auth(), body);
      if (refused) {
        expectError(other, 403, 'permission_denied');
        expectError(missing, 403, 'permission_denied');
      } else {
        expectError(other, 404, 'not_found');
        expectError(missing, 404, 'not_found');
      }
      expectSameAnswer(other, missing);
      expect(other.text).not.toContain(id);
      expect(other.text).not.toContain(A.workspace_id);
    }
    // An update or delete of A's records, refused or not found, changed nothing of A's.
    if (endpoint.writes) await expectAUnchanged();
  });
});

describe.each(B_KEYS)("list endpoints with $label: A's cursors are answered like altered ones", ({ auth }) => {
  test.each(LIST_ENDPOINTS.map((e) => [e.name, e] as const))('%s', async (_name, list) => {
    const cursor = aCursors.get(list.name)!;
    const other = await get(list.path, auth(), { ...list.query(), limit: '1', cursor });
    const tampered = await get(list.path, auth(), { ...list.query(), limit: '1', cursor: altered(cursor) });
    expectError(other, 400, 'invalid_cursor', 'cursor');
    expectError(tampered, 400, 'invalid_cursor', 'cursor');
    expectSameAnswer(other, tampered);
    // Another page size does not help either.
    const otherLimit = await get(list.path, auth(), { ...list.query(), limit: '50', cursor });
    expectError(otherLimit, 400, 'invalid_cursor', 'cursor');
    expectSameAnswer(otherLimit, tampered);
  });
});

describe.each(B_KEYS)("list endpoints with $label: B's lists never contain A's data", ({ auth }) => {
  test.each(LIST_ENDPOINTS.map((e) => [e.name, e] as const))('%s', async (_name, list) => {
    const pages = await walkList<Json>(t.http, auth(), list.path, list.query(), [1, 2, 1000]);
    const everything = JSON.stringify(pages.items);
    const seen = idsIn(pages.items);
    const aIds = [
      A.workspace_id,
      ...Object.values(a.kb)
        .flat()
        .map((r) => r.id as string),
      ...a.buyerIds,
      ...a.signalIds,
      ...a.activities.map((x) => x.id),
    ];
    for (const id of aIds) expect(seen.has(id)).toBe(false);
    expect(everything).not.toContain(A.workspace_id);
    if (list.bHasRows) {
      expect(pages.items.length).toBeGreaterThan(0);
      // Every row is one B has in the database.
      const own = await idsStoredFor(B);
      for (const item of pages.items) expect(own.has(item.id)).toBe(true);
    } else {
      expect(pages.items).toEqual([]);
    }
  });
});

describe.each(B_KEYS)("Signals filtered by A's Buyer with $label", ({ auth }) => {
  const FILTERS: Array<Record<string, string>> = [
    {},
    { type: 'website' },
    { type: 'market', trigger: 'researched_topic' },
    { captured_after: '2026-01-01T00:00:00Z', sort_order: 'asc' },
  ];

  test.each(FILTERS.map((f) => [JSON.stringify(f), f] as const))(
    'buyer_id={A buyer} with %s is 200 and empty, exactly like a Buyer that exists nowhere',
    async (_label, filters) => {
      for (const buyerId of a.buyerIds) {
        const other = await get('/v1/signals', auth(), { ...filters, buyer_id: buyerId });
        const missing = await get('/v1/signals', auth(), { ...filters, buyer_id: missingId('buy_') });
        expect(other.status).toBe(200);
        expect(other.body).toEqual({ data: [], pagination: { next_cursor: null } });
        expectSameAnswer(other, missing);
      }
    },
  );
});

describe("B's Buyer from the same email is not A's Buyer", () => {
  test("A cannot read B's Buyer and B cannot read A's; each sees its own", async () => {
    const bBuyer = b.sameEmailBuyerId;
    expectSameAnswer(await get(`/v1/buyers/${bBuyer}`, A.auth), await get(`/v1/buyers/${missingId('buy_')}`, A.auth));
    for (const id of [a.secondBuyerId, a.busyBuyerId]) expectError(await get(`/v1/buyers/${id}`, B.auth), 404, 'not_found');
    const own = await get(`/v1/buyers/${bBuyer}`, B.auth);
    expect(own.status).toBe(200);
    expect(own.body.contact_info.email.work).toBe(before.buyers[a.secondBuyerId].body.contact_info.email.work);
    expect(own.body.id).not.toBe(a.secondBuyerId);
    expect(a.buyerIds).not.toContain(own.body.id);
  });
});
