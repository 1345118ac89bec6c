import type { RandomStream } from '../sim/random.js';

/**
 * The stationary state of an LRU cache under the independent reference model (docs/warmup.md,
 * "A stationary start"). Requests for object i arrive with probability p_i each, independently;
 * the recency order of the objects is then move-to-front's stationary law: a weighted sample
 * without replacement by p, which is the order of independent keys E_i / p_i with E_i
 * exponential (Efraimidis and Spirakis 2006). An LRU cache of C bytes holds the longest prefix
 * of that order that fits in C. The law does not depend on how fast the cache is asked, only
 * on the p_i, so one draw fills a cache as if it had served forever.
 *
 * Only the keys below a threshold T can be in the cache, so only objects whose key may fall
 * under T are drawn: T is set from Che's characteristic time x (Σ s_i (1 − e^{−p_i x}) = C, solved
 * by src/cache/che.ts; the key of object i is below x with probability 1 − e^{−p_i x}), and objects are visited in
 * buckets of weights within a factor of two with geometric skips (thinning): the work is about
 * the number of objects the cache holds, not the catalogue's size.
 */

/** Objects grouped by weight (powers of two), heaviest bucket first: built once per weight vector, shared by every cache it fills. */
export interface WeightBuckets {
  readonly weights: Float64Array;
  readonly sizes: Float64Array;
  /** Ids with weight > 0, bucket after bucket. */
  readonly ids: Int32Array;
  /** The weight and bytes of ids[k] at k: read in the order visited, since reading them by id missed the processor's cache on most visits. */
  readonly idWeights: Float64Array;
  readonly idSizes: Float64Array;
  /** bucketStart[b]..bucketStart[b + 1] are bucket b's ids in `ids`. */
  readonly bucketStart: Int32Array;
  /** Upper bound of the weights in bucket b. */
  readonly bucketMax: Float64Array;
}

/** Groups the objects with weight > 0 (and size ≤ `largest`: larger ones never fit) by ⌊log2 weight⌋. */
export function weightBuckets(weights: Float64Array, sizes: Float64Array, largest: number): WeightBuckets {
  const n = weights.length;
  let minExp = Infinity;
  let maxExp = -Infinity;
  const exps = new Int16Array(n);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const w = weights[i];
    if (!(w > 0) || sizes[i] > largest) continue;
    const e = Math.floor(Math.log2(w));
    exps[i] = e;
    if (e < minExp) minExp = e;
    if (e > maxExp) maxExp = e;
    count++;
  }
  const buckets = count === 0 ? 0 : maxExp - minExp + 1;
  const bucketStart = new Int32Array(buckets + 1);
  const bucketMax = new Float64Array(buckets);
  for (let i = 0; i < n; i++) if (weights[i] > 0 && sizes[i] <= largest) bucketStart[maxExp - exps[i] + 1]++;
  for (let b = 0; b < buckets; b++) {
    bucketStart[b + 1] += bucketStart[b];
    bucketMax[b] = 2 ** (maxExp - b + 1);
  }
  const ids = new Int32Array(count);
  const next = bucketStart.slice(0, buckets);
  for (let i = 0; i < n; i++) if (weights[i] > 0 && sizes[i] <= largest) ids[next[maxExp - exps[i]]++] = i;
  const idWeights = new Float64Array(count);
  const idSizes = new Float64Array(count);
  for (let k = 0; k < count; k++) {
    idWeights[k] = weights[ids[k]];
    idSizes[k] = sizes[ids[k]];
  }
  return { weights, sizes, ids, idWeights, idSizes, bucketStart, bucketMax };
}

/**
 * How far past x the first threshold reaches: the bytes of the keys below it exceed C by many
 * standard deviations for any cache of more than a few objects (a shortfall gives every object a key).
 */
const THRESHOLD_MARGIN = 1.2;
/** A bucket whose largest q_i is above this is walked id by id; below it, by geometric skips. */
const SEQUENTIAL_ABOVE = 0.3;

/** Reusable arrays for `stationaryLruOrder` (one per fill, grown as needed): the drawn keys and ids, and a radix sort's spare pair. */
export class StationaryScratch {
  keys = new Uint32Array(1024);
  ids = new Int32Array(1024);
  sizes = new Float64Array(1024);
  private spareKeys = new Uint32Array(1024);
  private spareIds = new Int32Array(1024);
  private spareSizes = new Float64Array(1024);
  private readonly counts = new Int32Array(RADIX + 1);
  /** The whole order's arrays (continueOrder, fullOrder), one per bucket id, reused cache after cache: each id's key, the ids being sorted, and which the fill drew. */
  wholeKeys = new Float64Array(0);
  wholeOrder = new Int32Array(0);
  drawn = new Uint8Array(0);

