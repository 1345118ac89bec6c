import type { RandomStream } from '../../sim/random.js';
import type { FlashWindow, RateShape } from './rateShape.js';

/**
 * Arrival times of a non-homogeneous Poisson process with rate
 * λ(t) = mean rate × shape.multiplierAt(t), by thinning (P. A. W. Lewis and G. S. Shedler,
 * "Simulation of nonhomogeneous Poisson processes by thinning", Naval Research Logistics
 * Quarterly 26(3), 1979): candidates come from a dominating process of rate λ*(t) ≥ λ(t)
 * and each is kept with probability λ(t)/λ*(t).
 *
 * The dominating rate is piecewise constant, not one global maximum: on each piece (a table
 * cell, cut where a flash crowd changes phase) it is the table value × the growth factor at
 * the piece's far end × the larger crowd factor of its ends. A candidate is found by
 * spending one unit exponential draw of cumulative dominating rate across pieces (inverting
 * the piecewise-linear cumulative rate), so crossing pieces costs no extra draws. As the
 * table is constant per cell, the dominating rate equals the true rate wherever there is
 * no growth and no ramp: then every candidate is kept without a second draw. With growth
 * of 10 % per 30 days a one-minute piece rejects about 1 candidate in 900,000.
 *
 * `next` creates no objects, arrays or closures: numbers in, a number out. It is kept small
 * (the homogeneous case, then a call for the shaped one) so that the optimiser inlines it into
 * the arrival handler: a call it does not inline passes its time argument and its result as
 * heap-allocated numbers, two allocations per request (issue 27).
 */
export class ThinnedPoissonArrivals {
  /** Mean rate per ms (the rate the shape multiplies). */
  readonly ratePerMs: number;
  /** Candidates drawn from the dominating process so far. */
  candidates = 0;
  /** Candidates kept (arrivals returned) so far. */
  arrivals = 0;

  private readonly values: Float64Array;
  private readonly cellMs: number;
  private readonly cellShiftMs: number;
  private readonly firstCell: number;
  private readonly kappa: number;
  private readonly window: FlashWindow | null;
  private readonly never: boolean;
  /** A flat table, no growth and no crowd window: a homogeneous process, one exponential draw per arrival. */
  private readonly constant: boolean;
  /**
   * No growth and no crowd window: the rate is the table's, constant per cell, so the
   * dominating rate is the rate and every candidate is kept (one draw per arrival). The
   * baseline's flat shape is this case, not `constant`: its normalised table holds values a
   * rounding off 1 (1 ± 2^-52 …).
   */
  private readonly piecewiseConstant: boolean;

  constructor(
    ratePerSecond: number,
    readonly shape: RateShape,
  ) {
    if (!(ratePerSecond >= 0 && Number.isFinite(ratePerSecond))) throw new RangeError(`expected a rate ≥ 0 per second, got ${ratePerSecond}`);
    this.ratePerMs = ratePerSecond / 1000;
    this.values = shape.table.values;
    this.cellMs = shape.table.cellMs;
    this.cellShiftMs = shape.cellShiftMs;
    this.firstCell = shape.firstCell;
    this.kappa = shape.growthPerMs;
    this.window = shape.window;
    this.never = this.ratePerMs === 0 || shape.isZero;
    this.constant = this.kappa === 0 && this.window === null && this.values.every((value) => value === 1);
    this.piecewiseConstant = this.kappa === 0 && this.window === null;
  }

  /**
   * The first arrival at or after `nowMs` (≥ 0), drawn from `stream`; Infinity when none
   * will come (a zero rate, or a flash crowd that is over). Calling it again with the
   * arrival it returned gives the following arrival (the process is memoryless).
   */
  next(nowMs: number, stream: RandomStream): number {
    // NaN or a negative time would walk the table forever; simulated time starts at 0.
    if (!(nowMs >= 0)) throw new RangeError(`expected a simulated time ≥ 0, got ${nowMs}`);
    // Not the global `Infinity`: on a path never taken, its load compiles to a generic call
    // whose tagged result, merged with the arrival time below, boxed every arrival time this
    // routine returned inlined (a heap number a request, issue 27). A property read never
    // taken deoptimises instead, which leaves the path out of the merge.
    if (this.never) return Number.POSITIVE_INFINITY;
    if (this.constant) {
      this.candidates++;
      this.arrivals++;
      return nowMs - Math.log(1 - stream.next()) / this.ratePerMs;
    }
    return this.piecewiseConstant ? this.nextPiecewiseConstant(nowMs, stream) : this.nextShaped(nowMs, stream);
  }

