/**
 * Activity intake (`POST /ingest/v1/activities`, `GET /ingest/v1/activities/{id}`) and the
 * reasons the pipeline discards an activity, end to end with the pipeline workers running.
 */
import { expectError, TIMESTAMP } from '../support/assertions';
import {
  activityStatus,
  createKb,
  email,
  getBuyer,
  ingest,
  ingestAndWait,
  linkedinActivity,
  listBuyers,
  listSignals,
  marketActivity,
  PIPELINE_APP_ENV,
  postActivities,
  RawActivity,
  storedActivityCount,
  targetPage,
  uniq,
  waitForActivities,
  websiteActivity,
} from '../support/pipeline';
import { startTestApp, TestApp, TestWorkspace } from '../support/test-app';

const ACT_ID = /^act_\d{19}$/;

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp(PIPELINE_APP_ENV);
});

afterAll(async () => {
  await t?.close();
});

/** A workspace with one Target Page; returns the page's URL for visits that match. */
async function workspaceWithPage(): Promise<{ ws: TestWorkspace; url: string; page: Record<string, any> }> {
  const ws = await t.newWorkspace();
  const url = `https://www.intake-${uniq()}.com/pricing`;
  const page = await targetPage(t, ws, url);
  return { ws, url, page };
}

describe('POST /ingest/v1/activities', () => {
  it('answers 202 with one queued act_ id per activity, in order', async () => {
    const { ws, url } = await workspaceWithPage();
    const activities = [
      websiteActivity('visited_page', url),
      marketActivity('researched_topic', { topic: 'Anything' }),
      linkedinActivity('followed_page', { url: 'https://www.linkedin.com/company/whatever' }),
    ];
    const res = await postActivities(t, ws.auth, { activities });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      data: [
        { id: expect.stringMatching(ACT_ID), status: 'queued' },
        { id: expect.stringMatching(ACT_ID), status: 'queued' },
        { id: expect.stringMatching(ACT_ID), status: 'queued' },
      ],
    });
    const ids: string[] = res.body.data.map((d: { id: string }) => d.id);
    expect(new Set(ids).size).toBe(3);
    // In order: the first answer is the website visit (the only one that can match).
    const statuses = await waitForActivities(t, ws, ids);
    expect(statuses.map((s) => s.id)).toEqual(ids);
    const arrival = { occurred_at: '2026-03-02T10:00:00Z', received_at: expect.stringMatching(TIMESTAMP) };
    expect(statuses[0]).toEqual({
      id: ids[0],
      status: 'processed',
      signal_id: expect.stringMatching(/^sig_\d{19}$/),
      buyer_id: expect.stringMatching(/^buy_\d{19}$/),
      discard_reason: null,
      near_miss: null,
      type: 'website',
      trigger: 'visited_page',
      ...arrival,
    });
    expect(statuses[1]).toEqual({
      id: ids[1],
      status: 'discarded',
      signal_id: null,
      buyer_id: null,
      discard_reason: 'no_target_match',
      near_miss: null,
      type: 'market',
      trigger: 'researched_topic',
      ...arrival,
    });
    expect(statuses[2]).toEqual({
      id: ids[2],
      status: 'discarded',
      signal_id: null,
      buyer_id: null,
      discard_reason: 'no_target_match',
      near_miss: null,
      type: 'linkedin',
      trigger: 'followed_page',
      ...arrival,
    });
  });

  it('rejects the whole batch when its 3rd activity is invalid, and stores none of it', async () => {
    const { ws, url } = await workspaceWithPage();
    const keys = [uniq(), uniq(), uniq()].map((k) => `ext-${k}`);
    const good = (i: number) => websiteActivity('visited_page', url, { external_id: keys[i] });
    const bad = { ...good(2), trigger: 'visited_pages' };
    expectError(
      await postActivities(t, ws.auth, { activities: [good(0), good(1), bad] }),
      400,
      'validation_error',
      'activities[2].trigger',
    );
    expect(await storedActivityCount(t, ws)).toBe(0);

    // Nothing was stored: the same external ids are new (queued, not duplicate) when sent again.
    const res = await postActivities(t, ws.auth, { activities: [good(0), good(1), good(2)] });
    expect(res.status).toBe(202);
    expect(res.body.data.map((d: { status: string }) => d.status)).toEqual(['queued', 'queued', 'queued']);
    const statuses = await waitForActivities(
      t,
      ws,
      res.body.data.map((d: { id: string }) => d.id),
    );
    expect(statuses.map((s) => s.status)).toEqual(['processed', 'processed', 'processed']);
    // Exactly the three accepted activities became Signals, nothing from the rejected batch.
    expect(await listSignals(t, ws)).toHaveLength(3);
  });

  it('leaves the workspace empty after a rejected batch', async () => {
    const { ws, url } = await workspaceWithPage();
    const activities = [
      websiteActivity('visited_page', url),
      websiteActivity('visited_page', url),
      { ...websiteActivity('visited_page', url), type: 'market' },
    ];
    expectError(await postActivities(t, ws.auth, { activities }), 400, 'validation_error', 'activities[2].trigger');
    expect(await storedActivityCount(t, ws)).toBe(0);
    const [later] = await ingestAndWait(t, ws, [websiteActivity('visited_page', url)]);
    expect(later.status).toBe('processed');
    expect(await listSignals(t, ws)).toHaveLength(1);
    expect(await listBuyers(t, ws)).toHaveLength(1);
  });

  it.each([
    { name: 'no trigger', param: 'activities[2].trigger', spoil: (a: RawActivity) => delete a.trigger },
    { name: 'a trigger of another type', param: 'activities[2].trigger', spoil: (a: RawActivity) => (a.trigger = 'researched_topic') },
    { name: 'a bad occurred_at', param: 'activities[2].occurred_at', spoil: (a: RawActivity) => (a.occurred_at = '2026-03-02 10:00:00') },
    {
      name: 'an identity without email, hem or linkedin',
      param: 'activities[2].identity',
      spoil: (a: RawActivity) => (a.identity = { ip: '203.0.113.9' }),
    },
    { name: 'no website object', param: 'activities[2].website', spoil: (a: RawActivity) => delete a.website },
  ])('rejects a batch whose 3rd activity has $name (param $param)', async ({ param, spoil }) => {
    const { ws, url } = await workspaceWithPage();
    const bad = websiteActivity('visited_page', url);
    spoil(bad);
    const activities = [websiteActivity('visited_page', url), websiteActivity('visited_page', url), bad];
    expectError(await postActivities(t, ws.auth, { activities }), 400, 'validation_error', param);
    expect(await storedActivityCount(t, ws)).toBe(0);
  });

  it('rejects 0 and 1001 activities (and a missing list) with param "activities"', async () => {
    const { ws, url } = await workspaceWithPage();
    expectError(await postActivities(t, ws.auth, { activities: [] }), 400, 'validation_error', 'activities');
    const many = Array.from({ length: 1001 }, () => websiteActivity('visited_page', url));
    expectError(await postActivities(t, ws.auth, { activities: many }), 400, 'validation_error', 'activities');
    expectError(await postActivities(t, ws.auth, {}), 400, 'validation_error', 'activities');
    expectError(
      await postActivities(t, ws.auth, { activities: websiteActivity('visited_page', url) }),
      400,
      'validation_error',
      'activities',
    );
    expect(await storedActivityCount(t, ws)).toBe(0);
    const [later] = await ingestAndWait(t, ws, [websiteActivity('visited_page', url)]);
    expect(later.status).toBe('processed');
    expect(await listSignals(t, ws)).toHaveLength(1);
  });

  it('answers a repeated external_id in a later request as duplicate with the first id, processed once', async () => {
    const { ws, url } = await workspaceWithPage();
    const externalId = `visit-${uniq()}`;
    const activity = websiteActivity('visited_page', url, { external_id: externalId });
    const [first] = await ingest(t, ws, [activity]);
    const [done] = await waitForActivities(t, ws, [first]);
    expect(done.status).toBe('processed');

    const again = await postActivities(t, ws.auth, { activities: [activity, { ...activity, occurred_at: '2026-04-01T00:00:00Z' }] });
    expect(again.status).toBe(202);
    expect(again.body).toEqual({
      data: [
        { id: first, status: 'duplicate' },
        { id: first, status: 'duplicate' },
      ],
    });

    // A fresh activity acts as a barrier: once it is done, a reprocessed duplicate would be visible.
    const [barrier] = await ingestAndWait(t, ws, [websiteActivity('visited_page', url)]);
    expect(barrier.status).toBe('processed');
    const signals = await listSignals(t, ws);
    expect(signals.map((s) => s.id).sort()).toEqual([done.signal_id, barrier.signal_id].sort());
    expect(await activityStatus(t, ws, first)).toEqual(done);
  });

  it('answers a repeated external_id within one batch as duplicate of the first, processed once', async () => {
    const { ws, url } = await workspaceWithPage();
    const externalId = `visit-${uniq()}`;
    const person = email();
    const activity = websiteActivity('visited_page', url, { external_id: externalId, identity: { email: person } });
    const other = websiteActivity('visited_page', url, { identity: { email: person }, occurred_at: '2026-03-03T10:00:00Z' });
    const res = await postActivities(t, ws.auth, { activities: [activity, other, { ...activity, occurred_at: '2026-03-04T10:00:00Z' }] });
    expect(res.status).toBe(202);
    const [a, b, c] = res.body.data;
    expect(a).toEqual({ id: expect.stringMatching(ACT_ID), status: 'queued' });
    expect(b).toEqual({ id: expect.stringMatching(ACT_ID), status: 'queued' });
    expect(c).toEqual({ id: a.id, status: 'duplicate' });
    const statuses = await waitForActivities(t, ws, [a.id, b.id]);
    expect(statuses.map((s) => s.status)).toEqual(['processed', 'processed']);
    expect(await listSignals(t, ws)).toHaveLength(2);
    const buyers = await listBuyers(t, ws);
    expect(buyers).toHaveLength(1);
    expect(buyers[0].signal_count).toEqual({ total: 2, website: 2, market: 0, linkedin: 0 });
    // The duplicate's occurred_at (03-04) was not used: the last Signal is the one of 03-03.
    const captured = (await listSignals(t, ws)).map((s) => s.captured_at).sort();
    expect(captured).toEqual(['2026-03-02T10:00:00Z', '2026-03-03T10:00:00Z']);
  });

  it('answers concurrent requests with the same external_id with one queued id, the rest duplicates of it', async () => {
    const { ws, url } = await workspaceWithPage();
    const activity = websiteActivity('visited_page', url, { external_id: `race-${uniq()}` });
    const answers = await Promise.all(Array.from({ length: 5 }, () => postActivities(t, ws.auth, { activities: [activity] })));
    for (const res of answers) expect(res.status).toBe(202);
    const data = answers.map((res) => res.body.data[0] as { id: string; status: string });
    expect(data.filter((d) => d.status === 'queued')).toHaveLength(1);
    expect(data.filter((d) => d.status === 'duplicate')).toHaveLength(4);
    expect(new Set(data.map((d) => d.id)).size).toBe(1);
    expect(await storedActivityCount(t, ws)).toBe(1);
    const [done] = await waitForActivities(t, ws, [data[0].id]);
    expect(done.status).toBe('processed');
    expect(await listSignals(t, ws)).toHaveLength(1);
  });

  it('answers concurrent batches naming the same external ids in opposite orders: each id queued once, never a 500', async () => {
    const { ws, url } = await workspaceWithPage();
    for (let round = 0; round < 5; round++) {
      const activities = Array.from({ length: 300 }, () => websiteActivity('visited_page', url, { external_id: `cross-${uniq()}` }));
      const orders = [activities, [...activities].reverse(), activities, [...activities].reverse()];
      const answers = await Promise.all(orders.map((batch) => postActivities(t, ws.auth, { activities: batch })));
      for (const res of answers) expect(res.status).toBe(202);
      // Each external id is one activity, queued by one of the requests, a duplicate of it in the others.
      const byExternalId = new Map<string, Array<{ id: string; status: string }>>();
      answers.forEach((res, k) =>
        (res.body.data as Array<{ id: string; status: string }>).forEach((item, n) => {
          const externalId = orders[k][n].external_id as string;
          byExternalId.set(externalId, [...(byExternalId.get(externalId) ?? []), item]);
        }),
      );
      for (const items of byExternalId.values()) {
        expect(new Set(items.map((item) => item.id)).size).toBe(1);
        expect(items.filter((item) => item.status === 'queued')).toHaveLength(1);
      }
    }
  });

  it('keeps external ids per workspace: the same id in another workspace is not a duplicate', async () => {
    const one = await workspaceWithPage();
    const two = await t.newWorkspace();
    const externalId = `shared-${uniq()}`;
    const activity = websiteActivity('visited_page', one.url, { external_id: externalId });
    const [first] = await ingest(t, one.ws, [activity]);
    const res = await postActivities(t, two.auth, { activities: [activity] });
    expect(res.status).toBe(202);
    expect(res.body.data).toEqual([{ id: expect.stringMatching(ACT_ID), status: 'queued' }]);
    expect(res.body.data[0].id).not.toBe(first);
    expect((await waitForActivities(t, one.ws, [first]))[0].status).toBe('processed');
    expect((await waitForActivities(t, two, [res.body.data[0].id]))[0].discard_reason).toBe('no_target_match');
  });

  it('refuses a read-only key with 403 permission_denied, and a missing or bad key with 401', async () => {
    const { ws, url } = await workspaceWithPage();
    const read = await t.workspaces.createKey(ws.workspace_id, 'read');
    const body = { activities: [websiteActivity('visited_page', url)] };
    expectError(await postActivities(t, `Bearer ${read.api_key}`, body), 403, 'permission_denied');
    expectError(await t.http.post('/ingest/v1/activities').send(body), 401, 'authentication_error');
    expectError(await postActivities(t, 'Bearer svc_live_not-a-real-key', body), 401, 'authentication_error');
    expectError(await t.http.get('/ingest/v1/activities/act_0000000000000000001'), 401, 'authentication_error');
    expect(await storedActivityCount(t, ws)).toBe(0);
    const [later] = await ingestAndWait(t, ws, [websiteActivity('visited_page', url)]);
    expect(later.status).toBe('processed');
    expect(await listSignals(t, ws)).toHaveLength(1);
  });
});

