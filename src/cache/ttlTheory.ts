/**
 * Hit ratio of a TTL cache under Poisson requests (no capacity limit): an object is stored
 * on a miss and stays fresh for T, hits do not extend it (HTTP semantics). Each renewal
 * cycle is one miss followed by λT expected hits, so one object's hit ratio is
 * λT / (1 + λT) (Jung, Berger and Balakrishnan, "Modeling TTL-based Internet caches",
 * INFOCOM 2003; Fofack et al., "Analysis of TTL-based cache networks", 2012).
 */
export function ttlObjectHitRatio(ratePerSecond: number, ttlSeconds: number): number {
  if (!(ratePerSecond >= 0) || !(ttlSeconds >= 0)) throw new RangeError(`expected a rate and a TTL ≥ 0, got ${ratePerSecond} and ${ttlSeconds}`);
  if (ttlSeconds === Infinity) return ratePerSecond > 0 ? 1 : 0;
  const hitsPerMiss = ratePerSecond * ttlSeconds;
  return hitsPerMiss / (1 + hitsPerMiss);
}

export interface TtlCachePrediction {
  hitRatio: number;
  byteHitRatio: number;
}

/**
 * The whole cache: each object's hit ratio weighted by its share of requests (and of
 * requested bytes). `popularity` sums to 1; `totalRatePerSecond` is the rate the cache sees;
 * without `sizes` every object has the same size.
 */
export function ttlCacheHitRatio(popularity: ArrayLike<number>, totalRatePerSecond: number, ttlSeconds: number, sizes?: ArrayLike<number>): TtlCachePrediction {
  let hits = 0;
  let hitBytes = 0;
  let bytes = 0;
  for (let i = 0; i < popularity.length; i++) {
    const objectHitRatio = ttlObjectHitRatio(popularity[i] * totalRatePerSecond, ttlSeconds);
    const size = sizes ? sizes[i] : 1;
    hits += popularity[i] * objectHitRatio;
    hitBytes += popularity[i] * size * objectHitRatio;
    bytes += popularity[i] * size;
  }
  return { hitRatio: hits, byteHitRatio: bytes > 0 ? hitBytes / bytes : 0 };
}
