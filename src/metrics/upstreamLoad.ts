import { measuredWholeSeconds, WindowPeaks, type WindowPeakFigures } from './windowPeaks.js';

/**
 * The load the measured requests put on the layers above the PoPs, second by second
 * (docs/capacity.md): at the origin, its requests of every cause and the bodies it sent (the
 * accounting of cdn.origin, docs/origin-accounting.md); at each regional site, the fetches
 * its PoPs sent it and the bodies it sent them. Timed as the request reaches the origin or the
 * site, and as the site answers its PoP.
 */
export interface UpstreamFigures {
  /** The whole seconds the figures are over (capacity.measuredSeconds, docs/capacity.md). */
  measuredSeconds: number;
  origin: WindowPeakFigures;
  /** Per regional site, in the flow's order. */
  regionals: WindowPeakFigures[];
}

export class UpstreamLoad {
  readonly origin = new WindowPeaks(1);
  readonly regionals: WindowPeaks;

  constructor(regionalCount: number) {
    this.regionals = new WindowPeaks(regionalCount);
  }

  /** Whole seconds are counted from `startMs`, the measured time's start (summary.json warmup.simulatedSeconds). */
  startMeasuring(startMs: number): void {
    this.origin.startMeasuring(startMs);
    this.regionals.startMeasuring(startMs);
  }

  /**
   * The figures over the measured whole seconds from `startMs` to `endMs` (the run's end), or
   * to the last second recorded if later: fetches the last measured requests started reach the
   * origin after the run's end, and are counted (docs/origin-accounting.md), so the means are
   * over the seconds they fall in too. Once the flow has no fetch of a measured request left.
   */
  figures(startMs: number, endMs: number): UpstreamFigures {
    const measuredSeconds = Math.max(measuredWholeSeconds(startMs, endMs), this.origin.secondsRecorded, this.regionals.secondsRecorded);
    return {
      measuredSeconds,
      origin: this.origin.figures(0, measuredSeconds),
      regionals: Array.from({ length: this.regionals.nodes }, (_, site) => this.regionals.figures(site, measuredSeconds)),
    };
  }
}
