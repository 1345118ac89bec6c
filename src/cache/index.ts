export type { CacheStore, CacheStoreOptions } from './cacheStore.js';
export { LruStore } from './lru.js';
export { CACHE_POLICIES, CACHE_POLICY_NAMES, createCacheStore, type CachePolicyName } from './registry.js';
export { cheApproximation, type CheResult } from './che.js';
