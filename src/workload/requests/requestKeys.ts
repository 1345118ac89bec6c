import { CHUNK_SIZE_BYTES, chunkCount } from '../../policy/ranges.js';

/**
 * The cache key space of a run (DESIGN.md "key id"): every cache entry a request can need
 * gets a dense integer once, before the run, so caches see integers only.
 *
 * - A whole object without variants is one key; an object whose key carries variants
 *   (spec 4.4 `avif-support`/`no-avif-support`, spec 4.5 `mobile`/`desktop`, decided by the
 *   policy engine's cacheKey per class and file type) has one key per variant: 4 slots per
 *   object, of which it uses those its variant mask allows.
 * - An object read with Range requests (spec 4.8) has, after the whole-object keys, one key
 *   per 5 MB chunk and variant, chunks of one variant consecutive, so the chunks a range
 *   touches are key, key + 1, ….
 *
 * Without variants and chunks the key of an object is its id, as before there were keys.
 */

/** Variant mask bits: which request attributes the object's cache key depends on. */
export const VARIANT_IMAGE_FORMAT = 1;
export const VARIANT_DEVICE = 2;
/** Distinct variant codes: (accepts AVIF) | (mobile) << 1. */
const VARIANT_CODES = 4;
/** The bit of a variant code that says the key is the `avif-support` variant (spec 4.4). */
const CODE_AVIF = 1;

/** Whether a request's variant code (from `variantCode`) asks for the AVIF variant of an image (spec 4.4 `avif-support`). */
export function isAvifVariant(code: number): boolean {
  return (code & CODE_AVIF) !== 0;
}

/** Largest key id a cache store takes (Int32 key arrays). */
const MAX_KEYS = 2 ** 31 - 1;

export interface RequestKeySpec {
  /** Bytes of each object. */
  readonly objectSizes: ArrayLike<number>;
  /** Per object: VARIANT_* bits; null when no object has variants. */
  readonly variantMaskOf: Uint8Array | null;
  /** Per object: 1 when it is read with Range requests in 5 MB chunks; null when none is. */
  readonly chunkedOf: Uint8Array | null;
}

export class RequestKeys {
  /** Key ids in use: 0..keyCount−1. */
  readonly keyCount: number;
  /** spec 4.8: 5 MB chunks (the flows size pieces by the same constant). */
  readonly chunkBytes = CHUNK_SIZE_BYTES;
  private readonly stride: number;
  private readonly variantMaskOf: Uint8Array | null;
  /** Per object: its first chunk key, −1 when it is not chunked. */
  private readonly chunkBase: Float64Array | null;
  private readonly chunksOf: Float64Array | null;

  constructor(spec: RequestKeySpec) {
    const objects = spec.objectSizes.length;
    this.variantMaskOf = spec.variantMaskOf;
    this.stride = spec.variantMaskOf !== null && spec.variantMaskOf.some((mask) => mask !== 0) ? VARIANT_CODES : 1;
    let next = objects * this.stride;
    if (spec.chunkedOf === null) {
      this.chunkBase = null;
      this.chunksOf = null;
    } else {
      this.chunkBase = new Float64Array(objects).fill(-1);
      this.chunksOf = new Float64Array(objects);
      for (let id = 0; id < objects; id++) {
        if (spec.chunkedOf[id] !== 1) continue;
        const chunks = chunkCount(spec.objectSizes[id], this.chunkBytes);
        this.chunkBase[id] = next;
        this.chunksOf[id] = chunks;
        next += chunks * this.stride;
      }
    }
    if (next > MAX_KEYS) {
      throw new RangeError(`the run needs ${next} cache keys (objects × variants × 5 MB chunks), more than the ${MAX_KEYS} a cache store takes; use fewer or smaller media objects`);
    }
    this.keyCount = next;
  }

  /** The variant code of a request for `objectId` from a client with these attributes (0 when the key has no variants). */
  variantCode(objectId: number, acceptsAvif: number, mobile: number): number {
    const mask = this.variantMaskOf === null ? 0 : this.variantMaskOf[objectId];
    return (mask & VARIANT_IMAGE_FORMAT ? acceptsAvif : 0) | (mask & VARIANT_DEVICE ? mobile << 1 : 0);
  }

  /** Key of the whole object in variant `code`. */
  wholeKey(objectId: number, code: number): number {
    return objectId * this.stride + code;
  }

  /** Whether the object is read in chunks (ranges). */
  isChunked(objectId: number): boolean {
    return this.chunkBase !== null && this.chunkBase[objectId] >= 0;
  }

  /** Key of chunk `chunk` of the object in variant `code`; the object must be chunked. */
  chunkKey(objectId: number, code: number, chunk: number): number {
    const chunks = (this.chunksOf as Float64Array)[objectId];
    return (this.chunkBase as Float64Array)[objectId] + code * chunks + chunk;
  }
}
