/**
 * The daily and weekly shape of demand in a client's local time: multipliers of the mean
 * rate with mean exactly 1, so a shaped run still sends the configured rate on average.
 */

/** A smooth, 24-hour periodic demand multiplier of local hour, with mean 1 over a day. */
export interface DiurnalCurve {
  /** Multiplier at a local hour (any real number; the curve repeats every 24 h). */
  value(hour: number): number;
  /** ∫ value over [0, hour] for hour in [0, 24]; 24 at hour 24 (mean 1 over the day). */
  cumulative(hour: number): number;
  /** Local hour of the highest value. */
  readonly peakHour: number;
  readonly max: number;
  readonly min: number;
}

/**
 * Default diurnal shape, typical of published CDN/ISP traffic; based on:
 * - the evening peak: C. Labovitz (Arbor Networks, "The Internet After Dark", 2009) finds
 *   European traffic peaking around 19:00 GMT (20:00–21:00 local) and North American
 *   consumer traffic at 23:00 EDT; Sandvine's Global Internet Phenomena reports use
 *   19:00–23:00 local as the "peak period" (not re-checked for this note). We take 21:00.
 * - the trough: Labovitz's North American curve is still at 50 % of the daily peak at
 *   06:00 and lowest before that; a 2017 Google Analytics report (cited by Wikipedia,
 *   "Internet rush hour") has web use falling to its base at 04:00. We take 04:30, so the
 *   fall lasts 7.5 h and the climb 16.5 h.
 * - peak-to-trough 2.5, typical of published CDN traffic but not a measured figure: it is
 *   based on Labovitz's curve, where 06:00 at half the peak puts the trough below half (a
 *   ratio of at least 2). With 2.5 the curve peaks at 1.43 × and bottoms at 0.57 × the
 *   mean, and 06:00 is at 41 % of the peak.
 * A 100-second run sees only the level at its start hour, not the shape; the shape matters
 * for runs of hours or days.
 */
export const DEFAULT_DIURNAL_PEAK_HOUR = 21;
export const DEFAULT_DIURNAL_TROUGH_HOUR = 4.5;
export const DEFAULT_DIURNAL_PEAK_TO_TROUGH = 2.5;
/** Hours from the peak to the trough when a scenario gives only the peak hour. */
export const DEFAULT_DIURNAL_FALL_HOURS = 7.5;

function wrapHour(hour: number): number {
  const h = hour % 24;
  return h < 0 ? h + 24 : h;
}

/** The flat curve: 1 at every hour (`diurnal: off`). */
export function flatDiurnal(): DiurnalCurve {
  return { value: () => 1, cumulative: (hour) => hour, peakHour: 0, max: 1, min: 1 };
}

export interface PeakTroughOptions {
  /** Local hour of the daily maximum, in [0, 24). */
  peakHour: number;
  /** Local hour of the daily minimum, in [0, 24), not the peak hour. */
  troughHour: number;
  /** Maximum over minimum, ≥ 1 (1 = flat). */
  peakToTrough: number;
}

/**
 * A two-piece cosine: a half cosine falls from the peak to the trough, another climbs back,
 * each spanning its own number of hours, so the climb can be slower than the fall as in
 * measured traffic. Both pieces have zero slope where they meet (the curve is C¹), and each
 * half cosine averages to its midline, so the mean is exactly 1 whatever the two spans;
 * amplitude A = (r − 1)/(r + 1) gives max/min = (1 + A)/(1 − A) = r exactly.
 */
export function peakTroughDiurnal(options: PeakTroughOptions): DiurnalCurve {
  const { peakHour, troughHour, peakToTrough } = options;
  if (!(peakHour >= 0 && peakHour < 24)) throw new RangeError(`expected a peak hour in [0, 24), got ${peakHour}`);
  if (!(troughHour >= 0 && troughHour < 24)) throw new RangeError(`expected a trough hour in [0, 24), got ${troughHour}`);
  if (!(peakToTrough >= 1 && Number.isFinite(peakToTrough))) throw new RangeError(`expected a peak-to-trough ratio ≥ 1, got ${peakToTrough}`);
  const fall = wrapHour(troughHour - peakHour);
  if (fall === 0) throw new RangeError('expected the trough at another hour than the peak');
  const rise = 24 - fall;
  const amplitude = (peakToTrough - 1) / (peakToTrough + 1);
  // Integral from the peak along `d` hours (0 ≤ d ≤ 24).
  const fromPeak = (d: number): number =>
    d <= fall
      ? d + ((amplitude * fall) / Math.PI) * Math.sin((Math.PI * d) / fall)
      : d - ((amplitude * rise) / Math.PI) * Math.sin((Math.PI * (d - fall)) / rise);
  const midnightFromPeak = wrapHour(-peakHour);
  const atMidnight = fromPeak(midnightFromPeak);
  return {
    value(hour: number): number {
      const d = wrapHour(hour - peakHour);
      return d < fall ? 1 + amplitude * Math.cos((Math.PI * d) / fall) : 1 - amplitude * Math.cos((Math.PI * (d - fall)) / rise);
    },
    cumulative(hour: number): number {
      if (hour >= 24) return 24;
      const d = wrapHour(hour - peakHour);
      // Past the peak since midnight: the way from midnight wraps around the peak.
      return d >= midnightFromPeak ? fromPeak(d) - atMidnight : 24 - atMidnight + fromPeak(d);
    },
    peakHour,
    max: 1 + amplitude,
    min: 1 - amplitude,
  };
}

