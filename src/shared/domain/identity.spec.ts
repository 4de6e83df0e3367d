import { createHash } from 'node:crypto';
import { domainOf, hemsOf, isSameOrSubdomain, normalizeEmail, normalizeHem, normalizeLinkedinProfile, resolveIdentity } from './identity';

describe('identity normalisation', () => {
  it('lowercases and checks emails', () => {
    expect(normalizeEmail('  Ana.Lopez@Example.COM ')).toBe('ana.lopez@example.com');
    for (const bad of ['ana', 'ana@', '@example.com', 'ana@example', 'a b@example.com', '', undefined]) {
      expect(normalizeEmail(bad)).toBeNull();
    }
  });

  it('reduces LinkedIn profile URLs to one form and refuses other LinkedIn pages', () => {
    for (const form of [
      'https://www.linkedin.com/in/Ana-Lopez/',
      'linkedin.com/in/ana-lopez',
      'http://de.linkedin.com/in/ana-lopez?trk=x',
    ]) {
      expect(normalizeLinkedinProfile(form)).toBe('linkedin.com/in/ana-lopez');
    }
    expect(normalizeLinkedinProfile('https://www.linkedin.com/company/acme')).toBeNull();
    expect(normalizeLinkedinProfile('https://example.com/in/ana')).toBeNull();
  });

  it('accepts hashed emails only as lowercase hex of the right length', () => {
    expect(normalizeHem({ type: 'sha256', value: 'A'.repeat(64) })).toEqual({ type: 'sha256', value: 'a'.repeat(64) });
    expect(normalizeHem({ type: 'md5', value: 'a'.repeat(64) })).toBeNull();
    expect(normalizeHem({ type: 'sha1', value: 'z'.repeat(40) })).toBeNull();
  });

  it('computes sha256, sha1 and md5 of the lowercased email', () => {
    const expected = ['sha256', 'sha1', 'md5'].map((type) => ({
      type,
      value: createHash(type).update('ana@example.com').digest('hex'),
    }));
    expect(hemsOf('Ana@Example.com')).toEqual(expected);
  });

  it('keys a person by email first, then LinkedIn, then hashed email, and nothing else', () => {
    expect(resolveIdentity({ email: 'ana@example.com', linkedin: 'linkedin.com/in/ana', hem: null, directoryEmail: null })).toMatchObject({
      personKey: 'email:ana@example.com',
      linkedin: 'https://www.linkedin.com/in/ana',
    });
    expect(resolveIdentity({ email: null, linkedin: 'linkedin.com/in/ana', hem: null, directoryEmail: 'ana@example.com' })?.personKey).toBe(
      'email:ana@example.com',
    );
    expect(resolveIdentity({ email: null, linkedin: 'linkedin.com/in/ana', hem: null, directoryEmail: null })?.personKey).toBe(
      'linkedin:linkedin.com/in/ana',
    );
    const hem = { type: 'sha256', value: 'b'.repeat(64) };
    expect(resolveIdentity({ email: null, linkedin: null, hem, directoryEmail: null })).toMatchObject({
      personKey: `sha256:${'b'.repeat(64)}`,
      hems: [hem],
    });
    expect(resolveIdentity({ email: null, linkedin: null, hem: null, directoryEmail: null })).toBeNull();
  });

  it('reads domains and subdomains', () => {
    expect(domainOf('https://WWW.Example.com:8443/x')).toBe('example.com');
    expect(domainOf('shop.example.com')).toBe('shop.example.com');
    expect(domainOf('')).toBe('');
    expect(isSameOrSubdomain('eu.shop.example.com', 'example.com')).toBe(true);
    expect(isSameOrSubdomain('example.com', 'example.com')).toBe(true);
    expect(isSameOrSubdomain('notexample.com', 'example.com')).toBe(false);
    expect(isSameOrSubdomain('', 'example.com')).toBe(false);
  });
});
