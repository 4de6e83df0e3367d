/**
 * What the pipeline makes of each trigger: the Signal of every trigger of every type, how the
 * matched knowledge-base record and the activity's fields are copied into it, and how website
 * URLs, market values and LinkedIn pages are matched against Target Pages, Target Forms, Topics,
 * Products and Competitors.
 */
import { TIMESTAMP } from '../support/assertions';
import {
  ActivityStatus,
  createKb,
  getBuyer,
  getSignal,
  ingestAndWait,
  linkedinActivity,
  LinkedinTrigger,
  listSignals,
  marketActivity,
  PIPELINE_APP_ENV,
  RawActivity,
  targetForm,
  targetPage,
  Trigger,
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

const ATTRIBUTION = { type: 'paid', source: 'google', source_name: 'Google Ads', source_logo: 'https://logos.example.com/google.png' };
const SESSION = { id: 'sess-42', started_at: '2026-03-02T09:58:00Z', ended_at: '2026-03-02T10:05:00Z', duration_secs: 420 };
const DEVICE = { browser: 'Chrome', browser_version: '126.0', os: 'macOS', os_version: '14.5', device_type: 'desktop', language: 'en-US' };
const LOCATION = {
  ip: '203.0.113.7',
  city: 'Berlin',
  state: 'Berlin',
  country: 'Germany',
  country_code: 'DE',
  postal_code: '10115',
  timezone: 'Europe/Berlin',
  latitude: 52.52,
  longitude: 13.405,
};
const PAGE = {
  visited_at: '2026-03-02T10:00:00Z',
  first_visited_at: '2026-02-20T08:00:00Z',
  last_visited_at: '2026-03-02T10:00:00Z',
  time_spent_secs: 95,
  visit_count: 3,
  total_time_spent_secs: 240,
};
const NO_CLICK_IDS = {
  gclid: null,
  gbraid: null,
  wbraid: null,
  dclid: null,
  li_fat_id: null,
  msclkid: null,
  fbclid: null,
  ttclid: null,
  twclid: null,
};
const NO_UTM = { source: '', medium: '', campaign: '', term: '', content: '' };

interface Kb {
  ws: TestWorkspace;
  host: string;
  page: Record<string, any>;
  form: Record<string, any>;
  topic: Record<string, any>;
  product: Record<string, any>;
  competitor: Record<string, any>;
  rivalDomain: string;
  rivalSlug: string;
}

/** A workspace with one record of each matchable kind. */
async function workspaceWithKb(): Promise<Kb> {
  const ws = await t.newWorkspace();
  const u = uniq();
  const host = `www.trigger-${u}.com`;
  const rivalDomain = `rivalsoft-${u}.com`;
  const rivalSlug = `rivalsoft-${u}`;
  const [page, form, topic, product, competitor] = await Promise.all([
    targetPage(t, ws, `https://${host}/pricing`, 'Pricing page'),
    targetForm(t, ws, `https://${host}/demo`, 'Demo request'),
    createKb(t, ws, 'topics', { name: 'Data Privacy', short_name: `privacy-${u}`, description: 'GDPR and privacy tooling' }),
    createKb(t, ws, 'products', { name: 'Analytics Suite', short_name: `analytics-${u}`, description: 'Our analytics product' }),
    createKb(t, ws, 'competitors', {
      name: 'Rivalsoft',
      short_name: `rival-${u}`,
      domain: rivalDomain,
      linkedin: `https://www.linkedin.com/company/${rivalSlug}`,
      description: 'Main competitor',
    }),
  ]);
  return { ws, host, page, form, topic, product, competitor, rivalDomain, rivalSlug };
}

const copied = (record: Record<string, any>) => ({
  id: record.id,
  name: record.name,
  short_name: record.short_name,
  description: record.description,
});

interface TriggerCase {
  trigger: Trigger;
  activity(kb: Kb): RawActivity;
  /** The populated object of the Signal. */
  expected(kb: Kb, activity: RawActivity): Record<string, unknown>;
}

const websiteExtras = { website: { session: SESSION, device: DEVICE, location: LOCATION, page: PAGE } };

const CASES: Array<{ type: 'website' | 'market' | 'linkedin' } & TriggerCase> = [
  {
    type: 'website',
    trigger: 'visited_page',
    activity: (kb) =>
      websiteActivity(
        'visited_page',
        `https://${kb.host.toUpperCase()}/pricing?utm_source=google&utm_medium=cpc&utm_campaign=spring&utm_term=crm&utm_content=ad1&gclid=G-1&fbclid=F-2&msclkid=M-3#plans`,
        { attribution: ATTRIBUTION, ...websiteExtras },
      ),
    expected: (kb, a) => ({
      trigger: 'visited_page',
      attribution: ATTRIBUTION,
      url: { raw: a.website.url, canonical: `${kb.host}/pricing`, domain: kb.host, path: '/pricing' },
      utm: { source: 'google', medium: 'cpc', campaign: 'spring', term: 'crm', content: 'ad1' },
      click_ids: { ...NO_CLICK_IDS, gclid: 'G-1', fbclid: 'F-2', msclkid: 'M-3' },
      target_page: copied(kb.page),
      session: SESSION,
      device: DEVICE,
      location: LOCATION,
      page: PAGE,
    }),
  },
  {
    type: 'website',
    trigger: 'filled_form',
    activity: (kb) => websiteActivity('filled_form', `https://${kb.host}/demo`, { attribution: ATTRIBUTION, ...websiteExtras }),
    expected: (kb, a) => ({
      trigger: 'filled_form',
      attribution: ATTRIBUTION,
      url: { raw: a.website.url, canonical: `${kb.host}/demo`, domain: kb.host, path: '/demo' },
      utm: NO_UTM,
      click_ids: NO_CLICK_IDS,
      target_page: copied(kb.form),
      session: SESSION,
      device: DEVICE,
      location: LOCATION,
      page: PAGE,
    }),
  },
  {
    type: 'website',
    trigger: 'abandoned_form',
    activity: (kb) =>
      websiteActivity('abandoned_form', `http://${kb.host}/demo?li_fat_id=L-9&utm_campaign=q2`, {
        attribution: ATTRIBUTION,
        ...websiteExtras,
      }),
    expected: (kb, a) => ({
      trigger: 'abandoned_form',
      attribution: ATTRIBUTION,
      url: { raw: a.website.url, canonical: `${kb.host}/demo`, domain: kb.host, path: '/demo' },
      utm: { ...NO_UTM, campaign: 'q2' },
      click_ids: { ...NO_CLICK_IDS, li_fat_id: 'L-9' },
      target_page: copied(kb.form),
      session: SESSION,
      device: DEVICE,
      location: LOCATION,
      page: PAGE,
    }),
  },
  {
    type: 'market',
    trigger: 'researched_topic',
    activity: () =>
      marketActivity(
        'researched_topic',
        { topic: 'Data Privacy', company_website: 'https://www.buyer-corp.com' },
        { attribution: ATTRIBUTION },
      ),
    expected: () => ({
      trigger: 'researched_topic',
      attribution: ATTRIBUTION,
      topic: 'Data Privacy',
      company_website: 'https://www.buyer-corp.com',
    }),
  },
  {
    type: 'market',
    trigger: 'explored_product',
    activity: () =>
      marketActivity('explored_product', { topic: 'Analytics Suite', company_website: 'buyer-corp.com' }, { attribution: ATTRIBUTION }),
    expected: () => ({
      trigger: 'explored_product',
      attribution: ATTRIBUTION,
      topic: 'Analytics Suite',
      company_website: 'buyer-corp.com',
    }),
  },
  {
    type: 'market',
    trigger: 'evaluated_competitor',
    activity: (kb) =>
      marketActivity(
        'evaluated_competitor',
        { topic: 'CRM alternatives', company_website: `https://app.${kb.rivalDomain}/pricing` },
        { attribution: ATTRIBUTION },
      ),
    expected: (kb) => ({
      trigger: 'evaluated_competitor',
      attribution: ATTRIBUTION,
      topic: 'CRM alternatives',
      company_website: `https://app.${kb.rivalDomain}/pricing`,
    }),
  },
  {
    type: 'linkedin',
    trigger: 'followed_page',
    activity: (kb) =>
      linkedinActivity(
        'followed_page',
        { source: 'linkedin', url: `https://www.linkedin.com/company/${kb.rivalSlug}/`, company_name: 'Rivalsoft' },
        { attribution: ATTRIBUTION },
      ),
    expected: (kb) => ({
      trigger: 'followed_page',
      attribution: ATTRIBUTION,
      source: 'linkedin',
      url: `https://www.linkedin.com/company/${kb.rivalSlug}/`,
      comment: '',
      reaction_type: '',
      company_name: 'Rivalsoft',
      post_title: '',
    }),
  },
  {
    type: 'linkedin',
    trigger: 'commented_post',
    activity: (kb) =>
      linkedinActivity(
        'commented_post',
        {
          source: 'linkedin',
          url: `https://www.linkedin.com/company/${kb.rivalSlug}/posts/launch-day`,
          comment: 'Looks great, how does it compare?',
          company_name: 'Rivalsoft',
          post_title: 'Launch day',
        },
        { attribution: ATTRIBUTION },
      ),
    expected: (kb) => ({
      trigger: 'commented_post',
      attribution: ATTRIBUTION,
      source: 'linkedin',
      url: `https://www.linkedin.com/company/${kb.rivalSlug}/posts/launch-day`,
      comment: 'Looks great, how does it compare?',
      reaction_type: '',
      company_name: 'Rivalsoft',
      post_title: 'Launch day',
    }),
  },
  {
    type: 'linkedin',
    trigger: 'reacted_post',
    // Matched by the company name alone: the URL is a feed post, not a company page.
    activity: () =>
      linkedinActivity(
        'reacted_post',
        {
          source: 'linkedin',
          url: 'https://www.linkedin.com/feed/update/urn:li:activity:7000000000000000000',
          reaction_type: 'like',
          company_name: 'Rivalsoft',
          post_title: 'We are hiring',
        },
        { attribution: ATTRIBUTION },
      ),
    expected: () => ({
      trigger: 'reacted_post',
      attribution: ATTRIBUTION,
      source: 'linkedin',
      url: 'https://www.linkedin.com/feed/update/urn:li:activity:7000000000000000000',
      comment: '',
      reaction_type: 'like',
      company_name: 'Rivalsoft',
      post_title: 'We are hiring',
    }),
  },
];

describe('every trigger with a matching knowledge-base record', () => {
  it.each(CASES)(
    '$type / $trigger: processed into a Signal carrying the activity and the matched record',
    async ({ type, trigger, activity, expected }) => {
      const kb = await workspaceWithKb();
      const raw = { ...activity(kb), occurred_at: '2026-03-02T10:00:00Z' };
      const [status] = await ingestAndWait(t, kb.ws, [raw]);
      expect(status).toMatchObject({
        id: status.id,
        status: 'processed',
        signal_id: expect.stringMatching(/^sig_\d{19}$/),
        buyer_id: expect.stringMatching(/^buy_\d{19}$/),
        discard_reason: null,
        near_miss: null,
      });

      const signals = await listSignals(t, kb.ws);
      expect(signals).toHaveLength(1);
      expect(signals[0]).toEqual({
        id: status.signal_id,
        buyer_id: status.buyer_id,
        type,
        website: type === 'website' ? expected(kb, raw) : null,
        market: type === 'market' ? expected(kb, raw) : null,
        linkedin: type === 'linkedin' ? expected(kb, raw) : null,
        captured_at: '2026-03-02T10:00:00Z',
        created_at: expect.stringMatching(TIMESTAMP),
        updated_at: expect.stringMatching(TIMESTAMP),
      });

      // The filters of the Signals list find it under its type and trigger.
      expect((await listSignals(t, kb.ws, `type=${type}&trigger=${trigger}`)).map((s) => s.id)).toEqual([status.signal_id]);

      const buyer = await getBuyer(t, kb.ws, status.buyer_id!);
      expect(buyer.signal_count).toEqual({ total: 1, website: 0, market: 0, linkedin: 0, [type]: 1 });
      expect(buyer).toMatchObject({
        first_signal_id: status.signal_id,
        first_signal_type: type,
        first_signal_trigger: trigger,
        last_signal_id: status.signal_id,
        last_signal_type: type,
        last_signal_trigger: trigger,
        attribution: ATTRIBUTION,
      });
    },
  );

  it('fills absent website details with empty values of the documented types', async () => {
    const kb = await workspaceWithKb();
    const [status] = await ingestAndWait(t, kb.ws, [
      websiteActivity('visited_page', `${kb.host}/pricing/`, { occurred_at: '2026-03-05T08:30:00Z' }),
    ]);
    expect(status.status).toBe('processed');
    const signal = await getSignal(t, kb.ws, status.signal_id!);
    expect(signal.website).toMatchObject({
      trigger: 'visited_page',
      attribution: { type: '', source: '', source_name: '', source_logo: '' },
      url: { raw: `${kb.host}/pricing/`, canonical: `${kb.host}/pricing`, domain: kb.host },
      utm: NO_UTM,
      click_ids: NO_CLICK_IDS,
      target_page: copied(kb.page),
    });
    expect(signal.market).toBeNull();
    expect(signal.linkedin).toBeNull();
    expect(signal.captured_at).toBe('2026-03-05T08:30:00Z');
  });
});

describe('matching market and LinkedIn activity', () => {
  const statusesOf = (s: ActivityStatus[]) => s.map((x) => x.status);

  it('matches Topics and Products by name or short name, case-insensitively', async () => {
    const kb = await workspaceWithKb();
    const statuses = await ingestAndWait(t, kb.ws, [
      marketActivity('researched_topic', { topic: 'data privacy' }),
      marketActivity('researched_topic', { topic: kb.topic.short_name.toUpperCase() }),
      marketActivity('explored_product', { topic: 'ANALYTICS SUITE' }),
      marketActivity('explored_product', { topic: kb.product.short_name }),
      marketActivity('researched_topic', { topic: 'Analytics Suite' }), // a Product is not a Topic
      marketActivity('researched_topic', { topic: 'Data Privacy Laws' }), // not a name, only similar
    ]);
    expect(statusesOf(statuses)).toEqual(['processed', 'processed', 'processed', 'processed', 'discarded', 'discarded']);
    expect(statuses.slice(4).map((s) => s.discard_reason)).toEqual(['no_target_match', 'no_target_match']);
    expect(await listSignals(t, kb.ws, 'type=market&trigger=researched_topic')).toHaveLength(2);
    expect(await listSignals(t, kb.ws, 'type=market&trigger=explored_product')).toHaveLength(2);
  });

  it('matches a Competitor by the domain of company_website: subdomains included, www. ignored, look-alikes not', async () => {
    const kb = await workspaceWithKb();
    const websites = [
      kb.rivalDomain,
      `https://www.${kb.rivalDomain}`,
      `http://eu.app.${kb.rivalDomain}/compare?x=1`,
      `https://WWW.${kb.rivalDomain.toUpperCase()}/`,
      `https://not${kb.rivalDomain}`,
      `https://${kb.rivalDomain}.evil.io`,
    ];
    const statuses = await ingestAndWait(
      t,
      kb.ws,
      websites.map((w) => marketActivity('evaluated_competitor', { topic: 'x', company_website: w })),
    );
    expect(statusesOf(statuses)).toEqual(['processed', 'processed', 'processed', 'processed', 'discarded', 'discarded']);
  });

  it('ignores www. on the Competitor side too: a Competitor domain written with www. matches its website', async () => {
    const ws = await t.newWorkspace();
    const domain = `www.rival-www-${uniq()}.com`;
    await createKb(t, ws, 'competitors', { name: 'Rival with www', short_name: `rw-${uniq()}`, domain });
    const statuses = await ingestAndWait(t, ws, [
      marketActivity('evaluated_competitor', { topic: 'x', company_website: `https://${domain}/pricing` }),
      marketActivity('evaluated_competitor', { topic: 'x', company_website: domain.replace(/^www\./, '') }),
    ]);
    expect(statusesOf(statuses)).toEqual(['processed', 'processed']);
  });

  it('matches LinkedIn triggers by the company page slug in the URL or by the Competitor name', async () => {
    const kb = await workspaceWithKb();
    const triggers: LinkedinTrigger[] = ['followed_page', 'commented_post', 'reacted_post'];
    const cases: Array<Record<string, string>> = [
      { url: `linkedin.com/company/${kb.rivalSlug}` },
      { url: `https://www.linkedin.com/company/${kb.rivalSlug.toUpperCase()}/posts/abc` },
      { company_name: 'Rivalsoft' },
      { url: 'https://www.linkedin.com/company/someone-else', company_name: 'Someone Else' },
      { url: `https://www.linkedin.com/company/${kb.rivalSlug}-labs` },
      { company_name: 'Rivalsoft Labs' },
    ];
    const statuses = await ingestAndWait(
      t,
      kb.ws,
      cases.map((c, i) => linkedinActivity(triggers[i % 3], c)),
    );
    expect(statusesOf(statuses)).toEqual(['processed', 'processed', 'processed', 'discarded', 'discarded', 'discarded']);
  });

  it('matches only active records of the own workspace', async () => {
    const kb = await workspaceWithKb();
    const other = await workspaceWithKb();
    const res = await t.http.delete(`/v1/kb/products/${kb.product.id}`).set('Authorization', kb.ws.auth);
    expect(res.status).toBe(204);
    const statuses = await ingestAndWait(t, kb.ws, [
      marketActivity('explored_product', { topic: 'Analytics Suite' }), // deleted here
      marketActivity('evaluated_competitor', { topic: 'x', company_website: other.rivalDomain }), // another workspace's Competitor
    ]);
    expect(statuses.map((s) => s.discard_reason)).toEqual(['no_target_match', 'no_target_match']);
  });
});

describe('URL matching for Target Pages and Target Forms', () => {
  async function pages() {
    const ws = await t.newWorkspace();
    const host = `www.urls-${uniq()}.com`;
    const [pricing, plans, features, form, search, docs] = await Promise.all([
      targetPage(t, ws, `https://${host}/pricing`),
      targetPage(t, ws, `https://${host}/plans?plan=pro`),
      targetPage(t, ws, `${host}/features`), // no scheme
      targetForm(t, ws, `https://${host}/demo`),
      targetPage(t, ws, `https://${host}/search?a=1&b=2`),
      targetPage(t, ws, `http://${host.toUpperCase()}/Docs/?utm_source=kb#intro`), // defined with noise
    ]);
    return { ws, host, pricing, plans, features, form, search, docs };
  }

  /** Visits each URL; returns the matched Target Page/Form id of each, or the discard reason. */
  async function outcome(ws: TestWorkspace, activities: RawActivity[]): Promise<string[]> {
    const statuses = await ingestAndWait(t, ws, activities);
    const signals = new Map((await listSignals(t, ws)).map((s) => [s.id, s]));
    return statuses.map((s) => (s.status === 'processed' ? signals.get(s.signal_id!)!.website.target_page.id : s.discard_reason!));
  }

  it('matches regardless of scheme, host case, trailing slash, fragment and tracking parameters', async () => {
    const { ws, host, pricing, plans, features, search, docs } = await pages();
    const urls = [
      `http://${host}/pricing`,
      `https://${host.toUpperCase()}/pricing`,
      `https://${host}/pricing/`,
      `https://${host}/pricing#faq`,
      `https://${host}/pricing?utm_source=news&utm_medium=email&utm_campaign=x&gclid=abc&fbclid=def`,
      `${host}/pricing`,
      `https://${host}:443/pricing`,
      `https://${host}/plans?plan=pro&utm_medium=email`,
      `https://${host}/plans/?gclid=1&plan=pro#top`,
      `https://${host}/features`,
      `http://${host}/features/`,
      `https://${host}/search?b=2&a=1`,
      `https://${host}/search?UTM_Source=x&a=1&GCLID=y&b=2`,
      `https://${host}/Docs`,
      `https://${host}/Docs?utm_source=kb`,
    ];
    const got = await outcome(
      ws,
      urls.map((url) => websiteActivity('visited_page', url)),
    );
    expect(got).toEqual([
      pricing.id,
      pricing.id,
      pricing.id,
      pricing.id,
      pricing.id,
      pricing.id,
      pricing.id,
      plans.id,
      plans.id,
      features.id,
      features.id,
      search.id,
      search.id,
      docs.id,
      docs.id,
    ]);
  });

  it('matches an internationalised host and a path outside ASCII however the visit spells them', async () => {
    const ws = await t.newWorkspace();
    const u = uniq();
    const page = (
      await t.http
        .post('/v1/kb/target-pages')
        .set('Authorization', ws.auth)
        .send({ name: 'Café', short_name: `cafe-${u}`, url: `https://bücher-${u}.de/café`, description: 'Menu' })
        .expect(201)
    ).body;
    const ascii = new URL(`https://bücher-${u}.de`).hostname;
    const urls = [
      `https://bücher-${u}.de/café`,
      `https://${ascii}/caf%C3%A9`,
      `https://${ascii.toUpperCase()}/caf%C3%A9/`,
      `https://${ascii}/cafe`,
    ];
    const got = await outcome(
      ws,
      urls.map((url) => websiteActivity('visited_page', url)),
    );
    expect(got).toEqual([page.id, page.id, page.id, 'no_target_match']);
  });

  it('keeps distinguishing query parameters and path case', async () => {
    const { ws, host } = await pages();
    const urls = [
      `https://${host}/plans?plan=team`,
      `https://${host}/plans`,
      `https://${host}/plans?plan=pro&seats=10`,
      `https://${host}/Pricing`,
      `https://${host}/PRICING`,
      `https://${host}/pricing/annual`,
      `https://${host}/docs`,
      `https://${host}/search?a=1&b=3`,
      `https://${host.replace(/^www\./, 'shop.')}/pricing`,
    ];
    const got = await outcome(
      ws,
      urls.map((url) => websiteActivity('visited_page', url)),
    );
    expect(got).toEqual(urls.map(() => 'no_target_match'));
  });

  it('matches Target Forms only for form triggers, and Target Pages only for page visits', async () => {
    const { ws, host, pricing, form } = await pages();
    const got = await outcome(ws, [
      websiteActivity('visited_page', `https://${host}/demo`),
      websiteActivity('filled_form', `https://${host}/demo/`),
      websiteActivity('abandoned_form', `http://${host.toUpperCase()}/demo?utm_source=x`),
      websiteActivity('filled_form', `https://${host}/pricing`),
      websiteActivity('abandoned_form', `https://${host}/pricing`),
      websiteActivity('visited_page', `https://${host}/pricing`),
    ]);
    expect(got).toEqual(['no_target_match', form.id, form.id, 'no_target_match', 'no_target_match', pricing.id]);
  });
});
