import type { Response } from 'supertest';
import { KB_CASES } from '../support/kb-resources';
import { OpenApiValidator } from '../support/openapi-validator';
import {
  createKb,
  linkedinActivity,
  marketActivity,
  PIPELINE_APP_ENV,
  uniq,
  waitForActivities,
  websiteActivity,
} from '../support/pipeline';
import { startTestApp, TestApp, TestWorkspace } from '../support/test-app';
import { startReceiver, WebhookReceiver } from '../support/webhook-receiver';

/**
 * The document against the service: every documented operation is called for real, its success
 * and every error status that can be provoked from outside, and each answer is checked against
 * what the document says of that operation and status: the body against the schema (objects
 * closed, so an undocumented field fails too), the error code against the status's examples, the
 * declared headers against theirs. Then every operation must have been seen succeed, and every
 * documented status seen, but for those no client can provoke.
 */

type Json = Record<string, any>;
type Method = 'get' | 'post' | 'patch' | 'delete' | 'put';

const METHODS: Method[] = ['get', 'post', 'patch', 'delete', 'put'];
const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

/** Statuses an operation may document that a test cannot bring about from outside. */
const UNPROVOKABLE: Record<string, string> = {
  500: 'an unexpected failure',
  503: 'PostgreSQL or Redis unavailable (tests of their own stop them)',
};

interface Call {
  auth?: string | null;
  params?: Record<string, string>;
  query?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

let t: TestApp;
let limited: TestApp;
let ws: TestWorkspace;
let readAuth: string;
let receiver: WebhookReceiver;
let document: Json;
let responses: OpenApiValidator;
let requests: OpenApiValidator;
/** `METHOD template` → statuses seen. */
const seen = new Map<string, Set<number>>();
/** Concrete path parameters for successful calls, by name (`{id}` by KB path). */
const ids: Record<string, string> = {};
const kbIds: Record<string, string> = {};

const operationsOf = (doc: Json): Array<{ method: Method; template: string; op: Json }> =>
  Object.entries(doc.paths as Json).flatMap(([template, item]) =>
    METHODS.filter((method) => (item as Json)[method]).map((method) => ({ method, template, op: (item as Json)[method] as Json })),
  );

const isApi = (template: string) => /^\/(v1|ingest)\//.test(template);

function resolve(node: Json | undefined): Json | undefined {
  if (!node || typeof node.$ref !== 'string') return node;
  let target: unknown = document;
  for (const key of node.$ref.slice(2).split('/')) target = (target as Json)[key];
  return target as Json;
}

function concretePath(template: string, params: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (params[name] !== undefined) return encodeURIComponent(params[name]);
    if (name === 'id') return kbIds[/^\/v1\/kb\/([a-z-]+)\//.exec(template)![1]];
    if (ids[name] === undefined) throw new Error(`No value for {${name}} in ${template}`);
    return ids[name];
  });
}

async function send(app: TestApp, method: Method, template: string, call: Call = {}): Promise<Response> {
  const path = concretePath(template, call.params ?? {}) + (call.query ? `?${call.query}` : '');
  let req = app.http[method](path);
  const auth = call.auth === undefined ? ws.auth : call.auth;
  if (auth) req = req.set('Authorization', auth);
  for (const [name, value] of Object.entries(call.headers ?? {})) req = req.set(name, value);
  if (call.body !== undefined) {
    req = req.set('Content-Type', 'application/json');
    return req.send(typeof call.body === 'string' ? call.body : JSON.stringify(call.body));
  }
  return req;
}

