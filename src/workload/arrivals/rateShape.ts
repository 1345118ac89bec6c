import { REGIONS } from '../../topology/regions.js';
import type { ArrivalShape, DiurnalSpec, FlashCrowd } from './arrivalsSchema.js';
import { flatDiurnal, hourlyDiurnal, peakTroughDiurnal, weeklyMultipliers, type DiurnalCurve } from './diurnal.js';
import { MS_PER_DAY, MS_PER_HOUR, MS_PER_MINUTE, MS_PER_WEEK, localWeekPositionAtStart, type TimeZoneGroup } from './localTime.js';

/**
 * The rate multiplier of one arrival stream over simulated time:
 *
 *   multiplier(t) = week(local week position of t) × growth(t) × crowd(t)
 *
 * - week: diurnal × weekday shape in local time, tabulated per minute over a week (mean 1);
 *   one table serves every time zone, each stream reading it at its own offset;
 * - growth: (1 + g)^(t / period), compounding from the run start;
 * - crowd: 1 for everyday traffic; for a flash crowd's stream, (multiplier − 1) inside its
 *   window (ramped) and 0 outside, so the crowd adds (multiplier − 1) × the shaped rate of
 *   the clients it comes from.
 *
 * Everything is piecewise simple (constant per table cell, exponential, linear), so the
 * exact integral (expected counts) and a tight upper bound per piece (for thinning) have
 * closed forms.
 */

/** The diurnal × weekday multiplier per cell of a local week, Monday 00:00 first. */
export interface WeeklyRateTable {
  readonly cellMs: number;
  /** cellMs × values.length: one week. */
  readonly periodMs: number;
  /** Mean multiplier over each cell (the exact average of the curve, not a sample). */
  readonly values: Float64Array;
  readonly max: number;
}

/** Table cells are one minute: 10,080 per week (79 KB), fine enough that the curve moves < 0.4 % per cell. */
export const DEFAULT_CELL_MS = MS_PER_MINUTE;

/**
 * Tabulates curve × weekday weight per cell. Each cell holds the curve's exact mean over
 * the cell (from its integral), so the table's integral over any whole cells is the
 * curve's, and the table's mean over a week is 1 when the curve's and the weights' are.
 */
export function buildWeeklyRateTable(diurnal: DiurnalCurve, weekly: Float64Array, cellMs: number = DEFAULT_CELL_MS): WeeklyRateTable {
  if (!(cellMs > 0 && MS_PER_DAY % cellMs === 0)) throw new RangeError(`expected a cell length that divides a day, got ${cellMs} ms`);
  if (weekly.length !== 7) throw new RangeError(`expected 7 weekday multipliers, got ${weekly.length}`);
  const cellsPerDay = MS_PER_DAY / cellMs;
  const cellHours = cellMs / MS_PER_HOUR;
  const day = new Float64Array(cellsPerDay);
  let previous = 0;
  for (let c = 0; c < cellsPerDay; c++) {
    const next = diurnal.cumulative(c + 1 === cellsPerDay ? 24 : (c + 1) * cellHours);
    day[c] = (next - previous) / cellHours;
    previous = next;
  }
  const values = new Float64Array(7 * cellsPerDay);
  let max = 0;
  for (let d = 0; d < 7; d++) {
    for (let c = 0; c < cellsPerDay; c++) {
      const value = weekly[d] * day[c];
      values[d * cellsPerDay + c] = value;
      if (value > max) max = value;
    }
  }
  return { cellMs, periodMs: MS_PER_WEEK, values, max };
}

/** The diurnal curve a resolved scenario asks for. */
export function diurnalCurveFor(spec: DiurnalSpec): DiurnalCurve {
  switch (spec.kind) {
    case 'off':
      return flatDiurnal();
    case 'peak':
      return peakTroughDiurnal(spec);
    case 'hourly':
      return hourlyDiurnal(spec.hourly);
  }
}

/** The log-rate per ms of compounding growth: (1 + rate)^(t / perMs) = exp(κ t). */
export function growthPerMs(rate: number, perMs: number): number {
  if (!(rate > -1 && Number.isFinite(rate))) throw new RangeError(`expected a growth rate above -100%, got ${rate}`);
  if (!(perMs > 0)) throw new RangeError(`expected a growth period above 0, got ${perMs} ms`);
  return Math.log1p(rate) / perMs;
}