/** The default curve: peak at 21:00, trough at 04:30, ratio 2.5 (see the constants' sources). */
export function defaultDiurnal(): DiurnalCurve {
  return peakTroughDiurnal({
    peakHour: DEFAULT_DIURNAL_PEAK_HOUR,
    troughHour: DEFAULT_DIURNAL_TROUGH_HOUR,
    peakToTrough: DEFAULT_DIURNAL_PEAK_TO_TROUGH,
  });
}

/** Scales non-negative weights to mean exactly 1 (up to rounding); not all may be 0. */
export function normaliseToMeanOne(weights: readonly number[], what: string): Float64Array {
  let sum = 0;
  for (const w of weights) {
    if (!(w >= 0 && Number.isFinite(w))) throw new RangeError(`expected ${what} that are finite and ≥ 0, got ${w}`);
    sum += w;
  }
  if (!(sum > 0)) throw new RangeError(`expected ${what} with at least one above 0`);
  const mean = sum / weights.length;
  return Float64Array.from(weights, (w) => w / mean);
}

/**
 * A curve through 24 hourly weights (normalised to mean 1), weight i at hour i + 0.5 (the
 * middle of hour i), by periodic cubic Hermite interpolation with the shape-preserving
 * slopes of PCHIP (Fritsch & Carlson, "Monotone piecewise cubic interpolation", SIAM J.
 * Numer. Anal. 17(2), 1980; harmonic-mean slopes as in Fritsch & Butland, 1984): each piece
 * runs monotonically between its two weights, so the curve never overshoots (never goes
 * below 0) and its maximum is the largest weight. For any Hermite slopes on equal spacing a
 * piece integrates to (y₀ + y₁)/2 + (d₀ − d₁)/12; the slope terms cancel around the day, so
 * the mean is exactly the weights' mean, 1.
 */
export function hourlyDiurnal(weights: readonly number[]): DiurnalCurve {
  if (weights.length !== 24) throw new RangeError(`expected 24 hourly weights, got ${weights.length}`);
  const y = normaliseToMeanOne(weights, 'hourly weights');
  const slope = new Float64Array(24);
  for (let i = 0; i < 24; i++) {
    const before = y[i] - y[(i + 23) % 24];
    const after = y[(i + 1) % 24] - y[i];
    slope[i] = before * after > 0 ? (2 * before * after) / (before + after) : 0;
  }
  // Piece i runs from knot i (hour i + 0.5) to knot i + 1; `partial(i, s)` integrates it
  // over its first s hours (0 ≤ s ≤ 1).
  const partial = (i: number, s: number): number => {
    const j = (i + 1) % 24;
    const s2 = s * s;
    const s3 = s2 * s;
    const s4 = s3 * s;
    return (
      y[i] * (s4 / 2 - s3 + s) + slope[i] * (s4 / 4 - (2 * s3) / 3 + s2 / 2) + y[j] * (-s4 / 2 + s3) + slope[j] * (s4 / 4 - s3 / 3)
    );
  };
  // fromFirstKnot[i]: integral from hour 0.5 to knot i (hour i + 0.5).
  const fromFirstKnot = new Float64Array(25);
  for (let i = 0; i < 24; i++) fromFirstKnot[i + 1] = fromFirstKnot[i] + partial(i, 1);
  // ∫ over [0, 0.5): the second half of the last piece.
  const firstHalfHour = partial(23, 1) - partial(23, 0.5);
  let peak = 0;
  for (let i = 1; i < 24; i++) if (y[i] > y[peak]) peak = i;
  let min = Infinity;
  for (let i = 0; i < 24; i++) min = Math.min(min, y[i]);
  return {
    value(hour: number): number {
      const x = wrapHour(hour - 0.5);
      const i = Math.min(23, Math.floor(x));
      const s = x - i;
      const j = (i + 1) % 24;
      const s2 = s * s;
      const s3 = s2 * s;
      return y[i] * (2 * s3 - 3 * s2 + 1) + slope[i] * (s3 - 2 * s2 + s) + y[j] * (-2 * s3 + 3 * s2) + slope[j] * (s3 - s2);
    },
    cumulative(hour: number): number {
      if (hour >= 24) return 24;
      if (hour < 0.5) return partial(23, hour + 0.5) - partial(23, 0.5);
      const x = hour - 0.5;
      const i = Math.min(23, Math.floor(x));
      return firstHalfHour + fromFirstKnot[i] + partial(i, x - i);
    },
    peakHour: peak + 0.5,
    max: y[peak],
    min,
  };
}

/** ∫ curve over [fromHour, toHour] for any fromHour ≤ toHour (whole days count 24 each). */
export function integrateDiurnal(curve: DiurnalCurve, fromHour: number, toHour: number): number {
  if (!(toHour >= fromHour)) throw new RangeError(`expected fromHour ≤ toHour, got [${fromHour}, ${toHour}]`);
  const at = (hour: number): number => {
    const day = Math.floor(hour / 24);
    return day * 24 + curve.cumulative(hour - day * 24);
  };
  return at(toHour) - at(fromHour);
}

/**
 * Day-of-week multipliers, Monday first, normalised to mean 1 (default: flat). The weight
 * applies to the whole local day: a day with weight 0.85 carries 85 % of an average day's
 * requests, with the same diurnal shape. Example: traffic driven by office hours dips at
 * weekends, e.g. [1, 1, 1, 1, 1, 0.85, 0.85]; residential and video traffic can rise
 * instead (AMS-IX reported its weekly peak moving to Sunday in 2006).
 */
export function weeklyMultipliers(weights?: readonly number[]): Float64Array {
  if (weights === undefined) return new Float64Array(7).fill(1);
  if (weights.length !== 7) throw new RangeError(`expected 7 weekday weights (Monday to Sunday), got ${weights.length}`);
  return normaliseToMeanOne(weights, 'weekday weights');
}