/** What the document says of `res`, checked; the status is recorded as seen. */
function expectDocumented(method: Method, template: string, res: Response): void {
  const where = `${method.toUpperCase()} ${template} → ${res.status}`;
  const op = (document.paths as Json)[template]?.[method] as Json | undefined;
  expect({ where, documented: Boolean(op) }).toEqual({ where, documented: true });
  const response = resolve((op!.responses as Json)[String(res.status)]);
  expect({ where, documented: Boolean(response), body: response ? undefined : res.body }).toEqual({ where, documented: true });
  const content = (response!.content as Json | undefined)?.['application/json'] as Json | undefined;
  const otherType = Object.keys((response!.content ?? {}) as Json).find((type) => type !== 'application/json');
  if (otherType) {
    expect(res.headers['content-type']).toContain(otherType);
  } else if (content) {
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect({ where, problems: responses.validate(content.schema, res.body) }).toEqual({ where, problems: [] });
  } else {
    expect({ where, body: res.text ?? '' }).toEqual({ where, body: '' });
  }
  if (res.status >= 400 && content) {
    const codes = Object.values((content.examples ?? {}) as Json).map((example) => (example as Json).value.error.code as string);
    expect({ where, code: res.body.error.code, among: codes }).toEqual({
      where,
      code: res.body.error.code,
      among: expect.arrayContaining([res.body.error.code]),
    });
  }
  for (const [name, declared] of Object.entries((response!.headers ?? {}) as Json)) {
    const header = resolve(declared as Json)!;
    const value = res.headers[name.toLowerCase()] as string | undefined;
    const mustBeThere =
      header.required === true ||
      (RATE_LIMIT_HEADERS.includes(name.toLowerCase()) && res.status < 300) ||
      (name === 'Retry-After' && [429, 503].includes(res.status));
    if (mustBeThere) expect({ where, header: name, present: value !== undefined }).toEqual({ where, header: name, present: true });
    if (value !== undefined) {
      expect({ where, header: name, problems: responses.validate(header.schema, value) }).toEqual({ where, header: name, problems: [] });
    }
  }
  const key = `${method.toUpperCase()} ${template}`;
  if (!seen.has(key)) seen.set(key, new Set());
  seen.get(key)!.add(res.status);
}

/** Calls an operation and checks the answer against the document; `expected` guards the status. */
async function call(method: Method, template: string, expected: number, options: Call = {}, app: TestApp = t): Promise<Response> {
  if (options.body !== undefined && typeof options.body === 'object') {
    const op = (document.paths as Json)[template][method] as Json;
    const schema = (op.requestBody as Json | undefined)?.content?.['application/json']?.schema;
    // A body the test means to be valid must be valid by the document too.
    if (expected < 300 && schema)
      expect({ template, problems: requests.validate(schema, options.body) }).toEqual({ template, problems: [] });
  }
  const res = await send(app, method, template, options);
  expect({ op: `${method.toUpperCase()} ${template}`, status: res.status, body: res.status === expected ? undefined : res.body }).toEqual({
    op: `${method.toUpperCase()} ${template}`,
    status: expected,
    body: undefined,
  });
  expectDocumented(method, template, res);
  return res;
}

const kbDescription = (path: string) =>
  path === 'icps'
    ? 'Software companies with 100 to 1000 employees in the United States'
    : path === 'personas'
      ? 'Heads of data engineering at software companies'
      : `A ${path} record`;

/** A valid body for each operation that takes one. */
function validBody(method: Method, template: string): unknown {
  const kb = /^\/v1\/kb\/([a-z-]+)(\/\{[a-z_]+\})?$/.exec(template);
  if (kb) {
    const kase = KB_CASES.find((c) => c.path === kb[1])!;
    if (method === 'post')
      return { ...kase.valid(uniq()), ...('description' in kase.valid('x') ? { description: kbDescription(kb[1]) } : {}) };
    if (method === 'patch') return { name: `Renamed ${uniq()}` };
  }
  if (template === '/ingest/v1/activities') {
    return { activities: [websiteActivity('visited_page', 'https://acme-docs.com/pricing', { external_id: `e-${uniq()}` })] };
  }
  if (/\/(simulate|criteria)$/.test(template)) return { description: 'Software companies with 100 to 1000 employees' };
  if (template === '/v1/webhook-endpoints') return { url: receiver.url, enabled_events: ['*'], description: 'All events' };
  if (template === '/v1/webhook-endpoints/{endpoint_id}') return { description: `Renamed ${uniq()}` };
  return undefined;
}

