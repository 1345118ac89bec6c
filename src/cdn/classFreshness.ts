import type { CompiledDecisionTable } from '../policy/compile.js';

/**
 * What one layer does with each class of content, as the request path reads it: whether it
 * stores a response, and for how long it serves it without the origin (Infinity: never
 * expires). Indexed by class id (src/workload/content: each object id has a class).
 */
export interface LayerFreshness {
  readonly store: Uint8Array;
  readonly ttlMs: Float64Array;
}

/**
 * One layer's decisions from the compiled table. A copy with no freshness left would only
 * be revalidated, which the flows do not model yet: not storing it is the same.
 */
export function layerFreshness(table: CompiledDecisionTable, layerIndex: number): LayerFreshness {
  const store = new Uint8Array(table.size);
  const ttlMs = new Float64Array(table.size);
  for (let c = 0; c < table.size; c++) {
    ttlMs[c] = table.ttlMsOf(c, layerIndex);
    store[c] = table.stores(c, layerIndex) && ttlMs[c] > 0 ? 1 : 0;
  }
  return { store, ttlMs };
}

/** The same decision for every object (one class): tests and the simplest runs. */
export function uniformFreshness(store: boolean, ttlMs: number): LayerFreshness {
  return { store: Uint8Array.of(store && ttlMs > 0 ? 1 : 0), ttlMs: Float64Array.of(ttlMs) };
}
