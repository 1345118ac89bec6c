import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CacheStore, CacheStoreOptions } from '../../src/cache/cacheStore.js';
import { RandomStreams } from '../../src/sim/random.js';
import { AliasTable } from '../../src/workload/aliasTable.js';
import { zipfProbabilities } from '../../src/workload/zipf.js';

/**
 * Shared machinery of the eviction-policy tests (test/cache/<policy>.test.ts): a base class
 * for the naive reference implementations, the differential drivers (fast-check operation
 * sequences and seeded Zipf traces), hit/miss strings for hand-made cases, and the
 * policy-independent CacheStore contract.
 */

/** The surface both a real store and a reference offer. */
export interface Subject {
  readonly occupancy: number;
  readonly objectCount: number;
  lookup(key: number, nowMs: number): boolean;
  contains(key: number, nowMs: number): boolean;
  insert(key: number, size: number, expiresAtMs: number): boolean;
  remove(key: number): boolean;
  setNextAccess?(key: number, nextAccessIndex: number): void;
}

export interface ReferenceEntry {
  key: number;
  size: number;
  expiresAtMs: number;
}

/**
 * The CacheStore contract written the slow, obvious way (a Map of entries, occupancy summed
 * on demand), so a reference only writes its policy: `onHit`, `admit` (evict as the paper
 * says, then `store`), and `unqueue` (take a key out of its queues when it is removed,
 * expires or is replaced — which is not an eviction).
 */
export abstract class ReferenceStore implements Subject {
  readonly entries = new Map<number, ReferenceEntry>();

  constructor(
    readonly capacity: number,
    readonly countMode: boolean,
  ) {}

  chargeOf(size: number): number {
    return this.countMode ? 1 : size;
  }

  get occupancy(): number {
    let used = 0;
    for (const entry of this.entries.values()) used += this.chargeOf(entry.size);
    return used;
  }

  get objectCount(): number {
    return this.entries.size;
  }

  /** Would an object of `charge` fit next to what is stored now? */
  fits(charge: number): boolean {
    return this.occupancy + charge <= this.capacity;
  }

  lookup(key: number, nowMs: number): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    if (entry.expiresAtMs <= nowMs) {
      this.discard(key);
      return false;
    }
    this.onHit(key);
    return true;
  }

  contains(key: number, nowMs: number): boolean {
    const entry = this.entries.get(key);
    return entry !== undefined && entry.expiresAtMs > nowMs;
  }

  insert(key: number, size: number, expiresAtMs: number): boolean {
    if (!(size >= 0)) throw new RangeError(`object size must be ≥ 0 bytes, got ${size}`);
    if (this.entries.has(key)) this.discard(key);
    const charge = this.chargeOf(size);
    if (charge > this.capacity) return false;
    return this.admit(key, size, charge, expiresAtMs);
  }

  remove(key: number): boolean {
    if (!this.entries.has(key)) return false;
    this.discard(key);
    return true;
  }

  protected store(key: number, size: number, expiresAtMs: number): void {
    this.entries.set(key, { key, size, expiresAtMs });
  }

  /** Evicts: the entry leaves the cache (the caller has already dequeued it). */
  protected evict(key: number): void {
    this.entries.delete(key);
  }

  private discard(key: number): void {
    this.unqueue(key);
    this.entries.delete(key);
  }

  protected abstract onHit(key: number): void;
  protected abstract admit(key: number, size: number, charge: number, expiresAtMs: number): boolean;
  protected abstract unqueue(key: number): void;
}

/** Removes `value` from an array if present (the references' linear-scan list primitive). */
export function without(list: number[], value: number): boolean {
  const index = list.indexOf(value);
  if (index < 0) return false;
  list.splice(index, 1);
  return true;
}

// ---------------------------------------------------------------------------------------
// Differential testing on fast-check operation sequences

export type Op =
  | { kind: 'request'; key: number; size: number; ttl: number }
  | { kind: 'lookup'; key: number }
  | { kind: 'insert'; key: number; size: number; ttl: number }
  | { kind: 'remove'; key: number }
  | { kind: 'tick'; ms: number }
  | { kind: 'oracle'; key: number; next: number };

/** Keys 0–24 against stores built with keySpace 16, so the arrays grow mid-sequence. */
export const OP_KEYS = 24;

