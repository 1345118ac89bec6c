import { describe, expect, it } from 'vitest';
import { EARTH_RADIUS_KM, greatCircleKm, haversineKm, nearestIndex } from '../../src/topology/geo.js';

/** City-centre coordinates and published great-circle distances (distance calculators, city centre to city centre). */
const CITY = {
  london: { lat: 51.5074, lon: -0.1278 },
  newYork: { lat: 40.7128, lon: -74.006 },
  sydney: { lat: -33.8688, lon: 151.2093 },
  singapore: { lat: 1.3521, lon: 103.8198 },
  paris: { lat: 48.8566, lon: 2.3522 },
  tokyo: { lat: 35.6762, lon: 139.6503 },
  losAngeles: { lat: 34.0522, lon: -118.2437 },
};

describe('great-circle distance (haversine, R = 6371.0088 km)', () => {
  it.each([
    ['London', 'New York', 5_570, CITY.london, CITY.newYork],
    ['Sydney', 'Singapore', 6_300, CITY.sydney, CITY.singapore],
    ['Paris', 'Tokyo', 9_712, CITY.paris, CITY.tokyo],
    ['Los Angeles', 'New York', 3_940, CITY.losAngeles, CITY.newYork],
  ])('%s – %s is within 1 %% of the published %i km', (_a, _b, publishedKm, a, b) => {
    const km = greatCircleKm(a, b);
    expect(Math.abs(km - publishedKm) / publishedKm).toBeLessThan(0.01);
  });

  it('is symmetric, zero for one point, and πR between antipodes', () => {
    expect(greatCircleKm(CITY.paris, CITY.tokyo)).toBeCloseTo(greatCircleKm(CITY.tokyo, CITY.paris), 9);
    expect(greatCircleKm(CITY.paris, CITY.paris)).toBe(0);
    // Within a metre: h = sin²Δφ/2 + … rounds just below 1 for antipodes.
    expect(haversineKm(10, 20, -10, -160)).toBeCloseTo(Math.PI * EARTH_RADIUS_KM, 3);
    expect(haversineKm(90, 0, -90, 0)).toBeCloseTo(Math.PI * EARTH_RADIUS_KM, 6);
  });

  it('one degree of longitude on the equator is 2πR/360 ≈ 111.2 km; across the date line too', () => {
    expect(haversineKm(0, 0, 0, 1)).toBeCloseTo((2 * Math.PI * EARTH_RADIUS_KM) / 360, 9);
    expect(haversineKm(0, 179.5, 0, -179.5)).toBeCloseTo((2 * Math.PI * EARTH_RADIUS_KM) / 360, 6);
  });

  it('nearestIndex picks the nearest candidate, the first on a tie, −1 for none', () => {
    const candidates = [CITY.newYork, CITY.tokyo, CITY.paris];
    expect(nearestIndex(CITY.london, candidates)).toBe(2);
    expect(nearestIndex(CITY.sydney, candidates)).toBe(1);
    expect(nearestIndex({ lat: 0, lon: 0 }, [{ lat: 0, lon: 1 }, { lat: 0, lon: -1 }])).toBe(0);
    expect(nearestIndex(CITY.london, [])).toBe(-1);
  });
});
