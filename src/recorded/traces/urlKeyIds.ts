import { cacheKey, isOwnUrlKey } from '../../policy/cacheKey.js';
import { normaliseHeaders } from '../../policy/headers.js';
import { StringIds } from './textFields.js';

/** An object's key leaves out the variants (spec 4.4, 4.5), so no request header matters. */
const NO_HEADERS = normaliseHeaders(undefined);
/** targetOfObject: the object was named by its own key (the target as logged was the key). */
const OWN_KEY = -1;

/**
 * Dense object ids for request targets as the CDN keys them: the policy engine's cacheKey
 * `urlKey` (path, query with its parameters sorted, spec 4.3.1; no host), so
 * `/s.css?a=1&b=2` and `/s.css?b=2&a=1` are one object. Each object is named by the first
 * target seen for it, as logged.
 *
 * Most targets are their own key (isOwnUrlKey: a byte scan): their bytes go straight into
 * the key table, one hash per line as before keys were normalised. The others (absolute
 * form, two or more parameters, `:` or `#`) are interned as logged first, and cacheKey runs
 * once per distinct such target, not per line.
 */
export class UrlKeyIds {
  /** urlKey → object id. */
  private readonly keys = new StringIds();
  /** Targets that are not their own key, as logged. */
  private readonly others = new StringIds();
  /** Id in `others` → object id, for the first `mapped` ids. */
  private objectOfOther: Int32Array<ArrayBuffer> = new Int32Array(1024);
  private mapped = 0;
  /** Object id → the id in `others` that named it first, or OWN_KEY. */
  private targetOfObject: Int32Array<ArrayBuffer> = new Int32Array(1024);

  /** Distinct objects so far. */
  get size(): number {
    return this.keys.size;
  }

  /** The object id of the target whose UTF-8 bytes are buffer[start, end). */
  intern(buffer: Uint8Array, start: number, end: number): number {
    if (isOwnUrlKey(buffer, start, end)) {
      const objectsBefore = this.keys.size;
      const object = this.keys.intern(buffer, start, end);
      if (object === objectsBefore) this.named(object, OWN_KEY);
      return object;
    }
    const other = this.others.intern(buffer, start, end);
    if (other < this.mapped) return this.objectOfOther[other];
    // StringIds numbers new ids densely, so an unmapped one is the next: other === mapped.
    const text = Buffer.from(buffer.buffer, buffer.byteOffset + start, end - start).toString('utf8');
    const objectsBefore = this.keys.size;
    const object = this.keys.internString(cacheKey({ url: text, headers: NO_HEADERS }).urlKey);
    if (object === objectsBefore) this.named(object, other);
    if (other === this.objectOfOther.length) this.objectOfOther = grown(this.objectOfOther);
    this.objectOfOther[other] = object;
    this.mapped++;
    return object;
  }

  /** The first target seen for the object, as logged; undefined for an unknown id. */
  name(object: number): string | undefined {
    if (!(object >= 0 && object < this.keys.size)) return undefined;
    const other = this.targetOfObject[object];
    return other === OWN_KEY ? this.keys.name(object) : this.others.name(other);
  }

  private named(object: number, other: number): void {
    if (object === this.targetOfObject.length) this.targetOfObject = grown(this.targetOfObject);
    this.targetOfObject[object] = other;
  }
}

function grown(from: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const to = new Int32Array(from.length * 2);
  to.set(from);
  return to;
}
