/**
 * The stopping rule of the cache-only warm-up until steady (docs/warmup.md, "Until steady").
 * Pure functions on the blocks' hit ratios, so the rule can be tested on series of its own.
 *
 * The question a warm-up must answer is the one a user asks of it: would a longer warm-up
 * change what the run measures? The rule answers it for a warm-up four times as long.
 * Caches filling from empty approach their level as a power of the requests seen,
 * h(t) = h∞ − c·t^−a (docs/warmup.md: a of 1 to 3 on the validation's blocks), so each
 * doubling of the requests adds r = 2^−a times what the doubling before it added. The rule
 * measures two successive doublings directly, as the change D1 of the mean hit ratio from
 * the blocks of [n/8, n/4) to those of [n/4, n/2), and D2 from there to [n/2, n), takes
 * r = D2/D1, and projects what ×4 still adds from the end: D2·(r^1.5 + r^2.5) (the segments'
 * means sit about half a doubling before their ends). Where no decay is evident (D1 not
 * clearly of D2's sign and larger) it takes r = 1, the logarithmic growth an earlier rule
 * assumed throughout: D2·2, as a straight line in ln(requests) gives.
 *
 * The noise: the blocks' standard deviation σ from successive differences (von Neumann),
 * which a trend hardly moves, gives D2 a standard error; the rule bounds the projection both
 * ways by (|D2| + 2 SE)·(r^1.5 + r^2.5), so a series still falling (a stationary start that
 * overshoots, TTL expiry) is not steady while it falls by more than the tolerance, and a
 * series that starts at its level (the stationary start) is steady after the fewest blocks
 * its noise allows.
 */

/** The rule compares the warm-up with one this many times as long. */
export const STEADY_LOOK_AHEAD = 4;
/** Fewest blocks before the rule may stop: its three segments then hold one, two and four blocks. */
export const STEADY_MIN_BLOCKS = 8;
/** Standard errors of the last doubling's change added to its size: a one-sided bound of about 98 %. */
const CHANGE_ERRORS = 2;

/** What the rule found in a series of blocks. */
export interface SteadyGain {
  /** Change of the mean hit ratio over the last doubling (blocks [n/4, n/2) to [n/2, n)), as a fraction. */
  change: number;
  /** …and over the doubling before it ([n/8, n/4) to [n/4, n/2)). */
  previousChange: number;
  /** What each doubling adds of the one before: 2^−a; 1 when no decay is evident. */
  ratio: number;
  /** Standard deviation of one block's hit ratio, from successive differences over [n/4, n). */
  blockNoise: number;
  /** Standard error of `change`. */
  changeError: number;
  /** change·(r^1.5 + r^2.5): the change a warm-up four times as long would bring (signed). */
  projected: number;
  /** (|change| + 2 standard errors)·(r^1.5 + r^2.5): the most it would change the hit ratio either way; the rule compares this with the tolerance. */
  gain: number;
}

/** The mean of `ratios` over blocks [from, to). */
function meanOf(ratios: ArrayLike<number>, from: number, to: number): number {
  let sum = 0;
  for (let i = from; i < to; i++) sum += ratios[i];
  return sum / (to - from);
}

/**
 * The projected change of a warm-up four times as long, from equal blocks' hit ratios in
 * order, or null with fewer than STEADY_MIN_BLOCKS blocks. Block 0 never counts: it holds
 * the coldest part of a start from empty.
 */
export function steadyGain(blockRatios: ArrayLike<number>): SteadyGain | null {
  const n = blockRatios.length;
  if (n < STEADY_MIN_BLOCKS) return null;
  const a = Math.floor(n / 8);
  const b = Math.floor(n / 4);
  const c = Math.floor(n / 2);
  const m0 = meanOf(blockRatios, a, b);
  const m1 = meanOf(blockRatios, b, c);
  const m2 = meanOf(blockRatios, c, n);
  const change = m2 - m1;
  const previousChange = m1 - m0;
  let squares = 0;
  for (let i = b + 1; i < n; i++) squares += (blockRatios[i] - blockRatios[i - 1]) ** 2;
  const blockNoise = Math.sqrt(squares / (2 * (n - b - 1)));
  const changeError = blockNoise * Math.sqrt(1 / (c - b) + 1 / (n - c));
  const previousError = blockNoise * Math.sqrt(1 / (b - a) + 1 / (c - b));
  // A decay is evident when the doubling before changed clearly more, the same way. The signs
  // are compared, not the product: two tiny changes of opposite sign multiply to 0 (underflow),
  // which passed as "the same way" and gave a negative ratio and a NaN gain (fast-check found it).
  const decaying = Math.abs(previousChange) > CHANGE_ERRORS * previousError && Math.sign(previousChange) * Math.sign(change) >= 0 && Math.abs(change) < Math.abs(previousChange);
  const ratio = decaying ? change / previousChange : 1;
  const ahead = ratio ** 1.5 + ratio ** 2.5;
  return {
    change,
    previousChange,
    ratio,
    blockNoise,
    changeError,
    projected: change * ahead,
    gain: (Math.abs(change) + CHANGE_ERRORS * changeError) * ahead,
  };
}

/**
 * Whether the warm-up may stop: for both series (the CDN hit ratio and the edge hit ratio,
 * spec 1.1) a warm-up four times as long would change the hit ratio by less than `tolerance`.
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
