import type { RandomStream } from '../sim/random.js';
import { AliasTable } from './aliasTable.js';
import type { ObjectCatalogue } from './objectCatalogue.js';
import { zipfProbabilities } from './zipf.js';

export interface ObjectSizeModel {
  /** Median size in bytes. */
  median: number;
  /** Sigma of the underlying normal; 0 gives every object the median size. */
  sigma: number;
  min: number;
  max: number;
}

export interface CatalogueSpec {
  objects: number;
  zipfExponent: number;
  objectSize: ObjectSizeModel;
}

/**
 * The content catalogue: dense object ids 0..n−1 in popularity order (id 0 is the most
 * popular), a size per object and a popularity sampler. Sizes are drawn once, from their
 * own stream, independently of popularity.
 */
export class Catalogue implements ObjectCatalogue {
  readonly size: number;
  /** One class of content. */
  readonly classOf = null;
  readonly popularity: Float64Array;
  readonly objectSizes: Float64Array;
  private readonly sampler: AliasTable;

  constructor(spec: CatalogueSpec, sizeStream: RandomStream) {
    this.size = spec.objects;
    this.popularity = zipfProbabilities(spec.objects, spec.zipfExponent);
    this.sampler = new AliasTable(this.popularity);
    this.objectSizes = new Float64Array(spec.objects);
    const { median, sigma, min, max } = spec.objectSize;
    for (let id = 0; id < spec.objects; id++) {
      const drawn = Math.round(sizeStream.lognormal(median, sigma));
      this.objectSizes[id] = Math.min(max, Math.max(min, drawn));
    }
  }

  /** An object id drawn by popularity from one uniform draw in [0, 1). */
  pick(u: number): number {
    return this.sampler.sample(u);
  }

  /** Total bytes of all objects (the working set if every object is requested). */
  totalBytes(): number {
    let total = 0;
    for (let id = 0; id < this.size; id++) total += this.objectSizes[id];
    return total;
  }
}
