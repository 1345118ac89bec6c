/**
 * The stopping rule of the cache-only warm-up until steady (docs/warmup.md, "Until steady").
 * Pure functions on the blocks' hit ratios, so the rule can be tested on series of its own.
 *
 * The question a warm-up must answer is the one a user asks of it: would a longer warm-up
 * change what the run measures? The rule answers it for a warm-up four times as long. The
 * hit ratio of caches that are still filling climbs roughly with the logarithm of the
 * requests they have seen (a Zipf catalogue is discovered ever more slowly), so over the
 * last half of the blocks it fits the hit ratio against ln(requests) by least squares;
 * the slope times ln 4 is what four times the requests would still add. The fit's own
 * standard error is added before comparing with the tolerance, so a short or noisy series
 * is not taken for a flat one: the blocks' noise, not a fixed block size, decides how many
 * blocks are enough. Looking at half of the warm-up, not at a fixed number of blocks, lets
 * the window grow with the warm-up, which grows with the catalogue and the number of caches.
 */

/** The rule compares the warm-up with one this many times as long. */
export const STEADY_LOOK_AHEAD = 4;
/** Fewest blocks before the rule may stop: the fit then spans the last four. */
export const STEADY_MIN_BLOCKS = 8;
/** Standard errors of the slope added to it: a one-sided bound of about 98 %. */
const SLOPE_ERRORS = 2;
const LN_LOOK_AHEAD = Math.log(STEADY_LOOK_AHEAD);

/** What the rule found in a series of blocks. */
export interface SteadyGain {
  /** Hit-ratio points (as a fraction) per e-fold of requests, fitted over the window. */
  slope: number;
  /** Standard error of that slope from the fit's residuals. */
  slopeError: number;
  /** (slope + 2 standard errors) × ln 4: the gain a warm-up four times as long would still bring, at most. */
  gain: number;
  /** Blocks in the window: the last half. */
  window: number;
}

/**
 * The projected gain of a warm-up four times as long, from equal blocks' hit ratios in
 * order, or null with fewer than STEADY_MIN_BLOCKS blocks. Block i (0-based) is placed at
 * ln(i + ½), its midpoint in blocks; the block size cancels out of the slope.
 */
export function steadyGain(blockRatios: ArrayLike<number>): SteadyGain | null {
  const n = blockRatios.length;
  if (n < STEADY_MIN_BLOCKS) return null;
  const from = Math.floor(n / 2);
  const m = n - from;
  let meanX = 0;
  let meanY = 0;
  for (let i = from; i < n; i++) {
    meanX += Math.log(i + 0.5);
    meanY += blockRatios[i];
  }
  meanX /= m;
  meanY /= m;
  let sxx = 0;
  let sxy = 0;
  for (let i = from; i < n; i++) {
    const dx = Math.log(i + 0.5) - meanX;
    sxx += dx * dx;
    sxy += dx * (blockRatios[i] - meanY);
  }
  const slope = sxy / sxx;
  let sse = 0;
  for (let i = from; i < n; i++) {
    const residual = blockRatios[i] - meanY - slope * (Math.log(i + 0.5) - meanX);
    sse += residual * residual;
  }
  const slopeError = Math.sqrt(sse / (m - 2) / sxx);
  return { slope, slopeError, gain: (slope + SLOPE_ERRORS * slopeError) * LN_LOOK_AHEAD, window: m };
}

/**
 * Whether the warm-up may stop: both series (the CDN hit ratio and the edge hit ratio,
 * spec 1.1) project less than `tolerance` of gain over a warm-up four times as long.
 */
export function isSteady(cdnRatios: ArrayLike<number>, edgeRatios: ArrayLike<number>, tolerance: number): boolean {
  const cdn = steadyGain(cdnRatios);
  const edge = steadyGain(edgeRatios);
  return cdn !== null && edge !== null && cdn.gain < tolerance && edge.gain < tolerance;
}

/**
 * Requests per block when the scenario does not set `block`: enough that every edge cache
 * sees a few thousand requests and the catalogue could be asked for once in a block, so
 * the eight blocks the rule needs at least are a warm-up of its own size; rounded up to a
 * hundred thousand, between 100 k and 10 M.
 */
export function steadyBlockRequests(objects: number, edgeCaches: number): number {
  const wanted = Math.max(objects, edgeCaches * 3_000);
  return Math.min(10_000_000, Math.max(100_000, Math.ceil(wanted / 100_000) * 100_000));
}
