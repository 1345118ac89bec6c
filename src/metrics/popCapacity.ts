/**
 * Capacity per edge cache (a PoP, or a region's edge): the peak egress over 1 s and over
 * 60 s, to hold against the PoP's uplink (spec 1.1: 100 Gbit/s at major PoPs), the peak
 * request rate, and the most bytes stored (read once a second). Egress is the bytes of every response a
 * PoP sends its clients (hits and misses alike, errors excluded), counted in the whole
 * simulated second in which the CDN finished the request; windows are whole seconds of the
 * run's clock (a 60 s window is any 60 consecutive seconds, sliding by one).
 *
 * The sink is called in clock order, so one second is open at a time; it is folded into the
 * peaks when the clock leaves it. Memory: a few numbers per PoP and a 60-slot ring of bytes
 * per PoP, whatever the number of requests; per request, typed-array updates only.
 */

/** What a PoP's cache holds now (SparseKeyStore.occupancy): read at the end of each second the PoP answered in. */
export interface StoredBytes {
  readonly occupancy: number;
}

export interface PopCapacityFigures {
  /** Highest egress in one second, and the highest mean over 60 consecutive seconds, bit/s. */
  peakEgressBitsPerSecond1s: number;
  peakEgressBitsPerSecond60s: number;
  /** Most requests the PoP finished in one second. */
  peakRequestsPerSecond: number;
  /** Most bytes its cache held (over the measured part), read once a second at each PoP that answered in it, and at the start and the end. */
  storedBytesPeak: number;
}

const WINDOW_SECONDS = 60;

export class PopCapacity {
  /** The open second's bytes and requests per PoP, and the PoPs it touched (so closing a second costs what it saw, not the PoP count). */
  private readonly secondBytes: Float64Array;
  private readonly secondRequests: Float64Array;
  private readonly touched: Int32Array;
  private readonly isTouched: Uint8Array;
  private touchedCount = 0;
  private second = -Infinity;
  /** Per PoP: bytes of its last 60 seconds (slot = second mod 60), their sum, and the last second written into the ring. */
  private readonly ring: Float64Array;
  private readonly windowBytes: Float64Array;
  private readonly ringSecond: Float64Array;
  private readonly peak1s: Float64Array;
  private readonly peak60s: Float64Array;
  private readonly peakRequests: Float64Array;
  private readonly peakStored: Float64Array;

  constructor(private readonly stores: readonly StoredBytes[]) {
    const pops = stores.length;
    this.secondBytes = new Float64Array(pops);
    this.secondRequests = new Float64Array(pops);
    this.touched = new Int32Array(pops);
    this.isTouched = new Uint8Array(pops);
    this.ring = new Float64Array(pops * WINDOW_SECONDS);
    this.windowBytes = new Float64Array(pops);
    this.ringSecond = new Float64Array(pops).fill(-Infinity);
    this.peak1s = new Float64Array(pops);
    this.peak60s = new Float64Array(pops);
    this.peakRequests = new Float64Array(pops);
    this.peakStored = new Float64Array(pops);
  }

  /** The measured part begins: what each cache holds now is its first stored-bytes reading. */
  start(): void {
    this.sampleStored();
  }

  /** A measured request PoP `pop` finished at `nowMs` (clock order), sending `bytes` to the client. */
  record(nowMs: number, pop: number, bytes: number, status: number): void {
    const second = Math.floor(nowMs / 1000);
    if (second !== this.second) this.closeSecond(second);
    if (this.isTouched[pop] === 0) {
      this.isTouched[pop] = 1;
      this.touched[this.touchedCount++] = pop;
    }
    this.secondRequests[pop]++;
    if (status < 400) this.secondBytes[pop] += bytes;
  }

  /** The run is over: the open second is folded in, and each cache's final contents read. */
  finish(): void {
    this.closeSecond(Infinity);
    this.sampleStored();
  }

  figures(pop: number): PopCapacityFigures {
    return {
      peakEgressBitsPerSecond1s: this.peak1s[pop] * 8,
      peakEgressBitsPerSecond60s: (this.peak60s[pop] * 8) / WINDOW_SECONDS,
      peakRequestsPerSecond: this.peakRequests[pop],
      storedBytesPeak: this.peakStored[pop],
    };
  }

  private sampleStored(): void {
    for (let pop = 0; pop < this.stores.length; pop++) {
      const stored = this.stores[pop].occupancy;
      if (stored > this.peakStored[pop]) this.peakStored[pop] = stored;
    }
  }

  /** Folds the open second into each touched PoP's peaks and 60 s window, then opens `next`. */
  private closeSecond(next: number): void {
    const { touched, secondBytes, secondRequests, isTouched, ring, windowBytes, ringSecond } = this;
    const second = this.second;
    for (let i = 0; i < this.touchedCount; i++) {
      const pop = touched[i];
      const bytes = secondBytes[pop];
      if (bytes > this.peak1s[pop]) this.peak1s[pop] = bytes;
      if (secondRequests[pop] > this.peakRequests[pop]) this.peakRequests[pop] = secondRequests[pop];
      // A cache grows only by storing a response, on the way to a request it answers: read it when that second closes.
      const stored = this.stores[pop].occupancy;
      if (stored > this.peakStored[pop]) this.peakStored[pop] = stored;
      // Seconds the PoP was quiet since its last write leave the window (at most 60 slots to clear).
      const base = pop * WINDOW_SECONDS;
      const from = Math.max(ringSecond[pop] + 1, second - WINDOW_SECONDS + 1, 0);
      for (let s = from; s < second; s++) {
        const slot = base + (s % WINDOW_SECONDS);
        windowBytes[pop] -= ring[slot];
        ring[slot] = 0;
      }
      const slot = base + (second % WINDOW_SECONDS);
      windowBytes[pop] += bytes - ring[slot];
      ring[slot] = bytes;
      ringSecond[pop] = second;
      if (windowBytes[pop] > this.peak60s[pop]) this.peak60s[pop] = windowBytes[pop];
      secondBytes[pop] = 0;
      secondRequests[pop] = 0;
      isTouched[pop] = 0;
    }
    this.touchedCount = 0;
    this.second = next;
  }
}
