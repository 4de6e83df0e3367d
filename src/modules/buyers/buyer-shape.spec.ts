import { companyInfoTemplate, conform, contactInfoTemplate, mergeKnown } from './buyer-shape';

describe('conform', () => {
  it('fills every field of the template when given nothing', () => {
    expect(conform(contactInfoTemplate(), undefined)).toEqual(contactInfoTemplate());
    expect(conform(companyInfoTemplate(), 'nonsense')).toEqual(companyInfoTemplate());
  });

  it('keeps values of the right type, trims text, and drops unknown keys and wrong types', () => {
    const out = conform(contactInfoTemplate(), {
      name: { first: '  Ana ', last: 42, nickname: 'A' },
      email: { work: 'ana@example.com', is_valid: 'yes' },
      social: { linkedin_followers: 12.7 },
      extra: 'dropped',
    });
    expect(out.name).toEqual({ first: 'Ana', middle: '', last: '' });
    expect(out.email).toEqual({ work: 'ana@example.com', is_valid: false });
    expect(out.social.linkedin_followers).toBe(12);
    expect(out).not.toHaveProperty('extra');
  });

  it('keeps only real YYYY-MM-DD funding dates, finite non-negative numbers and string lists', () => {
    const out = conform(companyInfoTemplate(), {
      latest_funding_round_date: '2025-13-40',
      employee_count: -5,
      annual_revenue: Number.POSITIVE_INFINITY,
      total_funding: 2.5e6,
      industries: ['Fintech', 3, ' ', ' Insurance '],
    });
    expect(out.latest_funding_round_date).toBe('');
    expect(out.employee_count).toBe(0);
    expect(out.annual_revenue).toBe(0);
    expect(out.total_funding).toBe(2.5e6);
    expect(out.industries).toEqual(['Fintech', 'Insurance']);
    expect(conform(companyInfoTemplate(), { latest_funding_round_date: '2025-03-14' }).latest_funding_round_date).toBe('2025-03-14');
  });

  it('is not fooled by prototype keys', () => {
    const out = conform(contactInfoTemplate(), JSON.parse('{"__proto__":{"photo_url":"x"},"constructor":{"a":1}}'));
    expect(out.photo_url).toBe('');
    expect(({} as Record<string, unknown>).photo_url).toBeUndefined();
  });
});

describe('mergeKnown', () => {
  it('lets the upper layer win only where it has a value', () => {
    const provider = conform(companyInfoTemplate(), {
      name: 'Acme Inc',
      employee_count: 500,
      industries: ['Software'],
      location: { city: 'Berlin' },
    });
    const hints = conform(companyInfoTemplate(), { name: 'Acme', location: { country: 'Germany' } });
    const merged = mergeKnown(provider, hints);
    expect(merged.name).toBe('Acme');
    expect(merged.employee_count).toBe(500);
    expect(merged.industries).toEqual(['Software']);
    expect(merged.location).toEqual({ ...companyInfoTemplate().location, city: 'Berlin', country: 'Germany' });
  });
});
