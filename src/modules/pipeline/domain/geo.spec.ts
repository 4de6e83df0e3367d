import { resolveCountry, resolvePlace, scanPlaces } from './geo';
import { tokenize } from './text';

describe('resolveCountry (a Buyer country field)', () => {
  it.each([
    ['United Kingdom', 'GB'],
    ['UK', 'GB'],
    ['Great Britain', 'GB'],
    ['England', 'GB'],
    ['gbr', 'GB'],
    ['United States', 'US'],
    ['USA', 'US'],
    ['us', 'US'],
    ['Germany', 'DE'],
    ['Deutschland', 'DE'],
    ['DE', 'DE'],
    ['The Netherlands', 'NL'],
    ['Berlin, Germany', 'DE'],
    ['Northern Ireland', 'GB'],
    ['Ireland', 'IE'],
    ['Côte d’Ivoire', 'CI'],
  ])('%s → %s', (value, iso) => {
    expect(resolveCountry(value)).toBe(iso);
  });

  it('gives null for nothing or no country', () => {
    expect(resolveCountry('')).toBeNull();
    expect(resolveCountry('Atlantis')).toBeNull();
  });
});

describe('regions', () => {
  const countriesOf = (text: string) => resolvePlace(text)?.countries ?? [];

  it('expands regions to their countries', () => {
    expect(countriesOf('DACH')).toEqual(['DE', 'AT', 'CH']);
    expect(countriesOf('Nordics')).toEqual(expect.arrayContaining(['DK', 'FI', 'IS', 'NO', 'SE']));
    expect(countriesOf('North America')).toEqual(['US', 'CA']);
    expect(countriesOf('EU')).toContain('FR');
    expect(countriesOf('EU')).not.toContain('GB');
    expect(countriesOf('Europe')).toEqual(expect.arrayContaining(['GB', 'CH', 'DE']));
    expect(countriesOf('APAC')).toEqual(expect.arrayContaining(['AU', 'SG', 'JP', 'IN']));
    expect(countriesOf('LATAM')).toEqual(expect.arrayContaining(['BR', 'MX', 'AR']));
  });
});

describe('scanPlaces (running text)', () => {
  const scan = (text: string) => {
    const tokens = tokenize(text);
    return scanPlaces(tokens, new Array<boolean>(tokens.length).fill(false), true).flatMap((p) => p.countries);
  };

  it('reads "US" only in capitals, where it cannot be the pronoun', () => {
    expect(scan('companies like us in Germany')).toEqual(['DE']);
    expect(scan('companies in the US or UK')).toEqual(['US', 'GB']);
  });

  it('prefers the longest name', () => {
    expect(scan('based in Northern Ireland')).toEqual(['GB']);
    expect(scan('Latin America')).toContain('BR');
  });
});
