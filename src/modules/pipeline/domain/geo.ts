/**
 * Countries and regions. Every place resolves to ISO 3166-1 alpha-2 codes, so "United Kingdom",
 * "UK", "Great Britain" and "England" in a description or in a Buyer's data are the same country,
 * and a region ("DACH", "Nordics", "APAC") is simply the set of its countries.
 */
import { PhraseIndex, Token, tokenize } from './text';
import { AMBIGUOUS_STATE_NAMES, STATE_GROUPS, STATES } from './vocabulary/states';

/** `ISO2|ISO3|English name|alias;alias…` — aliases include adjectives a description might use ("German fintechs"). */
const COUNTRIES = `
AD|AND|Andorra
AE|ARE|United Arab Emirates|UAE;Emirates
AF|AFG|Afghanistan
AG|ATG|Antigua and Barbuda
AL|ALB|Albania
AM|ARM|Armenia
AO|AGO|Angola
AR|ARG|Argentina|Argentinian;Argentine
AT|AUT|Austria|Osterreich;Austrian
AU|AUS|Australia|Australian
AW|ABW|Aruba
AX|ALA|Aland Islands|Aland
AZ|AZE|Azerbaijan
BA|BIH|Bosnia and Herzegovina|Bosnia
BB|BRB|Barbados
BD|BGD|Bangladesh
BE|BEL|Belgium|Belgique;Belgie;Belgian
BF|BFA|Burkina Faso
BG|BGR|Bulgaria|Bulgarian
BH|BHR|Bahrain
BI|BDI|Burundi
BJ|BEN|Benin
BM|BMU|Bermuda
BN|BRN|Brunei|Brunei Darussalam
BO|BOL|Bolivia
BR|BRA|Brazil|Brasil;Brazilian
BS|BHS|Bahamas|The Bahamas
BT|BTN|Bhutan
BW|BWA|Botswana
BY|BLR|Belarus
BZ|BLZ|Belize
CA|CAN|Canada|Canadian
CD|COD|Democratic Republic of the Congo|DR Congo;DRC;Congo Kinshasa
CF|CAF|Central African Republic
CG|COG|Republic of the Congo|Congo;Congo Brazzaville
CH|CHE|Switzerland|Schweiz;Suisse;Svizzera;Swiss
CI|CIV|Cote d'Ivoire|Ivory Coast
CL|CHL|Chile|Chilean
CM|CMR|Cameroon
CN|CHN|China|PRC;People's Republic of China;Mainland China;Chinese
CO|COL|Colombia|Colombian
CR|CRI|Costa Rica
CU|CUB|Cuba
CV|CPV|Cape Verde|Cabo Verde
CW|CUW|Curacao
CY|CYP|Cyprus
CZ|CZE|Czech Republic|Czechia;Czech
DE|DEU|Germany|Deutschland;German
DJ|DJI|Djibouti
DK|DNK|Denmark|Danmark;Danish
DM|DMA|Dominica
DO|DOM|Dominican Republic
DZ|DZA|Algeria
EC|ECU|Ecuador
EE|EST|Estonia|Estonian
EG|EGY|Egypt
ER|ERI|Eritrea
ES|ESP|Spain|Espana;Spanish
ET|ETH|Ethiopia
FI|FIN|Finland|Suomi;Finnish
FJ|FJI|Fiji
FM|FSM|Micronesia
FO|FRO|Faroe Islands
FR|FRA|France|French
GA|GAB|Gabon
GB|GBR|United Kingdom|UK;Great Britain;Britain;British;England;Scotland;Wales;Northern Ireland;United Kingdom of Great Britain and Northern Ireland
GD|GRD|Grenada
GE|GEO|Georgia
GG|GGY|Guernsey
GH|GHA|Ghana
GI|GIB|Gibraltar
GL|GRL|Greenland
GM|GMB|Gambia|The Gambia
GN|GIN|Guinea
GQ|GNQ|Equatorial Guinea
GR|GRC|Greece|Hellas;Greek
GT|GTM|Guatemala
GW|GNB|Guinea Bissau
GY|GUY|Guyana
HK|HKG|Hong Kong
HN|HND|Honduras
HR|HRV|Croatia|Hrvatska
HT|HTI|Haiti
HU|HUN|Hungary|Hungarian
ID|IDN|Indonesia|Indonesian
IE|IRL|Ireland|Republic of Ireland;Eire;Irish
IL|ISR|Israel|Israeli
IM|IMN|Isle of Man
IN|IND|India|Indian
IQ|IRQ|Iraq
IR|IRN|Iran
IS|ISL|Iceland
IT|ITA|Italy|Italia;Italian
JE|JEY|Jersey
JM|JAM|Jamaica
JO|JOR|Jordan
JP|JPN|Japan|Japanese
KE|KEN|Kenya
KG|KGZ|Kyrgyzstan
KH|KHM|Cambodia
KI|KIR|Kiribati
KM|COM|Comoros
KN|KNA|Saint Kitts and Nevis
KP|PRK|North Korea
KR|KOR|South Korea|Korea;Republic of Korea;Korean
KW|KWT|Kuwait
KY|CYM|Cayman Islands
KZ|KAZ|Kazakhstan
LA|LAO|Laos
LB|LBN|Lebanon
LC|LCA|Saint Lucia
LI|LIE|Liechtenstein
LK|LKA|Sri Lanka
LR|LBR|Liberia
LS|LSO|Lesotho
LT|LTU|Lithuania|Lithuanian
LU|LUX|Luxembourg
LV|LVA|Latvia|Latvian
LY|LBY|Libya
MA|MAR|Morocco
MC|MCO|Monaco
MD|MDA|Moldova
ME|MNE|Montenegro
MG|MDG|Madagascar
MH|MHL|Marshall Islands
MK|MKD|North Macedonia|Macedonia
ML|MLI|Mali
MM|MMR|Myanmar|Burma
MN|MNG|Mongolia
MO|MAC|Macau|Macao
MR|MRT|Mauritania
MT|MLT|Malta
MU|MUS|Mauritius
MV|MDV|Maldives
MW|MWI|Malawi
MX|MEX|Mexico|Mexican
MY|MYS|Malaysia|Malaysian
MZ|MOZ|Mozambique
NA|NAM|Namibia
NC|NCL|New Caledonia
NE|NER|Niger
NG|NGA|Nigeria|Nigerian
NI|NIC|Nicaragua
NL|NLD|Netherlands|The Netherlands;Holland;Nederland;Dutch
NO|NOR|Norway|Norge;Norwegian
NP|NPL|Nepal
NR|NRU|Nauru
NZ|NZL|New Zealand
OM|OMN|Oman
PA|PAN|Panama
PE|PER|Peru|Peruvian
PF|PYF|French Polynesia
PG|PNG|Papua New Guinea
PH|PHL|Philippines|Filipino
PK|PAK|Pakistan
PL|POL|Poland|Polska;Polish
PR|PRI|Puerto Rico
PS|PSE|Palestine
PT|PRT|Portugal|Portuguese
PW|PLW|Palau
PY|PRY|Paraguay
QA|QAT|Qatar
RE|REU|Reunion
RO|ROU|Romania|Romanian
RS|SRB|Serbia
RU|RUS|Russia|Russian Federation
RW|RWA|Rwanda
SA|SAU|Saudi Arabia|KSA;Saudi
SB|SLB|Solomon Islands
SC|SYC|Seychelles
SD|SDN|Sudan
SE|SWE|Sweden|Sverige;Swedish
SG|SGP|Singapore|Singaporean
SI|SVN|Slovenia
SK|SVK|Slovakia
SL|SLE|Sierra Leone
SM|SMR|San Marino
SN|SEN|Senegal
SO|SOM|Somalia
SR|SUR|Suriname
SS|SSD|South Sudan
ST|STP|Sao Tome and Principe
SV|SLV|El Salvador
SY|SYR|Syria
SZ|SWZ|Eswatini|Swaziland
TD|TCD|Chad
TG|TGO|Togo
TH|THA|Thailand|Thai
TJ|TJK|Tajikistan
TL|TLS|Timor Leste|East Timor
TM|TKM|Turkmenistan
TN|TUN|Tunisia
TO|TON|Tonga
TR|TUR|Turkey|Turkiye;Turkish
TT|TTO|Trinidad and Tobago
TV|TUV|Tuvalu
TW|TWN|Taiwan
TZ|TZA|Tanzania
UA|UKR|Ukraine|Ukrainian
UG|UGA|Uganda
US|USA|United States|USA;United States of America;America;American;the States
UY|URY|Uruguay
UZ|UZB|Uzbekistan
VA|VAT|Vatican City|Holy See;Vatican
VC|VCT|Saint Vincent and the Grenadines
VE|VEN|Venezuela
VG|VGB|British Virgin Islands
VN|VNM|Vietnam|Viet Nam;Vietnamese
VU|VUT|Vanuatu
WS|WSM|Samoa
XK|XKX|Kosovo
YE|YEM|Yemen
ZA|ZAF|South Africa|South African
ZM|ZMB|Zambia
ZW|ZWE|Zimbabwe
`;