  /** sortWholeOrder's keys in sorting order (and their 32-bit halves), and its spare keys and ids. */
  private sortKeys = new Float64Array(0);
  private sortKeyWords = new Uint32Array(0);
  private spareSortKeys = new Float64Array(0);
  private spareSortKeyWords = new Uint32Array(0);
  private spareOrder = new Int32Array(0);

  /** The whole order's arrays for `n` ids (grown, not cleared). */
  wholeArrays(n: number): void {
    if (this.wholeKeys.length >= n) return;
    this.wholeKeys = new Float64Array(n);
    this.wholeOrder = new Int32Array(n);
    this.drawn = new Uint8Array(n);
    this.sortKeys = new Float64Array(n);
    this.sortKeyWords = new Uint32Array(this.sortKeys.buffer);
    this.spareSortKeys = new Float64Array(n);
    this.spareSortKeyWords = new Uint32Array(this.spareSortKeys.buffer);
    this.spareOrder = new Int32Array(n);
  }

  /**
   * Sorts the ids `wholeOrder[0 … count)` by `keys[id]`, equal keys in the order given, and
   * returns `wholeOrder`. The keys are non-negative doubles (a threshold plus an exponential,
   * or a share of it), whose bits order as their values: a least significant digit radix
   * sort of the 64 bits in four passes of 16, stable, so the order is the one a stable
   * comparison sort gives (which took seconds a cache of a million ids).
   */
  sortWholeOrder(count: number, keys: Float64Array): Int32Array {
    let ids = this.wholeOrder;
    let sorted = this.sortKeys;
    let words = this.sortKeyWords;
    let toIds = this.spareOrder;
    let toSorted = this.spareSortKeys;
    let toWords = this.spareSortKeyWords;
    for (let j = 0; j < count; j++) sorted[j] = keys[ids[j]];
    const counts = this.counts;
    for (let pass = 0; pass < 4; pass++) {
      const word = pass < 2 ? LOW_WORD : 1 - LOW_WORD;
      const shift = (pass & 1) * 16;
      counts.fill(0);
      for (let k = 0; k < count; k++) counts[((words[2 * k + word] >>> shift) & (RADIX - 1)) + 1]++;
      for (let d = 0; d < RADIX; d++) counts[d + 1] += counts[d];
      for (let k = 0; k < count; k++) {
        const at = counts[(words[2 * k + word] >>> shift) & (RADIX - 1)]++;
        toSorted[at] = sorted[k];
        toIds[at] = ids[k];
      }
      const nextIds = toIds;
      toIds = ids;
      ids = nextIds;
      const nextSorted = toSorted;
      toSorted = sorted;
      sorted = nextSorted;
      const nextWords = toWords;
      toWords = words;
      words = nextWords;
    }
    // Four passes: the result is back in wholeOrder.
    return ids;
  }

  /** Appends the object at position `id` of the buckets' ids, of `bytes`, with its key as a share of the threshold in [0, 1), at position m; returns m + 1. */
  push(m: number, share: number, id: number, bytes: number): number {
    if (m >= this.keys.length) this.grow(m + 1);
    this.keys[m] = Math.min(KEY_STEPS - 1, Math.floor(share * KEY_STEPS));
    this.ids[m] = id;
    this.sizes[m] = bytes;
    return m + 1;
  }

  /**
   * Sorts the first m pairs by key: least significant digit radix sort in two passes of 16
   * bits (a typed array's own sort of packed doubles took 35 ms per 90,000, most of a fill).
   * Equal keys (a share of 2^−32 of the threshold) keep the order drawn.
   */
  sort(m: number): void {
    if (m <= SMALL_SORT) {
      this.insertionSort(m);
      return;
    }
    for (let shift = 0; shift < 32; shift += 16) {
      const counts = this.counts;
      counts.fill(0);
      const keys = this.keys;
      const ids = this.ids;
      const sizes = this.sizes;
      for (let k = 0; k < m; k++) counts[((keys[k] >>> shift) & (RADIX - 1)) + 1]++;
      for (let d = 0; d < RADIX; d++) counts[d + 1] += counts[d];
      const toKeys = this.spareKeys;
      const toIds = this.spareIds;
      const toSizes = this.spareSizes;
      for (let k = 0; k < m; k++) {
        const at = counts[(keys[k] >>> shift) & (RADIX - 1)]++;
        toKeys[at] = keys[k];
        toIds[at] = ids[k];
        toSizes[at] = sizes[k];
      }
      this.spareKeys = keys;
      this.spareIds = ids;
      this.spareSizes = sizes;
      this.keys = toKeys;
      this.ids = toIds;
      this.sizes = toSizes;
    }
  }