/**
 * A flash crowd's extra-demand factor over simulated time: 0 before `startMs`, a linear
 * ramp to `height` over `rampUpMs`, flat, a linear ramp back to 0 over the last
 * `rampDownMs`, 0 from `endMs`. Ramps of 0 make it a step. The trapezoid follows the
 * phases Bodík et al. measured in real spikes — onset, peak, decay — whose steepness and
 * duration vary from spike to spike ("Characterizing, modeling, and generating workload
 * spikes for stateful services", SoCC 2010); a linear decay is the simplest shape with an
 * exact integral, and a step is the worst case for caches.
 */
export interface FlashWindow {
  readonly startMs: number;
  readonly endMs: number;
  readonly rampUpMs: number;
  readonly rampDownMs: number;
  /** multiplier − 1: the extra demand at full strength, in units of the normal rate. */
  readonly height: number;
}

export function flashWindowFor(crowd: FlashCrowd): FlashWindow {
  return { startMs: crowd.start, endMs: crowd.start + crowd.duration, rampUpMs: crowd.rampUp, rampDownMs: crowd.rampDown, height: crowd.multiplier - 1 };
}

/** The crowd factor at time t (right-continuous: the step up counts at startMs, the step down at endMs). */
export function flashFactor(window: FlashWindow, tMs: number): number {
  const { startMs, endMs, rampUpMs, rampDownMs, height } = window;
  if (tMs < startMs || tMs >= endMs) return 0;
  if (tMs < startMs + rampUpMs) return (height * (tMs - startMs)) / rampUpMs;
  if (tMs > endMs - rampDownMs) return (height * (endMs - tMs)) / rampDownMs;
  return height;
}

/** ∫₀ᴸ e^{κs} ds, accurate for small κL. */
function expIntegral(kappa: number, length: number): number {
  const x = kappa * length;
  return x === 0 ? length : (Math.expm1(x) / x) * length;
}

/** ∫₀ᴸ s e^{κs} ds, accurate for small κL (series below |κL| = 0.01, where the closed form cancels). */
function rampExpIntegral(kappa: number, length: number): number {
  const x = kappa * length;
  const l2 = length * length;
  if (Math.abs(x) < 0.01) return l2 * (1 / 2 + x * (1 / 3 + x * (1 / 8 + x * (1 / 30 + x * (1 / 144 + x * (1 / 840 + x / 5760))))));
  return (l2 * (x * Math.exp(x) - Math.expm1(x))) / (x * x);
}

export class RateShape {
  /** κ of the growth factor exp(κ t); 0 without growth. */
  readonly growthPerMs: number;
  /**
   * Cells are numbered from the run start: cell j covers simulated time
   * [j·cellMs − cellShiftMs, (j+1)·cellMs − cellShiftMs) and reads table cell
   * (j + firstCell) mod cells. Integer arithmetic, no floating-point modulo on the hot path,
   * and every boundary computed the same way wherever it is needed.
   */
  readonly cellShiftMs: number;
  readonly firstCell: number;

  constructor(
    readonly table: WeeklyRateTable,
    /** Local week position (ms since local Monday 00:00) at simulated time 0. */
    readonly weekPositionAtStartMs: number,
    growthLogRatePerMs: number,
    /** The flash crowd this stream carries; null for everyday traffic (crowd factor 1). */
    readonly window: FlashWindow | null,
  ) {
    if (!(weekPositionAtStartMs >= 0 && weekPositionAtStartMs < table.periodMs)) {
      throw new RangeError(`expected a week position in [0, ${table.periodMs}) ms, got ${weekPositionAtStartMs}`);
    }
    if (!Number.isFinite(growthLogRatePerMs)) throw new RangeError(`expected a finite growth rate, got ${growthLogRatePerMs}`);
    this.growthPerMs = growthLogRatePerMs;
    this.firstCell = Math.floor(weekPositionAtStartMs / table.cellMs);
    this.cellShiftMs = weekPositionAtStartMs - this.firstCell * table.cellMs;
  }