interface Country {
  iso2: string;
  iso3: string;
  name: string;
  aliases: string[];
}

const COUNTRY_LIST: Country[] = COUNTRIES.trim()
  .split('\n')
  .map((line) => {
    const [iso2, iso3, name, aliases = ''] = line.split('|');
    return { iso2, iso3, name, aliases: aliases ? aliases.split(';') : [] };
  });

const BY_ISO2 = new Map(COUNTRY_LIST.map((c) => [c.iso2, c]));
const BY_CODE = new Map<string, string>();
for (const c of COUNTRY_LIST) {
  BY_CODE.set(c.iso2.toLowerCase(), c.iso2);
  BY_CODE.set(c.iso3.toLowerCase(), c.iso2);
}
BY_CODE.set('uk', 'GB');

const EU = 'AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE';
const NORDICS = 'DK FI IS NO SE FO GL AX';
const CEE = 'PL CZ SK HU RO BG HR SI EE LV LT RS BA ME MK AL UA MD XK';
const EUROPE = `${EU} GB NO CH IS LI MC AD SM VA GI IM JE GG FO AX AL BA ME MK RS XK MD UA BY RU`;
const MIDDLE_EAST = 'AE SA QA KW BH OM IL JO LB IQ IR SY YE PS TR EG';
const AFRICA =
  'DZ AO BJ BW BF BI CV CM CF TD KM CD CG CI DJ EG GQ ER SZ ET GA GM GH GN GW KE LS LR LY MG MW ML MR MU MA MZ NA NE NG RW ST SN SC SL SO ZA SS SD TZ TG TN UG ZM ZW RE';
