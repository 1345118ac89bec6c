/**
 * Verdicts on the service's stated figures (spec 1.1, 4.8, 4.9, 7.1, 8): is a simulated
 * value within what the service states? Pure: no knowledge of runs or reports.
 *
 * Tolerance rules (docs/stated-figures.md "Tolerance rules"):
 * - a stated range is inclusive at both ends (15–20 ms: 15 and 20 are within);
 * - a stated mean given as a point (25.45 ms) is within 5 % of it either way;
 * - a stated ratio given as a point (95 % hit ratio, 99.9 % availability) is a floor: at least;
 * - a stated constant (5 s, 5 MB, 31536000 s) must be met exactly;
 * - "more than N" is at least N + 1 for a count.
 */

export type Verdict = 'within' | 'outside' | 'not-applicable';

/** Inclusive bounds; at least one of them is set. */
export interface Bounds {
  readonly min?: number;
  readonly max?: number;
}

/** Share of a stated point mean either side of it that still counts as within. */
export const POINT_MEAN_TOLERANCE = 0.05;

/** The inclusive range of a stated point mean: within POINT_MEAN_TOLERANCE of it. */
export function pointMean(value: number, tolerance: number = POINT_MEAN_TOLERANCE): Bounds {
  return { min: value * (1 - tolerance), max: value * (1 + tolerance) };
}

/** A stated constant: exactly this value. */
export const exactly = (value: number): Bounds => ({ min: value, max: value });

/** `within` when value lies in the inclusive bounds; `not-applicable` when there is no value to judge. */
export function verdictOf(value: number | null, bounds: Bounds): Verdict {
  if (value === null || Number.isNaN(value)) return 'not-applicable';
  if (bounds.min !== undefined && value < bounds.min) return 'outside';
  if (bounds.max !== undefined && value > bounds.max) return 'outside';
  return 'within';
}

/** How far outside the bounds a value is, in words: "3.2 below the minimum 15". */
export function outsideBy(value: number, bounds: Bounds, format: (value: number) => string): string {
  if (bounds.min !== undefined && value < bounds.min) return `${format(value)} is below the minimum ${format(bounds.min)}`;
  if (bounds.max !== undefined && value > bounds.max) return `${format(value)} is above the maximum ${format(bounds.max)}`;
  return `${format(value)} is within`;
}
