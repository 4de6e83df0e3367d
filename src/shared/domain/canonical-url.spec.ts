import { canonicalizeUrl, CanonicalUrl, CLICK_ID_FIELDS, MAX_URL_LENGTH, UTM_FIELDS } from './canonical-url';

/** The canonical form, failing the test (rather than returning null) when the input is rejected. */
function canon(input: string): string {
  const result = canonicalizeUrl(input);
  if (result === null) throw new Error(`expected ${JSON.stringify(input)} to be accepted`);
  return result.canonical;
}

function parsed(input: string): CanonicalUrl {
  const result = canonicalizeUrl(input);
  if (result === null) throw new Error(`expected ${JSON.stringify(input)} to be accepted`);
  return result;
}

const SPEC_CLICK_IDS = ['gclid', 'gbraid', 'wbraid', 'dclid', 'li_fat_id', 'msclkid', 'fbclid', 'ttclid', 'twclid'];
const SPEC_UTM = ['source', 'medium', 'campaign', 'term', 'content'];

/** Every tracking parameter named in DESIGN §1 (plus sample members of the `utm_*` and `hsa_*` families). */
const TRACKING_NAMES = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'utm_id',
  'utm_source_platform',
  'utm_anything',
  'gclid',
  'gbraid',
  'wbraid',
  'dclid',
  'li_fat_id',
  'msclkid',
  'fbclid',
  'ttclid',
  'twclid',
  'igshid',
  'yclid',
  'mc_cid',
  'mc_eid',
  '_hsenc',
  '_hsmi',
  'hsa_acc',
  'hsa_cam',
  'hsa_grp',
  'hsa_ad',
  'hsa_src',
  'hsa_tgt',
  'hsa_kw',
  'hsa_mt',
  'hsa_net',
  'hsa_ver',
  '_ga',
  '_gl',
];

