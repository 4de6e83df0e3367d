import { DataSource } from 'typeorm';
import { formatId, ids } from '../../src/shared/domain/ids';
import { expectError, TIMESTAMP } from '../support/assertions';
import { byTimeThenId, seededRandom, shuffled, walkList } from '../support/list-walk';
import {
  BulkSignalInput,
  expectedSignal,
  InsertedSignal,
  insertBuyer,
  insertBuyers,
  insertSignal,
  insertSignals,
  linkedinData,
  marketData,
  SIGNAL_TYPES,
  SignalType,
  TRIGGERS,
  websiteData,
} from '../support/read-model-fixtures';
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

type Signal = Record<string, any>;

const S = () => expect.any(String);
const N = () => expect.any(Number);
/** Asymmetric matcher: a string or null. */
const stringOrNull = () => ({
  asymmetricMatch: (value: unknown) => value === null || typeof value === 'string',
  toAsymmetricMatcher: () => 'StringOrNull',
});
const attributionShape = () => ({ type: S(), source: S(), source_name: S(), source_logo: S() });

/** Every documented Signal field with its JSON type: exactly the object of `type`, the others null. */
function expectSignalShape(s: Signal): void {
  expect(s).toEqual({
    id: expect.stringMatching(/^sig_\d{19}$/),
    buyer_id: expect.stringMatching(/^buy_\d{19}$/),
    type: expect.stringMatching(/^(website|market|linkedin)$/),
    website: s.type === 'website' ? expect.any(Object) : null,
    market: s.type === 'market' ? expect.any(Object) : null,
    linkedin: s.type === 'linkedin' ? expect.any(Object) : null,
    captured_at: expect.stringMatching(TIMESTAMP),
    created_at: expect.stringMatching(TIMESTAMP),
    updated_at: expect.stringMatching(TIMESTAMP),
  });
  const object = s[s.type];
  expect(TRIGGERS[s.type as SignalType]).toContain(object.trigger);
  if (s.type === 'website') {
    expect(object).toEqual({
      trigger: S(),
      attribution: attributionShape(),
      url: { raw: S(), canonical: S(), domain: S(), path: S() },
      utm: { source: S(), medium: S(), campaign: S(), term: S(), content: S() },
      click_ids: {
        gclid: stringOrNull(),
        gbraid: stringOrNull(),
        wbraid: stringOrNull(),
        dclid: stringOrNull(),
        li_fat_id: stringOrNull(),
        msclkid: stringOrNull(),
        fbclid: stringOrNull(),
        ttclid: stringOrNull(),
        twclid: stringOrNull(),
      },
      target_page: { id: S(), name: S(), short_name: S(), description: S() },
      session: {
        id: S(),
        started_at: expect.stringMatching(TIMESTAMP),
        ended_at: expect.stringMatching(TIMESTAMP),
        duration_secs: N(),
      },
      device: { browser: S(), browser_version: S(), os: S(), os_version: S(), device_type: S(), language: S() },
      location: {
        ip: S(),
        city: S(),
        state: S(),
        country: S(),
        country_code: S(),
        postal_code: S(),
        timezone: S(),
        latitude: N(),
        longitude: N(),
      },
      page: {
        visited_at: expect.stringMatching(TIMESTAMP),
        first_visited_at: expect.stringMatching(TIMESTAMP),
        last_visited_at: expect.stringMatching(TIMESTAMP),
        time_spent_secs: N(),
        visit_count: N(),
        total_time_spent_secs: N(),
      },
    });
    for (const value of [
      object.session.duration_secs,
      object.page.time_spent_secs,
      object.page.visit_count,
      object.page.total_time_spent_secs,
    ]) {
      expect(Number.isInteger(value)).toBe(true);
    }
    expect(object.target_page.id === '' || /^tpg_\d{19}$/.test(object.target_page.id)).toBe(true);
  } else if (s.type === 'market') {
    expect(object).toEqual({ trigger: S(), attribution: attributionShape(), topic: S(), company_website: S() });
  } else {
    expect(object).toEqual({
      trigger: S(),
      attribution: attributionShape(),
      source: S(),
      url: S(),
      comment: S(),
      reaction_type: S(),
      company_name: S(),
      post_title: S(),
    });
  }
}

const get = (path: string, auth: string) => t.http.get(path).set('Authorization', auth);

const qs = (pairs: [string, string][]): string => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');

async function list(ws: TestWorkspace, query = '', auth = ws.auth): Promise<{ data: Signal[]; next_cursor: string | null }> {
  const res = await get(`/v1/signals${query ? `?${query}` : ''}`, auth);
  if (res.status !== 200) throw new Error(`GET /v1/signals?${query}: ${res.status} ${JSON.stringify(res.body)}`);
  expect(Object.keys(res.body).sort()).toEqual(['data', 'pagination']);
  expect(Object.keys(res.body.pagination)).toEqual(['next_cursor']);
  return { data: res.body.data, next_cursor: res.body.pagination.next_cursor };
}

