import { WindowPeaks, type WindowPeakFigures } from './windowPeaks.js';

/**
 * The load the measured requests put on the layers above the PoPs, second by second
 * (docs/capacity.md): at the origin, its requests of every cause and the bodies it sent (the
 * accounting of cdn.origin, docs/origin-accounting.md); at each regional site, the fetches
 * its PoPs sent it and the bodies it sent them. Timed as the request reaches the origin or the
 * site, and as the site answers its PoP.
 */
export interface UpstreamFigures {
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

  /** The figures, once the flow has no fetch of a measured request left (nothing is recorded after). */
  figures(): UpstreamFigures {
    return { origin: this.origin.figures(0), regionals: Array.from({ length: this.regionals.nodes }, (_, site) => this.regionals.figures(site)) };
  }
}
