import { describe, expect, it } from 'vitest';
import { CACHE_POLICIES, CACHE_POLICY_NAMES, OFFLINE_CACHE_POLICY_NAMES, ONLINE_CACHE_POLICY_NAMES, createCacheStore } from '../../src/cache/registry.js';
import { ScenarioError, parseScenarioText } from '../../src/scenario/load.js';

describe('cache policy registry', () => {
  it('registers the zoo: lru, fifo, clock, sieve, s3fifo, lfu, arc, twoq, s4lru, gdsf, belady', () => {
    expect(CACHE_POLICY_NAMES).toEqual(['lru', 'fifo', 'clock', 'sieve', 's3fifo', 'lfu', 'arc', 'twoq', 's4lru', 'gdsf', 'belady']);
  });

  it('every factory builds an empty store whose policy is its registry name, honouring capacity and count mode', () => {
    for (const name of CACHE_POLICY_NAMES) {
      const store = createCacheStore(name, { capacity: 123, countMode: true, keySpace: 4 });
      expect([store.policy, store.capacity, store.countMode, store.occupancy, store.objectCount]).toEqual([name, 123, true, 0, 0]);
      expect(CACHE_POLICIES[name]({ capacity: 5 }).countMode).toBe(false);
    }
  });

  it('policies that need future knowledge are kept out of ONLINE_CACHE_POLICY_NAMES: all but belady, in registry order', () => {
    expect(OFFLINE_CACHE_POLICY_NAMES).toEqual(['belady']);
    expect(ONLINE_CACHE_POLICY_NAMES).toEqual(CACHE_POLICY_NAMES.filter((name) => name !== 'belady'));
  });

  it('a scenario file may name any online policy but not belady', () => {
    expect(parseScenarioText('edge:\n  policy: s3fifo\n', 'zoo.yaml').edge.policy).toBe('s3fifo');
    expect(() => parseScenarioText('edge:\n  policy: belady\n', 'zoo.yaml')).toThrow(ScenarioError);
  });
});

describe('expiryOf (RFC 9111 §4.2.3: a layer below carries the stored entry\'s age)', () => {
  it('every policy reports the expiry it stored, Infinity for none, NaN once the key is gone, without touching policy state', () => {
    for (const name of CACHE_POLICY_NAMES) {
      const store = createCacheStore(name, { capacity: 3, countMode: true, keySpace: 2 });
      store.setNextAccess?.(7, 1);
      store.insert(7, 10, 5_000);
      store.setNextAccess?.(9, 2);
      store.insert(9, 10, Infinity);
      expect([name, store.expiryOf(7), store.expiryOf(9), store.expiryOf(8), store.expiryOf(1_000)]).toEqual([name, 5_000, Infinity, NaN, NaN]);
      store.remove(7);
      expect(store.expiryOf(7)).toBeNaN();
    }
  });
});
