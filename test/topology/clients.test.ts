import { describe, expect, it } from 'vitest';
import { buildClientPlaces, DEFAULT_DEMAND_SHARES, DEFAULT_MOBILE_SHARES, loadClientCities, parseClientCities, placeFor } from '../../src/topology/clients.js';
import { REGIONS } from '../../src/topology/regions.js';
import { city } from './layouts.js';

describe('client places and demand', () => {
  const cities = loadClientCities();

  it('data/clientCities.json has places in every region, each with a population', () => {
    expect(cities.length).toBeGreaterThan(200);
    for (const region of REGIONS) expect(cities.filter((c) => c.region === region).length).toBeGreaterThanOrEqual(40);
    expect(cities.find((c) => c.name === 'Lagos')).toMatchObject({ region: 'Africa', cca2: 'NG' });
    expect(cities.find((c) => c.name === 'Mexico City')?.region).toBe('Latin America');
    expect(cities.find((c) => c.name === 'Dubai')?.region).toBe('Europe');
  });

  it('default demand and mobile shares are fractions; the demand adds up to 1', () => {
    expect(REGIONS.reduce((sum, region) => sum + DEFAULT_DEMAND_SHARES[region], 0)).toBeCloseTo(1, 12);
    for (const region of REGIONS) {
      expect(DEFAULT_MOBILE_SHARES[region]).toBeGreaterThan(0);
      expect(DEFAULT_MOBILE_SHARES[region]).toBeLessThan(1);
    }
  });

  it('spreads each region’s share over its places by population', () => {
    const places = buildClientPlaces(cities, DEFAULT_DEMAND_SHARES);
    expect(places.demand.reduce((sum, d) => sum + d, 0)).toBeCloseTo(1, 12);
    REGIONS.forEach((region, r) => {
      const share = Array.from(places.demand).reduce((sum, d, i) => sum + (places.regionOf[i] === r ? d : 0), 0);
      expect(share).toBeCloseTo(DEFAULT_DEMAND_SHARES[region], 12);
    });
  });

  it('placeFor maps a uniform draw to a place through the cumulative weights', () => {
    const places = buildClientPlaces([city('a', 0, 'Africa', 1), city('b', 1, 'Africa', 3), city('x', 2, 'Europe', 1)], {
      'North America': 0,
      Europe: 0.5,
      'Asia-Pacific': 0,
      'Latin America': 0,
      Africa: 0.5,
    });
    const africa = REGIONS.indexOf('Africa');
    expect(placeFor(places, africa, 0)).toBe(0);
    expect(placeFor(places, africa, 0.2499)).toBe(0);
    expect(placeFor(places, africa, 0.25)).toBe(1);
    expect(placeFor(places, africa, 0.9999999)).toBe(1);
    expect(placeFor(places, REGIONS.indexOf('Europe'), 0.5)).toBe(2);
    expect(placeFor(places, REGIONS.indexOf('North America'), 0.5)).toBe(-1);
  });

  it('rejects shares that do not add up and a region with demand but no places', () => {
    expect(() => buildClientPlaces(cities, { ...DEFAULT_DEMAND_SHARES, Africa: 0.5 })).toThrow(/clients\.demand: expected region shares that add up to 100%/);
    expect(() => buildClientPlaces([city('a', 0, 'Africa')], DEFAULT_DEMAND_SHARES)).toThrow(/North America has a demand share of 0\.065 but no client places/);
    expect(() => parseClientCities({ cities: [{ ...city('a', 0), populationM: 0 }] }, 'c.json')).toThrow(/c\.json: cities\[0\]\.populationM: expected a population in millions/);
  });
});
