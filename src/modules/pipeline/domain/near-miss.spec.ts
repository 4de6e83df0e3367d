import { canonicalizeUrl } from '../../../shared/domain/canonical-url';
import { nearestTarget, NearMissCandidate, registeredDomain, urlParts } from './near-miss';

const canonical = (url: string) => canonicalizeUrl(url)!.canonical;
const pages = (...urls: string[]): NearMissCandidate[] => urls.map((url, i) => ({ id: `tpg_${i + 1}`, url: canonical(url) }));
const near = (visited: string, ...urls: string[]) => nearestTarget(canonical(visited), pages(...urls));

describe('urlParts', () => {
  it('splits a canonical URL into host name, port, path and query', () => {
    expect(urlParts('example.com')).toEqual({ name: 'example.com', port: '', path: '', query: '' });
    expect(urlParts('example.com:8080/a/b?x=1&y=2')).toEqual({ name: 'example.com', port: '8080', path: '/a/b', query: 'x=1&y=2' });
    expect(urlParts('example.com?x=1')).toEqual({ name: 'example.com', port: '', path: '', query: 'x=1' });
  });
});

describe('registeredDomain', () => {
  it.each([
    ['example.com', 'example.com'],
    ['www.example.com', 'example.com'],
    ['a.b.example.com', 'example.com'],
    ['www.example.co.uk', 'example.co.uk'],
    ['shop.example.com.au', 'example.com.au'],
    ['example.de', 'example.de'],
    ['www.abc.de', 'abc.de'],
    ['app.abc.io', 'abc.io'],
    ['10.0.0.1', '10.0.0.1'],
  ])('%s → %s', (name, domain) => expect(registeredDomain(name)).toBe(domain));
});

describe('nearestTarget', () => {
  it('names a host differing by www. (the visit to www.example.com/pricing against example.com/pricing)', () => {
    expect(near('https://www.example.com/pricing', 'example.com/pricing')).toEqual({
      id: 'tpg_1',
      url: 'example.com/pricing',
      differences: ['host'],
    });
    expect(near('https://example.com/pricing', 'www.example.com/pricing')?.differences).toEqual(['host']);
  });

  it('names another subdomain of the same registered domain, and a different port, as host differences', () => {
    expect(near('https://app.example.com/pricing', 'www.example.com/pricing')?.differences).toEqual(['host']);
    expect(near('https://example.com:8443/pricing', 'example.com/pricing')?.differences).toEqual(['host']);
    expect(near('https://www.example.co.uk/pricing', 'shop.example.co.uk/pricing')?.differences).toEqual(['host']);
  });

  it('ignores other sites, however similar their path', () => {
    expect(near('https://example.org/pricing', 'example.com/pricing')).toBeNull();
    expect(near('https://a.co.uk/pricing', 'b.co.uk/pricing')).toBeNull();
    expect(near('https://notexample.com/pricing', 'example.com/pricing')).toBeNull();
  });

  it('names a path differing in case, by one segment, or by one segment more or fewer', () => {
    expect(near('https://example.com/Pricing', 'example.com/pricing')?.differences).toEqual(['path']);
    expect(near('https://example.com/pricing/team', 'example.com/pricing')?.differences).toEqual(['path']);
    expect(near('https://example.com/pricing', 'example.com/pricing/team')?.differences).toEqual(['path']);
    expect(near('https://example.com/en/pricing', 'example.com/de/pricing')?.differences).toEqual(['path']);
    expect(near('https://example.com/', 'example.com/pricing')?.differences).toEqual(['path']);
  });

  it('ignores paths two or more segments apart', () => {
    expect(near('https://example.com/en/plans', 'example.com/de/pricing')).toBeNull();
    expect(near('https://example.com/pricing/team/annual', 'example.com/pricing')).toBeNull();
    expect(near('https://example.com/blog/pricing', 'example.com/pricing')).toBeNull();
  });

  it('names a query the page requires and the visit lacks, or the reverse', () => {
    expect(near('https://example.com/pricing', 'example.com/pricing?plan=pro')?.differences).toEqual(['query']);
    expect(near('https://example.com/pricing?plan=team', 'example.com/pricing?plan=pro')?.differences).toEqual(['query']);
    expect(near('https://example.com/pricing?ref=x', 'example.com/pricing')?.differences).toEqual(['query']);
  });

  it('lists up to two differences in the order host, path, query; three are not close', () => {
    expect(near('https://www.example.com/Pricing', 'example.com/pricing')?.differences).toEqual(['host', 'path']);
    expect(near('https://www.example.com/pricing?ref=x', 'example.com/pricing')?.differences).toEqual(['host', 'query']);
    expect(near('https://www.example.com/Pricing?ref=x', 'example.com/pricing')).toBeNull();
  });

  it('prefers fewer differences, then www. over another subdomain, then case over another segment, then the first candidate', () => {
    expect(near('https://www.example.com/pricing', 'example.com/plans', 'www.example.com/pricing?x=1', 'example.com/pricing')?.id).toBe(
      'tpg_2',
    );
    expect(near('https://www.example.com/pricing', 'app.example.com/pricing', 'example.com/pricing')?.id).toBe('tpg_2');
    expect(near('https://example.com/Pricing', 'example.com/plans', 'example.com/pricing')?.id).toBe('tpg_2');
    expect(near('https://example.com/pricing', 'example.com/pricing/a', 'example.com/pricing/b')?.id).toBe('tpg_1');
  });

  it('is null without candidates, and never names an identical URL (that would have matched)', () => {
    expect(near('https://example.com/pricing')).toBeNull();
    expect(near('https://example.com/pricing', 'example.com/pricing')).toBeNull();
  });
});
