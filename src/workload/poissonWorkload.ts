import type { RandomStream, RandomStreams } from '../sim/random.js';
import type { Simulation } from '../sim/simulation.js';
import type { Catalogue } from './catalogue.js';
import type { ClientRequest, RequestSink } from './request.js';

export interface PoissonTrafficSpec {
  /** Mean request rate over all regions, per second. */
  ratePerSecond: number;
  /** Share of requests per region index; sums to 1. */
  regionShares: readonly number[];
  /** Region names, used to name each region's random stream. */
  regionNames: readonly string[];
}

/**
 * Independent Poisson arrivals per client region (rate × share), each request for an
 * object drawn by Zipf popularity. Each region draws from its own stream, so changing one
 * region's share leaves the other regions' request sequences as they were.
 */
export class PoissonWorkload {
  private readonly ratePerMs: Float64Array;
  private readonly streams: RandomStream[];
  private readonly request: ClientRequest = { timeMs: 0, region: 0, objectId: 0, sizeBytes: 0 };

  constructor(
    private readonly spec: PoissonTrafficSpec,
    private readonly catalogue: Catalogue,
    randomStreams: RandomStreams,
  ) {
    this.ratePerMs = Float64Array.from(spec.regionShares, (share) => (spec.ratePerSecond * share) / 1000);
    this.streams = spec.regionNames.map((name) => randomStreams.stream(`workload.requests.${name}`));
  }

  /** Defines the arrival event and schedules each region's first arrival. */
  attach(simulation: Simulation, sink: RequestSink): void {
    const arrival = simulation.defineEvent('workload.arrival', (region) => {
      const stream = this.streams[region];
      const request = this.request;
      request.timeMs = simulation.nowMs;
      request.region = region;
      request.objectId = this.catalogue.pick(stream.next());
      request.sizeBytes = this.catalogue.objectSizes[request.objectId];
      simulation.scheduleAfter(stream.exponential(this.ratePerMs[region]), arrival, region);
      sink(request);
    });
    for (let region = 0; region < this.ratePerMs.length; region++) {
      if (this.ratePerMs[region] > 0) {
        simulation.schedule(simulation.nowMs + this.streams[region].exponential(this.ratePerMs[region]), arrival, region);
      }
    }
  }
}