const idsOf = (signals: Signal[]): string[] => signals.map((s) => s.id as string);

const order = (signals: InsertedSignal[], direction: 'asc' | 'desc'): string[] =>
  [...signals]
    .sort(
      byTimeThenId(
        (s) => s.captured_at.getTime(),
        (s) => s.public_id,
        direction,
      ),
    )
    .map((s) => s.public_id);

/**
 * `count` Signals spread over `buyers` Buyers, every type and trigger, captured at one of `times`;
 * ids are handed out in an order unrelated to time, so that ties are decided by id alone.
 */
async function dataset(ws: TestWorkspace, count: number, times: string[], buyers = 3, seed = 1) {
  const owners = await insertBuyers(
    ds,
    ws.workspace_id,
    Array.from({ length: buyers }, (_, i) => ({ created_at: `2025-01-0${(i % 9) + 1}T00:00:00Z` })),
  );
  const random = seededRandom(seed);
  const idPool = shuffled(
    Array.from({ length: count }, () => ids.next()),
    seed,
  );
  const inputs: BulkSignalInput[] = Array.from({ length: count }, (_, i) => {
    const type = SIGNAL_TYPES[Math.floor(random() * 3)];
    const trigger = TRIGGERS[type][Math.floor(random() * 3)];
    return {
      id: idPool[i],
      buyer_id: owners[Math.floor(random() * owners.length)].id,
      type,
      trigger,
      captured_at: times[Math.floor(random() * times.length)],
    };
  });
  const signals = await insertSignals(ds, ws.workspace_id, inputs);
  return { buyers: owners, signals };
}

describe('GET /v1/signals: response shape', () => {
  it('lists nothing for a new workspace', async () => {
    const ws = await t.newWorkspace();
    const res = await get('/v1/signals', ws.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], pagination: { next_cursor: null } });
  });

  it.each(SIGNAL_TYPES)('a %s Signal carries exactly its object, complete, and null for the other two', async (type) => {
    const ws = await t.newWorkspace();
    const buyer = await insertBuyer(ds, ws.workspace_id, { created_at: '2025-01-01T00:00:00Z' });
    const inserted: InsertedSignal[] = [];
    for (const [i, trigger] of TRIGGERS[type].entries()) {
      inserted.push(
        await insertSignal(ds, ws.workspace_id, buyer.id, {
          type,
          trigger,
          captured_at: `2025-02-0${i + 1}T10:20:30Z`,
          created_at: `2025-02-0${i + 1}T10:20:31.500Z`,
          updated_at: `2025-02-0${i + 1}T10:20:32Z`,
        }),
      );
    }
    const { data, next_cursor } = await list(ws);
    expect(next_cursor).toBeNull();
    expect(data).toEqual([...inserted].reverse().map(expectedSignal));
    for (const s of data) {
      expectSignalShape(s);
      expect(s.buyer_id).toBe(buyer.public_id);
      expect(s.type).toBe(type);
      for (const other of SIGNAL_TYPES.filter((x) => x !== type)) expect(s[other]).toBeNull();
      expect(s[type]).not.toBeNull();
    }
    expect(data[2]).toMatchObject({
      captured_at: '2025-02-01T10:20:30Z',
      created_at: '2025-02-01T10:20:31Z',
      updated_at: '2025-02-01T10:20:32Z',
    });
  });

  it('returns the website object field by field, click ids as strings or null', async () => {
    const ws = await t.newWorkspace();
    const buyer = await insertBuyer(ds, ws.workspace_id);
    const allNull = websiteData('filled_form', '2025-03-01T00:00:00Z', {
      click_ids: {
        gclid: null,
        gbraid: null,
        wbraid: null,
        dclid: null,
        li_fat_id: null,
        msclkid: null,
        fbclid: null,
        ttclid: null,
        twclid: null,
      },
      utm: { source: '', medium: '', campaign: '', term: '', content: '' },
    });
    const allSet = websiteData('abandoned_form', '2025-03-02T00:00:00Z', {
      click_ids: {
        gclid: 'g1',
        gbraid: 'gb1',
        wbraid: 'wb1',
        dclid: 'dc1',
        li_fat_id: 'li1',
        msclkid: 'ms1',
        fbclid: 'fb1',
        ttclid: 'tt1',
        twclid: 'tw1',
      },
    });
    await insertSignal(ds, ws.workspace_id, buyer.id, {
      type: 'website',
      trigger: 'filled_form',
      captured_at: '2025-03-01T00:00:00Z',
      data: allNull,
    });
    await insertSignal(ds, ws.workspace_id, buyer.id, {
      type: 'website',
      trigger: 'abandoned_form',
      captured_at: '2025-03-02T00:00:00Z',
      data: allSet,
    });
    const { data } = await list(ws);
    expect(data.map((s) => s.website)).toEqual([allSet, allNull]);
    for (const s of data) expectSignalShape(s);
    expect(Object.values(data[1].website.click_ids)).toEqual(Array(9).fill(null));
    expect(data[1].website.utm).toEqual({ source: '', medium: '', campaign: '', term: '', content: '' });
    expect(data[0].website.click_ids.twclid).toBe('tw1');
    expect(data[0].website.location.latitude).toBe(51.5072);
    expect(data[0].website.location.longitude).toBe(-0.1276);
    expect(data[0].website.target_page.id).toMatch(/^tpg_\d{19}$/);
  });

  it('returns the market and linkedin objects field by field', async () => {
    const ws = await t.newWorkspace();
    const buyer = await insertBuyer(ds, ws.workspace_id);
    const market = marketData('evaluated_competitor', { topic: 'Spend control', company_website: 'rival.example' });
    const linkedin = linkedinData('commented_post', { comment: 'Useful', company_name: 'Rival', post_title: 'Launch' });
    const m = await insertSignal(ds, ws.workspace_id, buyer.id, {
      type: 'market',
      trigger: 'evaluated_competitor',
      captured_at: '2025-03-03T00:00:00Z',
      data: market,
    });
    const l = await insertSignal(ds, ws.workspace_id, buyer.id, {
      type: 'linkedin',
      trigger: 'commented_post',
      captured_at: '2025-03-04T00:00:00Z',
      data: linkedin,
    });
    const { data } = await list(ws);
    expect(data).toEqual([expectedSignal(l), expectedSignal(m)]);
    expect(data[0]).toMatchObject({ type: 'linkedin', website: null, market: null, linkedin });
    expect(data[1]).toMatchObject({ type: 'market', website: null, linkedin: null, market });
    for (const s of data) expectSignalShape(s);
  });

  it('formats sub-second captured_at as YYYY-MM-DDTHH:mm:ssZ', async () => {
    const ws = await t.newWorkspace();
    const buyer = await insertBuyer(ds, ws.workspace_id);
    await insertSignal(ds, ws.workspace_id, buyer.id, {
      type: 'market',
      trigger: 'explored_product',
      captured_at: '2025-04-04T04:04:04.321Z',
    });
    const { data } = await list(ws);
    expect(data[0].captured_at).toBe('2025-04-04T04:04:04Z');
    expect(data[0].created_at).toBe('2025-04-04T04:04:04Z');
  });
});

