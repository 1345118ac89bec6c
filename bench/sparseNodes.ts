import type { CacheStore } from '../src/cache/cacheStore.js';
import { createCacheStore } from '../src/cache/registry.js';
import { SparseKeyStore } from '../src/cache/sparseKeyStore.js';
import type { RandomStream } from '../src/sim/random.js';
import { LegacySparseKeyStore } from './legacySparseKeyStore.js';

/**
 * The PoP tier of the sparse-key benchmarks: 339 nodes (the topology's PoP count), each an
 * LRU of 500 objects behind a SparseKeyStore, fed Zipf(0.8)-like traffic over 50 million
 * keys, so every node fills within its first few thousand requests and keeps seeing new keys.
 */
export const SPARSE_BENCH_NODES = 339;
export const SPARSE_BENCH_NODE_OBJECTS = 500;
export const SPARSE_BENCH_KEY_SPACE = 50_000_000;
const ZIPF_EXPONENT = 0.8;

/** `reusing`: src/cache/sparseKeyStore.ts; `legacy`: the wrapper before local ids were reused. */
export type SparseVariant = 'reusing' | 'legacy';
export const SPARSE_VARIANTS: readonly SparseVariant[] = ['reusing', 'legacy'];

export function sparseBenchNodes(variant: SparseVariant): CacheStore[] {
  return Array.from({ length: SPARSE_BENCH_NODES }, () => {
    const lru = createCacheStore('lru', { capacity: SPARSE_BENCH_NODE_OBJECTS, countMode: true });
    return variant === 'reusing' ? new SparseKeyStore(lru) : new LegacySparseKeyStore(lru);
  });
}

/**
 * A key of rank ~ Zipf(0.8) over the key space, by inverting the continuous power law
 * (P(rank ≤ x) ∝ x^(1−s)): no per-key table, so the memory measured is the caches'.
 */
export function zipfLikeKey(stream: RandomStream): number {
  return Math.min(SPARSE_BENCH_KEY_SPACE - 1, Math.floor(SPARSE_BENCH_KEY_SPACE * Math.pow(stream.next(), 1 / (1 - ZIPF_EXPONENT))));
}

/** One request: lookup at a node, insert on a miss. Returns whether it hit. */
export function requestAt(node: CacheStore, key: number): boolean {
  if (node.lookup(key, 0)) return true;
  node.insert(key, 1, Infinity);
  return false;
}