const sizeArbitrary = fc.oneof(
  { arbitrary: fc.constant(0), weight: 1 },
  { arbitrary: fc.integer({ min: 1, max: 120 }), weight: 6 },
  { arbitrary: fc.integer({ min: 121, max: 600 }), weight: 2 },
  // Larger than every byte capacity generated below: never admitted.
  { arbitrary: fc.integer({ min: 1_001, max: 1_500 }), weight: 1 },
);
const ttlArbitrary = fc.oneof({ arbitrary: fc.constant(Infinity), weight: 3 }, { arbitrary: fc.integer({ min: 1, max: 60 }), weight: 1 });
const keyArbitrary = fc.nat(OP_KEYS);

export function opArbitrary(withOracle: boolean): fc.Arbitrary<Op> {
  const choices: { arbitrary: fc.Arbitrary<Op>; weight: number }[] = [
    { arbitrary: fc.record({ kind: fc.constant('request' as const), key: keyArbitrary, size: sizeArbitrary, ttl: ttlArbitrary }), weight: 8 },
    { arbitrary: fc.record({ kind: fc.constant('lookup' as const), key: keyArbitrary }), weight: 1 },
    { arbitrary: fc.record({ kind: fc.constant('insert' as const), key: keyArbitrary, size: sizeArbitrary, ttl: ttlArbitrary }), weight: 1 },
    { arbitrary: fc.record({ kind: fc.constant('remove' as const), key: keyArbitrary }), weight: 1 },
    { arbitrary: fc.record({ kind: fc.constant('tick' as const), ms: fc.nat(20) }), weight: 1 },
  ];
  if (withOracle) {
    const next = fc.oneof(fc.constant(-1), fc.constant(Infinity), fc.nat(400));
    choices.push({ arbitrary: fc.record({ kind: fc.constant('oracle' as const), key: keyArbitrary, next }), weight: 4 });
  }
  return fc.oneof(...choices);
}

/**
 * Applies `ops` to both and throws, naming the step, at the first difference in a return
 * value, occupancy, objectCount or any key's `contains`.
 */
export function expectSameBehaviour(store: Subject, reference: Subject, ops: readonly Op[]): void {
  let now = 0;
  ops.forEach((op, step) => {
    let actual: unknown;
    let expected: unknown;
    switch (op.kind) {
      case 'tick':
        now += op.ms;
        break;
      case 'oracle':
        store.setNextAccess!(op.key, op.next);
        reference.setNextAccess!(op.key, op.next);
        break;
      case 'lookup':
        actual = store.lookup(op.key, now);
        expected = reference.lookup(op.key, now);
        break;
      case 'remove':
        actual = store.remove(op.key);
        expected = reference.remove(op.key);
        break;
      case 'insert':
        actual = store.insert(op.key, op.size, now + op.ttl);
        expected = reference.insert(op.key, op.size, now + op.ttl);
        break;
      case 'request': {
        const hit = store.lookup(op.key, now);
        const expectedHit = reference.lookup(op.key, now);
        actual = [hit, hit ? null : store.insert(op.key, op.size, now + op.ttl)];
        expected = [expectedHit, expectedHit ? null : reference.insert(op.key, op.size, now + op.ttl)];
        break;
      }
    }
    const where = () => `step ${step} ${JSON.stringify(op)} at ${now} ms`;
    if (JSON.stringify(actual) !== JSON.stringify(expected)) throw new Error(`${where()}: returned ${JSON.stringify(actual)}, reference ${JSON.stringify(expected)}`);
    if (store.occupancy !== reference.occupancy || store.objectCount !== reference.objectCount) {
      throw new Error(`${where()}: occupancy/objectCount ${store.occupancy}/${store.objectCount}, reference ${reference.occupancy}/${reference.objectCount}`);
    }
    for (let key = 0; key <= OP_KEYS; key++) {
      if (store.contains(key, now) !== reference.contains(key, now)) throw new Error(`${where()}: contains(${key}) differs from the reference`);
    }
  });
}

export interface DifferentialOptions {
  numRuns?: number;
  seed: number;
  /** Generate `setNextAccess` operations (offline policies). */
  oracle?: boolean;
}

/**
 * The fast-check differential property: random capacity (0–1000 bytes, or 0–12 objects),
 * mode, and up to 150 operations mixing requests (lookup, insert on miss), bare lookups and
 * inserts, removes, clock ticks and TTLs, sizes 0 to oversized.
 */
