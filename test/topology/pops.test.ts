import { describe, expect, it } from 'vitest';
import { loadPopTable, parsePopTable, selectPops, spreadSubset, type Pop } from '../../src/topology/pops.js';
import { REGIONS } from '../../src/topology/regions.js';
import { UserError } from '../../src/userError.js';

const table = loadPopTable();
const byCode = new Map(table.map((pop) => [pop.code, pop]));

describe('the PoP table (data/pops.json)', () => {
  it('has more than 200 PoPs (spec 1.1), unique IATA codes, coordinates and a size class', () => {
    expect(table.length).toBeGreaterThanOrEqual(200);
    expect(table.length).toBe(339);
    expect(new Set(table.map((pop) => pop.code)).size).toBe(table.length);
    for (const pop of table) {
      expect(pop.code).toMatch(/^[A-Z]{3}$/);
      expect(pop.city.length).toBeGreaterThan(0);
      expect(Math.abs(pop.lat)).toBeLessThanOrEqual(90);
      expect(Math.abs(pop.lon)).toBeLessThanOrEqual(180);
      expect(['major', 'minor']).toContain(pop.sizeClass);
    }
  });

  it('maps every PoP to one of the five regions, and every region has PoPs', () => {
    for (const pop of table) expect(REGIONS).toContain(pop.region);
    const counts = Object.fromEntries(REGIONS.map((region) => [region, table.filter((pop) => pop.region === region).length]));
    expect(counts).toEqual({ 'North America': 55, Europe: 81, 'Asia-Pacific': 108, 'Latin America': 61, Africa: 34 });
  });

  it.each([
    ['MEX', 'Latin America'], // Mexico → Latin America (data README)
    ['QRO', 'Latin America'],
    ['SJU', 'Latin America'], // Puerto Rico: the Caribbean
    ['PTY', 'Latin America'], // Panama: Central America
    ['GUA', 'Latin America'], // Guatemala
    ['KIN', 'Latin America'], // Jamaica
    ['DXB', 'Europe'], // the Middle East → Europe (documented choice)
    ['TLV', 'Europe'],
    ['RUH', 'Europe'],
    ['IST', 'Europe'],
    ['SYD', 'Asia-Pacific'],
    ['HKG', 'Asia-Pacific'],
    ['KJA', 'Europe'], // by country: Russia, although the source lists it under Asia Pacific
    ['JNB', 'Africa'],
    ['CAI', 'Africa'], // North Africa → Africa
    ['YYZ', 'North America'],
    ['IAD', 'North America'],
  ])('%s is in %s', (code, region) => {
    expect(byCode.get(code)?.region).toBe(region);
  });

  it('fills the sites the source gives no coordinates for, and the countries it leaves unnamed', () => {
    expect(byCode.get('SHA')).toMatchObject({ city: 'Shanghai', lat: 31.23, lon: 121.47 });
    expect(byCode.get('KIV')).toMatchObject({ country: 'Moldova', lat: 47.01, lon: 28.86 });
    expect(byCode.get('HKG')?.country).toBe('Hong Kong');
    expect(byCode.get('TPE')?.country).toBe('Taiwan');
    expect(byCode.get('AGR')?.city).toBe('Agra');
  });

  it('marks the big interconnection hubs major (100 Gbit, spec 1.1) and the rest minor', () => {
    for (const code of ['FRA', 'LHR', 'IAD', 'NRT', 'SIN', 'GRU', 'JNB']) expect(byCode.get(code)?.sizeClass).toBe('major');
    for (const code of ['ABQ', 'AGR', 'OUA']) expect(byCode.get(code)?.sizeClass).toBe('minor');
    expect(table.filter((pop) => pop.sizeClass === 'major').length).toBe(65);
  });
});

describe('parsePopTable: bad data is named by file and key', () => {
  const good: Pop = { code: 'XAA', city: 'Somewhere', country: 'Nowhere', cca2: 'NW', region: 'Africa', lat: 1, lon: 2, sizeClass: 'minor' };

  it('rejects a region outside the five, a latitude out of range and a duplicate code', () => {
    expect(() => parsePopTable({ pops: [{ ...good, region: 'Middle East' }] }, 'my.json')).toThrow(/my\.json: pops\[0\]\.region: expected one of the five regions/);
    expect(() => parsePopTable({ pops: [good, { ...good, code: 'XBB', lat: 91 }] }, 'my.json')).toThrow(/my\.json: pops\[1\]\.lat: expected a latitude from -90 to 90/);
    expect(() => parsePopTable({ pops: [good, good] }, 'my.json')).toThrow(/pops\[1\]\.code: XAA is also pops\[0\]\.code/);
    expect(() => parsePopTable({ pops: [{ ...good, sizeClass: 'huge' }] }, 'my.json')).toThrow(UserError);
  });
});

describe('selectPops: scenarios choose subsets or add PoPs', () => {
  it('by region, by country, by list, excluding some', () => {
    expect(selectPops(table, { regions: ['Africa'] }).length).toBe(34);
    expect(selectPops(table, { countries: ['DE'] }).map((pop) => pop.code)).toEqual(['DUS', 'FRA', 'HAM', 'MUC', 'STR', 'TXL']);
    expect(selectPops(table, { codes: ['SIN', 'FRA', 'IAD'] }).map((pop) => pop.code)).toEqual(['FRA', 'IAD', 'SIN']);
    expect(selectPops(table, { excludeCountries: ['CN'] }).length).toBe(339 - 30);
    expect(selectPops(table, { regions: ['Africa'], exclude: ['JNB'] }).some((pop) => pop.code === 'JNB')).toBe(false);
  });

  it('count keeps majors first, spread out by farthest-point order, deterministically', () => {
    const ten = selectPops(table, { count: 10 });
    expect(ten.length).toBe(10);
    expect(ten.every((pop) => pop.sizeClass === 'major')).toBe(true);
    expect(new Set(ten.map((pop) => pop.region)).size).toBe(5);
    expect(selectPops(table, { count: 10 })).toEqual(ten);
    const hundred = spreadSubset(table, 100);
    expect(hundred.filter((pop) => pop.sizeClass === 'major').length).toBe(65);
  });

  it('adds custom PoPs after the filters', () => {
    const kinshasa: Pop = { code: 'FIH2', city: 'Kinshasa', country: 'DR Congo', cca2: 'CD', region: 'Africa', lat: -4.44, lon: 15.27, sizeClass: 'major' };
    const pops = selectPops(table, { regions: ['Africa'], add: [kinshasa] });
    expect(pops.length).toBe(35);
    expect(pops[34]).toBe(kinshasa);
  });

  it('names the field and suggests a code for a mistake', () => {
    expect(() => selectPops(table, { codes: ['FRX'] })).toThrow(/pops\.codes: no PoP with code 'FRX'.*did you mean/);
    expect(() => selectPops(table, { exclude: ['NOPE'] })).toThrow(/pops\.exclude: no PoP with code 'NOPE'/);
    expect(() => selectPops(table, { regions: ['Africa'], count: 40 })).toThrow(/pops\.count: asks for 40 PoPs but the other filters leave 34/);
    expect(() => selectPops(table, { countries: ['XX'] })).toThrow(/leaves no PoP/);
    expect(() => selectPops(table, { add: [table[0]] })).toThrow(/pops\.add\[0\]\.code: AAE is already a PoP/);
  });
});
