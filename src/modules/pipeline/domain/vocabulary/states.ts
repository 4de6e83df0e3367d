/**
 * US states (with DC) and Canadian provinces and territories. A state resolves to an ISO 3166-2
 * code ("US-NY", "CA-ON"); its country is the part before the dash.
 *
 * `CODE|Name|alias;alias…`. The code after the dash is the postal abbreviation people write
 * ("NY/NJ/CT"); US and Canadian abbreviations do not overlap.
 */
export const STATES = `
US-AL|Alabama
US-AK|Alaska
US-AZ|Arizona
US-AR|Arkansas
US-CA|California|Calif;Cali
US-CO|Colorado
US-CT|Connecticut
US-DE|Delaware
US-DC|District of Columbia|Washington DC;Washington D C;DC;D C
US-FL|Florida
US-GA|Georgia
US-HI|Hawaii
US-ID|Idaho
US-IL|Illinois
US-IN|Indiana
US-IA|Iowa
US-KS|Kansas
US-KY|Kentucky
US-LA|Louisiana
US-ME|Maine
US-MD|Maryland
US-MA|Massachusetts
US-MI|Michigan
US-MN|Minnesota
US-MS|Mississippi
US-MO|Missouri
US-MT|Montana
US-NE|Nebraska
US-NV|Nevada
US-NH|New Hampshire
US-NJ|New Jersey
US-NM|New Mexico
US-NY|New York|New York State;NYS
US-NC|North Carolina
US-ND|North Dakota
US-OH|Ohio
US-OK|Oklahoma
US-OR|Oregon
US-PA|Pennsylvania
US-RI|Rhode Island
US-SC|South Carolina
US-SD|South Dakota
US-TN|Tennessee
US-TX|Texas
US-UT|Utah
US-VT|Vermont
US-VA|Virginia
US-WA|Washington|Washington State
US-WV|West Virginia
US-WI|Wisconsin
US-WY|Wyoming
CA-AB|Alberta
CA-BC|British Columbia
CA-MB|Manitoba
CA-NB|New Brunswick
CA-NL|Newfoundland and Labrador|Newfoundland
CA-NS|Nova Scotia
CA-NT|Northwest Territories
CA-NU|Nunavut
CA-ON|Ontario
CA-PE|Prince Edward Island|PEI
CA-QC|Quebec|Quebec province
CA-SK|Saskatchewan
CA-YT|Yukon
`;

/** Groups of states people name as one place; the first name is the label a reasoning shows. */
export const STATE_GROUPS: Array<[string[], string]> = [
  [['tri-state area', 'tri state area', 'tri-state', 'tri state', 'tristate', 'tristate area'], 'US-NY US-NJ US-CT'],
  // US Census regions and the regions marketers name; a metro area stands for its state.
  [['US Midwest', 'Midwest', 'the Midwest', 'Midwestern'], 'US-IL US-IN US-MI US-OH US-WI US-IA US-KS US-MN US-MO US-NE US-ND US-SD'],
  [['New England'], 'US-CT US-ME US-MA US-NH US-RI US-VT'],
  [['US Northeast', 'Northeastern US', 'Northeastern United States'], 'US-CT US-ME US-MA US-NH US-RI US-VT US-NJ US-NY US-PA'],
  [['US Southeast', 'Southeastern US', 'Southeastern United States'], 'US-AL US-FL US-GA US-KY US-MS US-NC US-SC US-TN US-VA US-WV'],
  [['US Southwest', 'Southwestern US', 'Southwestern United States'], 'US-AZ US-NM US-OK US-TX'],
  [['West Coast', 'US West Coast'], 'US-CA US-OR US-WA'],
  [['East Coast', 'US East Coast'], 'US-ME US-NH US-MA US-RI US-CT US-NY US-NJ US-DE US-MD US-DC US-VA US-NC US-SC US-GA US-FL'],
  [['Pacific Northwest', 'PNW'], 'US-WA US-OR US-ID'],
  [
    ['Bay Area', 'the Bay Area', 'San Francisco Bay Area', 'SF Bay Area', 'Silicon Valley', 'San Francisco', 'Los Angeles', 'San Diego'],
    'US-CA',
  ],
  [['Boston', 'Greater Boston'], 'US-MA'],
  [['NYC', 'New York City', 'Manhattan', 'Brooklyn'], 'US-NY'],
  [['Austin', 'Dallas', 'Houston'], 'US-TX'],
  [['Seattle'], 'US-WA'],
  [['Chicago'], 'US-IL'],
];

/**
 * State names that are also a country's name. They are read as a state only under a "State:"
 * label, or in prose that names the US or another US state; elsewhere they stay the country.
 */
export const AMBIGUOUS_STATE_NAMES = ['georgia'];
