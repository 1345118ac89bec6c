/**
 * A streaming latency histogram with logarithmic buckets: memory is fixed (about 200 KB)
 * whatever the number of samples, and every quantile is within LATENCY_RELATIVE_ERROR
 * (0.05 %) of the true sample quantile (bucket width 0.1 %, reported at the bucket's
 * geometric middle). The mean, min and max are exact. Two histograms merge into the
 * histogram of the union of their samples (same buckets, counts added), so per-node or
 * per-interval histograms add up to the whole run's.
 *
 * Values are milliseconds ≥ 0. Zero (a browser-cache hit) has its own bucket; values
 * below 1 µs are counted there too (absolute error under 1 µs), values above 10^8 ms
 * (28 hours) in the last bucket (reported no higher than the exact maximum).
 */
const MIN_VALUE_MS = 0.001;
const GROWTH = 1.001;
const LOG_GROWTH = Math.log(GROWTH);
const BUCKETS = 1 + Math.ceil(Math.log(1e8 / MIN_VALUE_MS) / LOG_GROWTH);

/**
 * The stated bound on a quantile's relative error, for values from 1 µs to 10^8 ms: a
 * bucket spans [a, a·1.001), its geometric middle a·√1.001 is at most √1.001 − 1 ≈ 0.04999 %
 * from any value in it.
 */
export const LATENCY_RELATIVE_ERROR = 0.0005;

export interface LatencySummary {
  count: number;
  mean: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  p999: number;
  min: number;
  max: number;
}

/**
 * Where the by-value forms (latencyBucketOf, record, recordInBucket) put their value for the
 * per-request forms that read it from an array, so the bucket rule and the recording are
 * written once. Written and read within one call.
 */
const byValue = new Float64Array(1);

/** The bucket of a value in every LatencyHistogram (one logarithm). */
export function latencyBucketOf(valueMs: number): number {
  byValue[0] = valueMs;
  return latencyBucketAt(byValue, 0);
}

/**
 * latencyBucketOf(values[at]). Issue 27: a double passed to a call the optimiser does not
 * inline is a new heap number; the per-request recorder passes its times in a reused array.
 */
export function latencyBucketAt(values: Float64Array, at: number): number {
  const valueMs = values[at];
  return valueMs < MIN_VALUE_MS ? 0 : Math.min(BUCKETS - 1, 1 + Math.floor(Math.log(valueMs / MIN_VALUE_MS) / LOG_GROWTH));
}

/** The largest count a bucket holds in 32 bits. */
const MAX_COUNT32 = 0xffffffff;

export class LatencyHistogram {
  /**
   * Per bucket, its samples: 32-bit counts (100 KB) in the common case, so the buckets a run's
   * latencies fall in take half the CPU cache lines (a request records into four or five
   * histograms, metrics 13 % of the baseline's time); a bucket about to pass 2^32 − 1 turns
   * the whole array into doubles, so no count is ever lost.
   */
  private counts: Uint32Array | Float64Array = new Uint32Array(BUCKETS);
  private total = 0;
  private sum = 0;
  private minimum = Infinity;
  private maximum = -Infinity;

  get count(): number {
    return this.total;
  }

  record(valueMs: number): void {
    byValue[0] = valueMs;
    this.recordAt(byValue, 0);
  }

  /**
   * record() with the bucket already known (latencyBucketOf(valueMs)): a request recorded
   * into several histograms takes its logarithm once.
   */
  recordInBucket(index: number, valueMs: number): void {
    byValue[0] = valueMs;
    this.recordInBucketAt(index, byValue, 0);
  }

  /**
   * recordInBucket(index, values[at]): the value read here, not passed (latencyBucketAt): a
   * double passed to a call V8 does not inline is a new heap number (issue 27,
   * docs/performance.md, "The recorder and arrivals per request").
   */
  recordInBucketAt(index: number, values: Float64Array, at: number): void {
    const valueMs = values[at];
    const count = this.counts[index] + 1;
    if (count > MAX_COUNT32) this.widen();
    this.counts[index] = count;
    this.total++;
    this.sum += valueMs;
    if (valueMs < this.minimum) this.minimum = valueMs;
    if (valueMs > this.maximum) this.maximum = valueMs;
  }

