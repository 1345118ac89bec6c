/**
 * Hit ratio of a TTL cache under Poisson requests (no capacity limit): an object is stored
 * on a miss and stays fresh for T, hits do not extend it (HTTP semantics). Each renewal
 * cycle is one miss followed by λT expected hits, so one object's hit ratio is
 * λT / (1 + λT) (Jung, Berger and Balakrishnan, "Modeling TTL-based Internet caches",
 * INFOCOM 2003; Fofack et al., "Analysis of TTL-based cache networks", 2012).
 *
 * With a miss delay D (the time from the miss until the response is stored) the cycle also
 * holds the requests that arrive while the fetch is in flight: λD expected, each a miss that
 * waits for that fetch (request coalescing). The copy's age counts from when its fetch was
 * sent (RFC 9111 §4.2.3: the response delay is part of its age), so it arrives D old and is
 * fresh for T − D more: λ(T − D) hits in a cycle of 1 + λT requests, λ(T − D) / (1 + λT)
 * (none when T ≤ D). D = 0 gives the formula above.
 *
 * Without coalescing each of those requests makes its own fetch, and each answer stored
 * renews the copy, so it stays fresh T after the last of those fetches was sent: the fresh
 * time grows by the last arrival's expected time in the delay, L = D − (1 − e^(−λD))/λ, and
 * the ratio is λ(T − D + L) / (1 + λ(T + L)).
 */
export function ttlObjectHitRatio(ratePerSecond: number, ttlSeconds: number, missDelaySeconds = 0, coalescing = true): number {
  if (!(ratePerSecond >= 0) || !(ttlSeconds >= 0) || !(missDelaySeconds >= 0 && missDelaySeconds < Infinity)) {
    throw new RangeError(`expected a rate and a TTL ≥ 0 and a finite miss delay ≥ 0, got ${ratePerSecond}, ${ttlSeconds} and ${missDelaySeconds}`);
  }
  if (ttlSeconds === Infinity) return ratePerSecond > 0 ? 1 : 0;
  if (ratePerSecond === 0) return 0;
  const lastMissInDelay = coalescing ? 0 : missDelaySeconds + Math.expm1(-ratePerSecond * missDelaySeconds) / ratePerSecond;
  const hits = ratePerSecond * Math.max(0, ttlSeconds - missDelaySeconds + lastMissInDelay);
  return hits / (1 + ratePerSecond * missDelaySeconds + hits);
}

export interface TtlCachePrediction {
  hitRatio: number;
  byteHitRatio: number;
}

/**
 * The whole cache: each object's hit ratio weighted by its share of requests (and of
 * requested bytes). `popularity` sums to 1; `totalRatePerSecond` is the rate the cache sees;
 * without `sizes` every object has the same size; `missDelaySeconds` and `coalescing` as in
 * ttlObjectHitRatio.
 */
export function ttlCacheHitRatio(
  popularity: ArrayLike<number>,
  totalRatePerSecond: number,
  ttlSeconds: number,
  sizes?: ArrayLike<number>,
  missDelaySeconds = 0,
  coalescing = true,
): TtlCachePrediction {
  let hits = 0;
  let hitBytes = 0;
  let bytes = 0;
  for (let i = 0; i < popularity.length; i++) {
    const objectHitRatio = ttlObjectHitRatio(popularity[i] * totalRatePerSecond, ttlSeconds, missDelaySeconds, coalescing);
    const size = sizes ? sizes[i] : 1;
    hits += popularity[i] * objectHitRatio;
    hitBytes += popularity[i] * size * objectHitRatio;
    bytes += popularity[i] * size;
  }
  return { hitRatio: hits, byteHitRatio: bytes > 0 ? hitBytes / bytes : 0 };
}
