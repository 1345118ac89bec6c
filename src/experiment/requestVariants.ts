import { cacheKey } from '../policy/cacheKey.js';
import { normaliseHeaders } from '../policy/headers.js';
import { fileExtension } from '../policy/variants.js';
import type { ClassCatalogue } from '../workload/content/classCatalogue.js';
import { representativePath, type ContentClass } from '../workload/content/contentClasses.js';
import { VARIANT_DEVICE, VARIANT_IMAGE_FORMAT } from '../workload/requests/requestKeys.js';

/**
 * Which request attributes a path's cache key depends on, as the policy engine's cacheKey
 * decides it (spec 4.4: raster images by Accept; spec 4.5: images and CSS by User-Agent):
 * VARIANT_* bits. Asked once per (class, file type), never per request.
 */
export function variantMaskOfPath(path: string): number {
  const key = cacheKey({ url: path, headers: normaliseHeaders(undefined) });
  return (key.imageFormat === undefined ? 0 : VARIANT_IMAGE_FORMAT) | (key.device === undefined ? 0 : VARIANT_DEVICE);
}

export interface ObjectRequestTraits {
  /** Per object id: VARIANT_* bits of its cache key. */
  readonly variantMaskOf: Uint8Array;
  /** Per object id: 1 when clients read it with Range requests in 5 MB chunks (spec 4.8). */
  readonly rangesOf: Uint8Array;
}

/**
 * Per object of a class catalogue: its key's variant bits (from its class's path pattern
 * with its own file type) and whether it is read in ranges: its class has `rangeRequests`
 * and it is at least `mediaMinBytes` (smaller files are fetched whole).
 *
 * Computed for every id before the run, reserved ids included, from each id's own size and
 * file type. Churn keeps a reserved id's size (so `rangesOf` and the chunk keys laid out
 * from it stay exact) but a new-URL update gives the fresh id its predecessor's file type:
 * `noteUpdate`, the run's ChurnHooks.onUpdate listener, re-derives its variant bits.
 */
export class ClassObjectTraits implements ObjectRequestTraits {
  readonly variantMaskOf: Uint8Array;
  readonly rangesOf: Uint8Array;
  /** Per class, per file type index: VARIANT_* bits (spec 4.4, 4.5). */
  private readonly masks: readonly Uint8Array[];

  constructor(
    private readonly catalogue: ClassCatalogue,
    classes: readonly ContentClass[],
    framework: string,
    mediaMinBytes: number,
  ) {
    this.masks = classes.map((klass) => Uint8Array.from(klass.fileTypes, (fileType) => variantMaskOfPath(representativePath({ path: klass.path, fileTypes: [fileType] }, framework))));
    // A class whose sizes come as its objects are created (a model class) has none to decide
    // ranges from here; traffic.clients is refused with one (scenario/load.ts), so none arrives.
    const unsized = classes.findIndex((klass, c) => klass.rangeRequests && catalogue.sizesSetOnCreation[c]);
    if (unsized >= 0) throw new Error(`class '${classes[unsized].name}': range requests are decided from sizes drawn at the start, and its objects get theirs when created`);
    this.variantMaskOf = new Uint8Array(catalogue.idCapacity);
    this.rangesOf = new Uint8Array(catalogue.idCapacity);
    for (let id = 0; id < catalogue.idCapacity; id++) {
      const c = catalogue.classOfId[id];
      this.variantMaskOf[id] = this.masks[c][catalogue.fileTypeOfId[id]];
      this.rangesOf[id] = classes[c].rangeRequests && catalogue.objectSizes[id] >= mediaMinBytes ? 1 : 0;
    }
  }

  /** ChurnHooks.onUpdate: a new-URL update (`objectId !== previousId`) gave `objectId` another file type, so its key's variants follow it. */
  noteUpdate(objectId: number, previousId: number): void {
    if (objectId === previousId) return;
    const catalogue = this.catalogue;
    this.variantMaskOf[objectId] = this.masks[catalogue.classOfId[objectId]][catalogue.fileTypeOfId[objectId]];
  }
}

/**
 * Per recorded object: its key's variant bits from its own path (asked once per extension,
 * since only the extension decides them). A recording says nothing of range requests: none
 * is read in chunks.
 */
export function recordedObjectTraits(urls: readonly string[]): ObjectRequestTraits {
  const maskOfExtension = new Map<string, number>();
  const variantMaskOf = new Uint8Array(urls.length);
  urls.forEach((url, id) => {
    const extension = fileExtension(url); // reads the path only, as cacheKey does
    let mask = maskOfExtension.get(extension);
    if (mask === undefined) {
      mask = variantMaskOfPath(url);
      maskOfExtension.set(extension, mask);
    }
    variantMaskOf[id] = mask;
  });
  return { variantMaskOf, rangesOf: new Uint8Array(urls.length) };
}