describe('GET /v1/signals: order', () => {
  const TIMES = ['2025-05-01T00:00:00Z', '2025-05-01T00:00:00Z', '2025-05-02T00:00:00Z', '2025-04-30T00:00:00Z'];

  it('defaults to captured_at descending, then id descending', async () => {
    const ws = await t.newWorkspace();
    const { signals } = await dataset(ws, 30, TIMES, 2, 3);
    const expected = order(signals, 'desc');
    expect(idsOf((await list(ws)).data)).toEqual(expected);
    expect(idsOf((await list(ws, 'sort_order=desc')).data)).toEqual(expected);
    expect(idsOf((await list(ws, 'sort_by=captured_at')).data)).toEqual(expected);
    expect(idsOf((await list(ws, 'sort_by=captured_at&sort_order=desc')).data)).toEqual(expected);
  });

  it('sort_order=asc gives captured_at ascending, then id ascending', async () => {
    const ws = await t.newWorkspace();
    const { signals } = await dataset(ws, 30, TIMES, 2, 4);
    const expected = order(signals, 'asc');
    expect(idsOf((await list(ws, 'sort_order=asc')).data)).toEqual(expected);
    expect(idsOf((await list(ws, 'sort_by=captured_at&sort_order=asc')).data)).toEqual(expected);
  });

  it('orders by captured_at, not by created_at', async () => {
    const ws = await t.newWorkspace();
    const buyer = await insertBuyer(ds, ws.workspace_id);
    const early = await insertSignal(ds, ws.workspace_id, buyer.id, {
      type: 'market',
      trigger: 'researched_topic',
      captured_at: '2025-01-01T00:00:00Z',
      created_at: '2025-06-01T00:00:00Z',
    });
    const late = await insertSignal(ds, ws.workspace_id, buyer.id, {
      type: 'market',
      trigger: 'researched_topic',
      captured_at: '2025-02-01T00:00:00Z',
      created_at: '2025-03-01T00:00:00Z',
    });
    expect(idsOf((await list(ws)).data)).toEqual([late.public_id, early.public_id]);
    expect(idsOf((await list(ws, 'captured_after=2025-01-15T00:00:00Z')).data)).toEqual([late.public_id]);
  });
});

