import { apiTimestamp, localToIso, snippet, toQuery } from './query';

describe('toQuery', () => {
  it('leaves out empty values and encodes the rest', () => {
    expect(toQuery({ type: 'website', trigger: undefined, cursor: '', limit: 20, buyer_id: null, q: 'a b&c' })).toBe(
      '?type=website&limit=20&q=a+b%26c',
    );
    expect(toQuery({})).toBe('');
  });
});

describe('localToIso', () => {
  it('turns a local date-time into a UTC timestamp the API takes (whole seconds)', () => {
    expect(localToIso('2025-01-31T09:30')).toBe(new Date('2025-01-31T09:30').toISOString().replace('.000Z', 'Z'));
    expect(localToIso('2025-01-31T09:30')).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });
  it('is undefined for empty or unreadable input', () => {
    expect(localToIso('')).toBeUndefined();
    expect(localToIso('soon')).toBeUndefined();
  });
});

describe('apiTimestamp', () => {
  it('drops the milliseconds the API refuses, rounding down', () => {
    expect(apiTimestamp(new Date('2026-03-02T10:00:05.987Z'))).toBe('2026-03-02T10:00:05Z');
    expect(apiTimestamp(new Date('2026-03-02T10:00:05Z'))).toBe('2026-03-02T10:00:05Z');
  });
});

describe('snippet', () => {
  it('keeps short text and cuts long text at a word', () => {
    expect(snippet('short  text')).toBe('short text');
    expect(snippet('one two three four five', 10)).toBe('one two…');
    expect(snippet('abcdefghijklmnop', 8)).toBe('abcdefgh…');
  });
});
