import { expectError } from '../support/assertions';
import { KB_CASES, KbCase, unique } from '../support/kb-resources';
import { startTestApp, TestApp, TestWorkspace } from '../support/test-app';

const byPath = (path: string): KbCase => KB_CASES.find((kb) => kb.path === path) as KbCase;
const COMPANY_CASES = [byPath('competitors'), byPath('exclusions')];
const PAGE_CASES = [byPath('target-pages'), byPath('target-forms')];
const PROFILE_CASES = [byPath('icps'), byPath('personas'), byPath('products'), byPath('topics')];

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});

afterAll(async () => {
  await t?.close();
});

function post(ws: TestWorkspace, kb: KbCase, body: unknown) {
  return t.http
    .post(`/v1/kb/${kb.path}`)
    .set('Authorization', ws.auth)
    .send(body as object);
}

function patch(ws: TestWorkspace, kb: KbCase, id: string, body: unknown) {
  return t.http
    .patch(`/v1/kb/${kb.path}/${id}`)
    .set('Authorization', ws.auth)
    .send(body as object);
}

async function get(ws: TestWorkspace, kb: KbCase, id: string): Promise<Record<string, unknown>> {
  const res = await t.http.get(`/v1/kb/${kb.path}/${id}`).set('Authorization', ws.auth);
  expect(res.status).toBe(200);
  return res.body;
}

async function createValid(ws: TestWorkspace, kb: KbCase, extra: Record<string, unknown> = {}) {
  const res = await post(ws, kb, { ...kb.valid(unique()), ...extra });
  expect(res.status).toBe(201);
  return res.body as Record<string, string>;
}

async function expectEmptyList(ws: TestWorkspace, kb: KbCase): Promise<void> {
  const res = await t.http.get(`/v1/kb/${kb.path}`).set('Authorization', ws.auth);
  expect(res.status).toBe(200);
  expect(res.body.data).toEqual([]);
}