export function assertMatchesReference(
  makeStore: (options: CacheStoreOptions) => Subject,
  makeReference: (capacity: number, countMode: boolean) => Subject,
  options: DifferentialOptions,
): void {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 1_000 }), fc.boolean(), fc.array(opArbitrary(options.oracle ?? false), { maxLength: 150 }), (bytes, countMode, ops) => {
      const capacity = countMode ? Math.round(bytes / 80) : bytes;
      expectSameBehaviour(makeStore({ capacity, countMode, keySpace: 16 }), makeReference(capacity, countMode), ops);
    }),
    { numRuns: options.numRuns ?? 400, seed: options.seed },
  );
}

// ---------------------------------------------------------------------------------------
// Seeded Zipf traces

export interface Trace {
  /** Object id of each request. */
  keys: Int32Array;
  /** Size of each object (one size per object, as a catalogue gives). */
  objectSizes: Float64Array;
  /** Index of the next request for the same object, Infinity if none (oracleGeneral's next_access). */
  nextAccess: Float64Array;
  /** Sum of the sizes of the distinct objects requested. */
  workingSetBytes: number;
  /** Number of distinct objects requested. */
  workingSetObjects: number;
}

/**
 * A Zipf(exponent) request sequence over `objects` ids (alias sampling, the workload's own
 * generator), lognormal sizes around `medianSize` with object 3 of size 0, from a named seed.
 */
export function zipfTrace(seed: string, requests: number, objects: number, exponent = 0.8, medianSize = 2_000): Trace {
  const streams = new RandomStreams(seed);
  const table = new AliasTable(zipfProbabilities(objects, exponent));
  const keyStream = streams.stream('keys');
  const sizeStream = streams.stream('sizes');
  const objectSizes = new Float64Array(objects);
  for (let id = 0; id < objects; id++) objectSizes[id] = Math.round(sizeStream.lognormal(medianSize, 1.5));
  if (objects > 3) objectSizes[3] = 0;
  const keys = new Int32Array(requests);
  for (let i = 0; i < requests; i++) keys[i] = table.sample(keyStream.next());
  return withNextAccess(keys, objectSizes);
}

export function withNextAccess(keys: Int32Array, objectSizes: Float64Array): Trace {
  const nextAccess = new Float64Array(keys.length);
  const seenAt = new Float64Array(objectSizes.length).fill(Infinity);
  let workingSetBytes = 0;
  let workingSetObjects = 0;
  for (let i = keys.length - 1; i >= 0; i--) {
    const key = keys[i];
    if (seenAt[key] === Infinity) {
      workingSetBytes += objectSizes[key];
      workingSetObjects++;
    }
    nextAccess[i] = seenAt[key];
    seenAt[key] = i;
  }
  return { keys, objectSizes, nextAccess, workingSetBytes, workingSetObjects };
}

export interface ReplayResult {
  hits: number;
  misses: number;
  mismatches: string[];
}

/**
 * Replays a trace on a store and its reference side by side (setNextAccess first when the
 * store has it; lookup; insert on a miss), comparing hit/miss, occupancy and objectCount
 * after every request. `ttlMs`: each insert expires 1–ttlMs ms later; the clock advances
 * 0–2 ms per request.
 */
export function replayAgainstReference(store: Subject, reference: Subject, trace: Trace, ttlMs = Infinity): ReplayResult {
  const clock = new RandomStreams(`clock:${trace.keys.length}`).stream('clock');
  const result: ReplayResult = { hits: 0, misses: 0, mismatches: [] };
  let now = 0;
  for (let i = 0; i < trace.keys.length && result.mismatches.length < 5; i++) {
    now += clock.int(3);
    const expiresAt = ttlMs === Infinity ? Infinity : now + 1 + clock.int(ttlMs);
    const key = trace.keys[i];
    store.setNextAccess?.(key, trace.nextAccess[i]);
    reference.setNextAccess?.(key, trace.nextAccess[i]);
    const hit = store.lookup(key, now);
    const expectedHit = reference.lookup(key, now);
    if (!hit) store.insert(key, trace.objectSizes[key], expiresAt);
    if (!expectedHit) reference.insert(key, trace.objectSizes[key], expiresAt);
    if (hit) result.hits++;
    else result.misses++;
    if (hit !== expectedHit || store.occupancy !== reference.occupancy || store.objectCount !== reference.objectCount) {
      result.mismatches.push(
        `request ${i} key ${key}: hit ${hit} vs ${expectedHit}, occupancy ${store.occupancy} vs ${reference.occupancy}, count ${store.objectCount} vs ${reference.objectCount}`,
      );
    }
  }
  return result;
}