  /** A few pairs: by insertion (the radix sort's 65,536 counters cost more than the sort). */
  private insertionSort(m: number): void {
    const { keys, ids, sizes } = this;
    for (let k = 1; k < m; k++) {
      const key = keys[k];
      const id = ids[k];
      const size = sizes[k];
      let j = k - 1;
      while (j >= 0 && keys[j] > key) {
        keys[j + 1] = keys[j];
        ids[j + 1] = ids[j];
        sizes[j + 1] = sizes[j];
        j--;
      }
      keys[j + 1] = key;
      ids[j + 1] = id;
      sizes[j + 1] = size;
    }
  }

  private grow(to: number): void {
    const size = Math.max(to, this.keys.length * 2);
    const keys = new Uint32Array(size);
    keys.set(this.keys);
    const ids = new Int32Array(size);
    ids.set(this.ids);
    const sizes = new Float64Array(size);
    sizes.set(this.sizes);
    this.keys = keys;
    this.ids = ids;
    this.sizes = sizes;
    this.spareKeys = new Uint32Array(size);
    this.spareIds = new Int32Array(size);
    this.spareSizes = new Float64Array(size);
  }
}

const RADIX = 1 << 16;
/** Which 32-bit half of a Float64Array element holds its low bits: the platform's byte order. */
const LOW_WORD = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1 ? 0 : 1;
const SMALL_SORT = 64;
const KEY_STEPS = 2 ** 32;

/**
 * The whole recency order of a cache's input, for a hit-ratio curve's recorder (docs/curves.md,
 * "A stationary start"): every object of the buckets, most recent first, of which the cache
 * holds the longest prefix that fits. The keys the fill did not draw (past its threshold) come
 * from `stream`, not the fill's: the caches' contents, and every later draw of the fill, are
 * the same with curves or without.
 */
export interface WholeStationaryOrder {
  readonly stream: RandomStream;
  /** Object ids, most recent first (grown as needed). */
  ids: Int32Array;
  count: number;
}

/**
 * One draw of an LRU cache's stationary contents: the ids it holds, most recent first, written
 * to `out` (grown as needed); returns how many. `x` is Che's characteristic time for this
 * capacity, `cheCharacteristicTime(buckets.idWeights, buckets.idSizes, capacity)` (Infinity: all
 * objects, in a sampled order). With `whole`, the same draw continued past the capacity to every
 * object (WholeStationaryOrder).
 */
export function stationaryLruOrder(
  buckets: WeightBuckets,
  capacity: number,
  x: number,
  stream: RandomStream,
  scratch: StationaryScratch,
  out: { ids: Int32Array },
  whole?: WholeStationaryOrder,
): number {
  const { ids, idWeights, idSizes, bucketStart, bucketMax } = buckets;
  // With everything fitting, a threshold past every object's key: 40/p_min leaves out e^{-40} of them.
  const threshold = x === Infinity ? 40 / Math.max(Number.MIN_VALUE, bucketMax[bucketMax.length - 1] / 2) : x * THRESHOLD_MARGIN;
  let m = 0;
  let drawnBytes = 0;
  for (let b = 0; b < bucketMax.length; b++) {
    // Object i's key is E/p_i with E = −ln(1 − u), u uniform: below the threshold T iff
    // E < p_i·T, and then its share of T is E/(p_i·T): one draw and one logarithm decide and
    // place it (Math.expm1 and log1p cost ten times Math.exp and log here, and need not).
    const q = 1 - Math.exp(-bucketMax[b] * threshold);
    const end = bucketStart[b + 1];
    if (q > SEQUENTIAL_ABOVE) {
      for (let k = bucketStart[b]; k < end; k++) {
        const reach = idWeights[k] * threshold;
        const e = -Math.log(1 - stream.next());
        if (e >= reach) continue;
        m = scratch.push(m, e / reach, k, idSizes[k]);
        drawnBytes += idSizes[k];
      }
      continue;
    }
    // A sparse bucket: geometric skips to the ids whose u falls below q (the bucket's largest
    // q_i), then u is uniform below q, and the id is kept if its E is also below its own p_i·T.
    // log1p: for a bucket of weights far below 1/T, 1 − q rounds to 1 and log(1 − q) to 0 (a
    // regional's most popular objects, p·e^{−p x} of ~1e−300, looped forever on it).
    const logMiss = Math.log1p(-q);
    if (!(logMiss < 0)) continue;
    for (let k = bucketStart[b] - 1; ; ) {
      k += 1 + Math.floor(Math.log(1 - stream.next()) / logMiss);
      if (k >= end) break;
      const reach = idWeights[k] * threshold;
      const e = -Math.log(1 - stream.next() * q);
      if (e >= reach) continue;
      m = scratch.push(m, e / reach, k, idSizes[k]);
      drawnBytes += idSizes[k];
    }
  }
  if (out.ids.length < Math.max(m, 1)) out.ids = new Int32Array(Math.max(m, out.ids.length * 2));
  // The keys below the threshold hold too few bytes to fill the cache (small caches): the
  // others' keys are the threshold plus a fresh exponential over p (memorylessness), so the
  // draw stays exact; every object gets one, rare enough to sort by comparison.
  if (drawnBytes < capacity && x !== Infinity && m < ids.length) return fullOrder(buckets, capacity, threshold, stream, scratch, m, out, whole);
  scratch.sort(m);
  let bytes = 0;
  let held = 0;
  for (let k = 0; k < m; k++) {
    const size = scratch.sizes[k];
    // The longest prefix of the recency order that fits: LRU evicts from the other end.
    if (bytes + size > capacity) break;
    bytes += size;
    out.ids[held++] = ids[scratch.ids[k]];
  }
  if (whole !== undefined) continueOrder(buckets, threshold, scratch, m, whole);
  return held;
}

