#!/usr/bin/env node
/**
 * Regenerates data/pops.json and data/clientCities.json from the shared reference data.
 *
 *   node scripts/buildPops.mjs [path/to/cloudflare-colos.json]
 *
 * Default input: ../shared/data/cloudflare-colos.json (MIT, see data/README.md). Only this
 * script reads ../shared; cdnsim itself, its tests and its CLI read the committed files in
 * data/. The output is sorted and formatted one record per line, so a rerun on the same
 * input gives a byte-identical file and a changed input gives a readable diff.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { METROS } from './metros.mjs';
import { regionOfCountry } from './regionRules.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = resolve(process.argv[2] ?? join(REPO, '../shared/data/cloudflare-colos.json'));
const SOURCE_LICENSE = join(dirname(SOURCE), 'cloudflare-colos.LICENSE');

/**
 * The 31 source sites without coordinates (30 in mainland China, one in Moldova), filled
 * with approximate city-centre coordinates of the `city` the source names (rounded to
 * 0.01°; an error of 0.1° is about 11 km, a tenth of a millisecond of modelled latency).
 */
const FILLED_COORDINATES = {
  ACX: [25.09, 104.89], // Xingyi, Guizhou
  AVA: [26.25, 105.93], // Anshun, Guizhou
  CAN: [23.13, 113.26], // Guangzhou
  CGD: [29.03, 111.7], // Changde, Hunan
  CGO: [34.75, 113.63], // Zhengzhou
  CKG: [29.56, 106.55], // Chongqing
  CSX: [28.23, 112.94], // Changsha
  CTU: [30.66, 104.07], // Chengdu
  CZX: [31.81, 119.97], // Changzhou
  DLC: [38.91, 121.61], // Dalian
  FOC: [26.07, 119.3], // Fuzhou
  FUO: [23.02, 113.12], // Foshan
  HAK: [20.04, 110.34], // Haikou
  HGH: [30.0, 120.58], // Shaoxing (the source's city for HGH)
  HYN: [28.66, 121.42], // Taizhou, Zhejiang
  JXG: [30.75, 120.76], // Jiaxing
  KHN: [27.82, 114.92], // Xinyu, Jiangxi (the source's city for KHN)
  KIV: [47.01, 28.86], // Chișinău
  KMG: [25.04, 102.71], // Kunming
  KWE: [26.65, 106.63], // Guiyang
  LYA: [34.62, 112.45], // Luoyang
  PKX: [39.52, 116.68], // Langfang (the source's city for PKX), next to Beijing
  SHA: [31.23, 121.47], // Shanghai
  SJW: [37.74, 115.67], // Hengshui (the source's city for SJW)
  SZX: [22.54, 114.06], // Shenzhen
  TAO: [36.07, 120.38], // Qingdao
  TEN: [27.72, 109.19], // Tongren, Guizhou
  TNA: [36.65, 117.12], // Jinan
  TYN: [37.86, 113.58], // Yangquan (the source's city for TYN)
  XFN: [32.01, 112.12], // Xiangyang
  XIY: [34.36, 107.24], // Baoji (the source's city for XIY)
};

/** Source records without a country name (the source leaves `country` undefined for these). */
const COUNTRY_NAMES = { HK: 'Hong Kong', MO: 'Macau', TW: 'Taiwan', PS: 'Palestine' };

/**
 * Major PoPs: the sites in the metros that host a region's largest Internet exchanges and
 * cloud regions, where a CDN puts its biggest racks (spec 1.1: "100 Gbit, with NVMe
 * storage at major points of presence"). Hand-chosen, a few per country at most; every
 * other site is minor. The list is data/README.md's "size classes".
 */
const MAJOR = new Set([
  // North America
  'ATL', 'DEN', 'DFW', 'EWR', 'IAD', 'LAX', 'MIA', 'ORD', 'SEA', 'SJC', 'YYZ',
  // Europe (with the Middle East)
  'AMS', 'ARN', 'CDG', 'CPH', 'DME', 'DUB', 'FRA', 'HEL', 'IST', 'KBP', 'LHR', 'MAD', 'MRS', 'MXP', 'OTP', 'PRG', 'VIE', 'WAW', 'ZRH',
  'DXB', 'JED', 'TLV',
  // Asia-Pacific
  'AKL', 'BKK', 'BOM', 'CAN', 'CGK', 'DEL', 'HKG', 'ICN', 'KIX', 'KUL', 'MAA', 'MEL', 'MNL', 'NRT', 'PKX', 'SHA', 'SIN', 'SYD', 'TPE',
  // Latin America
  'BOG', 'EZE', 'GIG', 'GRU', 'LIM', 'MEX', 'QRO', 'SCL',
  // Africa
  'CAI', 'JNB', 'CPT', 'LOS', 'NBO',
]);

