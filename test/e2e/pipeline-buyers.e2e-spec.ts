/**
 * Buyers made by the pipeline (one per person and workspace, counters, first/last Signal,
 * attribution, hashed emails, hints), ICP and Persona evaluation, and the behavioural rules that
 * keep existing Buyers and Signals untouched by knowledge-base changes.
 */
import { expectError } from '../support/assertions';
import {
  activityStatus,
  createKb,
  deleteKb,
  email,
  getBuyer,
  hemsOf,
  ingestAndWait,
  linkedinActivity,
  listBuyers,
  listSignals,
  marketActivity,
  patchKb,
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

const FINTECH_ICP =
  'Fintech and insurance companies. Industries: Financial Services, Insurance. Employees: 50-1000. Countries: Germany, France, Netherlands.';
const FINANCE_PERSONA = 'Titles: CFO, VP Finance, Finance Director. Function: Finance. Seniority: C-level, VP, Director.';

const GERMAN_FINTECH = {
  name: 'Finanzhaus GmbH',
  website: 'https://www.finanzhaus-example.de',
  industries: ['Financial Services'],
  employee_count: 200,
  location: { city: 'Frankfurt', country: 'Germany' },
};
const US_RETAIL = {
  name: 'MegaMart Inc',
  website: 'https://www.megamart-example.com',
  industries: ['Retail'],
  employee_count: 5000,
  location: { city: 'Bentonville', state: 'Arkansas', country: 'United States' },
};
const CFO = { name: { first: 'Greta', last: 'Vogel' }, role: { title: 'CFO', function: 'Finance', seniority: 'C-level' } };
const ENGINEER = {
  name: { first: 'Sam', last: 'Lee' },
  role: { title: 'Software Engineer', function: 'Engineering', seniority: 'Individual Contributor' },
};

async function workspaceWithPage(): Promise<{ ws: TestWorkspace; url: string; page: Record<string, any> }> {
  const ws = await t.newWorkspace();
  const url = `https://www.buyers-${uniq()}.com/pricing`;
  return { ws, url, page: await targetPage(t, ws, url) };
}

describe('Buyers made by the pipeline', () => {
  it('keeps one Buyer per person: same email in another case, first/last by captured_at although ingested out of order', async () => {
    const ws = await t.newWorkspace();
    const u = uniq();
    const url = `https://www.buyers-${u}.com/pricing`;
    await targetPage(t, ws, url);
    await createKb(t, ws, 'topics', { name: 'Data Privacy', short_name: `privacy-${u}`, description: 'Privacy' });
    await createKb(t, ws, 'competitors', {
      name: `Rival ${u}`,
      short_name: `rival-${u}`,
      domain: `rival-${u}.com`,
      linkedin: `https://www.linkedin.com/company/rival-${u}`,
    });
    const address = `Ana.Lopez.${u}@Example-Buyer.com`;
    const lower = address.toLowerCase();
    const firstAttribution = { type: 'paid', source: 'google', source_name: 'Google Ads', source_logo: 'https://logos.example.com/g.png' };

    // Ingested: the middle one, then the latest, then the earliest.
    const [middle] = await ingestAndWait(t, ws, [
      linkedinActivity(
        'followed_page',
        { url: `https://www.linkedin.com/company/rival-${u}` },
        {
          identity: { email: address },
          occurred_at: '2026-03-03T12:00:00Z',
          attribution: { type: 'social', source: 'linkedin', source_name: 'LinkedIn', source_logo: '' },
        },
      ),
    ]);
    const [latest] = await ingestAndWait(t, ws, [
      marketActivity(
        'researched_topic',
        { topic: 'Data Privacy' },
        {
          identity: { email: lower },
          occurred_at: '2026-03-05T09:00:00Z',
          attribution: { type: 'intent', source: 'bombora', source_name: 'Bombora', source_logo: '' },
        },
      ),
    ]);
    const [earliest] = await ingestAndWait(t, ws, [
      websiteActivity('visited_page', url, {
        identity: { email: address.toUpperCase() },
        occurred_at: '2026-03-01T08:00:00Z',
        attribution: firstAttribution,
      }),
    ]);
    for (const s of [middle, latest, earliest]) expect(s.status).toBe('processed');
    expect(new Set([middle.buyer_id, latest.buyer_id, earliest.buyer_id]).size).toBe(1);

    const buyers = await listBuyers(t, ws);
    expect(buyers).toHaveLength(1);
    const buyer = await getBuyer(t, ws, earliest.buyer_id!);
    expect(buyers[0]).toEqual(buyer);
    expect(buyer).toMatchObject({
      id: earliest.buyer_id,
      client_id: ws.workspace_id,
      signal_count: { total: 3, website: 1, market: 1, linkedin: 1 },
      first_signal_id: earliest.signal_id,
      first_signal_type: 'website',
      first_signal_trigger: 'visited_page',
      last_signal_id: latest.signal_id,
      last_signal_type: 'market',
      last_signal_trigger: 'researched_topic',
      attribution: firstAttribution,
      target_lists: [],
    });
    expect(buyer.contact_info.email.work).toBe(lower);
    expect(buyer.hems).toHaveLength(3);
    expect(buyer.hems).toEqual(expect.arrayContaining(hemsOf(lower)));

    const signals = await listSignals(t, ws, `buyer_id=${buyer.id}&sort_by=captured_at&sort_order=asc`);
    expect(signals.map((s) => s.id)).toEqual([earliest.signal_id, middle.signal_id, latest.signal_id]);
  });

  it('keeps one Buyer with exact counters when many activities of one person arrive in one batch', async () => {
    const { ws, url } = await workspaceWithPage();
    const person = email('busy');
    const times = [7, 3, 9, 1, 5, 8, 2, 6, 4, 10].map((d) => `2026-04-${String(d).padStart(2, '0')}T10:00:00Z`);
    const statuses = await ingestAndWait(
      t,
      ws,
      times.map((occurred_at, i) =>
        websiteActivity('visited_page', url, { occurred_at, identity: { email: i % 2 ? person.toUpperCase() : person } }),
      ),
    );
    expect(statuses.every((s) => s.status === 'processed')).toBe(true);
    const buyers = await listBuyers(t, ws);
    expect(buyers).toHaveLength(1);
    expect(buyers[0].signal_count).toEqual({ total: 10, website: 10, market: 0, linkedin: 0 });
    expect(buyers[0].first_signal_id).toBe(statuses[times.indexOf('2026-04-01T10:00:00Z')].signal_id);
    expect(buyers[0].last_signal_id).toBe(statuses[times.indexOf('2026-04-10T10:00:00Z')].signal_id);
    expect(await listSignals(t, ws)).toHaveLength(10);
  });

  it('keys a person by a LinkedIn profile however the URL is written, and different people apart', async () => {
    const { ws, url } = await workspaceWithPage();
    const slug = `jane-doe-${uniq()}`;
    const statuses = await ingestAndWait(t, ws, [
      websiteActivity('visited_page', url, { identity: { linkedin: `https://www.linkedin.com/in/${slug}` } }),
      websiteActivity('visited_page', url, { identity: { linkedin: `linkedin.com/in/${slug}/` } }),
      websiteActivity('visited_page', url, { identity: { linkedin: `https://www.linkedin.com/in/${slug}-2` } }),
      websiteActivity('visited_page', url, { identity: { email: email() } }),
    ]);
    expect(statuses.map((s) => s.status)).toEqual(['processed', 'processed', 'processed', 'processed']);
    expect(statuses[1].buyer_id).toBe(statuses[0].buyer_id);
    expect(new Set(statuses.map((s) => s.buyer_id)).size).toBe(3);
    const buyer = await getBuyer(t, ws, statuses[0].buyer_id!);
    expect(buyer.signal_count.total).toBe(2);
  });

  it('makes separate Buyers for the same email in two workspaces, each seen only by its own workspace', async () => {
    const one = await workspaceWithPage();
    const two = await workspaceWithPage();
    const person = email('shared');
    const [a] = await ingestAndWait(t, one.ws, [websiteActivity('visited_page', one.url, { identity: { email: person } })]);
    const [b] = await ingestAndWait(t, two.ws, [
      websiteActivity('visited_page', two.url, { identity: { email: person } }),
      websiteActivity('visited_page', two.url, { identity: { email: person }, occurred_at: '2026-03-09T10:00:00Z' }),
    ]);
    expect(a.status).toBe('processed');
    expect(b.status).toBe('processed');
    expect(a.buyer_id).not.toBe(b.buyer_id);

    const buyersOne = await listBuyers(t, one.ws);
    const buyersTwo = await listBuyers(t, two.ws);
    expect(buyersOne.map((x) => x.id)).toEqual([a.buyer_id]);
    expect(buyersTwo.map((x) => x.id)).toEqual([b.buyer_id]);
    expect(buyersOne[0].signal_count.total).toBe(1);
    expect(buyersTwo[0].signal_count.total).toBe(2);
    expect(buyersOne[0].client_id).toBe(one.ws.workspace_id);
    expect(buyersTwo[0].client_id).toBe(two.ws.workspace_id);

    expectError(await t.http.get(`/v1/buyers/${b.buyer_id}`).set('Authorization', one.ws.auth), 404, 'not_found');
    expectError(await t.http.get(`/v1/buyers/${a.buyer_id}`).set('Authorization', two.ws.auth), 404, 'not_found');
    expect((await listSignals(t, one.ws)).map((s) => s.id)).toEqual([a.signal_id]);
    expect(await listSignals(t, one.ws, `buyer_id=${b.buyer_id}`)).toEqual([]);
    expectError(await t.http.get(`/ingest/v1/activities/${a.id}`).set('Authorization', two.ws.auth), 404, 'not_found');
  });

  it('carries the contact and company hints of the activity, and sha256/sha1/md5 of the lowercased email', async () => {
    const { ws, url } = await workspaceWithPage();
    const address = `Greta.Vogel.${uniq()}@Finanzhaus-Example.de`;
    const contact = {
      name: { first: 'Greta', middle: 'M', last: 'Vogel' },
      role: { title: 'Head of Treasury', function: 'Finance', seniority: 'Director', start_date: '2023-05-01' },
      phone: { mobile: '+49 170 0000000', is_valid: true },
      social: { twitter: 'https://twitter.com/gvogel' },
      location: { city: 'Frankfurt', state: 'Hesse', country: 'Germany', postal_code: '60311' },
      photo_url: 'https://img.example.com/greta.png',
    };
    const company = {
      name: 'Finanzhaus GmbH',
      website: 'https://www.finanzhaus-example.de',
      company_type: 'private',
      industries: ['Financial Services', 'Banking'],
      employee_count: 200,
      founded_year: 2004,
      annual_revenue: 25_000_000,
      total_funding: 12_500_000,
      latest_funding_stage: 'series_b',
      latest_funding_round_date: '2025-09-30',
      social: { linkedin: 'https://www.linkedin.com/company/finanzhaus' },
      location: { street_address: 'Hauptstr. 1', city: 'Frankfurt', state: 'Hesse', postal_code: '60311', country: 'Germany' },
    };
    const [status] = await ingestAndWait(t, ws, [websiteActivity('visited_page', url, { identity: { email: address }, contact, company })]);
    expect(status.status).toBe('processed');
    const buyer = await getBuyer(t, ws, status.buyer_id!);
    expect(buyer.contact_info).toMatchObject({ ...contact, email: { work: address.toLowerCase() }, social: contact.social });
    expect(buyer.company_info).toMatchObject(company);
    expect(buyer.hems).toEqual(expect.arrayContaining(hemsOf(address)));
    expect(buyer.hems).toHaveLength(3);
    const [sha256] = hemsOf(address);
    expect(sha256.value).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('ICP and Persona evaluation', () => {
  async function evaluated() {
    const { ws, url } = await workspaceWithPage();
    const icp = await createKb(t, ws, 'icps', { name: 'EU Fintech', short_name: `fin-${uniq()}`, description: FINTECH_ICP });
    const persona = await createKb(t, ws, 'personas', {
      name: 'Finance leaders',
      short_name: `cfo-${uniq()}`,
      description: FINANCE_PERSONA,
    });
    return { ws, url, icp, persona };
  }

  it('matches a German 200-employee Financial Services company and a CFO', async () => {
    const { ws, url, icp, persona } = await evaluated();
    const [status] = await ingestAndWait(t, ws, [websiteActivity('visited_page', url, { contact: CFO, company: GERMAN_FINTECH })]);
    expect(status.status).toBe('processed');
    const buyer = await getBuyer(t, ws, status.buyer_id!);
    expect(buyer.company_info).toMatchObject({ is_icp: true, icp_id: icp.id, icp_name: 'EU Fintech' });
    expect(buyer.company_info.icp_reasoning).toEqual(expect.stringContaining('Germany'));
    expect(buyer.company_info.icp_reasoning).toEqual(expect.stringContaining('Financial Services'));
    expect(buyer.company_info.icp_reasoning).toMatch(/200/);
    expect(buyer.contact_info).toMatchObject({ is_persona: true, persona_id: persona.id, persona_name: 'Finance leaders' });
    expect(buyer.contact_info.persona_reasoning).toEqual(expect.stringContaining('CFO'));
  });

  it('does not match a US retail company or a Software Engineer, and says what failed', async () => {
    const { ws, url } = await evaluated();
    const [status] = await ingestAndWait(t, ws, [websiteActivity('visited_page', url, { contact: ENGINEER, company: US_RETAIL })]);
    expect(status.status).toBe('processed');
    const buyer = await getBuyer(t, ws, status.buyer_id!);
    expect(buyer.company_info).toMatchObject({ is_icp: false, icp_id: '', icp_name: '' });
    expect(buyer.company_info.icp_reasoning).toEqual(expect.stringContaining('United States'));
    expect(buyer.company_info.icp_reasoning).toEqual(expect.stringContaining('Retail'));
    expect(buyer.contact_info).toMatchObject({ is_persona: false, persona_id: '', persona_name: '' });
    expect(buyer.contact_info.persona_reasoning).toEqual(expect.stringContaining('Software Engineer'));
  });

  it('fails the ICP on one clearly failed criterion even when the others pass', async () => {
    const { ws, url } = await evaluated();
    const [tooBig, wrongCountry] = await ingestAndWait(t, ws, [
      websiteActivity('visited_page', url, { contact: CFO, company: { ...GERMAN_FINTECH, employee_count: 20_000 } }),
      websiteActivity('visited_page', url, {
        contact: CFO,
        company: { ...GERMAN_FINTECH, website: 'https://www.fin-us-example.com', location: { country: 'United States' } },
      }),
    ]);
    for (const status of [tooBig, wrongCountry]) {
      const buyer = await getBuyer(t, ws, status.buyer_id!);
      expect(buyer.company_info.is_icp).toBe(false);
      expect(buyer.company_info.icp_id).toBe('');
      // The person still fits the Persona.
      expect(buyer.contact_info.is_persona).toBe(true);
    }
  });

  it('keeps the ICP and Persona match when a later activity of the Buyer brings no company or role details', async () => {
    const { ws, url, icp, persona } = await evaluated();
    const person = email('known');
    const [first] = await ingestAndWait(t, ws, [
      websiteActivity('visited_page', url, { identity: { email: person }, contact: CFO, company: GERMAN_FINTECH }),
    ]);
    const [second] = await ingestAndWait(t, ws, [
      websiteActivity('visited_page', url, { identity: { email: person }, occurred_at: '2026-03-04T10:00:00Z' }),
    ]);
    expect(second.buyer_id).toBe(first.buyer_id);
    const buyer = await getBuyer(t, ws, first.buyer_id!);
    // What the Buyer knows about its company and role is unchanged and still fits the ICP and Persona.
    expect(buyer).toMatchObject({
      company_info: { ...GERMAN_FINTECH, is_icp: true, icp_id: icp.id, icp_name: 'EU Fintech' },
      contact_info: { role: CFO.role, is_persona: true, persona_id: persona.id, persona_name: 'Finance leaders' },
    });
  });

  it('judges the Buyer with every activity folded in, when activities of one person arrive together', async () => {
    const { ws, url, icp, persona } = await evaluated();
    // Four visits per person in one request, only the earliest with company and role details: they
    // go through the pipeline side by side, each evaluated before any of them made the Buyer.
    const people = [email('together'), email('together')];
    const activities = people.flatMap((person) => [
      websiteActivity('visited_page', url, { identity: { email: person }, contact: CFO, company: GERMAN_FINTECH }),
      ...[1, 2, 3].map((k) =>
        websiteActivity('visited_page', url, { identity: { email: person }, occurred_at: `2026-03-02T10:0${k}:00Z` }),
      ),
    ]);
    const statuses = await ingestAndWait(t, ws, activities);
    const buyerIds = [...new Set(statuses.map((status) => status.buyer_id))];
    expect(buyerIds).toHaveLength(2);
    for (const id of buyerIds) {
      const buyer = await getBuyer(t, ws, id!);
      expect(buyer).toMatchObject({
        signal_count: { total: 4 },
        company_info: { industries: GERMAN_FINTECH.industries, is_icp: true, icp_id: icp.id },
        contact_info: { role: CFO.role, is_persona: true, persona_id: persona.id },
      });
    }
  });

  it('keeps the latest title when an older activity arrives after a newer one', async () => {
    const { ws, url, persona } = await evaluated();
    const person = email('late');
    const [newer] = await ingestAndWait(t, ws, [
      websiteActivity('visited_page', url, { identity: { email: person }, occurred_at: '2026-03-20T10:00:00Z', contact: CFO }),
    ]);
    await ingestAndWait(t, ws, [
      websiteActivity('visited_page', url, { identity: { email: person }, occurred_at: '2026-03-01T10:00:00Z', contact: ENGINEER }),
    ]);
    const buyer = await getBuyer(t, ws, newer.buyer_id!);
    expect(buyer.signal_count.total).toBe(2);
    expect(buyer.contact_info).toMatchObject({ role: CFO.role, is_persona: true, persona_id: persona.id });
  });

  it('reports no match when the workspace has no ICPs or Personas', async () => {
    const { ws, url } = await workspaceWithPage();
    const [status] = await ingestAndWait(t, ws, [websiteActivity('visited_page', url, { contact: CFO, company: GERMAN_FINTECH })]);
    const buyer = await getBuyer(t, ws, status.buyer_id!);
    expect(buyer.company_info).toMatchObject({ is_icp: false, icp_id: '', icp_name: '' });
    expect(buyer.contact_info).toMatchObject({ is_persona: false, persona_id: '', persona_name: '' });
  });
});

describe('knowledge-base changes never rewrite Buyers or Signals', () => {
  it('updating the matched Target Page and ICP and deleting the matched Topic leaves Buyers and Signals byte-identical', async () => {
    const { ws, url, page } = await workspaceWithPage();
    const icp = await createKb(t, ws, 'icps', { name: 'EU Fintech', short_name: `fin-${uniq()}`, description: FINTECH_ICP });
    const topic = await createKb(t, ws, 'topics', { name: 'Data Privacy', short_name: `privacy-${uniq()}`, description: 'Privacy' });
    const person = email('stable');
    const statuses = await ingestAndWait(t, ws, [
      websiteActivity('visited_page', url, { identity: { email: person }, company: GERMAN_FINTECH, occurred_at: '2026-03-01T10:00:00Z' }),
      marketActivity(
        'researched_topic',
        { topic: 'Data Privacy' },
        { identity: { email: person }, company: GERMAN_FINTECH, occurred_at: '2026-03-02T10:00:00Z' },
      ),
    ]);
    expect(statuses.map((s) => s.status)).toEqual(['processed', 'processed']);
    const buyerBefore = await getBuyer(t, ws, statuses[0].buyer_id!);
    expect(buyerBefore.company_info.is_icp).toBe(true);
    const signalsBefore = await listSignals(t, ws);
    expect(signalsBefore).toHaveLength(2);

    await patchKb(t, ws, 'target-pages', page.id, { name: 'Renamed pricing page', description: 'Changed' });
    await patchKb(t, ws, 'icps', icp.id, { description: 'Retailers. Industries: Retail. Countries: United States.' });
    await deleteKb(t, ws, 'topics', topic.id);
    // Anything asynchronous a change might start has had time once a later activity has gone through.
    const [barrier] = await ingestAndWait(t, ws, [websiteActivity('visited_page', `${url}/unrelated`)]);
    expect(barrier.discard_reason).toBe('no_target_match');

    expect(await getBuyer(t, ws, buyerBefore.id)).toEqual(buyerBefore);
    expect(await listBuyers(t, ws)).toEqual([buyerBefore]);
    expect(await listSignals(t, ws)).toEqual(signalsBefore);
    const website = signalsBefore.find((s) => s.type === 'website')!;
    expect(website.website.target_page).toEqual({
      id: page.id,
      name: page.name,
      short_name: page.short_name,
      description: page.description,
    });
    for (const s of statuses) expect(await activityStatus(t, ws, s.id)).toEqual(s);
  });

  it('a changed Target Page URL applies only to later visits', async () => {
    const ws = await t.newWorkspace();
    const host = `www.moved-${uniq()}.com`;
    const page = await targetPage(t, ws, `https://${host}/old`);
    const [oldVisit, newVisitBefore] = await ingestAndWait(t, ws, [
      websiteActivity('visited_page', `https://${host}/old`),
      websiteActivity('visited_page', `https://${host}/new`),
    ]);
    expect(oldVisit.status).toBe('processed');
    expect(newVisitBefore.discard_reason).toBe('no_target_match');
    const signalsBefore = await listSignals(t, ws);

    const patched = await patchKb(t, ws, 'target-pages', page.id, { url: `https://${host}/new` });
    expect(patched.canonical_url).toBe(`${host}/new`);
    const [oldVisitAfter, newVisitAfter] = await ingestAndWait(t, ws, [
      websiteActivity('visited_page', `https://${host}/old`),
      websiteActivity('visited_page', `https://${host}/new/`),
    ]);
    expect(oldVisitAfter.discard_reason).toBe('no_target_match');
    expect(newVisitAfter.status).toBe('processed');

    // Earlier visits keep their outcome.
    expect(await activityStatus(t, ws, oldVisit.id)).toEqual(oldVisit);
    expect(await activityStatus(t, ws, newVisitBefore.id)).toEqual(newVisitBefore);
    const signals = await listSignals(t, ws);
    expect(signals).toHaveLength(2);
    expect(signals.filter((s) => s.id !== newVisitAfter.signal_id)).toEqual(signalsBefore);
    const fresh = signals.find((s) => s.id === newVisitAfter.signal_id)!;
    expect(fresh.website.target_page.id).toBe(page.id);
    expect(fresh.website.url.canonical).toBe(`${host}/new`);
  });

  it('a deleted Target Page stops matching; earlier Signals and raw activities stay', async () => {
    const { ws, url, page } = await workspaceWithPage();
    const person = email('deleted');
    const [before] = await ingestAndWait(t, ws, [websiteActivity('visited_page', url, { identity: { email: person } })]);
    expect(before.status).toBe('processed');
    const signalsBefore = await listSignals(t, ws);
    const buyerBefore = await getBuyer(t, ws, before.buyer_id!);

    await deleteKb(t, ws, 'target-pages', page.id);
    const [after] = await ingestAndWait(t, ws, [
      websiteActivity('visited_page', url, { identity: { email: person }, occurred_at: '2026-03-10T10:00:00Z' }),
    ]);
    // The deleted Target Page is not named as a near miss either.
    expect(after).toMatchObject({
      id: after.id,
      status: 'discarded',
      signal_id: null,
      buyer_id: null,
      discard_reason: 'no_target_match',
      near_miss: null,
    });

    expect(await listSignals(t, ws)).toEqual(signalsBefore);
    expect(signalsBefore[0].website.target_page.id).toBe(page.id);
    expect(await getBuyer(t, ws, before.buyer_id!)).toEqual(buyerBefore);
    expect(await activityStatus(t, ws, before.id)).toEqual(before);
    expect(await activityStatus(t, ws, after.id)).toEqual(after);
  });

  it('creating a Target Page does not create Signals for past visits', async () => {
    const ws = await t.newWorkspace();
    const url = `https://www.later-${uniq()}.com/launch`;
    const person = email('early');
    const [past] = await ingestAndWait(t, ws, [websiteActivity('visited_page', url, { identity: { email: person } })]);
    expect(past.discard_reason).toBe('no_target_match');

    const page = await targetPage(t, ws, url);
    const [future] = await ingestAndWait(t, ws, [
      websiteActivity('visited_page', url, { identity: { email: person }, occurred_at: '2026-03-11T10:00:00Z' }),
    ]);
    expect(future.status).toBe('processed');

    expect(await activityStatus(t, ws, past.id)).toEqual(past);
    const signals = await listSignals(t, ws);
    expect(signals.map((s) => s.id)).toEqual([future.signal_id]);
    expect(signals[0].website.target_page.id).toBe(page.id);
    const [buyer] = await listBuyers(t, ws);
    expect(buyer.signal_count.total).toBe(1);
  });

  it('creating a Competitor or Topic does not create Signals for past market and LinkedIn activity', async () => {
    const ws = await t.newWorkspace();
    const u = uniq();
    const pastStatuses = await ingestAndWait(t, ws, [
      marketActivity('researched_topic', { topic: `Topic ${u}` }),
      linkedinActivity('followed_page', { url: `https://www.linkedin.com/company/late-${u}` }),
    ]);
    expect(pastStatuses.map((s) => s.discard_reason)).toEqual(['no_target_match', 'no_target_match']);
    await createKb(t, ws, 'topics', { name: `Topic ${u}`, short_name: `t-${u}`, description: 'Late topic' });
    await createKb(t, ws, 'competitors', {
      name: `Late ${u}`,
      short_name: `c-${u}`,
      domain: `late-${u}.com`,
      linkedin: `https://www.linkedin.com/company/late-${u}`,
    });
    const later = await ingestAndWait(t, ws, [
      marketActivity('researched_topic', { topic: `Topic ${u}` }),
      linkedinActivity('followed_page', { url: `https://www.linkedin.com/company/late-${u}` }),
    ]);
    expect(later.map((s) => s.status)).toEqual(['processed', 'processed']);
    for (const s of pastStatuses) expect(await activityStatus(t, ws, s.id)).toEqual(s);
    expect((await listSignals(t, ws)).map((s) => s.id).sort()).toEqual(later.map((s) => s.signal_id).sort());
  });

  it('deleting the matched ICP and Persona hides the association but keeps the Buyer and its Signals', async () => {
    const { ws, url } = await workspaceWithPage();
    const icp = await createKb(t, ws, 'icps', { name: 'EU Fintech', short_name: `fin-${uniq()}`, description: FINTECH_ICP });
    const persona = await createKb(t, ws, 'personas', {
      name: 'Finance leaders',
      short_name: `cfo-${uniq()}`,
      description: FINANCE_PERSONA,
    });
    const [status] = await ingestAndWait(t, ws, [websiteActivity('visited_page', url, { contact: CFO, company: GERMAN_FINTECH })]);
    const before = await getBuyer(t, ws, status.buyer_id!);
    expect(before.company_info).toMatchObject({ is_icp: true, icp_id: icp.id });
    expect(before.contact_info).toMatchObject({ is_persona: true, persona_id: persona.id });
    const signalsBefore = await listSignals(t, ws);

    await deleteKb(t, ws, 'icps', icp.id);
    const afterIcp = await getBuyer(t, ws, status.buyer_id!);
    expect(afterIcp.company_info).toEqual({ ...before.company_info, is_icp: false, icp_id: '', icp_name: '', icp_reasoning: '' });
    expect(afterIcp.contact_info).toEqual(before.contact_info);

    await deleteKb(t, ws, 'personas', persona.id);
    const after = await getBuyer(t, ws, status.buyer_id!);
    expect(after.contact_info).toEqual({
      ...before.contact_info,
      is_persona: false,
      persona_id: '',
      persona_name: '',
      persona_reasoning: '',
    });
    // Everything else about the Buyer stays, and so do its Signals.
    const strip = (b: Record<string, any>) => {
      const { company_info: _c, contact_info: _p, ...rest } = b;
      return rest;
    };
    expect(strip(after)).toEqual(strip(before));
    expect(await listBuyers(t, ws)).toEqual([after]);
    expect(await listSignals(t, ws)).toEqual(signalsBefore);
  });

  it('a new ICP applies to later activities only', async () => {
    const { ws, url } = await workspaceWithPage();
    const person = email('late-icp');
    const [first] = await ingestAndWait(t, ws, [
      websiteActivity('visited_page', url, { identity: { email: person }, company: GERMAN_FINTECH }),
    ]);
    const before = await getBuyer(t, ws, first.buyer_id!);
    expect(before.company_info.is_icp).toBe(false);

    const icp = await createKb(t, ws, 'icps', { name: 'EU Fintech', short_name: `fin-${uniq()}`, description: FINTECH_ICP });
    expect(await getBuyer(t, ws, first.buyer_id!)).toEqual(before);

    const [second] = await ingestAndWait(t, ws, [
      websiteActivity('visited_page', url, { identity: { email: person }, company: GERMAN_FINTECH, occurred_at: '2026-03-12T10:00:00Z' }),
    ]);
    expect(second.buyer_id).toBe(first.buyer_id);
    const after = await getBuyer(t, ws, first.buyer_id!);
    expect(after.company_info).toMatchObject({ is_icp: true, icp_id: icp.id, icp_name: 'EU Fintech' });
    expect(after.signal_count.total).toBe(2);
  });
});

describe('the order a client sees', () => {
  const idNumber = (id: string) => BigInt(id.slice(4));

  it('lists Buyers and Signals that show the same timestamp in descending id order, whatever their milliseconds or batches', async () => {
    const { ws, url } = await workspaceWithPage();
    // Forty people in four batches sent side by side, each activity with its own milliseconds
    // in one second, in an order unlike their ids'.
    const batches = Array.from({ length: 4 }, (_, b) =>
      Array.from({ length: 10 }, (_, k) =>
        websiteActivity('visited_page', url, {
          identity: { email: email(`order${b}-${k}`) },
          occurred_at: `2026-03-02T10:00:00.${String(999 - (b * 10 + k) * 7).padStart(3, '0')}Z`,
        }),
      ),
    );
    await Promise.all(batches.map((batch) => ingestAndWait(t, ws, batch)));
    const byTimestampThenId = (at: string) => (a: Record<string, any>, b: Record<string, any>) =>
      a[at] === b[at] ? (idNumber(b.id) > idNumber(a.id) ? 1 : -1) : a[at] < b[at] ? 1 : -1;

    const signals = await listSignals(t, ws);
    expect(signals).toHaveLength(40);
    expect(new Set(signals.map((s) => s.captured_at))).toEqual(new Set(['2026-03-02T10:00:00Z']));
    expect(signals.map((s) => s.id)).toEqual([...signals].sort(byTimestampThenId('captured_at')).map((s) => s.id));

    const buyers = await listBuyers(t, ws);
    expect(buyers).toHaveLength(40);
    expect(buyers.map((b) => b.id)).toEqual([...buyers].sort(byTimestampThenId('created_at')).map((b) => b.id));
    for (const buyer of buyers) expect(buyer.updated_at >= buyer.created_at).toBe(true);
  });
});
