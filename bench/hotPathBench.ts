import { LatencyHistogram, latencyBucketOf } from '../src/metrics/latencyHistogram.js';
import { RequestMetrics } from '../src/metrics/requestMetrics.js';
import { RandomStreams } from '../src/sim/random.js';
import { AliasTable } from '../src/workload/aliasTable.js';
import { zipfProbabilities } from '../src/workload/zipf.js';
import { measure, report } from './harness.js';

/**
 * The per-request pieces issue 12's speed work changed, each against the way it was, in the
 * same run (ratios, not seconds from another day):
 * - `hotPath.requestMetrics`: RequestMetrics.record (one logarithm, two histograms: the
 *   per-region and per-layer ones are merged from the region × layer ones when read) against
 *   one logarithm for four histograms (its form before) and four LatencyHistogram.record
 *   calls (one logarithm each), on 30 histograms;
 * - `hotPath.alias`: the alias table in packed 4-byte columns against its probability and
 *   alias side by side in doubles (its form before) and in two separate arrays (the first
 *   form), on a million-object Zipf(0.8); all three draw the same objects.
 */
export function runHotPathBenchmarks(wanted: (name: string) => boolean): void {
  if (wanted('hotPath.requestMetrics')) {
    const samples = 5_000_000;
    const stream = new RandomStreams(1).stream('bench');
    const latencies = new Float64Array(1 << 16);
    const regions = new Uint8Array(1 << 16);
    const layers = new Uint8Array(1 << 16);
    for (let i = 0; i < latencies.length; i++) {
      latencies[i] = stream.lognormal(40, 1);
      regions[i] = stream.int(5);
      layers[i] = stream.int(3);
    }
    const regionNames = ['a', 'b', 'c', 'd', 'e'];
    const layerNames = ['edge', 'regional', 'origin'];
    const oneLog = measure(5, () => {
      const metrics = new RequestMetrics(layerNames, regionNames);
      for (let i = 0; i < samples; i++) metrics.record(regions[i & 0xffff], layers[i & 0xffff], latencies[i & 0xffff], 1000);
      return samples;
    });
    // The four histograms RequestMetrics had: with one logarithm for the four (its form before) or one each.
    const fourHistogramRun = (oneLogarithm: boolean) =>
      measure(5, () => {
        const all = new LatencyHistogram();
        const byRegion = regionNames.map(() => new LatencyHistogram());
        const byLayer = layerNames.map(() => new LatencyHistogram());
        const byRegionLayer = regionNames.map(() => layerNames.map(() => new LatencyHistogram()));
        for (let i = 0; i < samples; i++) {
          const latency = latencies[i & 0xffff];
          const region = regions[i & 0xffff];
          const layer = layers[i & 0xffff];
          if (oneLogarithm) {
            const bucket = latencyBucketOf(latency);
            all.recordInBucket(bucket, latency);
            byRegion[region].recordInBucket(bucket, latency);
            byLayer[layer].recordInBucket(bucket, latency);
            byRegionLayer[region][layer].recordInBucket(bucket, latency);
          } else {
            all.record(latency);
            byRegion[region].record(latency);
            byLayer[layer].record(latency);
            byRegionLayer[region][layer].record(latency);
          }
        }
        return samples;
      });
    const fourHistograms = fourHistogramRun(true);
    const fourLogs = fourHistogramRun(false);
    report({
      name: 'hotPath.requestMetrics',
      recordsPerSecond: oneLog.bestPerSecond,
      fourHistogramsRecordsPerSecond: fourHistograms.bestPerSecond,
      fourLogsRecordsPerSecond: fourLogs.bestPerSecond,
      speedupOverFourHistograms: Number((oneLog.bestPerSecond / fourHistograms.bestPerSecond).toFixed(3)),
      speedup: Number((oneLog.bestPerSecond / fourLogs.bestPerSecond).toFixed(3)),
    });
  }

  if (wanted('hotPath.alias')) {
    const weights = zipfProbabilities(1_000_000, 0.8);
    const packed = new AliasTable(weights);
    const sideBySide = new SideBySideAlias(weights);
    const twoArrays = new TwoArrayAlias(weights);
    const draws = 10_000_000;
    const stream = new RandomStreams(1).stream('bench');
    const uniforms = new Float64Array(1 << 20);
    for (let i = 0; i < uniforms.length; i++) uniforms[i] = stream.next();
    let checksum = 0;
    // One loop per layout: a loop shared through a callback turns its call polymorphic after
    // the first layout, and the layouts measured later look several times slower than they are.
    const packedRate = measure(5, () => {
      let sum = 0;
      for (let i = 0; i < draws; i++) sum += packed.sample(uniforms[i & 0xfffff]);
      checksum = sum;
      return draws;
    });
    const packedSum = checksum;
    const side = measure(5, () => {
      let sum = 0;
      for (let i = 0; i < draws; i++) sum += sideBySide.sample(uniforms[i & 0xfffff]);
      checksum = sum;
      return draws;
    });
    if (checksum !== packedSum) throw new Error('the packed and side-by-side alias layouts drew different objects');
    const apart = measure(5, () => {
      let sum = 0;
      for (let i = 0; i < draws; i++) sum += twoArrays.sample(uniforms[i & 0xfffff]);
      checksum = sum;
      return draws;
    });
    if (checksum !== packedSum) throw new Error('the packed and two-array alias layouts drew different objects');
    report({
      name: 'hotPath.alias',
      objects: 1_000_000,
      packedSamplesPerSecond: packedRate.bestPerSecond,
      sideBySideSamplesPerSecond: side.bestPerSecond,
      twoArraysSamplesPerSecond: apart.bestPerSecond,
      speedupOverSideBySide: Number((packedRate.bestPerSecond / side.bestPerSecond).toFixed(3)),
      speedup: Number((packedRate.bestPerSecond / apart.bestPerSecond).toFixed(3)),
    });
  }
}

/** The alias table's columns as the current construction leaves them: probability, alias, side by side. */
function aliasColumns(weights: ArrayLike<number>): { size: number; columns: Float64Array } {
  const table = new AliasTable(weights);
  return { size: table.size, columns: (table as unknown as { columns: Float64Array }).columns };
}

/** The alias table as it was before the packed columns: probability and alias side by side in doubles. */
class SideBySideAlias {
  private readonly columns: Float64Array;
  private readonly size: number;

  constructor(weights: ArrayLike<number>) {
    ({ size: this.size, columns: this.columns } = aliasColumns(weights));
  }

  sample(u: number): number {
    const scaled = u * this.size;
    const column = Math.floor(scaled);
    const columns = this.columns;
    return scaled - column < columns[2 * column] ? column : columns[2 * column + 1];
  }
}

/** The alias table as it was first (probability and alias in two arrays), built by the same Vose steps. */
class TwoArrayAlias {
  private readonly probability: Float64Array;
  private readonly alias: Int32Array;
  private readonly size: number;

  constructor(weights: ArrayLike<number>) {
    // Reuse the current construction and read its columns back, so the tables draw alike.
    const { size, columns } = aliasColumns(weights);
    this.size = size;
    this.probability = new Float64Array(size);
    this.alias = new Int32Array(size);
    for (let i = 0; i < this.size; i++) {
      this.probability[i] = columns[2 * i];
      this.alias[i] = columns[2 * i + 1];
    }
  }

  sample(u: number): number {
    const scaled = u * this.size;
    const column = Math.floor(scaled);
    return scaled - column < this.probability[column] ? column : this.alias[column];
  }
}
