/**
 * HTTP request methods a trace can record (access logs do; block and cache traces do not).
 * `TraceBatch.method` holds an index into this list; 0 means unknown or another method, so
 * formats without methods leave every entry 0.
 */
export const HTTP_METHODS = ['OTHER', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'CONNECT', 'TRACE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

const TWO_POW_32 = 4294967296;

/**
 * Requests decoded from a trace, in order, in reusable typed arrays (no object per request).
 * A reader fills a batch from index 0 and sets `count`; the caller reads entries
 * [0, count) and hands the same batch back for the next chunk, so replaying a trace of any
 * length allocates nothing per request.
 */
/** Requests per batch unless a reader is given another capacity. */
export const DEFAULT_TRACE_BATCH_CAPACITY = 65_536;

export class TraceBatch {
  readonly capacity: number;
  /** Filled entries. */
  count = 0;
  /** Request time in seconds (fractional allowed), as the trace gives it (not re-based to 0). */
  readonly timeSeconds: Float64Array;
  /**
   * Object id, low and high 32 bits: 64-bit numeric ids exactly. Readers intern string ids
   * (URLs, hashes in hex) to dense numbers 0, 1, 2, … with idHigh 0.
   */
  readonly idLow: Uint32Array;
  readonly idHigh: Uint32Array;
  /** Bytes as given on this request's line; first-seen-size semantics are the replay engine's. */
  readonly sizes: Float64Array;
  /**
   * oracleGeneral only: the trace's next_access_vtime, the 1-based index of the next request
   * for the same object, or -1 if there is none. Other formats write NaN ("unknown").
   */
  readonly nextAccess: Float64Array;
  /** HTTP status code (access logs); 0 when the format has none. */
  readonly status: Uint16Array;
  /** Index into HTTP_METHODS (access logs); 0 when the format has none. */
  readonly method: Uint8Array;

  constructor(capacity = DEFAULT_TRACE_BATCH_CAPACITY) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`a trace batch needs a capacity ≥ 1, got ${capacity}`);
    this.capacity = capacity;
    this.timeSeconds = new Float64Array(capacity);
    this.idLow = new Uint32Array(capacity);
    this.idHigh = new Uint32Array(capacity);
    this.sizes = new Float64Array(capacity);
    this.nextAccess = new Float64Array(capacity);
    this.status = new Uint16Array(capacity);
    this.method = new Uint8Array(capacity);
  }

  /** Entry i's id as one number: exact while it is below 2^53 (dense and block-address ids are). */
  idNumber(i: number): number {
    return this.idHigh[i] * TWO_POW_32 + this.idLow[i];
  }

  /** Entry i's id exactly, for ids that may exceed 2^53 (hashes). */
  idBigInt(i: number): bigint {
    return (BigInt(this.idHigh[i]) << 32n) | BigInt(this.idLow[i]);
  }
}

/** The index in HTTP_METHODS of a method name (exact, case-sensitive as HTTP is); 0 if unknown. */
export function httpMethodIndex(name: string): number {
  const index = HTTP_METHODS.indexOf(name as HttpMethod);
  return index > 0 ? index : 0;
}
