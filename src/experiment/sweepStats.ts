import { mean, sampleStandardDeviation } from 'simple-statistics';

/** A figure over the replicates of one sweep point: its mean and 95 % confidence interval. */
export interface FigureEstimate {
  mean: number;
  ci95Low: number;
  ci95High: number;
  /** Replicates the estimate is made of. */
  n: number;
}

/**
 * Two-sided 97.5 % quantiles of Student's t distribution for 1–30 degrees of freedom (any
 * statistics table, e.g. NIST/SEMATECH e-Handbook §1.3.6.7.2): sweeps run a handful of
 * replicates, where the normal quantile would make the interval too narrow.
 */
const T_975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069,
  2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/**
 * The standard normal's 97.5 % quantile. simple-statistics' probit() approximates it as
 * 1.9572 (its inverse error function is good to about 3 digits), too coarse here.
 */
const Z_975 = 1.959963984540054;

/**
 * t(0.975, df): the table up to 30, beyond it the normal quantile with the first
 * Cornish–Fisher correction, z + (z³ + z)/(4·df), within 0.003 of the exact value there.
 */
export function studentT975(degreesOfFreedom: number): number {
  if (!Number.isInteger(degreesOfFreedom) || degreesOfFreedom < 1) throw new RangeError(`degrees of freedom must be a whole number ≥ 1, got ${degreesOfFreedom}`);
  if (degreesOfFreedom <= T_975.length) return T_975[degreesOfFreedom - 1];
  return Z_975 + (Z_975 ** 3 + Z_975) / (4 * degreesOfFreedom);
}

const round = (value: number): number => Math.round(value * 1e9) / 1e9;

/**
 * Mean and 95 % confidence interval of the mean (Student's t, sample standard deviation):
 * mean ± t(0.975, n−1)·s/√n. One replicate has no spread to measure: its interval is the
 * value itself. Rounded to 9 decimals so that sums in another order print the same.
 */
export function estimate(samples: readonly number[]): FigureEstimate {
  if (samples.length === 0) throw new RangeError('no samples');
  const centre = mean([...samples]);
  if (samples.length === 1) return { mean: round(centre), ci95Low: round(centre), ci95High: round(centre), n: 1 };
  const half = (studentT975(samples.length - 1) * sampleStandardDeviation([...samples])) / Math.sqrt(samples.length);
  return { mean: round(centre), ci95Low: round(centre - half), ci95High: round(centre + half), n: samples.length };
}
