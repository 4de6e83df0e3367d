import { isHttpUrl, isLinkedinCompanyUrl, MAX_DOMAIN_LENGTH, normalizeDomain } from './company-fields';

describe('normalizeDomain', () => {
  it.each([
    ['example.com', 'example.com'],
    ['Example.COM', 'example.com'],
    ['WWW.EXAMPLE.COM', 'www.example.com'],
    ['sub.example.co.uk', 'sub.example.co.uk'],
    ['my-site.io', 'my-site.io'],
    ['123abc.com', '123abc.com'],
    ['a1-b2.example.org', 'a1-b2.example.org'],
    ['xn--bcher-kva.de', 'xn--bcher-kva.de'],
  ])('accepts %s as %s', (input, expected) => {
    expect(normalizeDomain(input)).toBe(expected);
  });

  it.each([
    ['no dot', 'localhost'],
    ['single label', 'example'],
    ['scheme', 'https://example.com'],
    ['scheme-relative', '//example.com'],
    ['path', 'example.com/about'],
    ['trailing slash', 'example.com/'],
    ['port', 'example.com:8080'],
    ['query', 'example.com?x=1'],
    ['inner space', 'exa mple.com'],
    ['leading space', ' example.com'],
    ['trailing space', 'example.com '],
    ['leading hyphen in a label', '-example.com'],
    ['trailing hyphen in a label', 'example-.com'],
    ['empty label', 'example..com'],
    ['leading dot', '.example.com'],
    ['trailing dot', 'example.com.'],
    ['numeric TLD', 'example.123'],
    ['IPv4 address', '192.168.0.1'],
    ['TLD with a digit', 'example.c0m'],
    ['TLD with a hyphen', 'example.co-m'],
    ['underscore', 'exam_ple.com'],
    ['email address', 'user@example.com'],
    ['non-ASCII letters', 'bücher.de'],
    ['empty', ''],
    ['label over 63 characters', `${'a'.repeat(64)}.com`],
  ])('rejects %s (%s)', (_what, input) => {
    expect(normalizeDomain(input)).toBeNull();
  });

  it('accepts a label of 63 characters', () => {
    expect(normalizeDomain(`${'a'.repeat(63)}.com`)).toBe(`${'a'.repeat(63)}.com`);
  });

  it('accepts 253 characters and rejects 254', () => {
    expect(MAX_DOMAIN_LENGTH).toBe(253);
    const base = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.`;
    const atLimit = base + 'd'.repeat(253 - base.length);
    const overLimit = base + 'd'.repeat(254 - base.length);
    expect(atLimit).toHaveLength(253);
    expect(normalizeDomain(atLimit)).toBe(atLimit);
    expect(normalizeDomain(overLimit)).toBeNull();
  });
});

describe('isLinkedinCompanyUrl', () => {
  it.each([
    'https://www.linkedin.com/company/acme',
    'https://www.linkedin.com/company/acme/',
    'https://linkedin.com/company/acme',
    'http://www.linkedin.com/company/acme',
    'www.linkedin.com/company/acme',
    'linkedin.com/company/acme',
    'linkedin.com/company/acme/',
    'https://www.linkedin.com/company/acme-inc',
    'https://www.linkedin.com/company/acme.inc_2',
    'https://www.linkedin.com/company/1234567/',
    'HTTPS://WWW.LINKEDIN.COM/company/Acme',
  ])('accepts %s', (input) => {
    expect(isLinkedinCompanyUrl(input)).toBe(true);
  });

  it.each([
    ['personal profile', 'https://www.linkedin.com/in/jane-doe'],
    ['school page', 'https://www.linkedin.com/school/mit'],
    ['no slug', 'https://www.linkedin.com/company/'],
    ['no slug, no slash', 'https://www.linkedin.com/company'],
    ['LinkedIn home', 'https://www.linkedin.com/'],
    ['other site', 'https://example.com/company/acme'],
    ['look-alike host suffix', 'https://linkedin.com.evil.com/company/acme'],
    ['look-alike host prefix', 'https://evil-linkedin.com/company/acme'],
    ['other subdomain', 'https://evil.www.linkedin.com/company/acme'],
    ['other scheme', 'ftp://www.linkedin.com/company/acme'],
    ['sub-page', 'https://www.linkedin.com/company/acme/about'],
    ['space in the slug', 'https://www.linkedin.com/company/ac me'],
    ['two trailing slashes', 'https://www.linkedin.com/company/acme//'],
    ['javascript URL', 'javascript:alert(1)//linkedin.com/company/acme'],
    ['text before the URL', 'see https://www.linkedin.com/company/acme'],
    ['empty', ''],
  ])('rejects %s (%s)', (_what, input) => {
    expect(isLinkedinCompanyUrl(input)).toBe(false);
  });
});

describe('isHttpUrl', () => {
  it.each([
    'https://cdn.example.com/logo.png',
    'http://example.com/a.svg?v=2',
    'HTTPS://EXAMPLE.COM/x.png',
    'https://example.com',
    'https://example.com:8443/img/logo.webp#x',
  ])('accepts %s', (input) => {
    expect(isHttpUrl(input)).toBe(true);
  });

  it.each([
    ['ftp', 'ftp://example.com/logo.png'],
    ['no scheme', 'example.com/logo.png'],
    ['scheme-relative', '//example.com/logo.png'],
    ['relative path', '/logo.png'],
    ['javascript', 'javascript:alert(1)'],
    ['data URL', 'data:image/png;base64,iVBORw0KGgo='],
    ['mailto', 'mailto:someone@example.com'],
    ['scheme only', 'https://'],
    ['space after the scheme', 'https:// example.com/logo.png'],
    ['space in the path', 'https://example.com/my logo.png'],
    ['userinfo', 'https://user:pw@example.com/logo.png'],
    ['user only', 'https://user@example.com/logo.png'],
    ['plain text', 'not a url'],
    ['empty', ''],
  ])('rejects %s (%s)', (_what, input) => {
    expect(isHttpUrl(input)).toBe(false);
  });
});