describe('canonicalizeUrl', () => {
  describe('URLs that resolve to the same canonical page (spec: scheme, trailing slash, tracking parameters)', () => {
    const groups: Array<{ page: string; canonical: string; variants: string[] }> = [
      {
        page: 'a path page',
        canonical: 'example.com/pricing',
        variants: [
          'https://example.com/pricing',
          'http://example.com/pricing',
          'example.com/pricing',
          'https://example.com/pricing/',
          'http://example.com/pricing/',
          'example.com/pricing/',
          'example.com/pricing//',
          'HTTPS://EXAMPLE.COM/pricing',
          'Https://Example.Com/pricing/',
          'https://example.com/pricing#plans',
          'example.com/pricing/#plans',
          'https://example.com:443/pricing',
          'http://example.com:80/pricing/',
          'example.com:443/pricing',
          'https://example.com/pricing?utm_source=google&utm_medium=cpc',
          'https://example.com/pricing/?gclid=abc123',
          'example.com/pricing?fbclid=xyz',
          'http://example.com/pricing/?utm_campaign=spring&gclid=1&fbclid=2#top',
          'https://example.com/pricing?UTM_SOURCE=news&_ga=2.1234&_gl=1*abc',
          'https://example.com/pricing?',
          '  https://example.com/pricing  ',
        ],
      },
      {
        page: 'the site root',
        canonical: 'example.com',
        variants: [
          'example.com',
          'example.com/',
          'https://example.com',
          'https://example.com/',
          'http://EXAMPLE.com',
          'https://example.com/#section',
          'https://example.com/?utm_source=x',
          'https://example.com?msclkid=1',
          'http://example.com:80/',
        ],
      },
      {
        page: 'a page distinguished by query parameters',
        canonical: 'example.com/product?color=red&id=42',
        variants: [
          'https://example.com/product?id=42&color=red',
          'example.com/product/?color=red&id=42',
          'http://example.com/product?utm_source=x&id=42&gclid=1&color=red#reviews',
          'https://EXAMPLE.COM/product?id=42&hsa_acc=9&color=red&mc_cid=3',
          'example.com/product?id=42&&color=red',
        ],
      },
      {
        page: 'a page on a non-default port',
        canonical: 'example.com:8080/app/Home',
        variants: ['http://example.com:8080/app/Home', 'https://example.com:8080/app/Home/', 'EXAMPLE.com:8080/app/Home?utm_term=x#frag'],
      },
    ];

    describe.each(groups)('$page', ({ canonical, variants }) => {
      it.each(variants)('%s', (variant) => {
        expect(canon(variant)).toBe(canonical);
      });
    });

    it('keeps the groups apart from each other', () => {
      const canonicals = new Set(groups.flatMap((g) => g.variants.map(canon)));
      expect(canonicals.size).toBe(groups.length);
    });

    it('is idempotent: a canonical URL canonicalises to itself', () => {
      for (const variant of groups.flatMap((g) => g.variants)) {
        const once = canon(variant);
        expect(canon(once)).toBe(once);
      }
    });
  });

  describe('what distinguishes pages is kept', () => {
    it.each([
      ['path case', 'example.com/Pricing', 'example.com/pricing'],
      ['www. prefix', 'www.example.com/pricing', 'example.com/pricing'],
      ['subdomain', 'app.example.com/pricing', 'example.com/pricing'],
      ['extra path segment', 'example.com/pricing/enterprise', 'example.com/pricing'],
      ['query value', 'example.com/product?id=43', 'example.com/product?id=42'],
      ['extra query parameter', 'example.com/product?id=42&variant=b', 'example.com/product?id=42'],
      ['non-default port', 'example.com:8080/pricing', 'example.com/pricing'],
      ['encoded slash in the path', 'example.com/a%2Fb', 'example.com/a/b'],
      ['encoded slash in a value', 'example.com/p?next=%2Fhome', 'example.com/p?next=/home'],
      ['a non-tracking parameter that resembles one', 'example.com/p?utm=1', 'example.com/p'],
    ])('%s', (_what, a, b) => {
      expect(canon(a)).not.toBe(canon(b));
    });

    it('keeps the case of the path while lowercasing the host', () => {
      expect(canon('https://WWW.Example.COM/Docs/GettingStarted')).toBe('www.example.com/Docs/GettingStarted');
    });

    it('keeps the www. prefix', () => {
      expect(canon('https://www.example.com/')).toBe('www.example.com');
    });
  });

  describe('scheme', () => {
    it('drops http and https alike, in any letter case', () => {
      expect(canon('http://example.com/a')).toBe('example.com/a');
      expect(canon('https://example.com/a')).toBe('example.com/a');
      expect(canon('HTTP://example.com/a')).toBe('example.com/a');
      expect(canon('hTtPs://example.com/a')).toBe('example.com/a');
    });

    it('accepts the bare host/path form without a scheme', () => {
      expect(canon('example.com/pricing')).toBe('example.com/pricing');
      expect(canon('shop.example.co.uk/cart?step=2')).toBe('shop.example.co.uk/cart?step=2');
    });
  });

  describe('ports', () => {
    it.each([
      ['http://example.com:80/a', 'example.com/a'],
      ['https://example.com:443/a', 'example.com/a'],
      ['https://example.com:443', 'example.com'],
    ])('drops the default port in %s', (input, expected) => {
      expect(canon(input)).toBe(expected);
    });

    it.each([
      ['https://example.com:8443/a', 'example.com:8443/a'],
      ['http://example.com:8080', 'example.com:8080'],
      ['example.com:3000/x', 'example.com:3000/x'],
      ['http://example.com:1/', 'example.com:1'],
      ['http://example.com:65535/', 'example.com:65535'],
    ])('keeps another port in %s', (input, expected) => {
      expect(canon(input)).toBe(expected);
    });
  });

  describe('fragment and trailing slash', () => {
    it('drops the fragment, even one that looks like a query', () => {
      expect(canon('https://example.com/a#b')).toBe('example.com/a');
      expect(canon('https://example.com/a#b?c=1')).toBe('example.com/a');
      expect(canon('https://example.com/a?x=1#b')).toBe('example.com/a?x=1');
    });

    it('drops a trailing slash of the path, also before a query', () => {
      expect(canon('https://example.com/a/b/')).toBe('example.com/a/b');
      expect(canon('https://example.com/a/b/?x=1')).toBe('example.com/a/b?x=1');
    });

    it('reduces the root to the bare host', () => {
      expect(canon('https://example.com/')).toBe('example.com');
      expect(canon('https://example.com/?q=1')).toBe('example.com?q=1');
    });

    it('keeps slashes inside the path', () => {
      expect(canon('https://example.com/a//b/')).toBe('example.com/a//b');
    });
  });

  describe('tracking parameters', () => {
    it.each(TRACKING_NAMES)('drops %s', (name) => {
      expect(canon(`https://example.com/p?keep=1&${name}=v`)).toBe('example.com/p?keep=1');
      expect(canon(`https://example.com/p?${name}=v&keep=1`)).toBe('example.com/p?keep=1');
    });

    it.each(TRACKING_NAMES)('drops %s in upper case', (name) => {
      expect(canon(`https://example.com/p?${name.toUpperCase()}=v&keep=1`)).toBe('example.com/p?keep=1');
    });

    it('drops tracking parameters in mixed case and without a value', () => {
      expect(canon('https://example.com/p?Utm_Source=a&Gclid=b&Hsa_Cam=c&keep=1')).toBe('example.com/p?keep=1');
      expect(canon('https://example.com/p?utm_source&gclid=&keep=1')).toBe('example.com/p?keep=1');
    });

    it('drops every tracking parameter at once, leaving no query', () => {
      const query = TRACKING_NAMES.map((name, i) => `${name}=${i}`).join('&');
      expect(canon(`https://example.com/landing?${query}`)).toBe('example.com/landing');
    });

    it.each(['utm', 'utmsource', 'xutm_source', 'gclid2', 'fbclid_', 'ga', '_gac', 'hsa', 'ref', 'id', 'page', 'q', 'source'])(
      'keeps the non-tracking parameter %s',
      (name) => {
        expect(canon(`https://example.com/p?${name}=v`)).toBe(`example.com/p?${name}=v`);
      },
    );
  });

  describe('remaining query parameters', () => {
    it('are sorted by name', () => {
      expect(canon('https://example.com/p?z=1&a=2&m=3')).toBe('example.com/p?a=2&m=3&z=1');
    });

    it('keep their received order for repeated names (stable sort)', () => {
      expect(canon('https://example.com/p?b=1&a=2&a=1&b=0&a=3')).toBe('example.com/p?a=2&a=1&a=3&b=1&b=0');
      expect(canon('https://example.com/p?tag=z&tag=a')).toBe('example.com/p?tag=z&tag=a');
    });

    it('give the same result for any received order of distinct names', () => {
      const a = canon('example.com/s?q=shoes&page=2&sort=price');
      expect(canon('example.com/s?sort=price&q=shoes&page=2')).toBe(a);
      expect(canon('example.com/s?page=2&sort=price&q=shoes')).toBe(a);
    });

    it('keep parameters without a value', () => {
      expect(canon('https://example.com/p?b&a=')).toBe('example.com/p?a=&b');
    });

    it('are neither decoded nor re-encoded (%2F stays %2F)', () => {
      expect(canon('https://example.com/p?next=%2Fhome%2Fx&a=b+c')).toBe('example.com/p?a=b+c&next=%2Fhome%2Fx');
      expect(canon('https://example.com/p?q=a%26b&r=%20')).toBe('example.com/p?q=a%26b&r=%20');
      expect(canon('https://example.com/p?redirect=https://other.com/x')).toBe('example.com/p?redirect=https://other.com/x');
    });

    it('leave the path encoding untouched (%2F stays %2F)', () => {
      expect(canon('https://example.com/files/a%2Fb/c')).toBe('example.com/files/a%2Fb/c');
      expect(canon('https://example.com/caf%C3%A9')).toBe('example.com/caf%C3%A9');
    });
  });

  describe('utm and clickIds', () => {
    it('have exactly the fields of the Signal utm and click_ids objects', () => {
      const result = parsed('https://example.com/');
      expect(Object.keys(result.utm).sort()).toEqual([...SPEC_UTM].sort());
      expect(Object.keys(result.clickIds).sort()).toEqual([...SPEC_CLICK_IDS].sort());
      expect([...UTM_FIELDS].sort()).toEqual([...SPEC_UTM].sort());
      expect([...CLICK_ID_FIELDS].sort()).toEqual([...SPEC_CLICK_IDS].sort());
    });

    it('are empty utm strings and null click ids when absent', () => {
      const result = parsed('https://example.com/pricing?plan=pro');
      for (const field of SPEC_UTM) expect(result.utm[field as keyof typeof result.utm]).toBe('');
      for (const field of SPEC_CLICK_IDS) expect(result.clickIds[field as keyof typeof result.clickIds]).toBeNull();
    });

    it('carry the values of the stripped utm_* parameters', () => {
      const result = parsed('https://example.com/p?utm_source=google&utm_medium=cpc&utm_campaign=spring&utm_term=crm&utm_content=ad1&x=1');
      expect(result.utm).toEqual({ source: 'google', medium: 'cpc', campaign: 'spring', term: 'crm', content: 'ad1' });
      expect(result.canonical).toBe('example.com/p?x=1');
    });

    it('read utm_* names case-insensitively and decode their values', () => {
      const result = parsed('https://example.com/p?UTM_Source=news%20letter&utm_MEDIUM=e%2Fmail&utm_campaign=a+b');
      expect(result.utm.source).toBe('news letter');
      expect(result.utm.medium).toBe('e/mail');
      expect(result.utm.campaign).toBe('a b');
    });

    it.each(SPEC_CLICK_IDS)('carries the value of the click id %s', (name) => {
      const result = parsed(`https://example.com/p?${name}=Cj0KCQ%3D%3D&keep=1`);
      expect(result.clickIds[name as keyof typeof result.clickIds]).toBe('Cj0KCQ==');
      for (const other of SPEC_CLICK_IDS.filter((n) => n !== name)) {
        expect(result.clickIds[other as keyof typeof result.clickIds]).toBeNull();
      }
      expect(result.canonical).toBe('example.com/p?keep=1');
    });

    it('read click ids case-insensitively', () => {
      const result = parsed('https://example.com/?GCLID=abc&FbClId=def');
      expect(result.clickIds.gclid).toBe('abc');
      expect(result.clickIds.fbclid).toBe('def');
    });

    it('report an empty click id as an empty string, not as absent', () => {
      expect(parsed('https://example.com/?gclid=').clickIds.gclid).toBe('');
    });

    it('do not report other tracking parameters as click ids or utm fields', () => {
      const result = parsed('https://example.com/?igshid=1&yclid=2&mc_cid=3&_ga=4&hsa_cam=5&utm_id=6');
      for (const field of SPEC_CLICK_IDS) expect(result.clickIds[field as keyof typeof result.clickIds]).toBeNull();
      for (const field of SPEC_UTM) expect(result.utm[field as keyof typeof result.utm]).toBe('');
    });
  });

  describe('domain and path', () => {
    it('domain is the lowercase host without port, www. kept', () => {
      expect(parsed('https://WWW.Example.com:8443/x').domain).toBe('www.example.com');
      expect(parsed('Shop.Example.CO.UK/cart').domain).toBe('shop.example.co.uk');
    });

    it('path is "/" for the root', () => {
      expect(parsed('https://example.com').path).toBe('/');
      expect(parsed('https://example.com/').path).toBe('/');
      expect(parsed('example.com?x=1').path).toBe('/');
    });

    it('path keeps its case and excludes query and fragment', () => {
      expect(parsed('https://Example.com/Docs/API?x=1#top').path).toBe('/Docs/API');
    });
  });

  describe('rejections (null)', () => {
    it.each([
      ['ftp scheme', 'ftp://example.com/file.txt'],
      ['file scheme', 'file:///etc/passwd'],
      ['javascript: URL', 'javascript:alert(1)'],
      ['javascript: URL with a host-like tail', 'javascript://example.com/%0Aalert(1)'],
      ['mailto: URL', 'mailto:someone@example.com'],
      ['data: URL', 'data:text/html,hello'],
      ['websocket scheme', 'wss://example.com/socket'],
      ['scheme-relative URL', '//example.com/pricing'],
      ['path only', '/pricing'],
      ['host without a dot', 'localhost'],
      ['host without a dot, with scheme and port', 'http://localhost:3000/x'],
      ['intranet host', 'intranet/page'],
      ['empty string', ''],
      ['whitespace only', '   '],
      ['space in the host', 'https://exa mple.com/'],
      ['space in the path', 'https://example.com/a b'],
      ['tab in the path', 'example.com/a\tb'],
      ['newline', 'https://example.com/a\nb'],
      ['userinfo', 'https://user@example.com/'],
      ['userinfo with password', 'https://user:pass@example.com/'],
      ['bare userinfo form', 'user@example.com/page'],
      ['non-numeric port', 'https://example.com:abc/'],
      ['empty port', 'https://example.com:/x'],
      ['port 0', 'https://example.com:0/'],
      ['port above 65535', 'https://example.com:65536/'],
      ['port far too large', 'https://example.com:99999'],
      ['negative port', 'example.com:-1/x'],
      ['over 2048 characters', `https://example.com/${'a'.repeat(MAX_URL_LENGTH)}`],
    ])('%s', (_what, input) => {
      expect(canonicalizeUrl(input)).toBeNull();
    });

    it('accepts exactly 2048 characters and rejects 2049', () => {
      const prefix = 'https://example.com/';
      const atLimit = prefix + 'a'.repeat(2048 - prefix.length);
      expect(atLimit).toHaveLength(2048);
      expect(canonicalizeUrl(atLimit)).not.toBeNull();
      expect(canonicalizeUrl(atLimit + 'a')).toBeNull();
    });
  });
});

describe('canonicalizeUrl: names and paths outside ASCII', () => {
  it('reads an internationalised host as its ASCII name, as a browser connects to it', () => {
    expect(canonicalizeUrl('https://bücher.de/a')?.canonical).toBe('xn--bcher-kva.de/a');
    expect(canonicalizeUrl('https://bücher.de/a')?.canonical).toBe(canonicalizeUrl('xn--bcher-kva.de/a/')?.canonical);
  });

  it('gives one form to a path written with its characters and with their escapes; escapes stay as written', () => {
    const forms = ['https://example.com/café', 'https://example.com/caf%C3%A9', 'https://example.com/caf%c3%a9'].map(
      (url) => canonicalizeUrl(url)?.canonical,
    );
    expect(forms).toEqual(['example.com/caf%C3%A9', 'example.com/caf%C3%A9', 'example.com/caf%c3%a9']);
    expect(canonicalizeUrl('example.com/a?b=ü')?.canonical).toBe('example.com/a?b=%C3%BC');
  });
});
