/**
 * Che's approximation of the LRU hit ratio under the independent reference model
 * (Che, Tung and Wang, IEEE JSAC 20(7), 2002; generalised to unequal sizes as in
 * Fricker, Robert and Roberts, "A versatile and accurate approximation for LRU cache
 * performance", ITC 24, 2012).
 *
 * An object requested with probability p_i stays in the cache for a characteristic time
 * T after each request; T solves Σ s_i (1 − e^(−p_i T)) = C, and the request hit ratio is
 * Σ p_i (1 − e^(−p_i T)) / Σ p_i. Time is measured in requests, so only the popularities
 * matter. The project's one solver of this equation: the printed theory and the stationary
 * start of the warm-up (src/cdn/stationaryFill.ts, docs/warmup.md) both use it.
 */
export interface CheResult {
  /** Characteristic time, in requests (in the weights' unit); Infinity when everything fits. */
  characteristicTime: number;
  hitRatio: number;
  byteHitRatio: number;
}

/**
 * @param popularity request probabilities, or any non-negative weights (the ratios are per
 *   request among these objects: a regional's weights are its PoPs' miss probabilities)
 * @param sizes object sizes in bytes, or undefined for count mode (all sizes 1)
 * @param capacity bytes, or objects in count mode
 */
export function cheApproximation(popularity: Float64Array, sizes: Float64Array | undefined, capacity: number): CheResult {
  const t = cheCharacteristicTime(popularity, sizes, capacity);
  if (t === Infinity) return { characteristicTime: Infinity, hitRatio: 1, byteHitRatio: 1 };
  let requests = 0;
  let hits = 0;
  let byteHits = 0;
  let bytes = 0;
  for (let i = 0; i < popularity.length; i++) {
    const p = popularity[i];
    if (!(p > 0)) continue;
    const inCache = -Math.expm1(-p * t);
    const size = sizes ? sizes[i] : 1;
    requests += p;
    hits += p * inCache;
    byteHits += p * size * inCache;
    bytes += p * size;
  }
  return { characteristicTime: t, hitRatio: requests > 0 ? hits / requests : 0, byteHitRatio: bytes > 0 ? byteHits / bytes : 0 };
}

/** Relative residual of the occupancy at which the characteristic time is taken as found. */
const OCCUPANCY_TOLERANCE = 1e-9;
/** Newton takes 4 to 13 passes on Zipf catalogues of 10^5 to 2·10^6 objects; this bounds pathological weights. */
const MAX_PASSES = 200;

/**
 * T with Σ s_i (1 − e^(−p_i T)) = C, to a relative 1e-9 in the occupancy; Infinity when the
 * catalogue fits (or when only weights too small for a double's 1 − e^(−p T) could fill C: as
 * good as everything fitting), 0 for no capacity.
 *
 * Newton's method from T = 0: the occupancy is increasing and concave in T (each term is), so
 * every tangent lies above it, each step lands at or below the root and the iterates climb to
 * it without a bracket. One pass over the catalogue per step (occupancy and slope together).
 */
export function cheCharacteristicTime(popularity: Float64Array, sizes: Float64Array | undefined, capacity: number): number {
  let total = 0;
  for (let i = 0; i < popularity.length; i++) if (popularity[i] > 0) total += sizes ? sizes[i] : 1;
  if (capacity >= total) return Infinity;
  if (capacity <= 0) return 0;
  let t = 0;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    let occupied = 0;
    let slope = 0;
    for (let i = 0; i < popularity.length; i++) {
      const p = popularity[i];
      if (!(p > 0)) continue;
      const size = sizes ? sizes[i] : 1;
      const change = Math.expm1(-p * t); // e^(−p t) − 1, exact for small p t
      occupied -= size * change;
      slope += size * p * (1 + change);
    }
    const shortfall = capacity - occupied;
    if (shortfall <= OCCUPANCY_TOLERANCE * capacity) break;
    const step = shortfall / slope;
    if (!(t + step < Number.MAX_VALUE / 4)) return Infinity;
    if (step <= 1e-15 * t) break;
    t += step;
  }
  return t;
}