describe.each(COMPANY_CASES.map((kb) => [kb.name, kb] as const))('%s company fields', (_name, kb) => {
  test.each([
    ['example.com', 'example.com'],
    ['sub.example.co.uk', 'sub.example.co.uk'],
    ['Example.COM', 'example.com'],
    ['my-company.io', 'my-company.io'],
    ['  example.org  ', 'example.org'],
  ])('domain %p is accepted and returned as %p', async (given, expected) => {
    const ws = await t.newWorkspace();
    const res = await post(ws, kb, { ...kb.valid(unique()), domain: given });
    expect(res.status).toBe(201);
    expect(res.body.domain).toBe(expected);
    expect((await get(ws, kb, res.body.id)).domain).toBe(expected);
  });

  test.each([
    'https://example.com',
    'example.com/path',
    'example',
    'exa mple.com',
    'example.com:8080',
    '-bad.com',
    'example.123',
    'http://example.com/',
    'user@example.com',
    '.example.com',
    'example..com',
  ])('domain %p is 400 validation_error param domain, nothing written', async (domain) => {
    const ws = await t.newWorkspace();
    const res = await post(ws, kb, { ...kb.valid(unique()), domain });
    expectError(res, 400, 'validation_error', 'domain');
    await expectEmptyList(ws, kb);
  });

  test('domain is required and may not be empty', async () => {
    const ws = await t.newWorkspace();
    const { domain: _omit, ...withoutDomain } = kb.valid(unique());
    expectError(await post(ws, kb, withoutDomain), 400, 'validation_error', 'domain');
    expectError(await post(ws, kb, { ...kb.valid(unique()), domain: '' }), 400, 'validation_error', 'domain');
    expectError(await post(ws, kb, { ...kb.valid(unique()), domain: '   ' }), 400, 'validation_error', 'domain');
    await expectEmptyList(ws, kb);
  });

  test('PATCH applies the same domain rules and lowercases', async () => {
    const ws = await t.newWorkspace();
    const record = await createValid(ws, kb);
    expectError(await patch(ws, kb, record.id, { domain: 'https://example.com' }), 400, 'validation_error', 'domain');
    expectError(await patch(ws, kb, record.id, { domain: 'example' }), 400, 'validation_error', 'domain');
    expectError(await patch(ws, kb, record.id, { domain: null }), 400, 'validation_error', 'domain');
    expect((await get(ws, kb, record.id)).domain).toBe(record.domain);
    const ok = await patch(ws, kb, record.id, { domain: 'New-Domain.Example.NET' });
    expect(ok.status).toBe(200);
    expect(ok.body.domain).toBe('new-domain.example.net');
  });

  test.each([
    'https://www.linkedin.com/company/acme',
    'linkedin.com/company/acme/',
    'http://linkedin.com/company/acme-inc',
    'https://linkedin.com/company/acme',
    'www.linkedin.com/company/acme',
  ])('linkedin %p is accepted', async (linkedin) => {
    const ws = await t.newWorkspace();
    const res = await post(ws, kb, { ...kb.valid(unique()), linkedin });
    expect(res.status).toBe(201);
    expect(res.body.linkedin).toEqual(expect.stringContaining('linkedin.com/company/acme'));
  });

  test.each([
    'https://www.linkedin.com/in/person',
    'https://example.com/company/acme',
    'acme',
    'https://www.linkedin.com/',
    'https://www.linkedin.com/company/',
    'ftp://www.linkedin.com/company/acme',
  ])('linkedin %p is 400 param linkedin, nothing written', async (linkedin) => {
    const ws = await t.newWorkspace();
    expectError(await post(ws, kb, { ...kb.valid(unique()), linkedin }), 400, 'validation_error', 'linkedin');
    await expectEmptyList(ws, kb);
  });

  test.each(['https://cdn.example.com/logo.png', 'http://x.com/a.png', 'https://example.com/img?id=1'])(
    'logo %p is accepted and returned',
    async (logo) => {
      const ws = await t.newWorkspace();
      const res = await post(ws, kb, { ...kb.valid(unique()), logo });
      expect(res.status).toBe(201);
      expect(res.body.logo).toBe(logo);
    },
  );

  test.each(['ftp://x.com/a.png', '/logo.png', 'logo.png', 'javascript:alert(1)', 'data:image/png;base64,AAAA', 'https://'])(
    'logo %p is 400 param logo, nothing written',
    async (logo) => {
      const ws = await t.newWorkspace();
      expectError(await post(ws, kb, { ...kb.valid(unique()), logo }), 400, 'validation_error', 'logo');
      await expectEmptyList(ws, kb);
    },
  );

  test('PATCH applies the linkedin and logo rules', async () => {
    const ws = await t.newWorkspace();
    const record = await createValid(ws, kb);
    expectError(await patch(ws, kb, record.id, { linkedin: 'https://www.linkedin.com/in/person' }), 400, 'validation_error', 'linkedin');
    expectError(await patch(ws, kb, record.id, { logo: 'logo.png' }), 400, 'validation_error', 'logo');
    const after = await get(ws, kb, record.id);
    expect(after.linkedin).toBe('');
    expect(after.logo).toBe('');
  });

  test('linkedin and logo are optional and returned as "" when absent', async () => {
    const ws = await t.newWorkspace();
    const body = kb.valid(unique());
    expect(body).not.toHaveProperty('linkedin');
    expect(body).not.toHaveProperty('logo');
    const res = await post(ws, kb, body);
    expect(res.status).toBe(201);
    expect(res.body.linkedin).toBe('');
    expect(res.body.logo).toBe('');
    const fetched = await get(ws, kb, res.body.id);
    expect(fetched.linkedin).toBe('');
    expect(fetched.logo).toBe('');
    const list = await t.http.get(`/v1/kb/${kb.path}`).set('Authorization', ws.auth);
    expect(list.body.data[0].linkedin).toBe('');
    expect(list.body.data[0].logo).toBe('');
  });

  test.each([
    ['null', null],
    ['""', ''],
  ])('PATCH with %s clears linkedin and logo to ""', async (_label, value) => {
    const ws = await t.newWorkspace();
    const record = await createValid(ws, kb, {
      linkedin: 'https://www.linkedin.com/company/acme',
      logo: 'https://cdn.example.com/logo.png',
    });
    expect(record.linkedin).not.toBe('');
    expect(record.logo).toBe('https://cdn.example.com/logo.png');

    const cleared = await patch(ws, kb, record.id, { linkedin: value, logo: value });
    expect(cleared.status).toBe(200);
    expect(cleared.body.linkedin).toBe('');
    expect(cleared.body.logo).toBe('');
    expect(cleared.body.domain).toBe(record.domain);
    const fetched = await get(ws, kb, record.id);
    expect(fetched.linkedin).toBe('');
    expect(fetched.logo).toBe('');
  });

  test('PATCH clearing only linkedin keeps logo', async () => {
    const ws = await t.newWorkspace();
    const record = await createValid(ws, kb, {
      linkedin: 'https://www.linkedin.com/company/acme',
      logo: 'https://cdn.example.com/logo.png',
    });
    const cleared = await patch(ws, kb, record.id, { linkedin: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.linkedin).toBe('');
    expect(cleared.body.logo).toBe('https://cdn.example.com/logo.png');
  });
});

describe('Competitor description', () => {
  const kb = byPath('competitors');

  test('a create with only name, short_name and domain is valid and returns description ""', async () => {
    const ws = await t.newWorkspace();
    const n = unique();
    const res = await post(ws, kb, { name: `Rival ${n}`, short_name: `rival-${n}`, domain: `rival-${n}.com` });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: `Rival ${n}`,
      short_name: `rival-${n}`,
      domain: `rival-${n}.com`,
      description: '',
      linkedin: '',
      logo: '',
    });
    expect(res.body.id).toMatch(/^cmp_\d{19}$/);
    expect((await get(ws, kb, res.body.id)).description).toBe('');
  });

  test('a supplied description is returned', async () => {
    const ws = await t.newWorkspace();
    const res = await post(ws, kb, { ...kb.valid(unique()), description: '  Main rival  ' });
    expect(res.status).toBe(201);
    expect(res.body.description).toBe('Main rival');
  });

  test.each([
    ['""', ''],
    ['whitespace only', '   '],
  ])('description %s when supplied is 400 param description, nothing written', async (_label, description) => {
    const ws = await t.newWorkspace();
    expectError(await post(ws, kb, { ...kb.valid(unique()), description }), 400, 'validation_error', 'description');
    await expectEmptyList(ws, kb);
  });

  test('PATCH description "" is 400 param description', async () => {
    const ws = await t.newWorkspace();
    const record = await createValid(ws, kb, { description: 'Keep me' });
    expectError(await patch(ws, kb, record.id, { description: '' }), 400, 'validation_error', 'description');
    expect((await get(ws, kb, record.id)).description).toBe('Keep me');
  });
});

