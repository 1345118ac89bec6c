import type { CacheStore, CacheStoreOptions } from './cacheStore.js';
import { LruStore } from './lru.js';

export type CacheStoreFactory = (options: CacheStoreOptions) => CacheStore;

/** Eviction policies by CLI/scenario name. Adding a policy: one file and one line here. */
export const CACHE_POLICIES = {
  lru: (options) => new LruStore(options),
} as const satisfies Record<string, CacheStoreFactory>;

export type CachePolicyName = keyof typeof CACHE_POLICIES;

export const CACHE_POLICY_NAMES = Object.keys(CACHE_POLICIES) as CachePolicyName[];

export function createCacheStore(policy: CachePolicyName, options: CacheStoreOptions): CacheStore {
  return CACHE_POLICIES[policy](options);
}
