import { inspect } from 'node:util';
import { companyFields, pageShape, profileFields } from './kb-shapes';
import { AppError } from '../../shared/application/app-error';
import { checkFieldValue, defineKbDtos, KbDtoClass, KbFields, kbField, validateKbInput } from '../../shared/application/kb-fields';

type Body = Record<string, unknown>;

interface Shape {
  resource: string;
  fields: KbFields;
  valid: Body;
  /** Fields that must be supplied on create. */
  required: string[];
}

const SHAPES: Shape[] = [
  {
    resource: 'Icp',
    fields: profileFields,
    valid: { name: 'Mid-market SaaS', short_name: 'mm-saas', description: 'Companies with 200-2000 employees' },
    required: ['name', 'short_name', 'description'],
  },
  {
    resource: 'Competitor',
    fields: companyFields('optional'),
    valid: { name: 'Acme', short_name: 'acme', domain: 'acme.com' },
    required: ['name', 'short_name', 'domain'],
  },
  {
    resource: 'Exclusion',
    fields: companyFields('required'),
    valid: { name: 'Globex', short_name: 'globex', domain: 'globex.com', description: 'Existing customer' },
    required: ['name', 'short_name', 'domain', 'description'],
  },
  {
    resource: 'TargetPage',
    fields: pageShape.fields,
    valid: { name: 'Pricing', short_name: 'pricing', url: 'https://example.com/pricing', description: 'High intent' },
    required: ['name', 'short_name', 'url', 'description'],
  },
];

const SYSTEM_FIELDS = ['id', 'client_id', 'created_by', 'created_at', 'updated_at'];

function dtosOf(shape: Shape) {
  return defineKbDtos(`Spec${shape.resource}`, shape.fields);
}

function validationError(fn: () => unknown): AppError {
  let thrown: unknown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  if (!(thrown instanceof AppError)) {
    throw new Error(`expected an AppError, got ${thrown === undefined ? 'no error' : inspect(thrown)}`);
  }
  expect(thrown.code).toBe('validation_error');
  expect(thrown.status).toBe(400);
  expect(thrown.message.length).toBeGreaterThan(0);
  return thrown;
}

function expectRejected(dto: KbDtoClass, body: unknown, param: string, readOnly?: readonly string[]) {
  expect(validationError(() => validateKbInput(dto, body, readOnly)).param).toBe(param);
}

const icp = defineKbDtos('SpecIcpDirect', profileFields);
const competitor = defineKbDtos('SpecCompetitorDirect', companyFields('optional'));
const exclusion = defineKbDtos('SpecExclusionDirect', companyFields('required'));
const page = defineKbDtos('SpecTargetPageDirect', pageShape.fields);
const ICP_BODY = SHAPES[0].valid;
const COMPETITOR_BODY = SHAPES[1].valid;
const EXCLUSION_BODY = SHAPES[2].valid;
const PAGE_BODY = SHAPES[3].valid;

describe('kbField', () => {
  it('carries the DESIGN §1 maximum lengths', () => {
    expect(kbField.name().maxLength).toBe(200);
    expect(kbField.shortName().maxLength).toBe(64);
    expect(kbField.description().maxLength).toBe(10_000);
    expect(kbField.domain().maxLength).toBe(253);
    expect(kbField.linkedin().maxLength).toBe(2048);
    expect(kbField.logo().maxLength).toBe(2048);
    expect(kbField.pageUrl().maxLength).toBe(2048);
  });

  it('is required unless told otherwise', () => {
    expect(kbField.name().presence).toBe('required');
    expect(kbField.linkedin('clearable').presence).toBe('clearable');
    expect(kbField.description('optional').presence).toBe('optional');
  });
});

