import { DataSource } from 'typeorm';
import { formatId, ids } from '../../src/shared/domain/ids';
import { expectError, TIMESTAMP } from '../support/assertions';
import { unique } from '../support/kb-resources';
import { byTimeThenId, shuffled, walkList } from '../support/list-walk';
import {
  BuyerOverrides,
  companyInfo,
  contactInfo,
  fullCompanyInfo,
  fullContactInfo,
  insertBuyer,
  insertBuyers,
  insertSignal,
  InsertedBuyer,
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

type Buyer = Record<string, any>;

const S = () => expect.any(String);
const B = () => expect.any(Boolean);
const N = () => expect.any(Number);

/** Every documented Buyer field with its JSON type, and no other field. */
function expectBuyerShape(b: Buyer): void {
  expect(b).toEqual({
    id: expect.stringMatching(/^buy_\d{19}$/),
    client_id: expect.stringMatching(/^wor_\d{19}$/),
    contact_info: {
      name: { first: S(), middle: S(), last: S() },
      role: { title: S(), function: S(), seniority: S(), start_date: S() },
      email: { work: S(), is_valid: B() },
      phone: { mobile: S(), is_valid: B() },
      social: {
        linkedin: S(),
        twitter: S(),
        github: S(),
        facebook: S(),
        linkedin_followers: N(),
        is_linkedin_valid: B(),
      },
      location: { city: S(), state: S(), country: S(), postal_code: S() },
      photo_url: S(),
      is_persona: B(),
      persona_id: expect.stringMatching(/^(per_\d{19})?$/),
      persona_name: S(),
      persona_reasoning: S(),
    },
    company_info: {
      name: S(),
      website: S(),
      logo: S(),
      company_type: S(),
      industries: expect.any(Array),
      employee_count: N(),
      founded_year: N(),
      annual_revenue: N(),
      total_funding: N(),
      social: { linkedin: S(), twitter: S(), facebook: S() },
      location: { street_address: S(), city: S(), state: S(), postal_code: S(), country: S() },
      latest_funding_stage: S(),
      latest_funding_round_date: expect.stringMatching(/^(\d{4}-\d{2}-\d{2})?$/),
      is_icp: B(),
      icp_id: expect.stringMatching(/^(icp_\d{19})?$/),
      icp_name: S(),
      icp_reasoning: S(),
    },
    hems: expect.any(Array),
    target_lists: [],
    signal_count: { total: N(), website: N(), market: N(), linkedin: N() },
    attribution: { type: S(), source: S(), source_name: S(), source_logo: S() },
    first_signal_id: expect.stringMatching(/^(sig_\d{19})?$/),
    last_signal_id: expect.stringMatching(/^(sig_\d{19})?$/),
    first_signal_type: expect.stringMatching(/^(website|market|linkedin)?$/),
    last_signal_type: expect.stringMatching(/^(website|market|linkedin)?$/),
    first_signal_trigger: S(),
    last_signal_trigger: S(),
    created_at: expect.stringMatching(TIMESTAMP),
    updated_at: expect.stringMatching(TIMESTAMP),
  });
  for (const value of [
    ...Object.values(b.signal_count),
    b.contact_info.social.linkedin_followers,
    b.company_info.employee_count,
    b.company_info.founded_year,
  ]) {
    expect(Number.isInteger(value)).toBe(true);
  }
  for (const industry of b.company_info.industries) expect(typeof industry).toBe('string');
  for (const hem of b.hems) expect(hem).toEqual({ type: S(), value: S() });
  expect(b.company_info.is_icp).toBe(b.company_info.icp_id !== '');
  expect(b.contact_info.is_persona).toBe(b.contact_info.persona_id !== '');
}

const get = (path: string, auth: string) => t.http.get(path).set('Authorization', auth);

async function list(ws: TestWorkspace, query = '', auth = ws.auth): Promise<{ data: Buyer[]; next_cursor: string | null }> {
  const res = await get(`/v1/buyers${query ? `?${query}` : ''}`, auth);
  if (res.status !== 200) throw new Error(`GET /v1/buyers?${query}: ${res.status} ${JSON.stringify(res.body)}`);
  expect(Object.keys(res.body).sort()).toEqual(['data', 'pagination']);
  expect(Object.keys(res.body.pagination)).toEqual(['next_cursor']);
  return { data: res.body.data, next_cursor: res.body.pagination.next_cursor };
}

async function retrieve(ws: TestWorkspace, id: string, auth = ws.auth): Promise<Buyer> {
  const res = await get(`/v1/buyers/${id}`, auth);
  if (res.status !== 200) throw new Error(`GET /v1/buyers/${id}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const qs = (pairs: [string, string][]): string => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');

/** Buyers with the given created_at values, their ids handed out in an order unrelated to time. */
async function buyersAt(ws: TestWorkspace, times: string[], seed = 7): Promise<{ id: string; at: number }[]> {
  const idPool = shuffled(
    times.map(() => ids.next()),
    seed,
  );
  const overrides: BuyerOverrides[] = times.map((at, i) => ({ id: idPool[i], created_at: at }));
  const inserted = await insertBuyers(ds, ws.workspace_id, overrides);
  return inserted.map((b, i) => ({ id: b.public_id, at: new Date(times[i]).getTime() }));
}

const sortedIds = (rows: { id: string; at: number }[], order: 'asc' | 'desc') =>
  [...rows]
    .sort(
      byTimeThenId(
        (r) => r.at,
        (r) => r.id,
        order,
      ),
    )
    .map((r) => r.id);

async function createKb(ws: TestWorkspace, path: 'icps' | 'personas', name: string): Promise<Record<string, string>> {
  const n = unique();
  const res = await t.http
    .post(`/v1/kb/${path}`)
    .set('Authorization', ws.auth)
    .send({ name: `${name} ${n}`, short_name: `${path}-${n}`, description: `${name} description` });
  expect(res.status).toBe(201);
  return res.body;
}

const rowOf = async (id: string) => (await ds.query(`SELECT * FROM buyers WHERE id = $1`, [id]))[0];

describe('GET /v1/buyers: response shape', () => {
  it('lists nothing for a new workspace', async () => {
    const ws = await t.newWorkspace();
    const res = await get('/v1/buyers', ws.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], pagination: { next_cursor: null } });
  });

  it('returns every documented field with its value and JSON type, in the list and on retrieve', async () => {
    const ws = await t.newWorkspace();
    const icp = await createKb(ws, 'icps', 'Fintech');
    const persona = await createKb(ws, 'personas', 'Finance leaders');
    const firstId = ids.next();
    const lastId = ids.next();
    const contact = fullContactInfo();
    const company = fullCompanyInfo();
    const hems = [
      { type: 'sha256', value: 'a'.repeat(64) },
      { type: 'md5', value: 'b'.repeat(32) },
    ];
    const attribution = { type: 'paid', source: 'linkedin', source_name: 'LinkedIn Ads', source_logo: 'https://logos.example.com/li.png' };
    const buyer = await insertBuyer(ds, ws.workspace_id, {
      contact_info: contact,
      company_info: company,
      hems,
      attribution,
      is_icp: true,
      icp_id: icp.id,
      icp_name: icp.name,
      icp_reasoning: 'Industry Financial Services matched; employees 420 within 50-1000.',
      is_persona: true,
      persona_id: persona.id,
      persona_name: persona.name,
      persona_reasoning: 'Title CFO matched; seniority C-level matched.',
      signal_count: { total: 7, website: 4, market: 2, linkedin: 1 },
      first_signal_id: firstId,
      first_signal_type: 'website',
      first_signal_trigger: 'visited_page',
      first_signal_at: '2025-03-01T08:00:00Z',
      last_signal_id: lastId,
      last_signal_type: 'linkedin',
      last_signal_trigger: 'commented_post',
      last_signal_at: '2025-03-04T17:45:10Z',
      created_at: '2025-03-01T08:00:01.000Z',
      updated_at: '2025-03-04T17:45:11.000Z',
    });
    await insertSignal(ds, ws.workspace_id, buyer.id, {
      id: firstId,
      type: 'website',
      trigger: 'visited_page',
      captured_at: '2025-03-01T08:00:00Z',
    });
    await insertSignal(ds, ws.workspace_id, buyer.id, {
      id: lastId,
      type: 'linkedin',
      trigger: 'commented_post',
      captured_at: '2025-03-04T17:45:10Z',
    });

    const expected = {
      id: buyer.public_id,
      client_id: ws.workspace_id,
      contact_info: {
        ...contact,
        is_persona: true,
        persona_id: persona.id,
        persona_name: persona.name,
        persona_reasoning: 'Title CFO matched; seniority C-level matched.',
      },
      company_info: {
        ...company,
        is_icp: true,
        icp_id: icp.id,
        icp_name: icp.name,
        icp_reasoning: 'Industry Financial Services matched; employees 420 within 50-1000.',
      },
      hems,
      target_lists: [],
      signal_count: { total: 7, website: 4, market: 2, linkedin: 1 },
      attribution,
      first_signal_id: formatId('sig_', firstId),
      last_signal_id: formatId('sig_', lastId),
      first_signal_type: 'website',
      last_signal_type: 'linkedin',
      first_signal_trigger: 'visited_page',
      last_signal_trigger: 'commented_post',
      created_at: '2025-03-01T08:00:01Z',
      updated_at: '2025-03-04T17:45:11Z',
    };

    const { data, next_cursor } = await list(ws);
    expect(next_cursor).toBeNull();
    expect(data).toHaveLength(1);
    expect(data[0]).toEqual(expected);
    expectBuyerShape(data[0]);
    expect(data[0].company_info.latest_funding_round_date).toBe('2024-06-30');
    expect(data[0].company_info.annual_revenue).toBe(52500000.5);
    expect(data[0].contact_info.social.linkedin_followers).toBe(1520);

    const one = await retrieve(ws, buyer.public_id);
    expect(one).toEqual(expected);
    expect(one).toEqual(data[0]);
  });

  it('returns absent text as "", absent numbers as 0, booleans false, target_lists [] and no evaluation', async () => {
    const ws = await t.newWorkspace();
    const buyer = await insertBuyer(ds, ws.workspace_id, {
      contact_info: { email: { work: 'someone@acme.example' } },
      attribution: { type: '', source: '', source_name: '', source_logo: '' },
      created_at: '2025-01-02T03:04:05Z',
    });
    const { data } = await list(ws);
    expect(data).toHaveLength(1);
    const b = data[0];
    expectBuyerShape(b);
    expect(b).toEqual({
      id: buyer.public_id,
      client_id: ws.workspace_id,
      contact_info: {
        ...contactInfo({ email: { work: 'someone@acme.example' } }),
        is_persona: false,
        persona_id: '',
        persona_name: '',
        persona_reasoning: '',
      },
      company_info: { ...companyInfo(), is_icp: false, icp_id: '', icp_name: '', icp_reasoning: '' },
      hems: [],
      target_lists: [],
      signal_count: { total: 0, website: 0, market: 0, linkedin: 0 },
      attribution: { type: '', source: '', source_name: '', source_logo: '' },
      first_signal_id: '',
      last_signal_id: '',
      first_signal_type: '',
      last_signal_type: '',
      first_signal_trigger: '',
      last_signal_trigger: '',
      created_at: '2025-01-02T03:04:05Z',
      updated_at: '2025-01-02T03:04:05Z',
    });
    expect(b.company_info.latest_funding_round_date).toBe('');
    expect(b.company_info.industries).toEqual([]);
    expect(await retrieve(ws, buyer.public_id)).toEqual(b);
  });

  it('formats timestamps with sub-second precision as YYYY-MM-DDTHH:mm:ssZ', async () => {
    const ws = await t.newWorkspace();
    const buyer = await insertBuyer(ds, ws.workspace_id, {
      created_at: '2025-07-08T09:10:11.987Z',
      updated_at: '2025-07-09T00:00:00.001Z',
    });
    const b = await retrieve(ws, buyer.public_id);
    expect(b.created_at).toMatch(TIMESTAMP);
    expect(b.updated_at).toMatch(TIMESTAMP);
    expect(['2025-07-08T09:10:11Z', '2025-07-08T09:10:12Z']).toContain(b.created_at);
    expect(b.updated_at).toBe('2025-07-09T00:00:00Z');
    expect((await list(ws)).data[0]).toEqual(b);
  });

  it('retrieve returns for each Buyer exactly the object the list shows', async () => {
    const ws = await t.newWorkspace();
    const inserted: InsertedBuyer[] = [];
    inserted.push(await insertBuyer(ds, ws.workspace_id, { contact_info: fullContactInfo(), created_at: '2025-02-01T00:00:00Z' }));
    inserted.push(await insertBuyer(ds, ws.workspace_id, { company_info: fullCompanyInfo(), created_at: '2025-02-02T00:00:00Z' }));
    inserted.push(
      await insertBuyer(ds, ws.workspace_id, {
        hems: [{ type: 'sha1', value: 'c'.repeat(40) }],
        signal_count: { total: 2, market: 2 },
        created_at: '2025-02-03T00:00:00Z',
      }),
    );
    const { data } = await list(ws);
    expect(data.map((b) => b.id)).toEqual([inserted[2].public_id, inserted[1].public_id, inserted[0].public_id]);
    for (const item of data) {
      expectBuyerShape(item);
      expect(await retrieve(ws, item.id)).toEqual(item);
    }
  });
});

describe('GET /v1/buyers: order', () => {
  const TIMES = [
    '2025-04-01T10:00:00.000Z',
    '2025-04-01T10:00:00.000Z',
    '2025-04-01T10:00:00.000Z',
    '2025-04-02T10:00:00.000Z',
    '2025-04-02T10:00:00.000Z',
    '2025-03-30T10:00:00.000Z',
    '2025-04-01T10:00:00.000Z',
    '2025-04-03T10:00:00.000Z',
  ];

  it('defaults to created_at descending, then id descending', async () => {
    const ws = await t.newWorkspace();
    const rows = await buyersAt(ws, TIMES, 11);
    const expected = sortedIds(rows, 'desc');
    expect((await list(ws)).data.map((b) => b.id)).toEqual(expected);
    expect((await list(ws, 'sort_order=desc')).data.map((b) => b.id)).toEqual(expected);
    expect((await list(ws, 'sort_by=created_at')).data.map((b) => b.id)).toEqual(expected);
    expect((await list(ws, 'sort_by=created_at&sort_order=desc')).data.map((b) => b.id)).toEqual(expected);
  });

  it('sort_order=asc gives created_at ascending, then id ascending', async () => {
    const ws = await t.newWorkspace();
    const rows = await buyersAt(ws, TIMES, 12);
    const expected = sortedIds(rows, 'asc');
    expect((await list(ws, 'sort_order=asc')).data.map((b) => b.id)).toEqual(expected);
    expect((await list(ws, 'sort_by=created_at&sort_order=asc')).data.map((b) => b.id)).toEqual(expected);
  });
});

describe('GET /v1/buyers: created_after / created_before', () => {
  const TIMES = [
    '2025-06-01T00:00:00.000Z',
    '2025-06-01T11:59:59.999Z',
    '2025-06-01T12:00:00.000Z',
    '2025-06-01T12:00:00.400Z',
    '2025-06-01T12:00:01.000Z',
    '2025-06-02T00:00:00.000Z',
    '2025-06-02T00:00:00.000Z',
    '2025-06-03T08:30:00.000Z',
  ];
  const at = (s: string) => new Date(s).getTime();

  it.each([
    ['created_after is inclusive', [['created_after', '2025-06-01T12:00:00Z']], (x: number) => x >= at('2025-06-01T12:00:00Z')],
    ['created_before is exclusive', [['created_before', '2025-06-01T12:00:00Z']], (x: number) => x < at('2025-06-01T12:00:00Z')],
    [
      'created_before one second later keeps the sub-second instants before it',
      [['created_before', '2025-06-01T12:00:01Z']],
      (x: number) => x < at('2025-06-01T12:00:01Z'),
    ],
    [
      'both bounds combine with AND',
      [
        ['created_after', '2025-06-01T12:00:00Z'],
        ['created_before', '2025-06-02T00:00:00Z'],
      ],
      (x: number) => x >= at('2025-06-01T12:00:00Z') && x < at('2025-06-02T00:00:00Z'),
    ],
    [
      'equal bounds select nothing',
      [
        ['created_after', '2025-06-02T00:00:00Z'],
        ['created_before', '2025-06-02T00:00:00Z'],
      ],
      () => false,
    ],
    [
      'bounds in the wrong order select nothing',
      [
        ['created_after', '2025-06-03T00:00:00Z'],
        ['created_before', '2025-06-01T00:00:00Z'],
      ],
      () => false,
    ],
    ['a bound after every Buyer selects nothing', [['created_after', '2030-01-01T00:00:00Z']], () => false],
  ] as [string, [string, string][], (x: number) => boolean][])('%s', async (_name, params, keep) => {
    const ws = await t.newWorkspace();
    const rows = await buyersAt(ws, TIMES, 21);
    const wanted = rows.filter((r) => keep(r.at));
    for (const order of ['desc', 'asc'] as const) {
      const res = await list(ws, qs([...params, ['sort_order', order]]));
      expect(res.data.map((b) => b.id)).toEqual(sortedIds(wanted, order));
      expect(res.next_cursor).toBeNull();
    }
    const walked = await walkList<Buyer>(t.http, ws.auth, '/v1/buyers', Object.fromEntries(params), [1]);
    expect(walked.items.map((b) => b.id)).toEqual(sortedIds(wanted, 'desc'));
  });
});

describe('GET /v1/buyers: limit and pagination', () => {
  it('returns 100 Buyers by default, and up to 1000 when asked', async () => {
    const ws = await t.newWorkspace();
    const times = Array.from({ length: 101 }, (_, i) => new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString());
    const rows = await buyersAt(ws, times, 31);
    const expected = sortedIds(rows, 'desc');

    const first = await list(ws);
    expect(first.data).toHaveLength(100);
    expect(first.data.map((b) => b.id)).toEqual(expected.slice(0, 100));
    expect(typeof first.next_cursor).toBe('string');

    const rest = await list(ws, qs([['cursor', first.next_cursor as string]]));
    expect(rest.data.map((b) => b.id)).toEqual(expected.slice(100));
    expect(rest.next_cursor).toBeNull();

    const all = await list(ws, 'limit=1000');
    expect(all.data.map((b) => b.id)).toEqual(expected);
    expect(all.next_cursor).toBeNull();

    const three = await list(ws, 'limit=3');
    expect(three.data.map((b) => b.id)).toEqual(expected.slice(0, 3));
    expect(typeof three.next_cursor).toBe('string');
  });

  it('with exactly `limit` Buyers left, following the cursors visits each Buyer once and ends with null', async () => {
    const ws = await t.newWorkspace();
    const rows = await buyersAt(
      ws,
      Array.from({ length: 6 }, () => '2025-08-01T00:00:00Z'),
      41,
    );
    for (const limits of [[6], [3], [2], [4, 2]]) {
      const walked = await walkList<Buyer>(t.http, ws.auth, '/v1/buyers', {}, limits);
      expect(walked.items.map((b) => b.id)).toEqual(sortedIds(rows, 'desc'));
      expect(walked.pages[walked.pages.length - 1].next_cursor).toBeNull();
    }
  });

  it.each(['desc', 'asc'] as const)(
    'walks 120 Buyers with 4 distinct created_at values (%s), limit changing between pages, each Buyer exactly once',
    async (order) => {
      const ws = await t.newWorkspace();
      const distinct = ['2025-09-01T00:00:00.000Z', '2025-09-01T00:00:00.250Z', '2025-09-02T00:00:00.000Z', '2025-08-15T12:00:00.000Z'];
      const times = Array.from({ length: 120 }, (_, i) => distinct[(i * 7) % distinct.length]);
      const rows = await buyersAt(ws, times, order === 'asc' ? 51 : 52);
      const walked = await walkList<Buyer>(t.http, ws.auth, '/v1/buyers', { sort_order: order }, [7, 13, 1, 50]);
      const visited = walked.items.map((b) => b.id);
      expect(new Set(visited).size).toBe(visited.length);
      expect(visited).toEqual(sortedIds(rows, order));
      expect(walked.pages.length).toBeGreaterThan(4);
      for (const page of walked.pages.slice(0, -1)) expect(page.next_cursor).not.toBeNull();
    },
  );

  it('walks a filtered list with the filter repeated on every page', async () => {
    const ws = await t.newWorkspace();
    const distinct = ['2025-10-01T00:00:00Z', '2025-10-02T00:00:00Z', '2025-10-03T00:00:00Z'];
    const rows = await buyersAt(
      ws,
      Array.from({ length: 45 }, (_, i) => distinct[i % 3]),
      61,
    );
    const query = { created_after: '2025-10-02T00:00:00Z', created_before: '2025-10-03T00:00:00Z', sort_order: 'asc' };
    const walked = await walkList<Buyer>(t.http, ws.auth, '/v1/buyers', query, [4, 1, 6]);
    const wanted = rows.filter((r) => r.at === new Date('2025-10-02T00:00:00Z').getTime());
    expect(wanted).toHaveLength(15);
    expect(walked.items.map((b) => b.id)).toEqual(sortedIds(wanted, 'asc'));
  });

  it('lets limit change between pages', async () => {
    const ws = await t.newWorkspace();
    const rows = await buyersAt(
      ws,
      Array.from({ length: 10 }, () => '2025-11-11T11:11:11Z'),
      71,
    );
    const expected = sortedIds(rows, 'desc');
    const first = await list(ws, 'limit=2');
    expect(first.data.map((b) => b.id)).toEqual(expected.slice(0, 2));
    const second = await list(
      ws,
      qs([
        ['limit', '5'],
        ['cursor', first.next_cursor as string],
      ]),
    );
    expect(second.data.map((b) => b.id)).toEqual(expected.slice(2, 7));
    const third = await list(ws, qs([['cursor', second.next_cursor as string]]));
    expect(third.data.map((b) => b.id)).toEqual(expected.slice(7));
    expect(third.next_cursor).toBeNull();
  });
});

describe('GET /v1/buyers: invalid query parameters', () => {
  const BAD_TIMESTAMPS = [
    '2026-01-01',
    '2026-01-01T00:00:00',
    '2026-01-01T00:00:00.000Z',
    '2026-01-01T00:00:00+00:00',
    '2026-02-30T00:00:00Z',
    '2026-01-01T24:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-01-01 00:00:00Z',
    '2026-01-01t00:00:00z',
    '1767225600',
    'yesterday',
    '',
  ];
  const cases: [string, string][] = [
    ['foo=bar', 'foo'],
    ['offset=10', 'offset'],
    ['page=2', 'page'],
    ['total=true', 'total'],
    ['type=website', 'type'],
    ['captured_after=2026-01-01T00:00:00Z', 'captured_after'],
    ['LIMIT=10', 'LIMIT'],
    ['limit=10&limit=20', 'limit'],
    ['limit=10&limit=10', 'limit'],
    ['sort_order=asc&sort_order=asc', 'sort_order'],
    ['sort_by=created_at&sort_by=created_at', 'sort_by'],
    ['created_after=2026-01-01T00:00:00Z&created_after=2026-01-02T00:00:00Z', 'created_after'],
    ['created_before=2026-01-01T00:00:00Z&created_before=2026-01-01T00:00:00Z', 'created_before'],
    ['sort_by=captured_at', 'sort_by'],
    ['sort_by=id', 'sort_by'],
    ['sort_by=updated_at', 'sort_by'],
    ['sort_by=CREATED_AT', 'sort_by'],
    ['sort_by=', 'sort_by'],
    ['sort_order=DESC', 'sort_order'],
    ['sort_order=ASC', 'sort_order'],
    ['sort_order=up', 'sort_order'],
    ['sort_order=descending', 'sort_order'],
    ['sort_order=', 'sort_order'],
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=-1', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=1e2', 'limit'],
    ['limit=', 'limit'],
    ['limit=99999999999999999999', 'limit'],
    ...BAD_TIMESTAMPS.flatMap((v): [string, string][] => [
      [qs([['created_after', v]]), 'created_after'],
      [qs([['created_before', v]]), 'created_before'],
    ]),
  ];

  it.each(cases)('GET /v1/buyers?%s → 400 invalid_parameter param %s', async (query, param) => {
    const ws = await t.newWorkspace();
    await insertBuyer(ds, ws.workspace_id, { created_at: '2026-01-01T00:00:00Z' });
    expectError(await get(`/v1/buyers?${query}`, ws.auth), 400, 'invalid_parameter', param);
  });

  it('a bad parameter is reported even next to a valid cursor', async () => {
    const ws = await t.newWorkspace();
    await buyersAt(ws, ['2025-01-01T00:00:00Z', '2025-01-02T00:00:00Z'], 81);
    const first = await list(ws, 'limit=1');
    expect(typeof first.next_cursor).toBe('string');
    expectError(
      await get(
        `/v1/buyers?${qs([
          ['cursor', first.next_cursor as string],
          ['limit', '0'],
        ])}`,
        ws.auth,
      ),
      400,
      'invalid_parameter',
      'limit',
    );
    expectError(
      await get(
        `/v1/buyers?${qs([
          ['cursor', first.next_cursor as string],
          ['color', 'red'],
        ])}`,
        ws.auth,
      ),
      400,
      'invalid_parameter',
      'color',
    );
  });

  it('accepts limit=1 and limit=1000 and valid timestamps at the edges of the calendar', async () => {
    const ws = await t.newWorkspace();
    const b = await insertBuyer(ds, ws.workspace_id, { created_at: '2024-02-29T23:59:59Z' });
    expect((await list(ws, 'limit=1')).data.map((x) => x.id)).toEqual([b.public_id]);
    expect((await list(ws, 'limit=1000')).data.map((x) => x.id)).toEqual([b.public_id]);
    expect((await list(ws, 'created_after=2024-02-29T23:59:59Z')).data.map((x) => x.id)).toEqual([b.public_id]);
    expect((await list(ws, 'created_before=2024-02-29T23:59:59Z')).data).toEqual([]);
    expect((await list(ws, 'created_before=2024-12-31T23:59:59Z')).data.map((x) => x.id)).toEqual([b.public_id]);
  });
});

describe('GET /v1/buyers: cursors', () => {
  const TIMES = ['2025-05-05T05:05:05Z', '2025-05-06T05:05:05Z', '2025-05-07T05:05:05Z', '2025-05-08T05:05:05Z'];
  const BASE: [string, string][] = [
    ['created_after', '2025-05-05T00:00:00Z'],
    ['sort_order', 'asc'],
  ];

  /** A workspace with four Buyers and the cursor after the first page (limit 1) of `BASE`. */
  async function setup() {
    const ws = await t.newWorkspace();
    const rows = await buyersAt(ws, TIMES, 91);
    const first = await list(ws, qs([...BASE, ['limit', '1']]));
    expect(first.data).toHaveLength(1);
    expect(typeof first.next_cursor).toBe('string');
    return { ws, rows, cursor: first.next_cursor as string };
  }

  it('is accepted with the same filters and sort, and a different limit', async () => {
    const { ws, rows, cursor } = await setup();
    const next = await list(ws, qs([...BASE, ['limit', '2'], ['cursor', cursor]]));
    expect(next.data.map((b) => b.id)).toEqual(sortedIds(rows, 'asc').slice(1, 3));
  });

  it.each([
    [
      'created_after changed',
      [
        ['created_after', '2025-05-04T00:00:00Z'],
        ['sort_order', 'asc'],
      ],
    ],
    ['created_after removed', [['sort_order', 'asc']]],
    ['created_before added', [...BASE, ['created_before', '2026-01-01T00:00:00Z']]],
    [
      'sort_order changed',
      [
        ['created_after', '2025-05-05T00:00:00Z'],
        ['sort_order', 'desc'],
      ],
    ],
    ['sort_order removed (default desc)', [['created_after', '2025-05-05T00:00:00Z']]],
  ] as [string, [string, string][]][])('is invalid_cursor when %s', async (_name, params) => {
    const { ws, cursor } = await setup();
    expectError(await get(`/v1/buyers?${qs([...params, ['cursor', cursor]])}`, ws.auth), 400, 'invalid_cursor', 'cursor');
  });

  it('is invalid_cursor when a Buyers cursor is used on Signals, or a Signals or KB cursor on Buyers', async () => {
    const ws = await t.newWorkspace();
    const rows = await buyersAt(ws, TIMES, 92);
    const buyersPage = await list(ws, 'limit=1');
    expect(typeof buyersPage.next_cursor).toBe('string');
    expectError(await get(`/v1/signals?${qs([['cursor', buyersPage.next_cursor as string]])}`, ws.auth), 400, 'invalid_cursor', 'cursor');

    for (const at of ['2025-05-05T00:00:00Z', '2025-05-06T00:00:00Z']) {
      await insertSignal(ds, ws.workspace_id, rows[0].id.slice(4), { type: 'market', trigger: 'researched_topic', captured_at: at });
    }
    const signalsPage = await get('/v1/signals?limit=1', ws.auth);
    expect(signalsPage.status).toBe(200);
    expect(typeof signalsPage.body.pagination.next_cursor).toBe('string');
    expectError(
      await get(`/v1/buyers?${qs([['cursor', signalsPage.body.pagination.next_cursor]])}`, ws.auth),
      400,
      'invalid_cursor',
      'cursor',
    );

    await createKb(ws, 'icps', 'One');
    await createKb(ws, 'icps', 'Two');
    const icpPage = await get('/v1/kb/icps?limit=1', ws.auth);
    expect(typeof icpPage.body.pagination.next_cursor).toBe('string');
    expectError(await get(`/v1/buyers?${qs([['cursor', icpPage.body.pagination.next_cursor]])}`, ws.auth), 400, 'invalid_cursor', 'cursor');
  });

  it('is invalid_cursor in another workspace, even one with Buyers at the same times', async () => {
    const { cursor } = await setup();
    const other = await t.newWorkspace();
    await buyersAt(other, TIMES, 93);
    expectError(await get(`/v1/buyers?${qs([...BASE, ['cursor', cursor]])}`, other.auth), 400, 'invalid_cursor', 'cursor');
  });

  it('is invalid_cursor when altered, truncated, extended, empty or made up', async () => {
    const { ws, cursor } = await setup();
    const variants = new Set<string>();
    for (const index of [0, Math.floor(cursor.length / 3), Math.floor(cursor.length / 2), cursor.length - 1]) {
      variants.add(cursor.slice(0, index) + (cursor[index] === 'A' ? 'B' : 'A') + cursor.slice(index + 1));
    }
    variants.add(cursor.slice(0, -1));
    variants.add(cursor.slice(1));
    variants.add(`${cursor}A`);
    variants.add('');
    variants.add('abc');
    variants.add(Buffer.from(JSON.stringify({ created_at: '2025-05-05T05:05:05Z', id: '1' })).toString('base64url'));
    variants.delete(cursor);
    for (const variant of variants) {
      expectError(await get(`/v1/buyers?${qs([...BASE, ['cursor', variant]])}`, ws.auth), 400, 'invalid_cursor', 'cursor');
    }
  });

  it('a repeated cursor parameter is invalid_parameter cursor', async () => {
    const { ws, cursor } = await setup();
    expectError(
      await get(`/v1/buyers?${qs([...BASE, ['cursor', cursor], ['cursor', cursor]])}`, ws.auth),
      400,
      'invalid_parameter',
      'cursor',
    );
  });
});

describe('GET /v1/buyers/{buyer_id}', () => {
  it('returns 404 not_found without param for unknown, malformed and other-workspace ids', async () => {
    const ws = await t.newWorkspace();
    const other = await t.newWorkspace();
    const mine = await insertBuyer(ds, ws.workspace_id, { created_at: '2025-01-01T00:00:00Z' });
    const theirs = await insertBuyer(ds, other.workspace_id, { created_at: '2025-01-01T00:00:00Z' });
    const sig = await insertSignal(ds, ws.workspace_id, mine.id, {
      type: 'website',
      trigger: 'visited_page',
      captured_at: '2025-01-01T00:00:00Z',
    });
    const unknown = [
      formatId('buy_', ids.next()),
      'buy_0000000000000000000',
      'buy_9223372036854775807',
      'buy_99999999999999999999999999',
      'abc',
      sig.public_id,
      `sig_${mine.public_id.slice(4)}`,
      'buy_x',
      'buy_',
      `${mine.public_id}x`,
      ` ${mine.public_id}`,
      mine.public_id.toUpperCase(),
      theirs.public_id,
    ];
    for (const id of unknown) {
      expectError(await get(`/v1/buyers/${encodeURIComponent(id)}`, ws.auth), 404, 'not_found');
    }
    expect((await retrieve(ws, mine.public_id)).id).toBe(mine.public_id);
    expect((await retrieve(other, theirs.public_id)).id).toBe(theirs.public_id);
  });

  it('requires a key', async () => {
    const ws = await t.newWorkspace();
    const b = await insertBuyer(ds, ws.workspace_id);
    expectError(await t.http.get(`/v1/buyers/${b.public_id}`), 401, 'authentication_error');
    expectError(await t.http.get('/v1/buyers'), 401, 'authentication_error');
    expectError(await t.http.get(`/v1/buyers?api_key=${encodeURIComponent(ws.api_key)}`), 401, 'authentication_error');
  });
});

describe('ICP and Persona association follows the live KB records', () => {
  it('shows the ICP while it is active; after DELETE the Buyer reads is_icp false and empty icp fields, unchanged in storage', async () => {
    const ws = await t.newWorkspace();
    const icp = await createKb(ws, 'icps', 'Enterprise');
    const buyer = await insertBuyer(ds, ws.workspace_id, {
      company_info: fullCompanyInfo(),
      is_icp: true,
      icp_id: icp.id,
      icp_name: icp.name,
      icp_reasoning: 'Employees 420 within 100-5000.',
      created_at: '2025-02-02T02:02:02Z',
    });
    const before = await retrieve(ws, buyer.public_id);
    expect(before.company_info).toMatchObject({
      is_icp: true,
      icp_id: icp.id,
      icp_name: icp.name,
      icp_reasoning: 'Employees 420 within 100-5000.',
    });
    expect((await list(ws)).data).toEqual([before]);
    const rowBefore = await rowOf(buyer.id);

    const del = await t.http.delete(`/v1/kb/icps/${icp.id}`).set('Authorization', ws.auth);
    expect(del.status).toBe(204);

    const after = await retrieve(ws, buyer.public_id);
    expect(after).toEqual({
      ...before,
      company_info: { ...before.company_info, is_icp: false, icp_id: '', icp_name: '', icp_reasoning: '' },
    });
    expectBuyerShape(after);
    expect((await list(ws)).data).toEqual([after]);
    expect(await rowOf(buyer.id)).toEqual(rowBefore);
    expect(after.updated_at).toBe(before.updated_at);
  });

  it('shows the Persona while it is active; after DELETE the Buyer reads is_persona false and empty persona fields, unchanged in storage', async () => {
    const ws = await t.newWorkspace();
    const persona = await createKb(ws, 'personas', 'CFO');
    const buyer = await insertBuyer(ds, ws.workspace_id, {
      contact_info: fullContactInfo(),
      is_persona: true,
      persona_id: persona.id,
      persona_name: persona.name,
      persona_reasoning: 'Title Chief Financial Officer ≈ CFO.',
      created_at: '2025-02-03T02:02:02Z',
    });
    const before = await retrieve(ws, buyer.public_id);
    expect(before.contact_info).toMatchObject({
      is_persona: true,
      persona_id: persona.id,
      persona_name: persona.name,
      persona_reasoning: 'Title Chief Financial Officer ≈ CFO.',
    });
    expect((await list(ws)).data).toEqual([before]);
    const rowBefore = await rowOf(buyer.id);

    const del = await t.http.delete(`/v1/kb/personas/${persona.id}`).set('Authorization', ws.auth);
    expect(del.status).toBe(204);

    const after = await retrieve(ws, buyer.public_id);
    expect(after).toEqual({
      ...before,
      contact_info: { ...before.contact_info, is_persona: false, persona_id: '', persona_name: '', persona_reasoning: '' },
    });
    expectBuyerShape(after);
    expect((await list(ws)).data).toEqual([after]);
    expect(await rowOf(buyer.id)).toEqual(rowBefore);
  });

  it('deleting one association leaves the other and other Buyers’ associations intact', async () => {
    const ws = await t.newWorkspace();
    const icpA = await createKb(ws, 'icps', 'A');
    const icpB = await createKb(ws, 'icps', 'B');
    const persona = await createKb(ws, 'personas', 'P');
    const both = await insertBuyer(ds, ws.workspace_id, {
      is_icp: true,
      icp_id: icpA.id,
      icp_name: icpA.name,
      icp_reasoning: 'r1',
      is_persona: true,
      persona_id: persona.id,
      persona_name: persona.name,
      persona_reasoning: 'r2',
      created_at: '2025-02-04T00:00:00Z',
    });
    const onB = await insertBuyer(ds, ws.workspace_id, {
      is_icp: true,
      icp_id: icpB.id,
      icp_name: icpB.name,
      icp_reasoning: 'r3',
      created_at: '2025-02-05T00:00:00Z',
    });
    expect((await t.http.delete(`/v1/kb/icps/${icpA.id}`).set('Authorization', ws.auth)).status).toBe(204);

    const a = await retrieve(ws, both.public_id);
    expect(a.company_info).toMatchObject({ is_icp: false, icp_id: '', icp_name: '', icp_reasoning: '' });
    expect(a.contact_info).toMatchObject({ is_persona: true, persona_id: persona.id, persona_name: persona.name, persona_reasoning: 'r2' });
    const b = await retrieve(ws, onB.public_id);
    expect(b.company_info).toMatchObject({ is_icp: true, icp_id: icpB.id, icp_name: icpB.name, icp_reasoning: 'r3' });
    expect((await list(ws)).data.map((x) => x.id)).toEqual([onB.public_id, both.public_id]);
  });

  it('never shows an ICP or Persona of another workspace', async () => {
    const ws = await t.newWorkspace();
    const other = await t.newWorkspace();
    const foreignIcp = await createKb(other, 'icps', 'Foreign');
    const foreignPersona = await createKb(other, 'personas', 'Foreign');
    const buyer = await insertBuyer(ds, ws.workspace_id, {
      is_icp: true,
      icp_id: foreignIcp.id,
      icp_name: foreignIcp.name,
      icp_reasoning: 'x',
      is_persona: true,
      persona_id: foreignPersona.id,
      persona_name: foreignPersona.name,
      persona_reasoning: 'y',
    });
    const b = await retrieve(ws, buyer.public_id);
    expect(b.company_info).toMatchObject({ is_icp: false, icp_id: '', icp_name: '', icp_reasoning: '' });
    expect(b.contact_info).toMatchObject({ is_persona: false, persona_id: '', persona_name: '', persona_reasoning: '' });
  });
});

describe('workspace isolation and key scope', () => {
  it('workspace B never lists A’s Buyers and gets 404 for A’s Buyer ids', async () => {
    const a = await t.newWorkspace();
    const b = await t.newWorkspace();
    const aRows = await buyersAt(a, ['2025-03-03T00:00:00Z', '2025-03-03T00:00:00Z', '2025-03-04T00:00:00Z'], 101);
    expect((await list(b)).data).toEqual([]);
    const bRows = await buyersAt(b, ['2025-03-03T00:00:00Z'], 102);
    const bList = await list(b, 'limit=1000');
    expect(bList.data.map((x) => x.id)).toEqual(bRows.map((r) => r.id));
    for (const x of bList.data) expect(x.client_id).toBe(b.workspace_id);
    for (const r of aRows) expectError(await get(`/v1/buyers/${r.id}`, b.auth), 404, 'not_found');
    const aList = await list(a, 'limit=1000');
    expect(aList.data.map((x) => x.id)).toEqual(sortedIds(aRows, 'desc'));
    for (const x of aList.data) expect(x.client_id).toBe(a.workspace_id);
    const walked = await walkList<Buyer>(t.http, b.auth, '/v1/buyers', { created_after: '2025-01-01T00:00:00Z' }, [1]);
    expect(walked.items.map((x) => x.id)).toEqual(bRows.map((r) => r.id));
  });

  it('a read-scope key lists and retrieves Buyers', async () => {
    const ws = await t.newWorkspace();
    const readKey = await t.workspaces.createKey(ws.workspace_id, 'read');
    const auth = `Bearer ${readKey.api_key}`;
    const buyer = await insertBuyer(ds, ws.workspace_id, { contact_info: fullContactInfo(), created_at: '2025-03-05T00:00:00Z' });
    const viaRead = await list(ws, '', auth);
    expect(viaRead.data.map((x) => x.id)).toEqual([buyer.public_id]);
    expect(await retrieve(ws, buyer.public_id, auth)).toEqual(viaRead.data[0]);
    expect(viaRead.data[0]).toEqual((await list(ws)).data[0]);
  });
});