const round = (value, digits) => Number(value.toFixed(digits));

function buildPops(colos) {
  const pops = [];
  for (const code of Object.keys(colos).sort()) {
    const site = colos[code];
    const where = `${SOURCE}: ${code}`;
    if (!/^[A-Z]{3}$/.test(code)) throw new Error(`${where}: expected a three-letter IATA code`);
    const filled = FILLED_COORDINATES[code];
    const hasCoordinates = typeof site.lat === 'number' && typeof site.lon === 'number';
    if (!hasCoordinates && !filled) throw new Error(`${where}: no coordinates and none in FILLED_COORDINATES`);
    if (hasCoordinates && filled) throw new Error(`${where}: the source now has coordinates; remove it from FILLED_COORDINATES`);
    const [lat, lon] = hasCoordinates ? [site.lat, site.lon] : filled;
    const country = site.country ?? COUNTRY_NAMES[site.cca2];
    if (!country) throw new Error(`${where}: no country name for ${site.cca2}; add it to COUNTRY_NAMES`);
    // One source record (AGR) has an empty city; its `name` ("Agra, India") starts with it.
    const city = site.city || String(site.name ?? '').split(',')[0].trim();
    if (!city) throw new Error(`${where}: no city and no name to take it from`);
    pops.push({
      code,
      city,
      country,
      cca2: site.cca2,
      region: regionOfCountry(site.cca2, where),
      lat: round(lat, 4),
      lon: round(lon, 4),
      sizeClass: MAJOR.has(code) ? 'major' : 'minor',
    });
  }
  for (const code of MAJOR) if (!colos[code]) throw new Error(`MAJOR lists ${code}, which the source does not have`);
  return pops;
}

function buildClientCities() {
  const seen = new Set();
  return METROS.map(([name, cca2, lat, lon, populationM]) => {
    const key = `${name}/${cca2}`;
    if (seen.has(key)) throw new Error(`scripts/metros.mjs: ${key} is listed twice`);
    seen.add(key);
    if (!(populationM > 0)) throw new Error(`scripts/metros.mjs: ${key} needs a population > 0`);
    return { name, cca2, region: regionOfCountry(cca2, `scripts/metros.mjs: ${name}`), lat, lon, populationM };
  });
}

/** JSON with one record per line: compact, stable, diff-friendly. */
function formatTable(header, key, records) {
  const lines = records.map((record) => `    ${JSON.stringify(record)}`);
  return `${JSON.stringify(header, null, 2).replace(/\n}$/, ',')}\n  "${key}": [\n${lines.join(',\n')}\n  ]\n}\n`;
}

const colos = JSON.parse(readFileSync(SOURCE, 'utf8'));
const pops = buildPops(colos);
writeFileSync(
  join(REPO, 'data/pops.json'),
  formatTable(
    {
      description: 'cdnsim points of presence: one record per site, keyed by IATA code. Generated by scripts/buildPops.mjs; edit the script, not this file.',
      source: 'cloudflare-colos.json from github.com/Netrvin/cloudflare-colo-list (MIT, see data/cloudflare-colos.LICENSE and data/README.md)',
    },
    'pops',
    pops,
  ),
);
// Written, not copied, so a read-only source file does not make the copy read-only.
writeFileSync(join(REPO, 'data/cloudflare-colos.LICENSE'), readFileSync(SOURCE_LICENSE));
const cities = buildClientCities();
writeFileSync(
  join(REPO, 'data/clientCities.json'),
  formatTable(
    {
      description: 'cdnsim client places: major metros with approximate populations (millions). Generated by scripts/buildPops.mjs from scripts/metros.mjs; see data/README.md.',
    },
    'cities',
    cities,
  ),
);

const count = (list, key) => list.reduce((counts, item) => ({ ...counts, [item[key]]: (counts[item[key]] ?? 0) + 1 }), {});
process.stdout.write(`data/pops.json: ${pops.length} PoPs ${JSON.stringify(count(pops, 'region'))}, ${pops.filter((p) => p.sizeClass === 'major').length} major\n`);
process.stdout.write(`data/clientCities.json: ${cities.length} metros ${JSON.stringify(count(cities, 'region'))}\n`);