describe('defineKbDtos', () => {
  it('builds a create and an update class carrying the field list and mode', () => {
    const dtos = defineKbDtos('Widget', profileFields);
    expect(dtos.create.kbMode).toBe('create');
    expect(dtos.update.kbMode).toBe('update');
    expect(dtos.create.kbFields).toBe(profileFields);
    expect(dtos.update.kbFields).toBe(profileFields);
    expect(dtos.create.name).toBe('CreateWidgetRequest');
    expect(dtos.update.name).toBe('UpdateWidgetRequest');
    expect(dtos.create).not.toBe(dtos.update);
  });
});

describe('checkFieldValue', () => {
  const required = kbField.name();
  const clearable = kbField.logo('clearable');

  it('returns null for an acceptable value', () => {
    expect(checkFieldValue('name', required, 'Acme')).toBeNull();
    expect(checkFieldValue('logo', clearable, 'https://cdn.example.com/a.png')).toBeNull();
  });

  it('accepts null and "" only for a clearable field', () => {
    expect(checkFieldValue('logo', clearable, null)).toBeNull();
    expect(checkFieldValue('logo', clearable, '')).toBeNull();
    expect(checkFieldValue('name', required, null)).toEqual(expect.stringContaining('name'));
    expect(checkFieldValue('name', required, '')).toEqual(expect.stringContaining('name'));
    expect(checkFieldValue('description', kbField.description('optional'), '')).toEqual(expect.any(String));
  });

  it('names the field in the message for a bad value', () => {
    expect(checkFieldValue('short_name', kbField.shortName(), 42)).toEqual(expect.stringContaining('short_name'));
    expect(checkFieldValue('domain', kbField.domain(), 'not a domain')).toEqual(expect.stringContaining('domain'));
    expect(checkFieldValue('url', kbField.pageUrl(), 'ftp://example.com')).toEqual(expect.stringContaining('url'));
  });

  it('applies the rule of the field kind', () => {
    expect(checkFieldValue('domain', kbField.domain(), 'example.com')).toBeNull();
    expect(checkFieldValue('domain', kbField.domain(), 'https://example.com')).not.toBeNull();
    expect(checkFieldValue('linkedin', kbField.linkedin('clearable'), 'https://www.linkedin.com/company/acme')).toBeNull();
    expect(checkFieldValue('linkedin', kbField.linkedin('clearable'), 'https://example.com/acme')).not.toBeNull();
    expect(checkFieldValue('url', kbField.pageUrl(), 'example.com/pricing')).toBeNull();
    expect(checkFieldValue('url', kbField.pageUrl(), 'localhost/pricing')).not.toBeNull();
  });
});