/** Hits of a store on a trace (lookup, insert on miss, no expiry), oracle calls included. */
export function countHits(store: Subject, trace: Trace, countModeSize = false): number {
  let hits = 0;
  for (let i = 0; i < trace.keys.length; i++) {
    const key = trace.keys[i];
    store.setNextAccess?.(key, trace.nextAccess[i]);
    if (store.lookup(key, 0)) hits++;
    else store.insert(key, countModeSize ? 1 : trace.objectSizes[key], Infinity);
  }
  return hits;
}

/** The differential block every policy file runs on seeded 50,000-request Zipf(0.8) traces. */
export function describeTraceDifferential(policy: string, makeStore: (options: CacheStoreOptions) => Subject, makeReference: (capacity: number, countMode: boolean) => Subject): void {
  const trace = zipfTrace(`diff-${policy}`, 50_000, 2_000);
  const configurations = [
    { name: 'count mode, 10 % of the working set', countMode: true, capacity: Math.round(trace.workingSetObjects / 10), ttlMs: Infinity },
    { name: 'count mode, 1 % of the working set, TTL 1–300 ms', countMode: true, capacity: Math.round(trace.workingSetObjects / 100), ttlMs: 300 },
    { name: 'byte mode, 5 % of the working set', countMode: false, capacity: Math.round(trace.workingSetBytes / 20), ttlMs: Infinity },
    { name: 'byte mode, 20 % of the working set, TTL 1–2000 ms', countMode: false, capacity: Math.round(trace.workingSetBytes / 5), ttlMs: 2_000 },
  ];
  for (const config of configurations) {
    it(`${config.name}: identical hit/miss sequence, occupancy and objectCount over a seeded 50,000-request Zipf(0.8) trace`, () => {
      const store = makeStore({ capacity: config.capacity, countMode: config.countMode, keySpace: 64 });
      const result = replayAgainstReference(store, makeReference(config.capacity, config.countMode), trace, config.ttlMs);
      expect(result.mismatches).toEqual([]);
      // The trace exercises both hits and evictions, not a degenerate regime.
      expect(result.hits).toBeGreaterThan(2_000);
      expect(result.misses).toBeGreaterThan(2_000);
    });
  }
}

// ---------------------------------------------------------------------------------------
// Hand-made cases

/**
 * Requests `keys` in order (lookup, insert on a miss, no expiry; setNextAccess computed
 * from the sequence itself for offline policies) and returns one letter per request:
 * H for a hit, M for a miss.
 */
export function hitMissString(store: Subject, keys: readonly number[], sizeOf: (key: number) => number = () => 1): string {
  const trace = withNextAccess(Int32Array.from(keys), new Float64Array(Math.max(0, ...keys) + 1));
  let letters = '';
  keys.forEach((key, i) => {
    store.setNextAccess?.(key, trace.nextAccess[i]);
    const hit = store.lookup(key, 0);
    if (!hit) store.insert(key, sizeOf(key), Infinity);
    letters += hit ? 'H' : 'M';
  });
  return letters;
}

/** Which of `keys` are cached now. */
export function cachedKeys(store: Subject, keys: readonly number[]): number[] {
  return keys.filter((key) => store.contains(key, 0));
}

// ---------------------------------------------------------------------------------------
// The policy-independent contract (the CacheStore doc comments)

export interface ContractOptions {
  /** Called before each insert: offline policies are told a finite next access here. */
  beforeInsert?: (store: CacheStore, key: number) => void;
}