describe('Exclusion description', () => {
  const kb = byPath('exclusions');

  test('an Exclusion without description is 400 param description, nothing written', async () => {
    const ws = await t.newWorkspace();
    const { description: _omit, ...body } = kb.valid(unique());
    expectError(await post(ws, kb, body), 400, 'validation_error', 'description');
    expectError(await post(ws, kb, { ...body, description: '' }), 400, 'validation_error', 'description');
    expectError(await post(ws, kb, { ...body, description: '  ' }), 400, 'validation_error', 'description');
    await expectEmptyList(ws, kb);
  });

  test('a valid Exclusion returns its description', async () => {
    const ws = await t.newWorkspace();
    const body = kb.valid(unique());
    const res = await post(ws, kb, body);
    expect(res.status).toBe(201);
    expect(res.body.description).toBe(body.description);
    expect(res.body.id).toMatch(/^exc_\d{19}$/);
  });
});

describe.each(PAGE_CASES.map((kb) => [kb.name, kb] as const))('%s url', (_name, kb) => {
  test.each([
    ['https://www.example.com/pricing', 'www.example.com/pricing'],
    ['http://example.com/pricing', 'example.com/pricing'],
    ['example.com/pricing', 'example.com/pricing'],
    ['https://example.com/pricing/', 'example.com/pricing'],
    ['example.com/pricing/', 'example.com/pricing'],
    ['https://example.com/pricing?utm_source=x&utm_medium=email', 'example.com/pricing'],
    ['https://example.com/pricing?gclid=abc&fbclid=def', 'example.com/pricing'],
    ['HTTPS://WWW.Example.com/Pricing/?utm_source=x&b=2&a=1#top', 'www.example.com/Pricing?a=1&b=2'],
    ['https://example.com/', 'example.com'],
    ['https://example.com:443/x', 'example.com/x'],
    ['http://example.com:80/x', 'example.com/x'],
    ['http://Example.com:8080/x', 'example.com:8080/x'],
    ['https://example.com/search?q=a%2Fb&utm_campaign=c', 'example.com/search?q=a%2Fb'],
    ['https://example.com/docs#section-2', 'example.com/docs'],
  ])('url %p is accepted with canonical_url %p', async (url, canonical) => {
    const ws = await t.newWorkspace();
    const res = await post(ws, kb, { ...kb.valid(unique()), url });
    expect(res.status).toBe(201);
    expect(res.body.url).toBe(url);
    expect(res.body.canonical_url).toBe(canonical);
    const fetched = await get(ws, kb, res.body.id);
    expect(fetched.url).toBe(url);
    expect(fetched.canonical_url).toBe(canonical);
  });

  test('url is returned trimmed', async () => {
    const ws = await t.newWorkspace();
    const res = await post(ws, kb, { ...kb.valid(unique()), url: '   https://example.com/pricing/  ' });
    expect(res.status).toBe(201);
    expect(res.body.url).toBe('https://example.com/pricing/');
    expect(res.body.canonical_url).toBe('example.com/pricing');
  });

  test('the scheme, trailing-slash and tracking-parameter forms share one canonical_url', async () => {
    const ws = await t.newWorkspace();
    const forms = [
      'https://example.com/pricing',
      'http://example.com/pricing/',
      'example.com/pricing',
      'https://EXAMPLE.com/pricing?utm_source=newsletter#plans',
    ];
    const canonicals: string[] = [];
    for (const url of forms) {
      const res = await post(ws, kb, { ...kb.valid(unique()), url });
      expect(res.status).toBe(201);
      canonicals.push(res.body.canonical_url);
    }
    expect(new Set(canonicals)).toEqual(new Set(['example.com/pricing']));
  });

  test.each([
    'not a url',
    'ftp://example.com/x',
    'example',
    'javascript:alert(1)',
    '/pricing',
    'mailto:a@example.com',
    'https://',
    'http://exa mple.com/x',
  ])('url %p is 400 param url, nothing written', async (url) => {
    const ws = await t.newWorkspace();
    expectError(await post(ws, kb, { ...kb.valid(unique()), url }), 400, 'validation_error', 'url');
    await expectEmptyList(ws, kb);
  });

  test('url is required and may not be empty', async () => {
    const ws = await t.newWorkspace();
    const { url: _omit, ...body } = kb.valid(unique());
    expectError(await post(ws, kb, body), 400, 'validation_error', 'url');
    expectError(await post(ws, kb, { ...body, url: '' }), 400, 'validation_error', 'url');
    expectError(await post(ws, kb, { ...body, url: '   ' }), 400, 'validation_error', 'url');
    await expectEmptyList(ws, kb);
  });

  test('canonical_url supplied on POST is 400 param canonical_url, nothing written', async () => {
    const ws = await t.newWorkspace();
    const body = kb.valid(unique());
    expectError(await post(ws, kb, { ...body, canonical_url: 'www.example.com/whatever' }), 400, 'validation_error', 'canonical_url');
    await expectEmptyList(ws, kb);
  });

  test('canonical_url supplied on PATCH is 400 param canonical_url, record unchanged', async () => {
    const ws = await t.newWorkspace();
    const record = await createValid(ws, kb);
    expectError(await patch(ws, kb, record.id, { canonical_url: 'other.com/x' }), 400, 'validation_error', 'canonical_url');
    expectError(
      await patch(ws, kb, record.id, { name: 'Renamed', canonical_url: record.canonical_url }),
      400,
      'validation_error',
      'canonical_url',
    );
    const after = await get(ws, kb, record.id);
    expect(after.canonical_url).toBe(record.canonical_url);
    expect(after.name).toBe(record.name);
  });

  test('PATCH of url recomputes canonical_url', async () => {
    const ws = await t.newWorkspace();
    const record = await createValid(ws, kb, { url: 'https://www.example.com/pricing' });
    expect(record.canonical_url).toBe('www.example.com/pricing');
    const res = await patch(ws, kb, record.id, { url: 'HTTP://Shop.Example.com/Plans/?utm_medium=x&z=1&y=2' });
    expect(res.status).toBe(200);
    expect(res.body.url).toBe('HTTP://Shop.Example.com/Plans/?utm_medium=x&z=1&y=2');
    expect(res.body.canonical_url).toBe('shop.example.com/Plans?y=2&z=1');
    const fetched = await get(ws, kb, record.id);
    expect(fetched.canonical_url).toBe('shop.example.com/Plans?y=2&z=1');
  });

  test('PATCH of name only keeps url and canonical_url', async () => {
    const ws = await t.newWorkspace();
    const record = await createValid(ws, kb, { url: 'https://www.example.com/Pricing/?b=2&a=1' });
    expect(record.canonical_url).toBe('www.example.com/Pricing?a=1&b=2');
    const res = await patch(ws, kb, record.id, { name: 'Renamed page' });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Renamed page');
    expect(res.body.url).toBe('https://www.example.com/Pricing/?b=2&a=1');
    expect(res.body.canonical_url).toBe('www.example.com/Pricing?a=1&b=2');
  });

  test('PATCH with an invalid url is 400 param url and keeps the old url', async () => {
    const ws = await t.newWorkspace();
    const record = await createValid(ws, kb);
    expectError(await patch(ws, kb, record.id, { url: 'javascript:alert(1)' }), 400, 'validation_error', 'url');
    expectError(await patch(ws, kb, record.id, { url: '' }), 400, 'validation_error', 'url');
    const after = await get(ws, kb, record.id);
    expect(after.url).toBe(record.url);
    expect(after.canonical_url).toBe(record.canonical_url);
  });

  test('Target Pages and Target Forms have no domain or match_type field', async () => {
    const ws = await t.newWorkspace();
    expectError(await post(ws, kb, { ...kb.valid(unique()), domain: 'example.com' }), 400, 'validation_error', 'domain');
    expectError(await post(ws, kb, { ...kb.valid(unique()), match_type: 'exact' }), 400, 'validation_error', 'match_type');
    const record = await createValid(ws, kb);
    expect(record).not.toHaveProperty('domain');
    expect(record).not.toHaveProperty('match_type');
  });
});