const SOUTH_AMERICA = 'AR BO BR CL CO EC GY PY PE SR UY VE';
const CENTRAL_AMERICA = 'BZ CR SV GT HN NI PA';
const CARIBBEAN = 'CU DO HT JM PR TT BS BB AG DM GD KN LC VC AW CW KY VG BM';
const LATAM = `MX ${CENTRAL_AMERICA} ${SOUTH_AMERICA} CU DO PR`;
const SOUTHEAST_ASIA = 'SG MY TH ID PH VN KH LA MM BN TL';
const EAST_ASIA = 'CN JP KR KP MN TW HK MO';
const SOUTH_ASIA = 'IN PK BD LK NP BT MV AF';
const OCEANIA = 'AU NZ FJ PG SB VU WS TO KI FM MH PW NR TV NC PF';
const APAC = `${EAST_ASIA} ${SOUTHEAST_ASIA} ${SOUTH_ASIA} ${OCEANIA}`;

/** Region names as people write them; a region expands to its countries. */
const REGIONS: Array<[string[], string]> = [
  [['EU', 'E.U', 'European Union', 'EU27', 'EU 27'], EU],
  [['Europe', 'European', 'Europe wide'], EUROPE],
  [['EEA', 'European Economic Area'], `${EU} IS LI NO`],
  [['EMEA'], `${EUROPE} ${MIDDLE_EAST} ${AFRICA}`],
  [['DACH', 'D A CH', 'DACH region'], 'DE AT CH'],
  [['Nordics', 'Nordic', 'Nordic countries', 'Nordic region'], NORDICS],
  [['Scandinavia', 'Scandinavian'], 'DK NO SE'],
  [['Benelux'], 'BE NL LU'],
  [['Baltics', 'Baltic', 'Baltic states'], 'EE LV LT'],
  [['Iberia', 'Iberian', 'Iberian Peninsula'], 'ES PT'],
  [['UK and Ireland', 'UK and I', 'UKI', 'British Isles'], 'GB IE'],
  // As sellers use it, the counterpart of Eastern Europe: the EU's fifteen older members and their
  // western neighbours, Spain and Italy included (not the UN's narrower region).
  [['Western Europe'], 'AT BE DK FI FR DE GR IE IT LU NL PT ES SE GB CH NO IS LI MC AD SM VA MT'],
  [['Northern Europe'], `${NORDICS} EE LV LT GB IE`],
  [['Southern Europe'], 'ES PT IT GR MT CY AD SM VA'],
  [['Central Europe'], 'DE AT CH PL CZ SK HU SI LI'],
  [['Eastern Europe'], `${CEE} BY RU`],
  [['CEE', 'Central and Eastern Europe', 'Central Eastern Europe'], CEE],
  // Mexico only when a description names it: most readers mean the US and Canada.
  [['North America', 'North American', 'Northern America', 'NA region', 'NAMER', 'NORAM'], 'US CA'],
  [['LATAM', 'Latin America', 'Latin American', 'LAC'], LATAM],
  [['South America', 'South American'], SOUTH_AMERICA],
  [['Central America'], CENTRAL_AMERICA],
  [['Caribbean'], CARIBBEAN],
  [['Americas', 'The Americas', 'AMER'], `US CA ${LATAM} ${CARIBBEAN}`],
  [['APAC', 'Asia Pacific', 'Asia and Pacific', 'AsiaPac', 'APJ'], APAC],
  [['Asia', 'Asian'], `${EAST_ASIA} ${SOUTHEAST_ASIA} ${SOUTH_ASIA} KZ UZ TM KG TJ`],
  [['Southeast Asia', 'South East Asia', 'South-East Asia', 'ASEAN', 'SEA region'], SOUTHEAST_ASIA],
  [['East Asia'], EAST_ASIA],
  [['South Asia'], SOUTH_ASIA],
  [['ANZ', 'Australia and New Zealand', 'Australasia'], 'AU NZ'],
  [['Oceania'], OCEANIA],
  [['Middle East', 'Middle Eastern', 'ME region'], MIDDLE_EAST],
  [['MENA', 'Middle East and North Africa'], `${MIDDLE_EAST} DZ MA TN LY`],
  [['GCC', 'Gulf', 'Gulf states', 'Gulf region'], 'AE SA QA KW BH OM'],
  [['Africa', 'African'], AFRICA],
  [
    ['Sub-Saharan Africa', 'Subsaharan Africa'],
    AFRICA.split(' ')
      .filter((c) => !['DZ', 'EG', 'LY', 'MA', 'TN'].includes(c))
      .join(' '),
  ],
];

