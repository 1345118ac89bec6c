/**
 * Che's approximation of the LRU hit ratio under the independent reference model
 * (Che, Tung and Wang, IEEE JSAC 20(7), 2002; generalised to unequal sizes as in
 * Fricker, Robert and Roberts, "A versatile and accurate approximation for LRU cache
 * performance", ITC 24, 2012).
 *
 * An object requested with probability p_i stays in the cache for a characteristic time
 * T after each request; T solves Σ s_i (1 − e^(−p_i T)) = C, and the request hit ratio is
 * Σ p_i (1 − e^(−p_i T)). Time is measured in requests, so only the popularities matter.
 */
export interface CheResult {
  /** Characteristic time, in requests. */
  characteristicTime: number;
  hitRatio: number;
  byteHitRatio: number;
}

/**
 * @param popularity request probabilities (summing to 1)
 * @param sizes object sizes in bytes, or undefined for count mode (all sizes 1)
 * @param capacity bytes, or objects in count mode
 */
export function cheApproximation(popularity: Float64Array, sizes: Float64Array | undefined, capacity: number): CheResult {
  const n = popularity.length;
  let total = 0;
  for (let i = 0; i < n; i++) total += sizes ? sizes[i] : 1;
  if (capacity >= total) return { characteristicTime: Infinity, hitRatio: 1, byteHitRatio: 1 };
  if (capacity <= 0) return { characteristicTime: 0, hitRatio: 0, byteHitRatio: 0 };

  const occupancy = (t: number): number => {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += (sizes ? sizes[i] : 1) * -Math.expm1(-popularity[i] * t);
    return sum;
  };
  // Occupancy grows monotonically with T: bracket, then bisect.
  let low = 0;
  let high = 1;
  while (occupancy(high) < capacity) high *= 2;
  for (let iteration = 0; iteration < 200 && high - low > 1e-9 * high; iteration++) {
    const mid = (low + high) / 2;
    if (occupancy(mid) < capacity) low = mid;
    else high = mid;
  }
  const t = (low + high) / 2;
  let hits = 0;
  let byteHits = 0;
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const inCache = -Math.expm1(-popularity[i] * t);
    const size = sizes ? sizes[i] : 1;
    hits += popularity[i] * inCache;
    byteHits += popularity[i] * size * inCache;
    bytes += popularity[i] * size;
  }
  return { characteristicTime: t, hitRatio: hits, byteHitRatio: byteHits / bytes };
}