describe('GET /v1/signals: filters combine with AND', () => {
  const TIMES = [
    '2025-07-01T00:00:00.000Z',
    '2025-07-01T11:59:59.999Z',
    '2025-07-01T12:00:00.000Z',
    '2025-07-01T12:00:00.600Z',
    '2025-07-02T00:00:00.000Z',
    '2025-07-03T00:00:00.000Z',
  ];
  const at = (s: string) => new Date(s).getTime();

  type Case = [
    string,
    (ctx: { buyer: string; otherBuyer: string }) => [string, string][],
    (s: InsertedSignal, ctx: { buyer: string; otherBuyer: string }) => boolean,
  ];
  const cases: Case[] = [
    ['buyer_id', (c) => [['buyer_id', c.buyer]], (s, c) => s.buyer_public_id === c.buyer],
    ['type=website', () => [['type', 'website']], (s) => s.type === 'website'],
    ['type=market', () => [['type', 'market']], (s) => s.type === 'market'],
    ['type=linkedin', () => [['type', 'linkedin']], (s) => s.type === 'linkedin'],
    ...SIGNAL_TYPES.flatMap((type) =>
      TRIGGERS[type].map((trigger): Case => [
        `type=${type}&trigger=${trigger}`,
        () => [
          ['type', type],
          ['trigger', trigger],
        ],
        (s) => s.trigger === trigger,
      ]),
    ),
    [
      'captured_after (inclusive)',
      () => [['captured_after', '2025-07-01T12:00:00Z']],
      (s) => s.captured_at.getTime() >= at('2025-07-01T12:00:00Z'),
    ],
    [
      'captured_before (exclusive)',
      () => [['captured_before', '2025-07-01T12:00:00Z']],
      (s) => s.captured_at.getTime() < at('2025-07-01T12:00:00Z'),
    ],
    [
      'captured_after and captured_before',
      () => [
        ['captured_after', '2025-07-01T12:00:00Z'],
        ['captured_before', '2025-07-02T00:00:00Z'],
      ],
      (s) => s.captured_at.getTime() >= at('2025-07-01T12:00:00Z') && s.captured_at.getTime() < at('2025-07-02T00:00:00Z'),
    ],
    [
      'equal captured bounds',
      () => [
        ['captured_after', '2025-07-02T00:00:00Z'],
        ['captured_before', '2025-07-02T00:00:00Z'],
      ],
      () => false,
    ],
    [
      'buyer_id and type',
      (c) => [
        ['buyer_id', c.otherBuyer],
        ['type', 'market'],
      ],
      (s, c) => s.buyer_public_id === c.otherBuyer && s.type === 'market',
    ],
    [
      'buyer_id, type, trigger and both bounds',
      (c) => [
        ['buyer_id', c.buyer],
        ['type', 'website'],
        ['trigger', 'visited_page'],
        ['captured_after', '2025-07-01T00:00:00Z'],
        ['captured_before', '2025-07-03T00:00:00Z'],
      ],
      (s, c) =>
        s.buyer_public_id === c.buyer &&
        s.trigger === 'visited_page' &&
        s.captured_at.getTime() >= at('2025-07-01T00:00:00Z') &&
        s.captured_at.getTime() < at('2025-07-03T00:00:00Z'),
    ],
    [
      'type and captured_before',
      () => [
        ['type', 'linkedin'],
        ['captured_before', '2025-07-02T00:00:00Z'],
      ],
      (s) => s.type === 'linkedin' && s.captured_at.getTime() < at('2025-07-02T00:00:00Z'),
    ],
  ];

  it.each(cases)('%s', async (_name, params, keep) => {
    const ws = await t.newWorkspace();
    const { buyers, signals } = await dataset(ws, 90, TIMES, 2, 5);
    const ctx = { buyer: buyers[0].public_id, otherBuyer: buyers[1].public_id };
    const wanted = signals.filter((s) => keep(s, ctx));
    expect(wanted.length).toBeLessThan(signals.length);
    if (!_name.startsWith('equal')) expect(wanted.length).toBeGreaterThan(0);
    for (const direction of ['desc', 'asc'] as const) {
      const res = await list(ws, qs([...params(ctx), ['sort_order', direction], ['limit', '1000']]));
      expect(idsOf(res.data)).toEqual(order(wanted, direction));
      expect(res.next_cursor).toBeNull();
    }
    const walked = await walkList<Signal>(t.http, ws.auth, '/v1/signals', Object.fromEntries(params(ctx)), [4, 9]);
    expect(idsOf(walked.items)).toEqual(order(wanted, 'desc'));
  });

  it('includes a Signal captured exactly at captured_after and excludes one exactly at captured_before', async () => {
    const ws = await t.newWorkspace();
    const buyer = await insertBuyer(ds, ws.workspace_id);
    const mk = (captured_at: string) =>
      insertSignal(ds, ws.workspace_id, buyer.id, { type: 'linkedin', trigger: 'followed_page', captured_at });
    const before = await mk('2025-08-01T09:59:59Z');
    const atStart = await mk('2025-08-01T10:00:00Z');
    const inside = await mk('2025-08-01T10:30:00Z');
    const justBeforeEnd = await mk('2025-08-01T10:59:59.999Z');
    const atEnd = await mk('2025-08-01T11:00:00Z');
    const res = await list(ws, 'captured_after=2025-08-01T10:00:00Z&captured_before=2025-08-01T11:00:00Z');
    expect(idsOf(res.data)).toEqual([justBeforeEnd.public_id, inside.public_id, atStart.public_id]);
    expect(idsOf(res.data)).not.toContain(before.public_id);
    expect(idsOf(res.data)).not.toContain(atEnd.public_id);
  });

  it('a well-formed but unknown buyer_id, or another workspace’s Buyer, gives an empty list', async () => {
    const ws = await t.newWorkspace();
    const other = await t.newWorkspace();
    await dataset(ws, 10, ['2025-01-01T00:00:00Z'], 1, 6);
    const { buyers: foreign } = await dataset(other, 10, ['2025-01-01T00:00:00Z'], 1, 7);
    for (const id of [
      formatId('buy_', ids.next()),
      'buy_0000000000000000001',
      'buy_9223372036854775807',
      'buy_99999999999999999999999',
      foreign[0].public_id,
    ]) {
      const res = await get(`/v1/signals?${qs([['buyer_id', id]])}`, ws.auth);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: [], pagination: { next_cursor: null } });
    }
  });
});

