/**
 * Country (ISO 3166-1 alpha-2) → one of the five regions of the service description
 * (spec 1.1: North America, Europe, Asia-Pacific, Latin America, Africa). Shared by
 * buildPops.mjs for the PoP table and the client metro table, so both follow one rule set.
 *
 * Rules (data/README.md explains each):
 * - North America is the United States and Canada only. Mexico, Central America and the
 *   Caribbean (Puerto Rico included) belong to Latin America, as the data README asks.
 * - The Middle East (Gulf states, Levant, Iraq, Iran, Yemen) maps to Europe: the EMEA
 *   grouping large CDNs bill and plan by, with Africa split out because the spec names it.
 *   The Caucasus, Turkey, Cyprus, Russia (Siberian sites included), Belarus, Ukraine and
 *   Moldova are Europe too.
 * - North Africa (Egypt, Libya, Tunisia, Algeria, Morocco, Sudan) and the Indian Ocean
 *   islands (Madagascar, Mauritius, Réunion, Seychelles) are Africa.
 * - Central Asia, South Asia, East and South-East Asia and Oceania (Guam, Fiji, New
 *   Caledonia and French Polynesia included) are Asia-Pacific.
 */
export const REGION_BY_COUNTRY = {
  'North America': ['US', 'CA'],
  'Latin America': [
    // Mexico and Central America
    'MX', 'GT', 'BZ', 'SV', 'HN', 'NI', 'CR', 'PA',
    // The Caribbean
    'CU', 'JM', 'HT', 'DO', 'PR', 'BB', 'TT', 'GD', 'BS', 'KY', 'AW', 'CW', 'LC', 'VC', 'AG', 'DM', 'KN', 'VI', 'VG', 'GP', 'MQ',
    // South America
    'AR', 'BO', 'BR', 'CL', 'CO', 'EC', 'GY', 'PY', 'PE', 'SR', 'UY', 'VE', 'GF',
  ],
  Europe: [
    'AL', 'AD', 'AT', 'BE', 'BA', 'BG', 'BY', 'CH', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FO', 'FR', 'GB', 'GI', 'GR', 'HR', 'HU',
    'IE', 'IM', 'IS', 'IT', 'JE', 'GG', 'LI', 'LT', 'LU', 'LV', 'MC', 'MD', 'ME', 'MK', 'MT', 'NL', 'NO', 'PL', 'PT', 'RO', 'RS', 'RU',
    'SE', 'SI', 'SK', 'SM', 'UA', 'VA', 'XK', 'TR',
    // The Caucasus
    'GE', 'AM', 'AZ',
    // The Middle East (documented choice: Europe, as in the EMEA grouping)
    'AE', 'BH', 'IL', 'PS', 'JO', 'LB', 'SY', 'IQ', 'IR', 'KW', 'QA', 'SA', 'OM', 'YE',
  ],
  Africa: [
    'DZ', 'AO', 'BJ', 'BW', 'BF', 'BI', 'CV', 'CM', 'CF', 'TD', 'KM', 'CD', 'CG', 'CI', 'DJ', 'EG', 'GQ', 'ER', 'SZ', 'ET', 'GA', 'GM',
    'GH', 'GN', 'GW', 'KE', 'LS', 'LR', 'LY', 'MG', 'MW', 'ML', 'MR', 'MU', 'MA', 'MZ', 'NA', 'NE', 'NG', 'RE', 'RW', 'ST', 'SN', 'SC',
    'SL', 'SO', 'ZA', 'SS', 'SD', 'TZ', 'TG', 'TN', 'UG', 'ZM', 'ZW', 'YT', 'EH',
  ],
  'Asia-Pacific': [
    // East Asia
    'CN', 'HK', 'MO', 'TW', 'JP', 'KR', 'KP', 'MN',
    // South-East Asia
    'BN', 'KH', 'ID', 'LA', 'MY', 'MM', 'PH', 'SG', 'TH', 'TL', 'VN',
    // South Asia
    'AF', 'BD', 'BT', 'IN', 'LK', 'MV', 'NP', 'PK',
    // Central Asia
    'KZ', 'KG', 'TJ', 'TM', 'UZ',
    // Oceania
    'AU', 'NZ', 'FJ', 'NC', 'PF', 'GU', 'PG', 'SB', 'VU', 'WS', 'TO', 'MP', 'PW', 'FM', 'MH', 'KI', 'NR', 'TV',
  ],
};

const lookup = new Map();
for (const [region, countries] of Object.entries(REGION_BY_COUNTRY)) {
  for (const cca2 of countries) {
    if (lookup.has(cca2)) throw new Error(`regionRules: ${cca2} is listed under both ${lookup.get(cca2)} and ${region}`);
    lookup.set(cca2, region);
  }
}

/** The region of a country code; throws for a code the rules do not list, so no site is mapped by accident. */
export function regionOfCountry(cca2, where) {
  const region = lookup.get(cca2);
  if (!region) throw new Error(`${where}: country code '${cca2}' has no region in scripts/regionRules.mjs; add it to REGION_BY_COUNTRY`);
  return region;
}
