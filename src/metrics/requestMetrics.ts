import { LatencyHistogram, latencyBucketAt, type LatencySummary } from './latencyHistogram.js';

/**
 * Counters and latency histograms for the requests of one run. Layers are given in the
 * order a request passes them (e.g. edge, regional, origin): a request served by layer k
 * reached every layer up to k and missed at each before it, so "requests reaching a layer"
 * is derived, not stored. Memory does not grow with the request count.
 */
export class RequestMetrics {
  private readonly servedRequests: Float64Array;
  private readonly servedBytes: Float64Array;
  readonly all = new LatencyHistogram();
  /** Per region, per serving layer: [region][layer]. The stated per-region figures (spec 1.1) are edge hits. */
  readonly byRegionLayer: LatencyHistogram[][];
  /**
   * Latency sums per region and per layer, added in request order. The per-region and
   * per-layer histograms are the byRegionLayer ones merged (counts, min and max add up
   * exactly), so a request records into two histograms instead of four; only the sum of a
   * merge would differ (another order of float additions), so it is kept here.
   */
  private readonly regionSums: Float64Array;
  private readonly layerSums: Float64Array;
  private total = 0;
  /** `record`'s latency, handed on in an array as the recorder's are (recordSplit). */
  private readonly latencyOfRecord = new Float64Array(1);

  constructor(
    readonly layerNames: readonly string[],
    readonly regionNames: readonly string[],
  ) {
    this.servedRequests = new Float64Array(layerNames.length);
    this.servedBytes = new Float64Array(layerNames.length);
    this.regionSums = new Float64Array(regionNames.length);
    this.layerSums = new Float64Array(layerNames.length);
    this.byRegionLayer = regionNames.map(() => layerNames.map(() => new LatencyHistogram()));
  }

  /** Per region, every serving layer's requests together (built on each call). */
  get byRegion(): LatencyHistogram[] {
    return this.byRegionLayer.map((layers, r) => LatencyHistogram.combined(layers, this.regionSums[r]));
  }

  /** Per serving layer, every region's requests together (built on each call). */
  get byLayer(): LatencyHistogram[] {
    return this.layerNames.map((_, l) => LatencyHistogram.combined(this.byRegionLayer.map((layers) => layers[l]), this.layerSums[l]));
  }

  get requests(): number {
    return this.total;
  }

  record(region: number, servedLayer: number, latencyMs: number, bytes: number): void {
    this.servedBytes[servedLayer] += bytes;
    this.latencyOfRecord[0] = latencyMs;
    this.count(region, servedLayer, this.latencyOfRecord, 0);
  }

  /**
   * A request whose bytes came from several layers (spec 4.8: a range's chunks may be served
   * by different layers): `bytesByLayer[k]` of its bytes are credited to layer k, so byte
   * figures count bytes where they were served; the request itself counts at `servedLayer`,
   * the deepest layer that answered any of it. Its latency is `latencies[at]`: issue 27, a
   * double passed to a call the optimiser does not inline is a new heap number per request.
   */
  recordSplit(region: number, servedLayer: number, latencies: Float64Array, at: number, bytesByLayer: Float64Array): void {
    const servedBytes = this.servedBytes;
    for (let k = 0; k < servedBytes.length; k++) servedBytes[k] += bytesByLayer[k];
    this.count(region, servedLayer, latencies, at);
  }

  private count(region: number, servedLayer: number, latencies: Float64Array, at: number): void {
    this.total++;
    this.servedRequests[servedLayer]++;
    // One logarithm for the two histograms the request goes into.
    const bucket = latencyBucketAt(latencies, at);
    this.all.recordInBucketAt(bucket, latencies, at);
    this.byRegionLayer[region][servedLayer].recordInBucketAt(bucket, latencies, at);
    const latencyMs = latencies[at];
    this.regionSums[region] += latencyMs;
    this.layerSums[servedLayer] += latencyMs;
  }

  servedBy(layer: number): { requests: number; bytes: number } {
    return { requests: this.servedRequests[layer], bytes: this.servedBytes[layer] };
  }

  /** Requests that reached a layer (served there or further down), and the client bytes asked of it (served there or further down, per piece). */
  reaching(layer: number): { requests: number; bytes: number } {
    let requests = 0;
    let bytes = 0;
    for (let k = layer; k < this.layerNames.length; k++) {
      requests += this.servedRequests[k];
      bytes += this.servedBytes[k];
    }
    return { requests, bytes };
  }

  /**
   * Hit ratios as DESIGN.md defines them: per cache layer, served here / reaching here;
   * `cdn`, served by any of `cdnLayers` / reaching the first of them. A layer no request
   * reached reports 0, so the keys are the same in every run.
   */
  hitRatios(cacheLayers: readonly string[], cdnLayers: readonly string[]): { requests: Record<string, number>; bytes: Record<string, number> } {
    const requests: Record<string, number> = {};
    const bytes: Record<string, number> = {};
    for (const name of cacheLayers) {
      const layer = this.layerIndex(name);
      const reached = this.reaching(layer);
      const served = this.servedBy(layer);
      requests[name] = ratio(served.requests, reached.requests);
      bytes[name] = ratio(served.bytes, reached.bytes);
    }
    const first = this.layerIndex(cdnLayers[0]);
    const reached = this.reaching(first);
    let servedRequests = 0;
    let servedBytes = 0;
    for (const name of cdnLayers) {
      const served = this.servedBy(this.layerIndex(name));
      servedRequests += served.requests;
      servedBytes += served.bytes;
    }
    requests.cdn = ratio(servedRequests, reached.requests);
    bytes.cdn = ratio(servedBytes, reached.bytes);
    return { requests, bytes };
  }

  latency(): {
    all: LatencySummary;
    byRegion: Record<string, LatencySummary>;
    byLayer: Record<string, LatencySummary>;
    byRegionAndLayer: Record<string, Record<string, LatencySummary>>;
  } {
    const byRegion = this.byRegion;
    const byLayer = this.byLayer;
    return {
      all: this.all.summary(),
      byRegion: Object.fromEntries(this.regionNames.map((name, i) => [name, byRegion[i].summary()])),
      byLayer: Object.fromEntries(this.layerNames.map((name, i) => [name, byLayer[i].summary()])),
      byRegionAndLayer: Object.fromEntries(
        this.regionNames.map((region, r) => [region, Object.fromEntries(this.layerNames.map((layer, l) => [layer, this.byRegionLayer[r][l].summary()]))]),
      ),
    };
  }

  private layerIndex(name: string): number {
    const index = this.layerNames.indexOf(name);
    if (index < 0) throw new Error(`unknown layer '${name}'; layers are ${this.layerNames.join(', ')}`);
    return index;
  }
}

/** part / whole, and 0 where nothing reached (so keys and shapes stay the same in every run). */
export function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : part / whole;
}