describe('GET /ingest/v1/activities/{id}', () => {
  it("answers 404 not_found for an unknown, a malformed, or another workspace's activity", async () => {
    const { ws, url } = await workspaceWithPage();
    const other = await t.newWorkspace();
    const [id] = await ingest(t, ws, [websiteActivity('visited_page', url)]);
    for (const bad of ['act_0000000000000000001', 'act_abc', 'sig_0000000000000000001', '12345', 'act_99999999999999999999999']) {
      expectError(await t.http.get(`/ingest/v1/activities/${bad}`).set('Authorization', ws.auth), 404, 'not_found');
    }
    expectError(await t.http.get(`/ingest/v1/activities/${id}`).set('Authorization', other.auth), 404, 'not_found');
    // The read-only key of the owning workspace may read it.
    const read = await t.workspaces.createKey(ws.workspace_id, 'read');
    const res = await t.http.get(`/ingest/v1/activities/${id}`).set('Authorization', `Bearer ${read.api_key}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(id);
    expect((await waitForActivities(t, ws, [id]))[0].status).toBe('processed');
  });
});

describe('discard reasons', () => {
  const discarded = (reason: string, nearMiss: Record<string, unknown> | null = null) => ({
    id: expect.any(String),
    status: 'discarded',
    signal_id: null,
    buyer_id: null,
    discard_reason: reason,
    near_miss: nearMiss,
    type: expect.stringMatching(/^(website|market|linkedin)$/),
    trigger: expect.any(String),
    occurred_at: expect.stringMatching(TIMESTAMP),
    received_at: expect.stringMatching(TIMESTAMP),
  });

  it('unresolved_identity: an invalid email, a malformed hem, a LinkedIn URL that is not a profile', async () => {
    const { ws, url } = await workspaceWithPage();
    const identities = [
      { email: 'not-an-email' },
      { email: 'two@@signs.com' },
      { hem: { type: 'sha256', value: 'xyz' } },
      { hem: { type: 'sha256', value: 'ab'.repeat(20) } }, // hex, but the length of a sha1
      { hem: { type: 'md5', value: 'g'.repeat(32) } },
      { linkedin: 'https://www.linkedin.com/company/acme' },
      { linkedin: 'not a url' },
      { email: 'nope', hem: { type: 'sha1', value: '123' }, linkedin: 'https://example.com/in/someone' },
    ];
    const statuses = await ingestAndWait(
      t,
      ws,
      identities.map((identity) => websiteActivity('visited_page', url, { identity })),
    );
    for (const status of statuses) expect(status).toEqual(discarded('unresolved_identity'));
    expect(await listSignals(t, ws)).toEqual([]);
    expect(await listBuyers(t, ws)).toEqual([]);
  });

  it('resolves an identity given only as a valid hem or only as a LinkedIn profile', async () => {
    const { ws, url } = await workspaceWithPage();
    const hem = { type: 'sha256', value: 'AB'.repeat(32) };
    const statuses = await ingestAndWait(t, ws, [
      websiteActivity('visited_page', url, { identity: { hem } }),
      websiteActivity('visited_page', url, { identity: { linkedin: `https://www.linkedin.com/in/jane-${uniq()}` } }),
      // One of three is enough: the valid email resolves although the hem is malformed.
      websiteActivity('visited_page', url, { identity: { email: email(), hem: { type: 'md5', value: 'short' } } }),
    ]);
    expect(statuses.map((s) => s.status)).toEqual(['processed', 'processed', 'processed']);
    expect(await listBuyers(t, ws)).toHaveLength(3);
  });

  it('excluded_company: the exclusion domain itself, a subdomain, and the email domain when there is no company website', async () => {
    const { ws, url } = await workspaceWithPage();
    const domain = `blocked-${uniq()}.com`;
    await createKb(t, ws, 'exclusions', { name: 'Blocked', short_name: `ex-${uniq()}`, domain, description: 'Never a target' });
    const statuses = await ingestAndWait(t, ws, [
      websiteActivity('visited_page', url, { company: { name: 'Blocked', website: `https://${domain}` } }),
      websiteActivity('visited_page', url, { company: { website: `https://www.${domain}/about` } }),
      websiteActivity('visited_page', url, { company: { website: `eu.${domain.toUpperCase()}` } }),
      websiteActivity('visited_page', url, { identity: { email: `jane.${uniq()}@${domain}` } }),
      websiteActivity('visited_page', url, { identity: { email: `joe.${uniq()}@mail.${domain}` }, company: { name: 'No website' } }),
      // Checked before targets: an excluded company with no target either is excluded_company.
      websiteActivity('visited_page', `${url}/elsewhere`, { company: { website: domain } }),
      marketActivity('researched_topic', { topic: 'Not a topic' }, { identity: { email: `ann.${uniq()}@${domain}` } }),
    ]);
    for (const status of statuses) expect(status).toEqual(discarded('excluded_company'));
    expect(await listSignals(t, ws)).toEqual([]);
    expect(await listBuyers(t, ws)).toEqual([]);
  });

  it('excluded_company when the Exclusion domain is written with www. and the company website is that host', async () => {
    const { ws, url } = await workspaceWithPage();
    const domain = `www.blocked-${uniq()}.com`;
    await createKb(t, ws, 'exclusions', { name: 'Blocked www', short_name: `ex-${uniq()}`, domain, description: 'Never a target' });
    const statuses = await ingestAndWait(t, ws, [
      websiteActivity('visited_page', url, { company: { website: `https://${domain}` } }),
      websiteActivity('visited_page', url, { company: { website: `${domain}/about` } }),
    ]);
    for (const status of statuses) expect(status).toEqual(discarded('excluded_company'));
    expect(await listBuyers(t, ws)).toEqual([]);
  });

  it('does not exclude look-alike domains, or an email domain when the company website is another domain', async () => {
    const { ws, url } = await workspaceWithPage();
    const domain = `blocked-${uniq()}.com`;
    await createKb(t, ws, 'exclusions', { name: 'Blocked', short_name: `ex-${uniq()}`, domain, description: 'Never a target' });
    const statuses = await ingestAndWait(t, ws, [
      websiteActivity('visited_page', url, { company: { website: `https://not${domain}` } }),
      websiteActivity('visited_page', url, { company: { website: `https://${domain}.evil.org` } }),
      websiteActivity('visited_page', url, {
        identity: { email: `jane.${uniq()}@${domain}` },
        company: { website: `https://other-${uniq()}.com` },
      }),
    ]);
    expect(statuses.map((s) => s.status)).toEqual(['processed', 'processed', 'processed']);
  });

  it('a deleted Exclusion no longer excludes later activities', async () => {
    const { ws, url } = await workspaceWithPage();
    const domain = `blocked-${uniq()}.com`;
    const exclusion = await createKb(t, ws, 'exclusions', {
      name: 'Blocked',
      short_name: `ex-${uniq()}`,
      domain,
      description: 'Never a target',
    });
    const [before] = await ingestAndWait(t, ws, [websiteActivity('visited_page', url, { company: { website: domain } })]);
    expect(before.discard_reason).toBe('excluded_company');
    const res = await t.http.delete(`/v1/kb/exclusions/${exclusion.id}`).set('Authorization', ws.auth);
    expect(res.status).toBe(204);
    const [after] = await ingestAndWait(t, ws, [websiteActivity('visited_page', url, { company: { website: domain } })]);
    expect(after.status).toBe('processed');
    expect(await activityStatus(t, ws, before.id)).toEqual(before);
  });

  it('excluded_company for a known Buyer whose company was excluded since, when the activity names no company', async () => {
    const { ws, url } = await workspaceWithPage();
    const domain = `later-${uniq()}.com`;
    const person = `f.${uniq()}@gmail.com`;
    const [first] = await ingestAndWait(t, ws, [
      websiteActivity('visited_page', url, { identity: { email: person }, company: { name: 'Later Co', website: `https://${domain}` } }),
    ]);
    expect(first.status).toBe('processed');
    await createKb(t, ws, 'exclusions', { name: 'Later Co', short_name: `ex-${uniq()}`, domain, description: 'Now a customer' });
    const [again] = await ingestAndWait(t, ws, [websiteActivity('visited_page', url, { identity: { email: person } })]);
    expect(again).toEqual(discarded('excluded_company'));
    // Another company named by the activity itself is checked instead.
    const [moved] = await ingestAndWait(t, ws, [
      websiteActivity('visited_page', url, { identity: { email: person }, company: { website: `https://new-${uniq()}.com` } }),
    ]);
    expect(moved.status).toBe('processed');
    expect((await getBuyer(t, ws, first.buyer_id!)).signal_count.total).toBe(2);
  });

  it('no_target_match for a website, a market and a LinkedIn trigger; no Buyer, no Signal', async () => {
    const { ws, url, page } = await workspaceWithPage();
    await createKb(t, ws, 'topics', { name: 'Data Privacy', short_name: `top-${uniq()}`, description: 'Privacy' });
    await createKb(t, ws, 'products', { name: 'Analytics Suite', short_name: `prd-${uniq()}`, description: 'Analytics' });
    await createKb(t, ws, 'competitors', {
      name: 'Rivalsoft',
      short_name: `cmp-${uniq()}`,
      domain: 'rivalsoft-nt.com',
      linkedin: 'https://www.linkedin.com/company/rivalsoft-nt',
    });
    const statuses = await ingestAndWait(t, ws, [
      websiteActivity('visited_page', `${url}/enterprise`),
      websiteActivity('filled_form', url),
      marketActivity('researched_topic', { topic: 'Quantum Gardening' }),
      marketActivity('explored_product', { topic: 'Data Privacy' }), // a Topic's name is not a Product
      marketActivity('evaluated_competitor', { topic: 'x', company_website: 'https://rivalsoft-nt.co' }),
      linkedinActivity('followed_page', { url: 'https://www.linkedin.com/company/someone-else', company_name: 'Someone Else' }),
      linkedinActivity('reacted_post', { company_name: 'Rivalsoft Labs', reaction_type: 'like' }),
    ]);
    // The visit one segment past the Target Page names it; the form submission has no Target Form to come close to.
    const pageUrl = url.replace(/^https:\/\//, '');
    expect(statuses[0]).toEqual(discarded('no_target_match', { target_page_id: page.id, url: pageUrl, differences: ['path'] }));
    for (const status of statuses.slice(1)) expect(status).toEqual(discarded('no_target_match'));
    expect(await listSignals(t, ws)).toEqual([]);
    expect(await listBuyers(t, ws)).toEqual([]);
  });
});
