import { sourcesOf, withSources } from './buyer-evaluation';
import { companyInfoTemplate, conform, mergeKnown } from './buyer-shape';

const DIRECTORY = { type: 'enrichment', provider: 'directory' } as const;
const ACTIVITY = { type: 'activity', activity_id: '7' } as const;

describe('sourcesOf', () => {
  it('attributes every known leaf, and no empty text, zero, false or empty list', () => {
    const company = conform(companyInfoTemplate(), { name: 'Acme', employee_count: 40, industries: [], location: { country: 'Germany' } });
    expect(sourcesOf({ company_info: company }, '', DIRECTORY)).toEqual({
      'company_info.name': DIRECTORY,
      'company_info.employee_count': DIRECTORY,
      'company_info.location.country': DIRECTORY,
    });
  });

  it('follows mergeKnown: the later known value and its source win, an empty one keeps the earlier', () => {
    const provider = conform(companyInfoTemplate(), { name: 'Acme Inc', employee_count: 40 });
    const hints = conform(companyInfoTemplate(), { name: 'Acme', employee_count: 0 });
    const merged = mergeKnown(provider, hints);
    const sources = sourcesOf(hints, 'company_info', ACTIVITY, sourcesOf(provider, 'company_info', DIRECTORY));
    expect(merged).toMatchObject({ name: 'Acme', employee_count: 40 });
    expect(sources).toEqual({ 'company_info.name': ACTIVITY, 'company_info.employee_count': DIRECTORY });
  });
});

describe('withSources', () => {
  const side = {
    matched: true,
    id: '1',
    name: 'ICP',
    reasoning: '…',
    profile: { id: '1', name: 'ICP' },
    criteria: [
      {
        kind: 'country',
        label: 'country',
        status: 'pass' as const,
        expected: 'Germany',
        value: 'Germany',
        fields: ['contact_info.location.country', 'company_info.location.country'],
      },
      {
        kind: 'employees',
        label: 'employees',
        status: 'unknown' as const,
        expected: '50–1,000',
        value: '',
        fields: ['company_info.employee_count'],
      },
    ],
  };

  it('takes the source of the first field that has one, drops the fields, and gives an empty value no source', () => {
    const sources = { 'company_info.location.country': DIRECTORY, 'company_info.employee_count': ACTIVITY };
    expect(withSources(side, sources).criteria).toEqual([
      { kind: 'country', label: 'country', status: 'pass', expected: 'Germany', value: 'Germany', source: DIRECTORY },
      { kind: 'employees', label: 'employees', status: 'unknown', expected: '50–1,000', value: '', source: null },
    ]);
  });

  it('leaves an engine without rows as it is', () => {
    const { criteria: _criteria, profile: _profile, ...bare } = side;
    expect(withSources(bare, {})).toEqual(bare);
  });
});
