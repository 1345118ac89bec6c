import { CACHE_LAYERS, type CacheLayer, type Deployment, type PolicyOptions } from './deployment.js';
import { decide, type CacheDecision } from './decision.js';
import { normaliseHeaders, type HeaderInput } from './headers.js';
import type { VariantRules } from './variants.js';
import { growColumns } from '../sim/columns.js';

/**
 * A decision reduced to numbers and flags, so the simulator runs the real engine once per
 * distinct (header profile, layer) and pays nothing per request (DESIGN "Hot path").
 */
export interface CompiledDecision {
  readonly store: boolean;
  readonly ttlMs: number;
  readonly staleWhileRevalidateMs: number;
  readonly staleIfErrorMs: number;
  readonly staleIfUnreachableMs: number;
  readonly revalidateAlways: boolean;
  readonly neverServeStale: boolean;
  readonly immutable: boolean;
  readonly errorCaching: boolean;
}

export function compileDecision(decision: CacheDecision): CompiledDecision {
  return {
    store: decision.store,
    ttlMs: decision.ttlSeconds * 1000,
    staleWhileRevalidateMs: decision.staleWhileRevalidateSeconds * 1000,
    staleIfErrorMs: decision.staleIfErrorSeconds * 1000,
    staleIfUnreachableMs: decision.staleIfUnreachableSeconds * 1000,
    revalidateAlways: decision.revalidateAlways,
    neverServeStale: decision.neverServeStale,
    immutable: decision.immutable,
    errorCaching: decision.errorCaching,
  };
}

/** One class of response as the origin sends it: enough to run `decide` for every layer. */
export interface ResponseClass {
  /** A representative URL (its path decides extension defaults, spec 4.2). */
  readonly url: string;
  readonly status: number;
  readonly headers: HeaderInput;
  readonly method?: string;
  readonly requestHeaders?: HeaderInput;
}

export const FLAG_STORE = 1;
export const FLAG_REVALIDATE_ALWAYS = 2;
export const FLAG_NEVER_STALE = 4;
export const FLAG_IMMUTABLE = 8;
export const FLAG_ERROR_CACHING = 16;

/**
 * Compiled decisions for many response classes × the three layers, in typed arrays indexed
 * by `classId * 3 + layerIndex`. Decisions are taken at time 0 with `Date` equal to the
 * response time, so only relative lifetimes matter: `ttlMs` is a lifetime counted from a
 * copy's zero-age moment (RFC 9111 §4.2.3; the flow keeps that moment per entry), not a time.
 */
/** Each layer's index among a class's slots in CompiledDecisionTable (CACHE_LAYERS order), for typed-array reads on the hot path. */
export const BROWSER_DECISION = CACHE_LAYERS.indexOf('browser');
export const EDGE_DECISION = CACHE_LAYERS.indexOf('edge');
export const REGIONAL_DECISION = CACHE_LAYERS.indexOf('regional');

export class CompiledDecisionTable {
  private ttlMs = new Float64Array(48);
  private swrMs = new Float64Array(48);
  private staleIfErrorMs = new Float64Array(48);
  private staleIfUnreachableMs = new Float64Array(48);
  private flags = new Uint8Array(48);
  private classCount = 0;

  constructor(
    private readonly deployment: Deployment,
    private readonly options?: PolicyOptions,
    private readonly variants?: VariantRules,
  ) {}

  get size(): number {
    return this.classCount;
  }