describe('GET /v1/signals: invalid query parameters', () => {
  const BAD_TIMESTAMPS = [
    '2026-01-01',
    '2026-01-01T00:00:00',
    '2026-01-01T00:00:00.000Z',
    '2026-01-01T00:00:00+00:00',
    '2026-02-30T00:00:00Z',
    '2026-01-01T24:00:00Z',
    '2026-01-01T00:60:00Z',
    '2026-1-1T00:00:00Z',
    'now',
    '',
  ];
  const cases: [string, string][] = [
    ['trigger=visited_page', 'trigger'],
    ['trigger=followed_page&sort_order=asc', 'trigger'],
    ['type=website&trigger=followed_page', 'trigger'],
    ['type=market&trigger=visited_page', 'trigger'],
    ['type=linkedin&trigger=researched_topic', 'trigger'],
    ['type=website&trigger=clicked', 'trigger'],
    ['type=website&trigger=', 'trigger'],
    ['type=website&trigger=Visited_Page', 'trigger'],
    ['type=email', 'type'],
    ['type=Website', 'type'],
    ['type=', 'type'],
    ['type=website,market', 'type'],
    ['type=website&type=market', 'type'],
    ['type=website&type=website', 'type'],
    ['type=website&trigger=visited_page&trigger=filled_form', 'trigger'],
    ['foo=bar', 'foo'],
    ['created_after=2026-01-01T00:00:00Z', 'created_after'],
    ['status=new', 'status'],
    ['sort_by=created_at', 'sort_by'],
    ['sort_by=id', 'sort_by'],
    ['sort_by=updated_at', 'sort_by'],
    ['sort_by=CAPTURED_AT', 'sort_by'],
    ['sort_by=', 'sort_by'],
    ['sort_by=captured_at&sort_by=captured_at', 'sort_by'],
    ['sort_order=DESC', 'sort_order'],
    ['sort_order=up', 'sort_order'],
    ['sort_order=Asc', 'sort_order'],
    ['sort_order=', 'sort_order'],
    ['sort_order=asc&sort_order=desc', 'sort_order'],
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=-5', 'limit'],
    ['limit=2.0', 'limit'],
    ['limit=', 'limit'],
    ['limit=5&limit=5', 'limit'],
    ['buyer_id=abc', 'buyer_id'],
    ['buyer_id=sig_123', 'buyer_id'],
    ['buyer_id=sig_0000000000000000123', 'buyer_id'],
    ['buyer_id=buy_', 'buyer_id'],
    ['buyer_id=buy_12a', 'buyer_id'],
    ['buyer_id=BUY_123', 'buyer_id'],
    ['buyer_id=123', 'buyer_id'],
    ['buyer_id=buy_-1', 'buyer_id'],
    ['buyer_id=', 'buyer_id'],
    ['buyer_id=buy_1&buyer_id=buy_1', 'buyer_id'],
    ...BAD_TIMESTAMPS.flatMap((v): [string, string][] => [
      [qs([['captured_after', v]]), 'captured_after'],
      [qs([['captured_before', v]]), 'captured_before'],
    ]),
  ];

  it.each(cases)('GET /v1/signals?%s → 400 invalid_parameter param %s', async (query, param) => {
    const ws = await t.newWorkspace();
    await dataset(ws, 3, ['2026-01-01T00:00:00Z'], 1, 8);
    expectError(await get(`/v1/signals?${query}`, ws.auth), 400, 'invalid_parameter', param);
  });

  it('accepts every trigger with its own type', async () => {
    const ws = await t.newWorkspace();
    const { signals } = await dataset(ws, 60, ['2025-01-01T00:00:00Z'], 1, 9);
    for (const type of SIGNAL_TYPES) {
      for (const trigger of TRIGGERS[type]) {
        const res = await list(
          ws,
          qs([
            ['type', type],
            ['trigger', trigger],
          ]),
        );
        expect(idsOf(res.data)).toEqual(
          order(
            signals.filter((s) => s.trigger === trigger),
            'desc',
          ),
        );
        for (const s of res.data) expect(s[type].trigger).toBe(trigger);
      }
    }
  });
});