beforeAll(async () => {
  receiver = await startReceiver();
  t = await startTestApp({ ...PIPELINE_APP_ENV, WEBHOOK_ALLOW_INSECURE_URLS: 'true' });
  limited = await startTestApp({ RATE_LIMIT_LIMIT: '1', RATE_LIMIT_TTL_S: '600' });
  document = (await t.http.get('/openapi.json')).body as Json;
  responses = new OpenApiValidator(document, true);
  requests = new OpenApiValidator(document, false);
  ws = await t.newWorkspace();
  readAuth = `Bearer ${(await t.workspaces.createKey(ws.workspace_id, 'read')).api_key}`;
}, 60_000);

afterAll(async () => {
  await Promise.all([t?.close(), limited?.close(), receiver?.close()]);
});

describe('the OpenAPI document against the running service', () => {
  it('describes the answer of every operation that succeeds', async () => {
    // Knowledge base: a record of each resource, read, listed and updated; another one deleted.
    for (const kase of KB_CASES) {
      const collection = `/v1/kb/${kase.path}`;
      const item = `${collection}/{${kase.idParam}}`;
      const created = await call('post', collection, 201, { body: validBody('post', collection) });
      kbIds[kase.path] = created.body.id;
      ids[kase.idParam] = created.body.id;
      await call('get', item, 200);
      await call('get', collection, 200, { query: 'limit=1' });
      await call('patch', item, 200, { body: validBody('patch', item) });
      const doomed = await createKb(t, ws, kase.path, validBody('post', collection) as Json);
      await call('delete', item, 204, { params: { [kase.idParam]: doomed.id } });
    }

    // What the pipeline matches against, then one activity of each type, with every hint.
    await createKb(t, ws, 'target-pages', {
      name: 'Pricing',
      short_name: `pricing-${uniq()}`,
      url: 'https://acme-docs.com/pricing',
      description: 'Pricing',
    });
    await createKb(t, ws, 'topics', { name: 'Data Warehousing', short_name: `dwh-${uniq()}`, description: 'Warehouses' });
    await createKb(t, ws, 'competitors', { name: 'Rival', short_name: `rival-${uniq()}`, domain: 'rival-example.com' });
    const person = { email: `jane.${uniq()}@acme-docs.com` };
    const hints = {
      identity: person,
      contact: { name: { first: 'Jane', last: 'Doe' }, role: { title: 'Head of Data' }, social: { linkedin_followers: 120 } },
      company: { name: 'Acme', website: 'acme-docs.com', industries: ['Software'], employee_count: 340 },
      attribution: { type: 'pixel', source: 'web', source_name: 'Website', source_logo: 'https://acme-docs.com/logo.png' },
    };
    const activities = [
      websiteActivity('visited_page', 'https://acme-docs.com/pricing?utm_source=news', {
        ...hints,
        external_id: `w-${uniq()}`,
        website: {
          session: { id: 's1', started_at: '2026-03-02T09:58:00Z', duration_secs: 120 },
          device: { browser: 'Firefox', os: 'Linux' },
          location: { city: 'Berlin', country: 'Germany', latitude: 52.52, longitude: 13.4 },
          page: { time_spent_secs: 30, visit_count: 2 },
        },
      }),
      marketActivity('researched_topic', { topic: 'Data Warehousing' }, hints),
      linkedinActivity(
        'reacted_post',
        { url: 'https://www.linkedin.com/company/rival-example', company_name: 'Rival', reaction_type: 'like' },
        hints,
      ),
    ];
    const intake = await call('post', '/ingest/v1/activities', 202, { body: { activities } });
    ids.activity_id = intake.body.data[0].id;
    await call('get', '/ingest/v1/activities/{activity_id}', 200);
    const statuses = await waitForActivities(
      t,
      ws,
      intake.body.data.map((d: Json) => d.id),
      30_000,
    );
    expect(statuses.map((s) => s.status)).toEqual(['processed', 'processed', 'processed']);
    await call('get', '/ingest/v1/activities/{activity_id}', 200);
    const listed = await call('get', '/ingest/v1/activities', 200, { query: 'limit=2' });
    await call('get', '/ingest/v1/activities', 200, { query: `limit=2&cursor=${encodeURIComponent(listed.body.pagination.next_cursor)}` });
    await call('get', '/ingest/v1/activities', 200, { query: 'status=processed&type=website&trigger=visited_page' });

    // Buyers and Signals the pipeline made.
    const buyers = await call('get', '/v1/buyers', 200);
    expect(buyers.body.data.length).toBe(1);
    ids.buyer_id = buyers.body.data[0].id;
    await call('get', '/v1/buyers/{buyer_id}', 200);
    await call('get', '/v1/buyers/{buyer_id}/evaluation', 200);
    const signals = await call('get', '/v1/signals', 200, { query: 'limit=2' });
    expect(signals.body.pagination.next_cursor).toEqual(expect.any(String));
    await call('get', '/v1/signals', 200, { query: `limit=2&cursor=${encodeURIComponent(signals.body.pagination.next_cursor)}` });
    for (const type of ['website', 'market', 'linkedin']) {
      const page = await call('get', '/v1/signals', 200, { query: `type=${type}` });
      expect(page.body.data.length).toBe(1);
    }

    // Criteria and simulations.
    for (const [noun, param] of [
      ['icps', 'icp_id'],
      ['personas', 'persona_id'],
    ]) {
      await call('get', `/v1/kb/${noun}/{${param}}/criteria`, 200);
      await call('post', `/v1/kb/${noun}/criteria`, 200, { body: validBody('post', `/v1/kb/${noun}/criteria`) });
      await call('post', `/v1/kb/${noun}/simulate`, 200, { body: validBody('post', `/v1/kb/${noun}/simulate`) });
      await call('post', `/v1/kb/${noun}/{${param}}/simulate`, 200, { body: validBody('post', `/v1/kb/${noun}/{${param}}/simulate`) });
    }

    // Events and webhooks.
    const events = await call('get', '/v1/events', 200, { query: 'limit=50' });
    expect(events.body.data.length).toBeGreaterThan(0);
    const kinds = new Set(events.body.data.map((event: Json) => (event.type as string).split('.')[0]));
    expect([...kinds]).toEqual(expect.arrayContaining(['kb', 'buyer', 'signal']));
    ids.event_id = events.body.data[0].id;
    await call('get', '/v1/events/{event_id}', 200);
    const endpoint = await call('post', '/v1/webhook-endpoints', 201, { body: validBody('post', '/v1/webhook-endpoints') });
    ids.endpoint_id = endpoint.body.id;
    await call('get', '/v1/webhook-endpoints', 200);
    await call('get', '/v1/webhook-endpoints/{endpoint_id}', 200);
    await call('patch', '/v1/webhook-endpoints/{endpoint_id}', 200, { body: validBody('patch', '/v1/webhook-endpoints/{endpoint_id}') });
    await call('post', '/v1/webhook-endpoints/{endpoint_id}/rotate-secret', 200);
    await call('post', '/v1/webhook-endpoints/{endpoint_id}/test', 200);
    await call('get', '/v1/webhook-endpoints/{endpoint_id}/deliveries', 200);
    await call('post', '/v1/events/{event_id}/redeliver', 202);
    const doomed = await send(t, 'post', '/v1/webhook-endpoints', { body: validBody('post', '/v1/webhook-endpoints') });
    await call('delete', '/v1/webhook-endpoints/{endpoint_id}', 204, { params: { endpoint_id: doomed.body.id } });

    // Operations outside the API.
    await call('get', '/health/live', 200, { auth: null });
    await call('get', '/health/ready', 200, { auth: null });

    await call('get', '/metrics', 200, { auth: null });

    const unseen = operationsOf(document)
      .filter(({ method, template }) => ![...(seen.get(`${method.toUpperCase()} ${template}`) ?? [])].some((status) => status < 300))
      .map(({ method, template }) => `${method.toUpperCase()} ${template}`);
    expect(unseen).toEqual([]);
  }, 120_000);

  it('describes 401 on every operation that needs a key', async () => {
    for (const { method, template } of operationsOf(document).filter(({ template }) => isApi(template))) {
      await call(method, template, 401, { auth: null });
      await call(method, template, 401, { auth: 'Bearer svc_live_not-a-key' });
    }
  });

  it('describes 403 on every operation a read key may not call', async () => {
    for (const { method, template } of operationsOf(document).filter(({ op }) => (op.responses as Json)['403'])) {
      await call(method, template, 403, { auth: readAuth, body: validBody(method, template) });
    }
  });

  it('describes 404 on every operation that looks a record up', async () => {
    const absent = (template: string, name: string): string => {
      const prefix = name === 'id' ? kbIds[/^\/v1\/kb\/([a-z-]+)\//.exec(template)![1]].split('_')[0] : ids[name].split('_')[0];
      // Well formed (19 digits, in range), and far beyond any id the test made.
      return `${prefix}_0999999999999999999`;
    };
    for (const { method, template } of operationsOf(document).filter(({ op }) => (op.responses as Json)['404'])) {
      const names = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const params = Object.fromEntries(names.map((name) => [name, absent(template, name)]));
      await call(method, template, 404, { params, body: validBody(method, template) });
    }
  });

  it('describes 400 on every operation that takes input, with the code the service answers', async () => {
    for (const { method, template, op } of operationsOf(document).filter(({ op }) => (op.responses as Json)['400'])) {
      if (op.requestBody) {
        await call(method, template, 400, { body: { unexpected: true } });
      } else if (/\{(icp_id|persona_id|id)\}/.test(template)) {
        const name = /\{(icp_id|persona_id|id)\}/.exec(template)![1];
        await call(method, template, 400, { params: { [name]: 'not-an-id' } });
      } else if (method === 'get') {
        await call(method, template, 400, { query: 'unexpected=1' });
      }
      if (method === 'get' && (op.parameters as Json[] | undefined)?.some((p) => p.name === 'cursor')) {
        await call(method, template, 400, { query: 'cursor=not-a-cursor' });
      }
      if (method === 'post' || method === 'patch') {
        // The same Idempotency-Key with another body: idempotency_key_mismatch.
        const key = `mismatch-${uniq()}`;
        const first = await send(t, method, template, { body: validBody(method, template) ?? {}, headers: { 'Idempotency-Key': key } });
        expect(first.status).toBeLessThan(300);
        await call(method, template, 400, { body: { other: uniq() }, headers: { 'Idempotency-Key': key } });
      }
    }
  }, 60_000);

  it('describes 409 conflict on knowledge-base writes', async () => {
    for (const kase of KB_CASES) {
      const collection = `/v1/kb/${kase.path}`;
      const body = validBody('post', collection) as Json;
      await send(t, 'post', collection, { body });
      await call('post', collection, 409, { body: { ...body, name: `Other ${uniq()}` } });
      const other = await createKb(t, ws, kase.path, validBody('post', collection) as Json);
      await call('patch', `${collection}/{${kase.idParam}}`, 409, {
        params: { [kase.idParam]: other.id },
        body: { short_name: body.short_name },
      });
    }
  });

  it('describes 413 on every operation that documents a body limit', async () => {
    const large = JSON.stringify({ description: 'x'.repeat(1024 * 1024 + 1) });
    for (const { method, template } of operationsOf(document).filter(({ op }) => (op.responses as Json)['413'])) {
      await call(method, template, 413, { body: large });
    }
  });

  it('describes 429 with Retry-After and the rate-limit headers on every operation that needs a key', async () => {
    const spent = await limited.newWorkspace();
    const first = await send(limited, 'get', '/v1/signals', { auth: spent.auth });
    expect(first.status).toBe(200);
    for (const { method, template } of operationsOf(document).filter(({ template }) => isApi(template))) {
      const params = Object.fromEntries([...template.matchAll(/\{([^}]+)\}/g)].map((m) => [m[1], 'x']));
      await call(method, template, 429, { auth: spent.auth, params, body: validBody(method, template) }, limited);
    }
  });

  it('answers a known path with another method 405 method_not_allowed in the documented envelope, with Allow', async () => {
    const res = await send(t, 'put', '/v1/kb/icps');
    expect(res.status).toBe(405);
    expect(res.headers.allow.split(', ')).toEqual(expect.arrayContaining(['GET', 'POST']));
    expect(responses.validate({ $ref: '#/components/schemas/Error' }, res.body)).toEqual([]);
    expect(res.body.error.code).toBe('method_not_allowed');
  });

  it('has seen every documented status but those no client can provoke', () => {
    const unseen: string[] = [];
    for (const { method, template, op } of operationsOf(document)) {
      const key = `${method.toUpperCase()} ${template}`;
      for (const status of Object.keys(op.responses as Json)) {
        if (UNPROVOKABLE[status]) continue;
        if (!seen.get(key)?.has(Number(status))) unseen.push(`${key} ${status}`);
      }
    }
    // Outside knowledge-base writes, 409 is only idempotency_key_in_use, which needs two requests in
    // flight at once under one key: idempotency.e2e-spec.ts has it.
    const inUseOnly = (entry: string) => / 409$/.test(entry) && !/^(POST|PATCH) \/v1\/kb\/[a-z-]+(\/\{[a-z_]+\})? 409$/.test(entry);
    expect(unseen.filter((entry) => !inUseOnly(entry))).toEqual([]);
  });
});