/** Words that mean "anywhere": not a criterion. */
export const ANYWHERE = ['worldwide', 'global', 'globally', 'international', 'internationally', 'anywhere', 'any country', 'all countries'];

export interface GeoMatch {
  /** As a reasoning shows it: the country's name or the region's name as listed here. */
  label: string;
  countries: string[];
}

/**
 * Names and regions. "US" is also the pronoun "us", so in prose it counts only in capitals.
 */
export const GEO_INDEX = new PhraseIndex<GeoMatch>('word');
for (const c of COUNTRY_LIST) {
  const match = { label: c.name, countries: [c.iso2] };
  GEO_INDEX.add(c.name, match);
  for (const alias of c.aliases) GEO_INDEX.add(alias, match);
}
GEO_INDEX.add('US', { label: 'United States', countries: ['US'] }, true);
GEO_INDEX.add('U S', { label: 'United States', countries: ['US'] }, true);
GEO_INDEX.add('U S A', { label: 'United States', countries: ['US'] }, true);
GEO_INDEX.add('U K', { label: 'United Kingdom', countries: ['GB'] });
// Codes marketers write in prose, in capitals only ("Australia & NZ", "UK/IE", "KSA").
GEO_INDEX.add('NZ', { label: 'New Zealand', countries: ['NZ'] }, true);
GEO_INDEX.add('IE', { label: 'Ireland', countries: ['IE'] }, true);
GEO_INDEX.add('KSA', { label: 'Saudi Arabia', countries: ['SA'] }, true);
for (const [names, codes] of REGIONS) {
  const match = { label: names[0], countries: codes.split(/\s+/).filter(Boolean) };
  for (const name of names) GEO_INDEX.add(name, match);
}