describe.each(SHAPES)('validateKbInput for $resource', (shape) => {
  const { create, update } = dtosOf(shape);
  const fieldNames = Object.keys(shape.fields);

  it('accepts a valid create body and returns exactly the supplied fields', () => {
    expect(validateKbInput(create, { ...shape.valid })).toEqual(shape.valid);
  });

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['an array', [shape.valid]],
    ['an empty array', []],
    ['a string', JSON.stringify(shape.valid)],
    ['a number', 42],
    ['a boolean', true],
    ['a Date', new Date()],
  ])('rejects %s as the body with param "body"', (_what, body) => {
    expectRejected(create, body, 'body');
    expectRejected(update, body, 'body');
  });

  it('rejects an unknown field, naming it', () => {
    expectRejected(create, { ...shape.valid, colour: 'blue' }, 'colour');
    expectRejected(update, { colour: 'blue' }, 'colour');
    expectRejected(update, { [fieldNames[0]]: 'x', Name: 'y' }, 'Name');
  });

  it.each(SYSTEM_FIELDS)('rejects the system field %s, naming it', (field) => {
    expectRejected(create, { ...shape.valid, [field]: 'x' }, field);
    expectRejected(update, { [field]: 'x' }, field);
    expectRejected(update, { [fieldNames[0]]: 'ok', [field]: null }, field);
  });

  it.each(['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'])(
    'rejects the key %s without polluting Object.prototype',
    (key) => {
      const json = `{"${key}":{"polluted":"yes","prototype":{"polluted":"yes"}},${JSON.stringify(shape.valid).slice(1)}`;
      const body = JSON.parse(json) as Body;
      expect(Object.prototype.hasOwnProperty.call(body, key)).toBe(true);
      expectRejected(create, body, key);
      expectRejected(update, JSON.parse(`{"${key}":"x"}`), key);
      expect(({} as Body).polluted).toBeUndefined();
      expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
    },
  );

  it.each(shape.required)('rejects a create without the required field %s, naming it', (field) => {
    const body = { ...shape.valid };
    delete body[field];
    expectRejected(create, body, field);
    expectRejected(create, {}, shape.required[0]);
  });

  it('does not require any field on update', () => {
    for (const field of fieldNames) {
      const value = shape.valid[field];
      if (value === undefined) continue;
      expect(validateKbInput(update, { [field]: value })).toEqual({ [field]: value });
    }
  });

  it('rejects an empty update body with param "body"', () => {
    expectRejected(update, {}, 'body');
  });

  it.each(shape.required)('rejects an empty or whitespace-only %s', (field) => {
    for (const blank of ['', ' ', '   ', '\t', '\n', ' \r\n\t ', '\u00a0', '\u3000']) {
      expectRejected(create, { ...shape.valid, [field]: blank }, field);
      expectRejected(update, { [field]: blank }, field);
    }
  });

  it.each(shape.required)('rejects a non-string %s', (field) => {
    for (const value of [42, 0, true, false, ['x'], [], { value: 'x' }, {}, null]) {
      expectRejected(create, { ...shape.valid, [field]: value }, field);
      expectRejected(update, { [field]: value }, field);
    }
  });

  it.each(shape.required)('rejects %s with a NUL character or an unpaired surrogate', (field) => {
    const valid = shape.valid[field] as string;
    for (const bad of [`${valid}\u0000`, `\u0000${valid}`, `${valid}\uD800`, `${valid}\uDC00x`, `\uDFFF${valid}`]) {
      expectRejected(create, { ...shape.valid, [field]: bad }, field);
      expectRejected(update, { [field]: bad }, field);
    }
  });

  it('trims every supplied value', () => {
    const padded = Object.fromEntries(Object.entries(shape.valid).map(([k, v]) => [k, `  \t${v as string}\n `]));
    expect(validateKbInput(create, padded)).toEqual(shape.valid);
    expect(validateKbInput(update, { name: '  New name  ' })).toEqual({ name: 'New name' });
  });

  it('returns only the supplied fields on update', () => {
    expect(validateKbInput(update, { short_name: 'new-short' })).toEqual({ short_name: 'new-short' });
    expect(validateKbInput(update, { name: 'N', short_name: 'S' })).toEqual({ name: 'N', short_name: 'S' });
  });

  it('reports the failing field when other fields are valid', () => {
    expectRejected(create, { ...shape.valid, short_name: '' }, 'short_name');
    expectRejected(update, { name: 'fine', short_name: 7 }, 'short_name');
  });
});