describe('GET /v1/signals: limit and pagination', () => {
  it('returns 100 Signals by default, and 1000 at most per page', async () => {
    const ws = await t.newWorkspace();
    const { signals } = await dataset(ws, 1001, ['2025-02-01T00:00:00Z', '2025-02-02T00:00:00Z', '2025-02-03T00:00:00Z'], 4, 10);
    const expected = order(signals, 'desc');

    const first = await list(ws);
    expect(idsOf(first.data)).toEqual(expected.slice(0, 100));
    expect(typeof first.next_cursor).toBe('string');

    const big = await list(ws, 'limit=1000');
    expect(idsOf(big.data)).toEqual(expected.slice(0, 1000));
    expect(typeof big.next_cursor).toBe('string');
    const last = await list(
      ws,
      qs([
        ['limit', '1000'],
        ['cursor', big.next_cursor as string],
      ]),
    );
    expect(idsOf(last.data)).toEqual(expected.slice(1000));
    expect(last.next_cursor).toBeNull();
  });

  it('with exactly `limit` Signals left, following the cursors visits each Signal once and ends with null', async () => {
    const ws = await t.newWorkspace();
    const { signals } = await dataset(ws, 8, ['2025-02-05T00:00:00Z'], 2, 11);
    for (const limits of [[8], [4], [2], [5, 3], [1]]) {
      const walked = await walkList<Signal>(t.http, ws.auth, '/v1/signals', {}, limits);
      expect(idsOf(walked.items)).toEqual(order(signals, 'desc'));
    }
  });

  it.each(['desc', 'asc'] as const)(
    'walks 250 Signals with 5 distinct captured_at values (%s), limit 7, 13, 1, 50 in turn, each Signal exactly once',
    async (direction) => {
      const ws = await t.newWorkspace();
      const times = [
        '2025-09-09T09:00:00.000Z',
        '2025-09-09T09:00:00.500Z',
        '2025-09-09T09:00:01.000Z',
        '2025-09-10T00:00:00.000Z',
        '2025-09-01T00:00:00.000Z',
      ];
      const { signals } = await dataset(ws, 250, times, 5, direction === 'asc' ? 12 : 13);
      expect(new Set(signals.map((s) => s.captured_at.getTime())).size).toBe(5);
      const walked = await walkList<Signal>(t.http, ws.auth, '/v1/signals', { sort_order: direction }, [7, 13, 1, 50]);
      const visited = idsOf(walked.items);
      expect(new Set(visited).size).toBe(250);
      expect(visited).toEqual(order(signals, direction));
      expect(walked.pages.length).toBeGreaterThanOrEqual(14);
      for (const page of walked.pages.slice(0, -1)) expect(page.next_cursor).not.toBeNull();
    },
  );

  it.each([
    ['type=website', { type: 'website' }, (s: InsertedSignal) => s.type === 'website'],
    [
      'type=market&trigger=explored_product, ascending',
      { type: 'market', trigger: 'explored_product', sort_order: 'asc' },
      (s: InsertedSignal) => s.trigger === 'explored_product',
    ],
    [
      'captured window',
      { captured_after: '2025-09-09T09:00:00Z', captured_before: '2025-09-10T00:00:00Z' },
      (s: InsertedSignal) =>
        s.captured_at.getTime() >= Date.parse('2025-09-09T09:00:00Z') && s.captured_at.getTime() < Date.parse('2025-09-10T00:00:00Z'),
    ],
  ] as [string, Record<string, string>, (s: InsertedSignal) => boolean][])(
    'walks a filtered list (%s) with ties, each matching Signal once',
    async (_name, query, keep) => {
      const ws = await t.newWorkspace();
      const times = ['2025-09-09T09:00:00.000Z', '2025-09-09T09:00:00.500Z', '2025-09-10T00:00:00.000Z', '2025-09-01T00:00:00.000Z'];
      const { signals } = await dataset(ws, 150, times, 3, 14);
      const wanted = signals.filter(keep);
      expect(wanted.length).toBeGreaterThan(5);
      expect(wanted.length).toBeLessThan(signals.length);
      const walked = await walkList<Signal>(t.http, ws.auth, '/v1/signals', query, [3, 11, 1]);
      expect(idsOf(walked.items)).toEqual(order(wanted, (query.sort_order as 'asc' | undefined) ?? 'desc'));
    },
  );

  it('walks one Buyer’s Signals with buyer_id kept on every page', async () => {
    const ws = await t.newWorkspace();
    const { buyers, signals } = await dataset(ws, 120, ['2025-10-01T00:00:00Z', '2025-10-02T00:00:00Z'], 3, 15);
    for (const buyer of buyers) {
      const walked = await walkList<Signal>(t.http, ws.auth, '/v1/signals', { buyer_id: buyer.public_id }, [5, 2]);
      expect(idsOf(walked.items)).toEqual(
        order(
          signals.filter((s) => s.buyer_id === buyer.id),
          'desc',
        ),
      );
      for (const s of walked.items) expect(s.buyer_id).toBe(buyer.public_id);
    }
  });
});