const ANYWHERE_INDEX = new PhraseIndex<true>('word');
for (const phrase of ANYWHERE) ANYWHERE_INDEX.add(phrase, true);

export function countryName(iso2: string): string {
  return BY_ISO2.get(iso2)?.name ?? iso2;
}

/** A country or region written as a list item: codes ("DE", "GBR") count here, and only here. */
export function resolvePlace(item: string): GeoMatch | null {
  const text = item.trim();
  const code = BY_CODE.get(text.toLowerCase());
  if (code && /^[A-Za-z]{2,3}$/.test(text)) return { label: countryName(code), countries: [code] };
  return GEO_INDEX.exact(text) ?? null;
}

/** Places named in running text. */
export function scanPlaces(tokens: readonly Token[], consumed: boolean[], strictCase: boolean): GeoMatch[] {
  ANYWHERE_INDEX.scan(tokens, { consumed });
  return GEO_INDEX.scan(tokens, { consumed, strictCase }).map((hit) => hit.value);
}

/**
 * The ISO code of a Buyer's country field, however the provider spelled it ("Germany", "DE",
 * "DEU", "Deutschland", "Berlin, Germany"); null when nothing in it names a country.
 */
export function resolveCountry(value: string): string | null {
  const text = value.trim();
  if (!text) return null;
  const code = BY_CODE.get(text.toLowerCase());
  if (code && /^[A-Za-z]{2,3}$/.test(text)) return code;
  const tokens = tokenize(text);
  const hits = GEO_INDEX.scan(tokens).filter((hit) => hit.value.countries.length === 1);
  return hits.length > 0 ? hits[hits.length - 1].value.countries[0] : null;
}

// ---------------------------------------------------------------------------------------------
// States and provinces

export interface StateMatch {
  /** As a reasoning shows it: the state's name, or the group's name ("tri-state area"). */
  label: string;
  /** ISO 3166-2 codes: "US-NY". */
  states: string[];
}

const STATE_LIST = STATES.trim()
  .split('\n')
  .map((line) => {
    const [code, name, aliases = ''] = line.split('|');
    return { code, name, aliases: aliases ? aliases.split(';') : [] };
  });
const STATE_BY_ISO = new Map(STATE_LIST.map((s) => [s.code, s]));
/** Postal abbreviation ("ny") to ISO code ("US-NY"). */
const STATE_BY_POSTAL = new Map(STATE_LIST.map((s) => [s.code.slice(3).toLowerCase(), s.code]));

function stateIndex(withAmbiguous: boolean): PhraseIndex<StateMatch> {
  const index = new PhraseIndex<StateMatch>('word');
  for (const s of STATE_LIST) {
    if (!withAmbiguous && AMBIGUOUS_STATE_NAMES.includes(s.name.toLowerCase())) continue;
    const match = { label: s.name, states: [s.code] };
    index.add(s.name, match);
    // Short aliases in capitals ("DC", "PEI") are abbreviations, not words.
    for (const alias of s.aliases) index.add(alias, match, alias.replace(/ /g, '').length <= 3);
  }
  for (const [names, codes] of STATE_GROUPS) {
    const match = { label: names[0], states: codes.split(/\s+/) };
    for (const name of names) index.add(name, match);
  }
  return index;
}

/** Every state name, "Georgia" included: under a "State:" label or where the US is the context. */
const STATE_INDEX = stateIndex(true);
/** Without names that are also countries: everywhere else. */
const PLAIN_STATE_INDEX = stateIndex(false);

export function stateName(code: string): string {
  return STATE_BY_ISO.get(code)?.name ?? code;
}

