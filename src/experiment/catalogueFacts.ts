import type { ObjectCatalogue } from '../workload/objectCatalogue.js';
import type { ClassCatalogue } from '../workload/content/classCatalogue.js';

/** A content class's catalogue at the start of a run, before churn adds or replaces objects. */
export interface ClassCatalogueFacts {
  /** Objects the class holds (a recording: its distinct GET URLs of that caching decision). */
  objects: number;
  /** The sum of their sizes: what a cache needs to hold them all at once (one variant each). */
  catalogueBytes: number;
}

/**
 * Each class's objects and bytes as the run starts. Sizing a cache means comparing its
 * capacity with these (docs/library/cache-sizing.md). Taken at assembly: with content
 * classes, ids past a class's first `objects` are reserved for churn and not yet in use.
 */
export function catalogueFacts(catalogue: ObjectCatalogue, classCatalogue: ClassCatalogue | undefined, classCount: number): ClassCatalogueFacts[] {
  const facts = Array.from({ length: classCount }, () => ({ objects: 0, catalogueBytes: 0 }));
  if (classCatalogue !== undefined) {
    for (let c = 0; c < classCount; c++) {
      const start = classCatalogue.classStart[c];
      const objects = classCatalogue.rankedObjects[c];
      facts[c].objects = objects;
      for (let id = start; id < start + objects; id++) facts[c].catalogueBytes += catalogue.objectSizes[id];
    }
    return facts;
  }
  const classOf = catalogue.classOf;
  for (let id = 0; id < catalogue.size; id++) {
    const fact = facts[classOf === null ? 0 : classOf[id]];
    fact.objects++;
    fact.catalogueBytes += catalogue.objectSizes[id];
  }
  return facts;
}

/**
 * A model class's catalogue by the run's end (docs/traffic-models.md "One stream per PoP"):
 * the objects its PoPs' streams created, warm-up stacks included, and their bytes. Its
 * streams make its objects as they ask for them, taking the class's ids in order from the
 * first (its one ranked id is the first object made), so they are the first `created` ids of
 * its range; at the start the class holds only that ranked id, which counted it as 1 object.
 */
export function modelCatalogueFacts(catalogue: ObjectCatalogue, classStart: number, createdObjects: number): ClassCatalogueFacts {
  let catalogueBytes = 0;
  for (let id = classStart; id < classStart + createdObjects; id++) catalogueBytes += catalogue.objectSizes[id];
  return { objects: createdObjects, catalogueBytes };
}
