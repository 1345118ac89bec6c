/**
 * What the workload and the flows need of a catalogue: dense object ids 0..size−1 with a
 * size each, a popularity sampler, and each object's content class. Implemented by the
 * one-class `Catalogue` and, through `classCatalogueObjects`, by the multi-class
 * `ClassCatalogue` (src/workload/content).
 */
export interface ObjectCatalogue {
  readonly size: number;
  readonly objectSizes: Float64Array;
  /** Probability of each id under the catalogue's popularity (flash crowds pick the top ones). */
  readonly popularity: Float64Array;
  /** Class id per object id; null when there is one class. */
  readonly classOf: Uint8Array | null;
  /** An object id drawn by popularity from one uniform draw in [0, 1). */
  pick(u: number): number;
}
