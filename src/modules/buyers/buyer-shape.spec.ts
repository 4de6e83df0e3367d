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
      social: { linkedin_followers: 12 },
      extra: 'dropped',
    });
    expect(out.name).toEqual({ first: 'Ana', middle: '', last: '' });
    expect(out.email).toEqual({ work: 'ana@example.com', is_valid: false });
    expect(out.social.linkedin_followers).toBe(12);
    expect(out).not.toHaveProperty('extra');
  });

  it('drops a count with a fraction, an impossible day and a time without its zone, instead of changing them', () => {
    const company = conform(companyInfoTemplate(), {
      founded_year: 1999.5,
      latest_funding_round_date: '2025-02-30',
    });
    expect(company.founded_year).toBe(0);
    expect(company.latest_funding_round_date).toBe('');
    expect(conform(companyInfoTemplate(), { latest_funding_round_date: '2024-02-29' }).latest_funding_round_date).toBe('2024-02-29');
    expect(conform(contactInfoTemplate(), { social: { linkedin_followers: 12.7 } }).social.linkedin_followers).toBe(0);
    const at = (started_at: string) => conform({ started_at: '' }, { started_at }).started_at;
    expect(at('2026-02-30T10:00:00Z')).toBe('');
    expect(at('2026-11-25T10:00:00')).toBe('');
    expect(at('2026-11-25T10:00:00+02:00')).toBe('2026-11-25T08:00:00Z');
    expect(at('2026-11-25T10:00:00.250Z')).toBe('2026-11-25T10:00:00Z');
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
