import { containsPhrase, joinList, PhraseIndex, stem, stems, tokenize } from './text';

describe('stem', () => {
  it.each([
    ['agencies', 'agency'],
    ['consultancies', 'consultancy'],
    ['ctos', 'cto'],
    ['vps', 'vp'],
    ['heads', 'head'],
    ['nonprofits', 'nonprofit'],
    ['business', 'business'],
    ['sales', 'sales'],
    ['saas', 'saas'],
    ['series', 'series'],
    ['us', 'us'],
    ['b2b', 'b2b'],
  ])('%s → %s', (word, expected) => {
    expect(stem(word)).toBe(expected);
  });
});

describe('tokenize', () => {
  it('lowercases, strips accents, splits on punctuation and keeps capitals visible', () => {
    const tokens = tokenize('Österreich, the US & Café-Bar.');
    expect(tokens.map((t) => t.word)).toEqual(['osterreich', ',', 'the', 'us', 'and', 'cafe', 'bar', '.']);
    expect(tokens.find((t) => t.word === 'us')?.upper).toBe(true);
    expect(tokens.filter((t) => t.boundary).map((t) => t.word)).toEqual([',', '.']);
  });

  it('never throws on odd input', () => {
    for (const input of ['', '\u0000', '\ud800', '🙂🙂', '...', 'a'.repeat(10_000)]) expect(() => tokenize(input)).not.toThrow();
  });
});

describe('containsPhrase', () => {
  it('matches whole consecutive words only', () => {
    expect(containsPhrase(stems('Director of Finance'), ['director'])).toBe(true);
    expect(containsPhrase(stems('Director'), ['cto'])).toBe(false);
    expect(containsPhrase(stems('Marketing and Advertising'), stems('and advertising'))).toBe(true);
    expect(containsPhrase(stems('Marketing'), [])).toBe(false);
  });
});

describe('PhraseIndex', () => {
  const index = new PhraseIndex<string>('stem').add('security', 'short').add('computer and network security', 'long').add('US', 'us', true);

  it('prefers the longest phrase and consumes its words', () => {
    const tokens = tokenize('Computer & Network Security, security');
    expect(index.scan(tokens).map((h) => h.value)).toEqual(['long', 'short']);
  });

  it('honours capitals-only entries in strict scans', () => {
    expect(index.scan(tokenize('sell to us'), { strictCase: true })).toEqual([]);
    expect(index.scan(tokenize('sell to the US'), { strictCase: true }).map((h) => h.value)).toEqual(['us']);
  });

  it('does not match across punctuation', () => {
    expect(index.scan(tokenize('computer and network. security')).map((h) => h.value)).toEqual(['short']);
  });
});

describe('joinList', () => {
  it('joins like a sentence and shortens long lists', () => {
    expect(joinList([])).toBe('');
    expect(joinList(['a'])).toBe('a');
    expect(joinList(['a', 'b'])).toBe('a and b');
    expect(joinList(['a', 'b', 'c'], 'or')).toBe('a, b or c');
    expect(joinList(['1', '2', '3', '4'], 'and', 2)).toBe('1, 2 and 2 more');
  });
});