  /** Runs the engine for every layer once; returns the class id. */
  add(responseClass: ResponseClass): number {
    const id = this.classCount++;
    this.ensureCapacity((id + 1) * CACHE_LAYERS.length);
    const request = { method: responseClass.method ?? 'GET', url: responseClass.url, headers: normaliseHeaders(responseClass.requestHeaders) };
    const response = { status: responseClass.status, headers: normaliseHeaders(responseClass.headers) };
    CACHE_LAYERS.forEach((layer, layerIndex) => {
      const compiled = compileDecision(decide({ request, response, layer, deployment: this.deployment, nowMs: 0, options: this.options, variants: this.variants }));
      const slot = id * CACHE_LAYERS.length + layerIndex;
      this.ttlMs[slot] = compiled.ttlMs;
      this.swrMs[slot] = compiled.staleWhileRevalidateMs;
      this.staleIfErrorMs[slot] = compiled.staleIfErrorMs;
      this.staleIfUnreachableMs[slot] = compiled.staleIfUnreachableMs;
      this.flags[slot] =
        (compiled.store ? FLAG_STORE : 0) |
        (compiled.revalidateAlways ? FLAG_REVALIDATE_ALWAYS : 0) |
        (compiled.neverServeStale ? FLAG_NEVER_STALE : 0) |
        (compiled.immutable ? FLAG_IMMUTABLE : 0) |
        (compiled.errorCaching ? FLAG_ERROR_CACHING : 0);
    });
    return id;
  }

  stores(classId: number, layerIndex: number): boolean {
    return (this.flags[classId * 3 + layerIndex] & FLAG_STORE) !== 0;
  }

  flagsOf(classId: number, layerIndex: number): number {
    return this.flags[classId * 3 + layerIndex];
  }

  ttlMsOf(classId: number, layerIndex: number): number {
    return this.ttlMs[classId * 3 + layerIndex];
  }

  /**
   * Changes one class's freshness lifetime at one layer while a run goes on (the adaptive
   * controller, spec 1.2 item 6): every freshness check from then on reads it, for entries
   * stored before the change too (src/cdn/reuseRule.ts: fresh until = the entry's zero-age
   * moment + the lifetime in force now, RFC 9111 §4.2).
   */
  setTtlMs(classId: number, layerIndex: number, ttlMs: number): void {
    if (!(classId >= 0 && classId < this.classCount)) throw new RangeError(`no compiled class ${classId}`);
    if (!(ttlMs >= 0 && Number.isFinite(ttlMs))) throw new RangeError(`expected a TTL ≥ 0 ms, got ${ttlMs}`);
    this.ttlMs[classId * 3 + layerIndex] = ttlMs;
  }

  staleWhileRevalidateMsOf(classId: number, layerIndex: number): number {
    return this.swrMs[classId * 3 + layerIndex];
  }

  /** How long after expiry a stored copy may answer in place of a 5xx (explicit permission only, RFC 9111 §4.2.4). */
  staleIfErrorMsOf(classId: number, layerIndex: number): number {
    return this.staleIfErrorMs[classId * 3 + layerIndex];
  }

  /** How long after expiry a stored copy answers when the origin refuses the connection (spec 4.7 row 1). */
  staleIfUnreachableMsOf(classId: number, layerIndex: number): number {
    return this.staleIfUnreachableMs[classId * 3 + layerIndex];
  }

  /** The compiled decision as a record (for reports and tests; the hot path reads the arrays). */
  get(classId: number, layer: CacheLayer): CompiledDecision {
    const slot = classId * 3 + CACHE_LAYERS.indexOf(layer);
    const flags = this.flags[slot];
    return {
      store: (flags & FLAG_STORE) !== 0,
      ttlMs: this.ttlMs[slot],
      staleWhileRevalidateMs: this.swrMs[slot],
      staleIfErrorMs: this.staleIfErrorMs[slot],
      staleIfUnreachableMs: this.staleIfUnreachableMs[slot],
      revalidateAlways: (flags & FLAG_REVALIDATE_ALWAYS) !== 0,
      neverServeStale: (flags & FLAG_NEVER_STALE) !== 0,
      immutable: (flags & FLAG_IMMUTABLE) !== 0,
      errorCaching: (flags & FLAG_ERROR_CACHING) !== 0,
    };
  }

  /** Every typed array the table holds is a column of one slot per (class, layer), grown together (src/sim/columns.ts). */
  private ensureCapacity(slots: number): void {
    const capacity = this.flags.length;
    if (slots <= capacity) return;
    growColumns(this, capacity, Math.max(slots, capacity * 2));
  }
}
