import { AliasTable } from '../../workload/aliasTable.js';
import type { ObjectCatalogue } from '../../workload/objectCatalogue.js';
import { zipfProbabilities } from '../../workload/zipf.js';
import type { RecordedTraffic } from './trafficCatalogue.js';

/**
 * How a run draws objects from recorded traffic:
 * - `zipf`: Zipf over the file's URLs, ranked by how often the file requests them (ties by
 *   first appearance): one page load amplified to many clients keeps its most requested
 *   URLs the most popular, with a realistic long tail;
 * - `observed`: each URL as often as the file requests it.
 */
export type RecordedPopularity = { kind: 'zipf'; exponent: number } | { kind: 'observed' };

/**
 * A catalogue over recorded objects: their ids and first-seen sizes, sampled with an alias
 * table as `Catalogue` is. `classOf` gives each object its class: the group of response
 * profiles that share one compiled decision (src/experiment/recordedCaching.ts).
 */
export function recordedCatalogue(traffic: RecordedTraffic, popularity: RecordedPopularity, classOf: Uint8Array): ObjectCatalogue {
  if (classOf.length !== traffic.urls.length) throw new RangeError(`expected a class for each of the ${traffic.urls.length} objects, got ${classOf.length}`);
  return new RecordedCatalogue(traffic, popularity, classOf);
}

class RecordedCatalogue implements ObjectCatalogue {
  readonly size: number;
  readonly objectSizes: Float64Array;
  readonly popularity: Float64Array;
  readonly classOf: Uint8Array;
  private readonly sampler: AliasTable;

  constructor(traffic: RecordedTraffic, popularity: RecordedPopularity, classOf: Uint8Array) {
    this.size = traffic.urls.length;
    this.objectSizes = traffic.objectSizes;
    this.classOf = classOf;
    this.popularity = popularity.kind === 'zipf' ? zipfByCount(traffic.requestCounts, popularity.exponent) : observed(traffic.requestCounts);
    this.sampler = new AliasTable(this.popularity);
  }

  /** An object id drawn by popularity from one uniform draw in [0, 1). */
  pick(u: number): number {
    return this.sampler.sample(u);
  }
}

/** Rank 1 = most requested (ties: lower id, i.e. seen first) gets the Zipf probability of rank 1, and so on. */
function zipfByCount(counts: Float64Array, exponent: number): Float64Array {
  if (!(Number.isFinite(exponent) && exponent >= 0)) throw new RangeError(`a Zipf exponent must be a finite number ≥ 0, got ${exponent}`);
  const byRank = zipfProbabilities(counts.length, exponent);
  const ranked = Array.from({ length: counts.length }, (_, id) => id).sort((a, b) => counts[b] - counts[a] || a - b);
  const probabilities = new Float64Array(counts.length);
  for (let rank = 0; rank < ranked.length; rank++) probabilities[ranked[rank]] = byRank[rank];
  return probabilities;
}

function observed(counts: Float64Array): Float64Array {
  let total = 0;
  for (let id = 0; id < counts.length; id++) total += counts[id];
  const probabilities = new Float64Array(counts.length);
  for (let id = 0; id < counts.length; id++) probabilities[id] = counts[id] / total;
  return probabilities;
}