/**
 * The key of an object whose key the fill did not draw below `threshold`: the threshold plus a
 * fresh exponential over its weight (memorylessness), from one uniform draw `u`.
 */
function keyPastThreshold(threshold: number, u: number, weight: number): number {
  return threshold - Math.log(1 - u) / weight;
}

/**
 * WholeStationaryOrder after the sampled path: the m keys drawn below the threshold, in order,
 * then every other object, whose key comes from keyPastThreshold, sorted among themselves: all
 * lie past the drawn ones.
 */
function continueOrder(buckets: WeightBuckets, threshold: number, scratch: StationaryScratch, m: number, whole: WholeStationaryOrder): void {
  const { ids, idWeights } = buckets;
  const n = ids.length;
  if (whole.ids.length < n) whole.ids = new Int32Array(n);
  scratch.wholeArrays(n);
  const { drawn, wholeKeys: keys, wholeOrder: rest } = scratch;
  drawn.fill(0, 0, n);
  for (let k = 0; k < m; k++) {
    whole.ids[k] = ids[scratch.ids[k]];
    drawn[scratch.ids[k]] = 1;
  }
  let r = 0;
  for (let k = 0; k < n; k++) {
    if (drawn[k] === 1) continue;
    keys[k] = keyPastThreshold(threshold, whole.stream.next(), idWeights[k]);
    rest[r++] = k;
  }
  const sorted = scratch.sortWholeOrder(r, keys);
  for (let j = 0; j < r; j++) whole.ids[m + j] = ids[sorted[j]];
  whole.count = m + r;
}

/** stationaryLruOrder when the first `m` keys drawn (below `threshold`) do not fill the cache: every object's key, sorted. */
function fullOrder(
  buckets: WeightBuckets,
  capacity: number,
  threshold: number,
  stream: RandomStream,
  scratch: StationaryScratch,
  m: number,
  out: { ids: Int32Array },
  whole: WholeStationaryOrder | undefined,
): number {
  const { ids, idWeights, idSizes } = buckets;
  const n = ids.length;
  scratch.wholeArrays(n);
  const { wholeKeys: keys, wholeOrder } = scratch;
  keys.fill(NaN, 0, n);
  for (let j = 0; j < m; j++) keys[scratch.ids[j]] = (scratch.keys[j] / KEY_STEPS) * threshold;
  for (let k = 0; k < n; k++) {
    if (keys[k] !== keys[k]) keys[k] = keyPastThreshold(threshold, stream.next(), idWeights[k]);
    wholeOrder[k] = k;
  }
  const order = scratch.sortWholeOrder(n, keys);
  if (out.ids.length < n) out.ids = new Int32Array(n);
  let bytes = 0;
  let held = 0;
  for (let j = 0; j < n; j++) {
    const k = order[j];
    if (bytes + idSizes[k] > capacity) break;
    bytes += idSizes[k];
    out.ids[held++] = ids[k];
  }
  if (whole !== undefined) {
    // Every object already has its key here: the whole order is this one.
    if (whole.ids.length < n) whole.ids = new Int32Array(n);
    for (let j = 0; j < n; j++) whole.ids[j] = ids[order[j]];
    whole.count = n;
  }
  return held;
}