  /** record(values[at]). */
  recordAt(values: Float64Array, at: number): void {
    this.recordInBucketAt(latencyBucketAt(values, at), values, at);
  }

  /** Adds another histogram's samples (for merging per-shard or per-node results). */
  merge(other: LatencyHistogram): void {
    for (let i = 0; i < BUCKETS; i++) {
      const count = this.counts[i] + other.counts[i];
      if (count > MAX_COUNT32) this.widen();
      this.counts[i] = count;
    }
    this.total += other.total;
    this.sum += other.sum;
    this.minimum = Math.min(this.minimum, other.minimum);
    this.maximum = Math.max(this.maximum, other.maximum);
  }

  /**
   * The histogram of the parts' samples together, with `sum` as its sum of values: the
   * caller's running sum in record order, which is what a histogram recorded directly would
   * hold (adding the parts' sums is another order of float additions).
   */
  static combined(parts: readonly LatencyHistogram[], sum: number): LatencyHistogram {
    const whole = new LatencyHistogram();
    for (const part of parts) whole.merge(part);
    whole.sum = sum;
    return whole;
  }

  get mean(): number {
    return this.total === 0 ? 0 : this.sum / this.total;
  }

  /**
   * The q-quantile by the nearest-rank rule: the smallest recorded value v with at least
   * ⌈q·n⌉ samples ≤ v, reported as its bucket's geometric middle, clamped to [min, max].
   */
  quantile(q: number): number {
    if (this.total === 0) return 0;
    // q·n in floating point can land just above a whole number (0.07 × 100 = 7.000000000000001).
    const rank = Math.max(1, Math.ceil(q * this.total - 1e-9));
    let seen = 0;
    for (let i = 0; i < BUCKETS; i++) {
      seen += this.counts[i];
      if (seen >= rank) {
        if (i === 0) return this.minimum < MIN_VALUE_MS ? this.minimum : 0;
        const middle = MIN_VALUE_MS * Math.pow(GROWTH, i - 0.5);
        return Math.min(this.maximum, Math.max(this.minimum, middle));
      }
    }
    return this.maximum;
  }

  /** Counts in doubles from now on (exact to 2^53). */
  private widen(): void {
    if (this.counts instanceof Float64Array) return;
    this.counts = Float64Array.from(this.counts);
  }

  /** A zeroed array of bucket counts, for `copyCounts`. */
  static emptyCounts(): Float64Array {
    return new Float64Array(BUCKETS);
  }

  /** Copies the bucket counts into `into` (reused): where a window of later samples begins, for `quantileSince`. */
  copyCounts(into: Float64Array): void {
    into.set(this.counts);
  }

  /**
   * The q-quantile (nearest rank) of the samples recorded since `before` was copied: a
   * window of a running histogram, at no cost per sample. Within LATENCY_RELATIVE_ERROR like
   * `quantile`, but reported at the bucket's middle (a window keeps no exact min and max).
   * 0 when the window is empty.
   */
  quantileSince(before: Float64Array, q: number): number {
    let total = 0;
    for (let i = 0; i < BUCKETS; i++) total += this.counts[i] - before[i];
    if (total === 0) return 0;
    const rank = Math.max(1, Math.ceil(q * total - 1e-9));
    let seen = 0;
    for (let i = 0; i < BUCKETS; i++) {
      seen += this.counts[i] - before[i];
      if (seen >= rank) return i === 0 ? 0 : MIN_VALUE_MS * Math.pow(GROWTH, i - 0.5);
    }
    return this.maximum;
  }

  summary(): LatencySummary {
    return {
      count: this.total,
      mean: this.mean,
      p50: this.quantile(0.5),
      p90: this.quantile(0.9),
      p95: this.quantile(0.95),
      p99: this.quantile(0.99),
      p999: this.quantile(0.999),
      min: this.total === 0 ? 0 : this.minimum,
      max: this.total === 0 ? 0 : this.maximum,
    };
  }
}