describe.each(PROFILE_CASES.map((kb) => [kb.name, kb] as const))('%s description', (_name, kb) => {
  test('description is required on create', async () => {
    const ws = await t.newWorkspace();
    const { description: _omit, ...body } = kb.valid(unique());
    expectError(await post(ws, kb, body), 400, 'validation_error', 'description');
    expectError(await post(ws, kb, { ...body, description: '' }), 400, 'validation_error', 'description');
    expectError(await post(ws, kb, { ...body, description: '   ' }), 400, 'validation_error', 'description');
    expectError(await post(ws, kb, { ...body, description: null }), 400, 'validation_error', 'description');
    await expectEmptyList(ws, kb);
  });

  test('description may not be emptied by PATCH', async () => {
    const ws = await t.newWorkspace();
    const record = await createValid(ws, kb);
    expectError(await patch(ws, kb, record.id, { description: '' }), 400, 'validation_error', 'description');
    expectError(await patch(ws, kb, record.id, { description: null }), 400, 'validation_error', 'description');
    expect((await get(ws, kb, record.id)).description).toBe(record.description);
  });

  test('a valid description is stored trimmed and returned', async () => {
    const ws = await t.newWorkspace();
    const res = await post(ws, kb, { ...kb.valid(unique()), description: '  Mid-market SaaS companies in Europe  ' });
    expect(res.status).toBe(201);
    expect(res.body.description).toBe('Mid-market SaaS companies in Europe');
    expect(res.body.id.startsWith(kb.prefix)).toBe(true);
  });
});