describe('validateKbInput: lengths', () => {
  it.each([
    ['name', 200],
    ['short_name', 64],
    ['description', 10_000],
  ])('accepts %s at %i characters and rejects one more', (field, max) => {
    const { create, update } = icp;
    expect(validateKbInput(create, { ...ICP_BODY, [field]: 'x'.repeat(max) })[field]).toHaveLength(max);
    expectRejected(create, { ...ICP_BODY, [field]: 'x'.repeat(max + 1) }, field);
    expectRejected(update, { [field]: 'x'.repeat(max + 1) }, field);
  });

  it.each([
    ['name', 200],
    ['short_name', 64],
    ['description', 10_000],
  ])('counts an emoji in %s as one character', (field, max) => {
    const atLimit = '😀'.repeat(max);
    expect(atLimit.length).toBe(2 * max);
    expect(validateKbInput(icp.update, { [field]: atLimit })).toEqual({ [field]: atLimit });
    expectRejected(icp.update, { [field]: '😀'.repeat(max + 1) }, field);
  });

  it('measures the length after trimming', () => {
    const name = 'n'.repeat(200);
    expect(validateKbInput(icp.update, { name: `   ${name}   ` })).toEqual({ name });
  });

  it('applies the length limits of the other resources too', () => {
    expectRejected(competitor.create, { ...COMPETITOR_BODY, name: 'x'.repeat(201) }, 'name');
    expectRejected(page.create, { ...PAGE_BODY, short_name: 'x'.repeat(65) }, 'short_name');
    expectRejected(exclusion.create, { ...EXCLUSION_BODY, description: 'x'.repeat(10_001) }, 'description');
    expectRejected(competitor.create, { ...COMPETITOR_BODY, description: 'x'.repeat(10_001) }, 'description');
  });

  it('rejects a domain over 253 characters', () => {
    const label = 'a'.repeat(63);
    const long = `${label}.${label}.${label}.${label}.com`;
    expect(long.length).toBeGreaterThan(253);
    expectRejected(competitor.create, { ...COMPETITOR_BODY, domain: long }, 'domain');
  });

  it('rejects URLs over 2048 characters', () => {
    const longPage = `https://example.com/${'a'.repeat(2048)}`;
    expectRejected(page.create, { ...PAGE_BODY, url: longPage }, 'url');
    expectRejected(competitor.update, { logo: `https://cdn.example.com/${'a'.repeat(2048)}.png` }, 'logo');
    expectRejected(competitor.update, { linkedin: `https://www.linkedin.com/company/${'a'.repeat(2048)}` }, 'linkedin');
  });
});

describe('validateKbInput: Competitor and Exclusion company fields', () => {
  it('stores the domain lowercased and trimmed', () => {
    expect(validateKbInput(competitor.create, { ...COMPETITOR_BODY, domain: '  Acme.COM ' }).domain).toBe('acme.com');
    expect(validateKbInput(exclusion.update, { domain: 'WWW.Globex.Co.UK' })).toEqual({ domain: 'www.globex.co.uk' });
  });

  it.each([
    'https://acme.com',
    'acme.com/about',
    'acme.com:8080',
    'acme',
    'localhost',
    'ac me.com',
    '-acme.com',
    'acme.123',
    '10.0.0.1',
    'user@acme.com',
    'acme..com',
  ])('rejects the domain %s', (domain) => {
    expectRejected(competitor.create, { ...COMPETITOR_BODY, domain }, 'domain');
    expectRejected(exclusion.update, { domain }, 'domain');
  });

  it('accepts and trims a LinkedIn company URL and a logo URL', () => {
    const out = validateKbInput(competitor.create, {
      ...COMPETITOR_BODY,
      linkedin: ' https://www.linkedin.com/company/acme ',
      logo: ' https://cdn.acme.com/logo.png ',
    });
    expect(out.linkedin).toBe('https://www.linkedin.com/company/acme');
    expect(out.logo).toBe('https://cdn.acme.com/logo.png');
  });

  it.each(['https://www.linkedin.com/in/jane', 'https://acme.com/company/acme', 'linkedin', 'https://www.linkedin.com/company/', 'acme'])(
    'rejects the linkedin value %s',
    (linkedin) => {
      expectRejected(competitor.create, { ...COMPETITOR_BODY, linkedin }, 'linkedin');
      expectRejected(exclusion.update, { linkedin }, 'linkedin');
    },
  );

  it.each(['cdn.acme.com/logo.png', 'ftp://acme.com/logo.png', 'javascript:alert(1)', '/logo.png', 'logo', 'data:image/png;base64,AAAA'])(
    'rejects the logo value %s',
    (logo) => {
      expectRejected(competitor.create, { ...COMPETITOR_BODY, logo }, 'logo');
      expectRejected(exclusion.update, { logo }, 'logo');
    },
  );

  it.each(['linkedin', 'logo'])('clears %s with null, "" or whitespace, returning ""', (field) => {
    for (const clear of [null, '', '   ']) {
      expect(validateKbInput(competitor.update, { [field]: clear })).toEqual({ [field]: '' });
      expect(validateKbInput(exclusion.update, { [field]: clear })).toEqual({ [field]: '' });
      expect(validateKbInput(competitor.create, { ...COMPETITOR_BODY, [field]: clear })).toEqual({
        ...COMPETITOR_BODY,
        [field]: '',
      });
    }
  });

  it.each(['linkedin', 'logo'])('still rejects a non-string %s', (field) => {
    for (const value of [1, true, ['https://www.linkedin.com/company/acme'], {}]) {
      expectRejected(competitor.update, { [field]: value }, field);
    }
  });

  it('does not return absent optional fields', () => {
    const out = validateKbInput(competitor.create, { ...COMPETITOR_BODY });
    expect(Object.keys(out).sort()).toEqual(['domain', 'name', 'short_name']);
  });

  it('makes the Competitor description optional on create, but not empty when supplied', () => {
    expect(validateKbInput(competitor.create, { ...COMPETITOR_BODY })).toEqual(COMPETITOR_BODY);
    expect(validateKbInput(competitor.create, { ...COMPETITOR_BODY, description: ' Rival ' }).description).toBe('Rival');
    expectRejected(competitor.create, { ...COMPETITOR_BODY, description: '' }, 'description');
    expectRejected(competitor.create, { ...COMPETITOR_BODY, description: '  ' }, 'description');
    expectRejected(competitor.create, { ...COMPETITOR_BODY, description: null }, 'description');
    expectRejected(competitor.update, { description: '' }, 'description');
    expectRejected(competitor.update, { description: null }, 'description');
  });

  it('requires the Exclusion description on create', () => {
    const { description: _description, ...withoutDescription } = EXCLUSION_BODY;
    expectRejected(exclusion.create, withoutDescription, 'description');
    expectRejected(exclusion.create, { ...EXCLUSION_BODY, description: '' }, 'description');
  });

  it('does not let a required field be cleared with null on update', () => {
    expectRejected(competitor.update, { domain: null }, 'domain');
    expectRejected(competitor.update, { name: null }, 'name');
  });
});

