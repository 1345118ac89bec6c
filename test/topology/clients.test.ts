import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildClientPlaces, cumulativeIndex, CumulativeSearch, DEFAULT_DEMAND_SHARES, DEFAULT_MOBILE_SHARES, loadClientCities, parseClientCities, placeFor } from '../../src/topology/clients.js';
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

describe('CumulativeSearch: the guide table gives cumulativeIndex\'s answer', () => {
  it('property: for random cumulative tables (ties and a last entry of 1 included) and u in [0, 1), index(u) equals the binary search', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constant(0), fc.double({ min: 1e-9, max: 100, noNaN: true })), { minLength: 1, maxLength: 120 }),
        fc.array(fc.oneof(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), fc.integer({ min: 0, max: 2 ** 32 - 1 }).map((k) => k / 2 ** 32)), { minLength: 1, maxLength: 40 }),
        (weights, draws) => {
          const total = weights.reduce((a, b) => a + b, 0);
          fc.pre(total > 0);
          let running = 0;
          const cumulative = Float64Array.from(weights, (w) => (running += w / total));
          cumulative[cumulative.length - 1] = 1;
          const search = new CumulativeSearch(cumulative);
          // Draws exactly at each entry and one ulp-sized step either side, where a search could go wrong.
          const edges = Array.from(cumulative).flatMap((c) => [c, c - 2 ** -53, c + 2 ** -53]).filter((u) => u >= 0 && u < 1);
          return [...draws, ...edges].every((u) => search.index(u) === cumulativeIndex(cumulative, u));
        },
      ),
      { numRuns: 500, seed: 1974 },
    );
  });

  it('places 0.25 / 0.75: u below 0.25 gives 0, from 0.25 on gives 1', () => {
    const search = new CumulativeSearch(Float64Array.from([0.25, 1]));
    expect([0, 0.2499999, 0.25, 0.5, 1 - 2 ** -53].map((u) => search.index(u))).toEqual([0, 0, 1, 1, 1]);
  });
});