export function describeCacheStoreContract(policy: string, make: (options: CacheStoreOptions) => CacheStore, options: ContractOptions = {}): void {
  const put = (store: CacheStore, key: number, size: number, expiresAtMs = Infinity): boolean => {
    options.beforeInsert?.(store, key);
    return store.insert(key, size, expiresAtMs);
  };

  describe(`${policy}: the CacheStore contract`, () => {
    it(`policy is '${policy}', the store starts empty with the given capacity and mode`, () => {
      const store = make({ capacity: 4_096, keySpace: 8 });
      expect([store.policy, store.capacity, store.countMode, store.occupancy, store.objectCount]).toEqual([policy, 4_096, false, 0, 0]);
      expect(make({ capacity: 10, countMode: true }).countMode).toBe(true);
    });

    it('an object larger than the whole cache is not admitted: insert returns false and nothing is evicted', () => {
      const store = make({ capacity: 1_000 });
      expect(put(store, 1, 400)).toBe(true);
      expect(put(store, 2, 500)).toBe(true);
      expect(put(store, 3, 1_001)).toBe(false);
      expect([store.occupancy, store.objectCount]).toEqual([900, 2]);
      expect([1, 2, 3].map((key) => store.contains(key, 0))).toEqual([true, true, false]);
      expect(store.lookup(3, 0)).toBe(false);
    });

    it('re-inserting a present key with a size above the capacity drops the old entry and admits nothing', () => {
      const store = make({ capacity: 10 });
      put(store, 1, 5);
      expect(put(store, 1, 11)).toBe(false);
      expect([store.occupancy, store.objectCount, store.contains(1, 0)]).toEqual([0, 0, false]);
    });

    it('an object of exactly the capacity is admitted and evicts everything else', () => {
      const store = make({ capacity: 1_000 });
      put(store, 1, 400);
      put(store, 2, 500);
      put(store, 3, 100);
      expect(put(store, 4, 1_000)).toBe(true);
      expect([store.occupancy, store.objectCount]).toEqual([1_000, 1]);
      expect([1, 2, 3, 4].map((key) => store.contains(key, 0))).toEqual([false, false, false, true]);
    });

    it('zero-size objects are admitted, counted in objectCount, and take no bytes (even in a 0-byte cache)', () => {
      const store = make({ capacity: 100 });
      put(store, 1, 100);
      expect(put(store, 2, 0)).toBe(true);
      expect(put(store, 3, 0)).toBe(true);
      expect([store.occupancy, store.objectCount]).toEqual([100, 3]);
      expect(store.lookup(2, 0)).toBe(true);
      const empty = make({ capacity: 0 });
      expect(put(empty, 5, 0)).toBe(true);
      expect(put(empty, 6, 1)).toBe(false);
      expect([empty.occupancy, empty.objectCount]).toEqual([0, 1]);
    });

    it('count mode charges 1 per object whatever its size; a 0-object cache admits nothing', () => {
      const store = make({ capacity: 3, countMode: true });
      expect(put(store, 1, 5_000_000_000)).toBe(true);
      expect(put(store, 2, 0)).toBe(true);
      expect(put(store, 3, 17)).toBe(true);
      expect([store.occupancy, store.objectCount]).toEqual([3, 3]);
      expect(put(store, 4, 1)).toBe(true);
      expect([store.occupancy, store.objectCount]).toEqual([3, 3]);
      const none = make({ capacity: 0, countMode: true });
      expect(put(none, 1, 0)).toBe(false);
      expect(none.objectCount).toBe(0);
    });

    it('fractional sizes leave no residue: after everything is removed or evicted, occupancy is exactly 0', () => {
      const store = make({ capacity: 1 });
      for (const [key, size] of [[1, 0.1], [2, 0.2], [3, 0.3], [4, 0.7], [5, 0.1]] as const) put(store, key, size);
      for (const key of [1, 2, 3, 4, 5]) store.remove(key);
      expect([store.occupancy, store.objectCount]).toEqual([0, 0]);
      expect(put(store, 6, 1)).toBe(true);
      expect(store.occupancy).toBe(1);
    });

    it('re-inserting a key with another size replaces the entry: occupancy follows the new size, count unchanged', () => {
      const store = make({ capacity: 1_000 });
      put(store, 1, 300);
      put(store, 2, 200);
      expect(put(store, 1, 700)).toBe(true);
      expect([store.occupancy, store.objectCount]).toEqual([900, 2]);
      expect(put(store, 1, 50)).toBe(true);
      expect([store.occupancy, store.objectCount]).toEqual([250, 2]);
      // Grown to 900 beside key 2 (200 + 900 > 1000): something must go, and the total stays exact.
      expect(put(store, 1, 900)).toBe(true);
      expect(store.contains(1, 0)).toBe(true);
      expect(store.occupancy).toBe(900);
      expect(store.objectCount).toBe(1);
    });

    it('TTL: expiresAtMs = 100 is a hit at 99 and a miss at 100; the miss removes the entry, contains() does not', () => {
      const store = make({ capacity: 1_000 });
      put(store, 1, 250, 100);
      put(store, 2, 50);
      expect(store.contains(1, 99)).toBe(true);
      expect(store.lookup(1, 99)).toBe(true);
      expect(store.contains(1, 100)).toBe(false);
      expect([store.occupancy, store.objectCount]).toEqual([300, 2]);
      expect(store.lookup(1, 100)).toBe(false);
      expect([store.occupancy, store.objectCount]).toEqual([50, 1]);
      expect(store.remove(1)).toBe(false);
      expect(store.lookup(1, 0)).toBe(false);
    });

    it('hits never extend freshness: hit at 10 and 99, miss at 100', () => {
      const store = make({ capacity: 1_000 });
      put(store, 1, 10, 100);
      expect([store.lookup(1, 10), store.lookup(1, 99), store.lookup(1, 100)]).toEqual([true, true, false]);
      expect(store.objectCount).toBe(0);
    });

    it('remove works at any time: fresh, after hits, never-looked-up, absent, twice', () => {
      const store = make({ capacity: 1_000 });
      put(store, 1, 100);
      put(store, 2, 100);
      put(store, 3, 100);
      store.lookup(2, 0);
      store.lookup(2, 0);
      expect([store.remove(2), store.remove(2), store.remove(3), store.remove(9), store.remove(1_000_000)]).toEqual([true, false, true, false, false]);
      expect([store.occupancy, store.objectCount, store.contains(1, 0)]).toEqual([100, 1, true]);
    });

    it('contains() does not touch policy state: sprinkling contains() calls into a trace changes no hit or miss', () => {
      const trace = zipfTrace(`contains-${policy}`, 4_000, 300);
      for (const countMode of [true, false]) {
        const capacity = countMode ? 30 : Math.round(trace.workingSetBytes / 10);
        const plain = make({ capacity, countMode });
        const probed = make({ capacity, countMode });
        const probes = new RandomStreams(`probes-${policy}`).stream('probes');
        let plainHits = '';
        let probedHits = '';
        for (let i = 0; i < trace.keys.length; i++) {
          const key = trace.keys[i];
          for (const store of [plain, probed]) store.setNextAccess?.(key, trace.nextAccess[i]);
          for (let probe = 0; probe < 3; probe++) probed.contains(probes.int(300), 0);
          for (const [store, sink] of [[plain, 'plain'], [probed, 'probed']] as const) {
            const hit = store.lookup(key, 0);
            if (!hit) store.insert(key, trace.objectSizes[key], Infinity);
            if (sink === 'plain') plainHits += hit ? 'H' : 'M';
            else probedHits += hit ? 'H' : 'M';
          }
        }
        expect(probedHits).toBe(plainHits);
        expect(plainHits).toContain('H');
      }
    });

    it('keys beyond the initial keySpace grow the arrays: key 100000 in a store built with keySpace 16, older entries intact', () => {
      const store = make({ capacity: 20, countMode: true, keySpace: 16 });
      for (let key = 0; key < 16; key++) put(store, key, 1);
      expect([store.lookup(100_000, 0), store.remove(100_000), store.contains(100_000, 0)]).toEqual([false, false, false]);
      expect(put(store, 100_000, 1)).toBe(true);
      expect(store.objectCount).toBe(17);
      expect(store.lookup(100_000, 0)).toBe(true);
      for (let key = 0; key < 16; key++) expect(store.contains(key, 0)).toBe(true);
      expect(store.remove(100_000)).toBe(true);
      expect(store.objectCount).toBe(16);
    });

    it('a negative or NaN capacity is rejected; a negative or NaN size throws and changes nothing', () => {
      expect(() => make({ capacity: -1 })).toThrow('cache capacity must be ≥ 0, got -1');
      expect(() => make({ capacity: NaN })).toThrow('cache capacity must be ≥ 0, got NaN');
      const store = make({ capacity: 100 });
      put(store, 1, 10);
      expect(() => store.insert(1, -5, Infinity)).toThrow(new RangeError('object size must be ≥ 0 bytes, got -5'));
      expect(() => store.insert(2, NaN, Infinity)).toThrow(RangeError);
      expect([store.occupancy, store.objectCount, store.contains(1, 0)]).toEqual([10, 1, true]);
    });
  });
}