  /** True when the multiplier is 0 at all times (an all-zero table, or a crowd of multiplier 1). */
  get isZero(): boolean {
    return this.table.max === 0 || (this.window !== null && (this.window.height === 0 || this.window.endMs <= this.window.startMs));
  }

  /** Number (from the run start) of the cell simulated time t falls in. */
  cellNumberAt(tMs: number): number {
    return Math.floor((tMs + this.cellShiftMs) / this.table.cellMs);
  }

  /** Simulated time at which cell number j ends. */
  cellEndMs(j: number): number {
    return (j + 1) * this.table.cellMs - this.cellShiftMs;
  }

  /** Index into the table of cell number j. */
  tableIndex(j: number): number {
    const n = this.table.values.length;
    const k = (j + this.firstCell) % n;
    return k < 0 ? k + n : k;
  }

  /** Index of the table cell simulated time t falls in. */
  cellAt(tMs: number): number {
    return this.tableIndex(this.cellNumberAt(tMs));
  }

  /** The multiplier at simulated time t ≥ 0 (the table is constant per cell). */
  multiplierAt(tMs: number): number {
    const crowd = this.window === null ? 1 : flashFactor(this.window, tMs);
    return this.table.values[this.cellAt(tMs)] * Math.exp(this.growthPerMs * tMs) * crowd;
  }

  /**
   * An upper bound of the multiplier over [fromMs, toMs]: the largest table cell the window
   * touches × the larger growth factor of its ends × the largest crowd factor in it. Exact
   * (the supremum) when the window lies within one cell and one crowd phase.
   */
  upperBound(fromMs: number, toMs: number): number {
    if (!(toMs >= fromMs)) throw new RangeError(`expected fromMs ≤ toMs, got [${fromMs}, ${toMs}]`);
    const { values, cellMs, periodMs, max } = this.table;
    let tableMax = 0;
    if (toMs - fromMs >= periodMs) tableMax = max;
    else {
      const first = this.cellAt(fromMs);
      const cells = Math.min(values.length, Math.ceil((toMs - fromMs) / cellMs) + 1);
      for (let i = 0; i < cells; i++) tableMax = Math.max(tableMax, values[(first + i) % values.length]);
    }
    const growth = Math.exp(this.growthPerMs * (this.growthPerMs > 0 ? toMs : fromMs));
    return tableMax * growth * this.crowdBound(fromMs, toMs);
  }

  private crowdBound(fromMs: number, toMs: number): number {
    const w = this.window;
    if (w === null) return 1;
    if (toMs < w.startMs || fromMs >= w.endMs) return 0;
    const plateauFrom = w.startMs + w.rampUpMs;
    const plateauTo = w.endMs - w.rampDownMs;
    if (fromMs <= plateauTo && toMs >= plateauFrom) return w.height;
    // Wholly within one ramp: the factor is largest at the end nearer the plateau.
    return toMs < plateauFrom ? flashFactor(w, toMs) : flashFactor(w, fromMs);
  }

  /**
   * ∫ multiplier dt over [fromMs, toMs] (in ms × multiplier): the expected number of
   * arrivals is this × the stream's mean rate per ms. Exact up to rounding: it sums the
   * closed form over each piece where the table and the crowd factor are simple.
   */
  integral(fromMs: number, toMs: number): number {
    if (!(toMs >= fromMs)) throw new RangeError(`expected fromMs ≤ toMs, got [${fromMs}, ${toMs}]`);
    const w = this.window;
    let a = fromMs;
    let b = toMs;
    if (w !== null) {
      a = Math.max(a, w.startMs);
      b = Math.min(b, w.endMs);
      if (b <= a) return 0;
    }
    const values = this.table.values;
    const kappa = this.growthPerMs;
    let j = this.cellNumberAt(a);
    let k = this.tableIndex(j);
    let cellEnd = this.cellEndMs(j);
    let total = 0;
    let t = a;
    while (t < b) {
      let end = cellEnd < b ? cellEnd : b;
      let fA = 1;
      let fB = 1;
      if (w !== null) {
        const brk = this.nextCrowdBreak(t);
        if (brk < end) end = brk;
        fA = this.crowdOnPiece(t, t);
        fB = this.crowdOnPiece(t, end);
      }
      const length = end - t;
      if (length > 0) {
        const scale = values[k] * Math.exp(kappa * t);
        total += scale * (fA * expIntegral(kappa, length) + ((fB - fA) / length) * rampExpIntegral(kappa, length));
      }
      t = end;
      if (end === cellEnd) {
        j++;
        k = k + 1 === values.length ? 0 : k + 1;
        cellEnd = this.cellEndMs(j);
      }
    }
    return total;
  }