describe('the document itself', () => {
  it('lists the error statuses of every operation that needs a key, each with the envelope and an example per code', () => {
    for (const { method, template, op } of operationsOf(document).filter(({ template }) => isApi(template))) {
      const statuses = Object.keys(op.responses as Json);
      expect({ op: `${method} ${template}`, statuses }).toEqual({
        op: `${method} ${template}`,
        statuses: expect.arrayContaining(['401', '429', '500']),
      });
      for (const status of statuses.filter((s) => Number(s) >= 400)) {
        const content = (op.responses as Json)[status].content['application/json'];
        expect(content.schema).toEqual({ $ref: '#/components/schemas/Error' });
        const examples = Object.values(content.examples as Json) as Json[];
        expect(examples.length).toBeGreaterThan(0);
        for (const example of examples) {
          expect({ op: `${method} ${template}`, status, problems: responses.validate(content.schema, example.value) }).toEqual({
            op: `${method} ${template}`,
            status,
            problems: [],
          });
        }
      }
    }
  });

  it('answers every list with a named page schema', () => {
    const lists = operationsOf(document).filter(
      ({ method, op }) => method === 'get' && (op.parameters as Json[] | undefined)?.some((p) => p.name === 'cursor'),
    );
    expect(lists.length).toBeGreaterThan(10);
    for (const { template, op } of lists) {
      const schema = (op.responses as Json)['200'].content['application/json'].schema as Json;
      expect({ template, schema }).toEqual({
        template,
        schema: { $ref: expect.stringMatching(/^#\/components\/schemas\/[A-Za-z]+Page$/) },
      });
    }
  });

  it('names the schema of every JSON request body and success of the API', () => {
    for (const { method, template, op } of operationsOf(document).filter(({ template }) => isApi(template))) {
      const body = (op.requestBody as Json | undefined)?.content['application/json'].schema;
      if (body) expect({ op: `${method} ${template}`, body }).toEqual({ op: `${method} ${template}`, body: { $ref: expect.any(String) } });
      for (const [status, response] of Object.entries(op.responses as Json)) {
        const schema = (response as Json).content?.['application/json']?.schema;
        if (Number(status) < 300 && schema) {
          expect({ op: `${method} ${template}`, schema }).toEqual({ op: `${method} ${template}`, schema: { $ref: expect.any(String) } });
        }
      }
    }
  });
});