describe('validateKbInput: Target Page url', () => {
  it('returns the url as given, trimmed (not canonicalised)', () => {
    const out = validateKbInput(page.create, { ...PAGE_BODY, url: '  HTTPS://Example.com/Pricing/?utm_source=x  ' });
    expect(out.url).toBe('HTTPS://Example.com/Pricing/?utm_source=x');
  });

  it('accepts the bare host/path form', () => {
    expect(validateKbInput(page.update, { url: 'example.com/pricing' })).toEqual({ url: 'example.com/pricing' });
  });

  it.each([
    'ftp://example.com/pricing',
    'javascript:alert(1)',
    'mailto:sales@example.com',
    'localhost/pricing',
    '/pricing',
    'pricing',
    'https://example.com/a b',
    'https://user@example.com/pricing',
    'https://example.com:99999/pricing',
  ])('rejects the url %s', (url) => {
    expectRejected(page.create, { ...PAGE_BODY, url }, 'url');
    expectRejected(page.update, { url }, 'url');
  });

  it('rejects the read-only canonical_url, naming it', () => {
    expectRejected(page.create, { ...PAGE_BODY, canonical_url: 'example.com/pricing' }, 'canonical_url', pageShape.computedFields);
    expectRejected(page.update, { canonical_url: 'example.com/pricing' }, 'canonical_url', pageShape.computedFields);
    expectRejected(page.update, { canonical_url: 'example.com/pricing' }, 'canonical_url');
  });

  it('derives canonical_url from the validated url', () => {
    const out = validateKbInput(page.create, { ...PAGE_BODY, url: ' https://Example.com/pricing/?utm_source=x ' });
    expect(pageShape.derive(out)).toEqual({ canonical_url: 'example.com/pricing' });
    expect(pageShape.derive({ name: 'x' })).toEqual({});
  });
});
