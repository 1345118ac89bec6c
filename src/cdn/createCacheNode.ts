import { createCacheStore, type OnlineCachePolicyName } from '../cache/registry.js';
import { SparseKeyStore } from '../cache/sparseKeyStore.js';
import type { CacheNode } from './cacheNode.js';
import { LruCacheNode } from './lruCacheNode.js';
import { SharedCacheNode } from './sharedCacheNode.js';

/**
 * A shared cache node whose memory follows what it holds: LRU (the default policy) in one
 * table whose slot holds the whole entry (LruCacheNode: fewer memory accesses a hit), any
 * other policy as its store over node-local key ids (SharedCacheNode). The two decide alike.
 */
export function createCacheNode(policy: OnlineCachePolicyName, capacity: number, id: number): CacheNode {
  if (policy === 'lru') return new LruCacheNode(capacity, id);
  return new SharedCacheNode(new SparseKeyStore(createCacheStore(policy, { capacity })), id);
}