  /** The next crowd phase boundary after t (t inside the window). */
  nextCrowdBreak(tMs: number): number {
    const w = this.window as FlashWindow;
    const plateauFrom = w.startMs + w.rampUpMs;
    if (tMs < plateauFrom) return plateauFrom;
    const plateauTo = w.endMs - w.rampDownMs;
    return tMs < plateauTo ? plateauTo : w.endMs;
  }

  /**
   * The crowd factor at x, continued linearly from the phase that `pieceStart` lies in
   * (so a piece's end takes its left limit: a step down at endMs still reads `height`).
   */
  crowdOnPiece(pieceStart: number, xMs: number): number {
    const w = this.window as FlashWindow;
    if (pieceStart < w.startMs + w.rampUpMs) return (w.height * (xMs - w.startMs)) / w.rampUpMs;
    if (pieceStart < w.endMs - w.rampDownMs) return w.height;
    return (w.height * (w.endMs - xMs)) / w.rampDownMs;
  }
}

/** One arrival process of a run: everyday traffic of a time-zone group, or one flash crowd's share of it. */
export interface ArrivalStreamPlan {
  /** Name of the random stream it draws from (stable: adding a crowd or a group shifts no other stream). */
  readonly streamName: string;
  /** Index into the time-zone groups. */
  readonly group: number;
  /** Index into the scenario's flash crowds; −1 for everyday traffic. */
  readonly flashCrowd: number;
  /** The group's mean rate (all-regions rate × the group's demand share), per second. */
  readonly ratePerSecond: number;
  readonly shape: RateShape;
}

function offsetLabel(hours: number): string {
  return hours >= 0 ? `utc+${hours}` : `utc${hours}`;
}

/**
 * The arrival processes of a run: one per time-zone group for everyday traffic, and one per
 * (flash crowd, group of its region) for each crowd, all sharing one weekly table.
 * `ratePerSecond` is the all-regions mean rate: with any diurnal and weekday shape, each
 * group's mean over a local week is its share of it.
 */
export function planArrivalStreams(shape: ArrivalShape, ratePerSecond: number, groups: readonly TimeZoneGroup[]): ArrivalStreamPlan[] {
  const table = buildWeeklyRateTable(diurnalCurveFor(shape.diurnal), weeklyMultipliers(shape.weekly));
  const kappa = growthPerMs(shape.growth.rate, shape.growth.per);
  const plans: ArrivalStreamPlan[] = [];
  const positions = groups.map((group) => localWeekPositionAtStart(shape.start, group.utcOffsetHours));
  groups.forEach((group, g) => {
    plans.push({
      streamName: `workload.arrivals.${REGIONS[group.region]}.${offsetLabel(group.utcOffsetHours)}`,
      group: g,
      flashCrowd: -1,
      ratePerSecond: ratePerSecond * group.demandShare,
      shape: new RateShape(table, positions[g], kappa, null),
    });
  });
  shape.flashCrowds.forEach((crowd, c) => {
    const window = flashWindowFor(crowd);
    groups.forEach((group, g) => {
      if (crowd.region !== null && REGIONS[group.region] !== crowd.region) return;
      plans.push({
        streamName: `workload.arrivals.flash${c}.${REGIONS[group.region]}.${offsetLabel(group.utcOffsetHours)}`,
        group: g,
        flashCrowd: c,
        ratePerSecond: ratePerSecond * group.demandShare,
        shape: new RateShape(table, positions[g], kappa, window),
      });
    });
  });
  return plans;
}