describe('GET /v1/signals: cursors', () => {
  /** A workspace with Signals and the cursor after the first page (limit 2) of `base`. */
  async function setup() {
    const ws = await t.newWorkspace();
    const { buyers, signals } = await dataset(ws, 40, ['2025-11-01T00:00:00Z', '2025-11-02T00:00:00Z', '2025-11-03T00:00:00Z'], 2, 16);
    const base: [string, string][] = [
      ['buyer_id', buyers[0].public_id],
      ['type', 'website'],
      ['trigger', 'visited_page'],
      ['captured_after', '2025-11-01T00:00:00Z'],
      ['captured_before', '2025-11-04T00:00:00Z'],
      ['sort_order', 'asc'],
    ];
    const extra = await insertSignals(
      ds,
      ws.workspace_id,
      ['2025-11-01T00:00:00Z', '2025-11-02T00:00:00Z', '2025-11-02T00:00:00Z', '2025-11-03T00:00:00Z'].map((captured_at) => ({
        buyer_id: buyers[0].id,
        type: 'website' as const,
        trigger: 'visited_page',
        captured_at,
      })),
    );
    const wanted = [...signals, ...extra].filter((s) => s.buyer_id === buyers[0].id && s.trigger === 'visited_page');
    expect(wanted.length).toBeGreaterThan(3);
    const first = await list(ws, qs([...base, ['limit', '1']]));
    expect(first.data).toHaveLength(1);
    expect(typeof first.next_cursor).toBe('string');
    return { ws, buyers, base, wanted, cursor: first.next_cursor as string };
  }

  const without = (base: [string, string][], name: string) => base.filter(([k]) => k !== name);
  const replace = (base: [string, string][], name: string, value: string) =>
    base.map(([k, v]): [string, string] => [k, k === name ? value : v]);

  it('is accepted with the same filters and sort, and any limit', async () => {
    const { ws, base, wanted, cursor } = await setup();
    const next = await list(ws, qs([...base, ['limit', '2'], ['cursor', cursor]]));
    expect(idsOf(next.data)).toEqual(order(wanted, 'asc').slice(1, 3));
    const nextDefaultLimit = await list(ws, qs([...base, ['cursor', cursor]]));
    expect(idsOf(nextDefaultLimit.data)).toEqual(order(wanted, 'asc').slice(1));
  });

  it.each([
    ['buyer_id changed', (b: [string, string][], other: string) => replace(b, 'buyer_id', other)],
    ['buyer_id removed', (b: [string, string][]) => without(b, 'buyer_id')],
    ['type and trigger changed', (b: [string, string][]) => replace(replace(b, 'type', 'market'), 'trigger', 'researched_topic')],
    ['trigger changed', (b: [string, string][]) => replace(b, 'trigger', 'filled_form')],
    ['trigger removed', (b: [string, string][]) => without(b, 'trigger')],
    ['captured_after changed', (b: [string, string][]) => replace(b, 'captured_after', '2025-11-01T00:00:01Z')],
    ['captured_after removed', (b: [string, string][]) => without(b, 'captured_after')],
    ['captured_before changed', (b: [string, string][]) => replace(b, 'captured_before', '2025-11-05T00:00:00Z')],
    ['sort_order changed', (b: [string, string][]) => replace(b, 'sort_order', 'desc')],
    ['sort_order removed (default desc)', (b: [string, string][]) => without(b, 'sort_order')],
    ['every filter removed', () => [] as [string, string][]],
  ])('is invalid_cursor when %s', async (_name, change) => {
    const { ws, buyers, base, cursor } = await setup();
    const params = change(base, buyers[1].public_id);
    expectError(await get(`/v1/signals?${qs([...params, ['cursor', cursor]])}`, ws.auth), 400, 'invalid_cursor', 'cursor');
  });

  it('is invalid_cursor when type alone is changed or removed', async () => {
    const ws = await t.newWorkspace();
    const { signals } = await dataset(ws, 40, ['2025-11-05T00:00:00Z', '2025-11-06T00:00:00Z'], 2, 22);
    const websites = order(
      signals.filter((s) => s.type === 'website'),
      'desc',
    );
    expect(websites.length).toBeGreaterThan(2);
    const first = await list(ws, 'type=website&limit=1');
    expect(idsOf(first.data)).toEqual(websites.slice(0, 1));
    const cursor = first.next_cursor as string;
    expect(typeof cursor).toBe('string');
    for (const params of [[['type', 'market']], [['type', 'linkedin']], []] as [string, string][][]) {
      expectError(await get(`/v1/signals?${qs([...params, ['cursor', cursor]])}`, ws.auth), 400, 'invalid_cursor', 'cursor');
    }
    const rest = await list(
      ws,
      qs([
        ['type', 'website'],
        ['cursor', cursor],
      ]),
    );
    expect(idsOf(rest.data)).toEqual(websites.slice(1));
  });

  it('is invalid_cursor on Buyers, and a Buyers cursor is invalid_cursor on Signals', async () => {
    const { ws, cursor } = await setup();
    expectError(await get(`/v1/buyers?${qs([['cursor', cursor]])}`, ws.auth), 400, 'invalid_cursor', 'cursor');
    const plain = await list(ws, 'limit=1');
    expectError(await get(`/v1/buyers?${qs([['cursor', plain.next_cursor as string]])}`, ws.auth), 400, 'invalid_cursor', 'cursor');
    const buyersPage = await get('/v1/buyers?limit=1', ws.auth);
    expect(typeof buyersPage.body.pagination.next_cursor).toBe('string');
    expectError(
      await get(`/v1/signals?${qs([['cursor', buyersPage.body.pagination.next_cursor]])}`, ws.auth),
      400,
      'invalid_cursor',
      'cursor',
    );
  });

  it('is invalid_cursor in another workspace', async () => {
    const { ws, cursor } = await setup();
    const other = await t.newWorkspace();
    await dataset(other, 10, ['2025-11-01T00:00:00Z'], 1, 17);
    const plain = await list(ws, 'limit=1');
    expectError(await get(`/v1/signals?${qs([['cursor', plain.next_cursor as string]])}`, other.auth), 400, 'invalid_cursor', 'cursor');
    expectError(await get(`/v1/signals?${qs([['cursor', cursor]])}`, other.auth), 400, 'invalid_cursor', 'cursor');
  });

  it('is invalid_cursor when altered, truncated, extended, empty or made up', async () => {
    const { ws, base, cursor } = await setup();
    const variants = new Set<string>();
    for (const index of [0, 3, Math.floor(cursor.length / 2), cursor.length - 2, cursor.length - 1]) {
      variants.add(cursor.slice(0, index) + (cursor[index] === 'x' ? 'y' : 'x') + cursor.slice(index + 1));
    }
    variants.add(cursor.slice(0, -1));
    variants.add(`${cursor}=`);
    variants.add(`x${cursor}`);
    variants.add(cursor.split('').reverse().join(''));
    variants.add('');
    variants.add('null');
    variants.add('0');
    variants.delete(cursor);
    for (const variant of variants) {
      expectError(await get(`/v1/signals?${qs([...base, ['cursor', variant]])}`, ws.auth), 400, 'invalid_cursor', 'cursor');
    }
  });
});