/** The country a state is in: "US-NY" → "US". */
export function stateCountry(code: string): string {
  return code.slice(0, 2);
}

/** A postal abbreviation ("NY", "on") as a state code, or null. */
export function statePostal(text: string): string | null {
  return /^[A-Za-z]{2}$/.test(text) ? (STATE_BY_POSTAL.get(text.toLowerCase()) ?? null) : null;
}

/** Whether these tokens name the US (or a US state that is no country's name): the context in which "Georgia" is the state. */
export function namesUnitedStates(tokens: readonly Token[]): boolean {
  return (
    GEO_INDEX.scan(tokens, { strictCase: true }).some((h) => h.value.countries.length === 1 && h.value.countries[0] === 'US') ||
    PLAIN_STATE_INDEX.scan(tokens, { strictCase: true }).some((h) => h.value.states.some((s) => stateCountry(s) === 'US'))
  );
}

/** Two-letter words that are also postal codes; in a labelled list they count only in capitals. */
const WORDLIKE_CODES = new Set(['in', 'or', 'on', 'me', 'hi', 'ok', 'oh', 'pa', 'ma', 'la', 'id', 'al', 'de', 'co', 'ne', 'ar']);

/**
 * States named in text, marked in `consumed`. `labelled`: under a "State:" label, where
 * postal codes count as list items and "Georgia" is the state. Elsewhere codes count only in
 * capitals and in a list of at least two ("NY/NJ/CT"), and "Georgia" only when `usContext`.
 */
export function scanStates(
  tokens: readonly Token[],
  consumed: boolean[],
  options: { labelled: boolean; usContext: boolean; countryCodes?: boolean },
): StateMatch[] {
  const index = options.labelled || options.usContext ? STATE_INDEX : PLAIN_STATE_INDEX;
  const found = index.scan(tokens, { consumed, strictCase: !options.labelled }).map((h) => ({ at: h.start, match: h.value }));
  const codeAt = (i: number): string | null => {
    const t = tokens[i];
    if (!t || consumed[i] || t.boundary) return null;
    if (!t.upper && (!options.labelled || WORDLIKE_CODES.has(t.word))) return null;
    return statePostal(t.text);
  };
  const separator = (t: Token | undefined) => t !== undefined && ([',', '/', '|', '+'].includes(t.word) || ['and', 'or'].includes(t.word));
  for (let i = 0; i < tokens.length; i++) {
    if (!codeAt(i)) continue;
    // A run of codes joined by separators: "NY/NJ/CT", "TX, CA and FL".
    const run = [i];
    let j = i;
    while (separator(tokens[j + 1]) && codeAt(j + 2)) {
      j += 2;
      run.push(j);
    }
    const alone = (k: number) => k < 0 || k >= tokens.length || tokens[k].boundary || ['and', 'or'].includes(tokens[k].word);
    const listItem = options.labelled && alone(i - 1) && alone(j + 1);
    // "Countries: DE, CA": codes that are all countries' codes are the countries there.
    const countries = options.countryCodes === true && run.every((k) => BY_CODE.has(tokens[k].word));
    if ((run.length >= 2 || listItem) && !countries) {
      for (const k of run) {
        const code = statePostal(tokens[k].text) as string;
        consumed[k] = true;
        found.push({ at: k, match: { label: stateName(code), states: [code] } });
      }
    }
    i = j;
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.match);
}

/**
 * The ISO code of a Buyer's state field, however the provider spelled it ("New York", "NY",
 * "ny", "New York, NY"); null when nothing in it names a state. The country, when known, must
 * agree: "Georgia" in Georgia the country is no US state.
 */
export function resolveState(value: string, countryIso: string | null): string | null {
  const text = value.trim();
  if (!text) return null;
  const fits = (code: string | null) => (code && (!countryIso || stateCountry(code) === countryIso) ? code : null);
  const postal = statePostal(text);
  if (postal) return fits(postal);
  const hits = STATE_INDEX.scan(tokenize(text)).filter((h) => h.value.states.length === 1);
  return hits.length > 0 ? fits(hits[hits.length - 1].value.states[0]) : null;
}
