import { ArcStore } from './arc.js';
import { BeladyStore } from './belady.js';
import type { CacheStore, CacheStoreOptions } from './cacheStore.js';
import { ClockStore } from './clock.js';
import { FifoStore } from './fifo.js';
import { GdsfStore } from './gdsf.js';
import { LfuStore } from './lfu.js';
import { LruStore } from './lru.js';
import { S3FifoStore } from './s3fifo.js';
import { S4LruStore } from './s4lru.js';
import { SieveStore } from './sieve.js';
import { TwoQStore } from './twoq.js';

export type CacheStoreFactory = (options: CacheStoreOptions) => CacheStore;

/** Eviction policies by CLI/scenario name. Adding a policy: one file and one line here. */
export const CACHE_POLICIES = {
  lru: (options) => new LruStore(options),
  fifo: (options) => new FifoStore(options),
  clock: (options) => new ClockStore(options),
  sieve: (options) => new SieveStore(options),
  s3fifo: (options) => new S3FifoStore(options),
  lfu: (options) => new LfuStore(options),
  arc: (options) => new ArcStore(options),
  twoq: (options) => new TwoQStore(options),
  s4lru: (options) => new S4LruStore(options),
  gdsf: (options) => new GdsfStore(options),
  belady: (options) => new BeladyStore(options),
} as const satisfies Record<string, CacheStoreFactory>;

export type CachePolicyName = keyof typeof CACHE_POLICIES;

export const CACHE_POLICY_NAMES = Object.keys(CACHE_POLICIES) as CachePolicyName[];

/**
 * Policies that need to know the future (they implement `setNextAccess`): trace replays and
 * benchmarks can use them as bounds, but a scenario cannot, since the simulator generates
 * requests as it goes.
 */
export const OFFLINE_CACHE_POLICY_NAMES = ['belady'] as const satisfies readonly CachePolicyName[];

export type OnlineCachePolicyName = Exclude<CachePolicyName, (typeof OFFLINE_CACHE_POLICY_NAMES)[number]>;

/** The policies a scenario file may name: all but the offline ones, in registry order. */
export const ONLINE_CACHE_POLICY_NAMES = CACHE_POLICY_NAMES.filter(
  (name): name is OnlineCachePolicyName => !(OFFLINE_CACHE_POLICY_NAMES as readonly string[]).includes(name),
);

export function createCacheStore(policy: CachePolicyName, options: CacheStoreOptions): CacheStore {
  return CACHE_POLICIES[policy](options);
}