  /**
   * nextShaped() without growth or a crowd window, the same arithmetic step for step (its
   * growth and crowd factors are 1 there, and × 1 is exact): small enough to be inlined.
   */
  private nextPiecewiseConstant(nowMs: number, stream: RandomStream): number {
    const values = this.values;
    const cells = values.length;
    const cellMs = this.cellMs;
    const cellShift = this.cellShiftMs;
    const rate = this.ratePerMs;
    let mass = -Math.log(1 - stream.next());
    let t = nowMs;
    let j = Math.floor((t + cellShift) / cellMs);
    let k = ((j + this.firstCell) | 0) % cells;
    let cellEnd = (j + 1) * cellMs - cellShift;
    for (;;) {
      const bound = rate * values[k];
      const pieceMass = bound * (cellEnd - t);
      if (mass < pieceMass) {
        t += mass / bound;
        if (t > cellEnd) t = cellEnd;
        break;
      }
      mass -= pieceMass;
      t = cellEnd;
      j++;
      k = k + 1 === cells ? 0 : k + 1;
      cellEnd = (j + 1) * cellMs - cellShift;
    }
    this.candidates++;
    this.arrivals++;
    return t;
  }

  /** next() for a shaped rate: thinning against the piecewise dominating rate. */
  private nextShaped(nowMs: number, stream: RandomStream): number {
    const values = this.values;
    const cells = values.length;
    const cellMs = this.cellMs;
    const cellShift = this.cellShiftMs;
    const rate = this.ratePerMs;
    const kappa = this.kappa;
    const window = this.window;
    const shape = this.shape;
    let t = nowMs;
    for (;;) {
      let mass = -Math.log(1 - stream.next());
      if (window !== null) {
        if (t >= window.endMs) return Infinity;
        if (t < window.startMs) t = window.startMs;
      }
      // Cell j of the run (see RateShape.cellShiftMs): table index k, end cellEnd.
      let j = Math.floor((t + cellShift) / cellMs);
      // Int32 modulo (cell numbers stay below 2³¹ for 4,000 years of minutes); a float % would call fmod.
      let k = ((j + this.firstCell) | 0) % cells;
      let cellEnd = (j + 1) * cellMs - cellShift;
      let pieceStart = t;
      let pieceEnd = cellEnd;
      let crowdStart = 1;
      let crowdEnd = 1;
      // Walk pieces until the unit exponential is spent.
      for (;;) {
        pieceStart = t;
        pieceEnd = cellEnd;
        if (window !== null) {
          const crowdBreak = shape.nextCrowdBreak(t);
          if (crowdBreak < pieceEnd) pieceEnd = crowdBreak;
          crowdStart = shape.crowdOnPiece(t, t);
          crowdEnd = shape.crowdOnPiece(t, pieceEnd);
        }
        const growth = kappa === 0 ? 1 : Math.exp(kappa * (kappa > 0 ? pieceEnd : t));
        const bound = rate * values[k] * growth * (crowdStart > crowdEnd ? crowdStart : crowdEnd);
        const pieceMass = bound * (pieceEnd - t);
        if (mass < pieceMass) {
          t += mass / bound;
          if (t > pieceEnd) t = pieceEnd;
          break;
        }
        mass -= pieceMass;
        t = pieceEnd;
        if (pieceEnd === cellEnd) {
          j++;
          k = k + 1 === cells ? 0 : k + 1;
          cellEnd = (j + 1) * cellMs - cellShift;
        }
        if (window !== null && t >= window.endMs) return Infinity;
      }
      this.candidates++;
      // No growth and a flat crowd factor: the dominating rate is the rate; keep it.
      if (kappa === 0 && crowdStart === crowdEnd) {
        this.arrivals++;
        return t;
      }
      const crowdMax = crowdStart > crowdEnd ? crowdStart : crowdEnd;
      const crowd = crowdStart === crowdEnd ? crowdStart : crowdStart + ((crowdEnd - crowdStart) * (t - pieceStart)) / (pieceEnd - pieceStart);
      const growthRatio = kappa === 0 ? 1 : Math.exp(kappa * (t - (kappa > 0 ? pieceEnd : pieceStart)));
      if (stream.next() * crowdMax < crowd * growthRatio) {
        this.arrivals++;
        return t;
      }
      // Rejected: the dominating process starts afresh from t (it is memoryless).
    }
  }

  /** Expected number of arrivals in [fromMs, toMs] (also its variance: the count is Poisson). */
  expectedCount(fromMs: number, toMs: number): number {
    return this.ratePerMs * this.shape.integral(fromMs, toMs);
  }
}
