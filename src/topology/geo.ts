/**
 * Distances on the Earth. A sphere is accurate to about 0.5 % against the WGS-84
 * ellipsoid, far inside what a latency model needs (route inflation alone is a factor of 2).
 */

/** Mean Earth radius (IUGG: R1 = (2a + b) / 3), in km. */
export const EARTH_RADIUS_KM = 6371.0088;

export interface LatLon {
  /** Degrees north, −90…90. */
  readonly lat: number;
  /** Degrees east, −180…180. */
  readonly lon: number;
}

const RADIANS = Math.PI / 180;

/**
 * Great-circle distance in km by the haversine formula, which stays accurate for short
 * distances (the spherical law of cosines loses precision below a few km).
 */
export function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RADIANS;
  const dLon = (lon2 - lon1) * RADIANS;
  const sinLat = Math.sin(dLat / 2);
  const sinLon = Math.sin(dLon / 2);
  const h = sinLat * sinLat + Math.cos(lat1 * RADIANS) * Math.cos(lat2 * RADIANS) * sinLon * sinLon;
  // atan2(√h, √(1−h)) rather than asin(√h): as accurate near antipodes as for short distances.
  const clamped = Math.min(1, h);
  return 2 * EARTH_RADIUS_KM * Math.atan2(Math.sqrt(clamped), Math.sqrt(1 - clamped));
}

/** Great-circle distance between two points, in km. */
export function greatCircleKm(a: LatLon, b: LatLon): number {
  return haversineKm(a.lat, a.lon, b.lat, b.lon);
}

/** Index of the candidate nearest to `point` by great-circle distance (the first on a tie); −1 for none. */
export function nearestIndex(point: LatLon, candidates: readonly LatLon[]): number {
  let best = -1;
  let bestKm = Infinity;
  for (let i = 0; i < candidates.length; i++) {
    const km = greatCircleKm(point, candidates[i]);
    if (km < bestKm) {
      bestKm = km;
      best = i;
    }
  }
  return best;
}
