/**
 * What happened to the measured requests on their way through the CDN, beyond the layer
 * that served them (DESIGN "Metrics"): stale serves by cause, coalescing, revalidation,
 * errors, and staleness — the share of responses whose content is older than the origin's
 * current version, and by how long. Fixed memory; the outcome bits are the flow's.
 */
export interface OutcomeBits {
  coalescedEdge: number;
  coalescedRegional: number;
  revalidated: number;
  staleWhileRevalidate: number;
  staleOnError: number;
  staleOnRefused: number;
  cachedError: number;
}

export interface OutcomeFigures {
  requests: number;
  /** Requests answered with an error status (5xx from the origin, 502 when it was unreachable). */
  errors: number;
  /** Of those, cached errors a CDN layer served (spec 7.1). */
  cachedErrorsServed: number;
  /** Non-error responses / requests. */
  availability: number;
  coalesced: { edge: number; regional: number };
  /** Requests whose stale copy a 304 confirmed. */
  revalidated: number;
  staleServed: { whileRevalidate: number; originError: number; originUnreachable: number };
  staleness: { responses: number; share: number; meanSeconds: number; maxSeconds: number };
}

export class CdnOutcomes {
  private requests = 0;
  private errors = 0;
  private readonly counts = new Float64Array(7);
  private staleResponses = 0;
  private staleMsTotal = 0;
  private staleMsMax = 0;

  constructor(private readonly bits: OutcomeBits) {}

  record(outcome: number, status: number, staleForMs: number): void {
    this.requests++;
    if (status >= 400) this.errors++;
    if (outcome !== 0) {
      const { bits, counts } = this;
      if (outcome & bits.coalescedEdge) counts[0]++;
      if (outcome & bits.coalescedRegional) counts[1]++;
      if (outcome & bits.revalidated) counts[2]++;
      if (outcome & bits.staleWhileRevalidate) counts[3]++;
      if (outcome & bits.staleOnError) counts[4]++;
      if (outcome & bits.staleOnRefused) counts[5]++;
      if (outcome & bits.cachedError) counts[6]++;
    }
    if (staleForMs >= 0) {
      this.staleResponses++;
      this.staleMsTotal += staleForMs;
      if (staleForMs > this.staleMsMax) this.staleMsMax = staleForMs;
    }
  }

  figures(): OutcomeFigures {
    const { counts, requests } = this;
    return {
      requests,
      errors: this.errors,
      cachedErrorsServed: counts[6],
      availability: requests === 0 ? 1 : 1 - this.errors / requests,
      coalesced: { edge: counts[0], regional: counts[1] },
      revalidated: counts[2],
      staleServed: { whileRevalidate: counts[3], originError: counts[4], originUnreachable: counts[5] },
      staleness: {
        responses: this.staleResponses,
        share: requests === 0 ? 0 : this.staleResponses / requests,
        meanSeconds: this.staleResponses === 0 ? 0 : this.staleMsTotal / this.staleResponses / 1000,
        maxSeconds: this.staleMsMax / 1000,
      },
    };
  }
}