describe('workspace isolation and key scope', () => {
  it('workspace B never lists A’s Signals, not even when filtering by A’s Buyer', async () => {
    const a = await t.newWorkspace();
    const b = await t.newWorkspace();
    const fromA = await dataset(a, 20, ['2025-12-01T00:00:00Z'], 2, 18);
    expect((await list(b)).data).toEqual([]);
    const fromB = await dataset(b, 5, ['2025-12-01T00:00:00Z'], 1, 19);
    expect(idsOf((await list(b, 'limit=1000')).data)).toEqual(order(fromB.signals, 'desc'));
    for (const buyer of fromA.buyers) {
      expect((await list(b, qs([['buyer_id', buyer.public_id]]))).data).toEqual([]);
    }
    expect(idsOf((await list(a, 'limit=1000')).data)).toEqual(order(fromA.signals, 'desc'));
    const walked = await walkList<Signal>(t.http, b.auth, '/v1/signals', { captured_after: '2025-01-01T00:00:00Z' }, [2]);
    expect(idsOf(walked.items)).toEqual(order(fromB.signals, 'desc'));
  });

  it('a read-scope key lists Signals', async () => {
    const ws = await t.newWorkspace();
    const readKey = await t.workspaces.createKey(ws.workspace_id, 'read');
    const { signals } = await dataset(ws, 5, ['2025-12-02T00:00:00Z'], 1, 20);
    const viaRead = await list(ws, '', `Bearer ${readKey.api_key}`);
    expect(idsOf(viaRead.data)).toEqual(order(signals, 'desc'));
    expect(viaRead.data).toEqual((await list(ws)).data);
  });

  it('requires a key', async () => {
    const ws = await t.newWorkspace();
    await dataset(ws, 2, ['2025-12-03T00:00:00Z'], 1, 21);
    expectError(await t.http.get('/v1/signals'), 401, 'authentication_error');
    expectError(await t.http.get('/v1/signals').set('Authorization', 'Bearer svc_live_nope'), 401, 'authentication_error');
  });
});
