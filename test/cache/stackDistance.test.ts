import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { StackDistanceRecorder } from '../../src/cache/stackDistance.js';
import { CURVE_GRID_BYTES, CurveLayer, capacityFor, curveBucketOf, curvePoints } from '../../src/cache/hitRatioCurves.js';
import { LruStore } from '../../src/cache/lru.js';
import { LruCacheNode } from '../../src/cdn/lruCacheNode.js';

/** Byte stack distances the slow way: distinct keys since the previous reference, each at its size, plus the key's own. */
function naiveDistances(keys: readonly number[], sizeOf: (key: number) => number): number[] {
  return keys.map((key, i) => {
    const previous = i === 0 ? -1 : keys.lastIndexOf(key, i - 1);
    if (previous < 0) return Infinity;
    const between = new Set(keys.slice(previous + 1, i));
    between.delete(key);
    let sum = sizeOf(key);
    for (const other of between) sum += sizeOf(other);
    return sum;
  });
}

/** A lookup's distance, as the curve layer reads it: the reference, then its distance. */
function look(recorder: StackDistanceRecorder, key: number, touch = true): number {
  recorder.reference(key, touch);
  return recorder.lastDistance();
}

/** The recorder fed as an unbounded LruCacheNode feeds it: a lookup that hits moves the key up, a miss stores it. */
function recorded(keys: readonly number[], sizeOf: (key: number) => number): number[] {
  const recorder = new StackDistanceRecorder();
  const seen = new Set<number>();
  return keys.map((key) => {
    const distance = look(recorder, key, seen.has(key));
    if (!seen.has(key)) {
      seen.add(key);
      recorder.stored(key, sizeOf(key));
    }
    return distance;
  });
}

/** Hits of the project's LRU node at `capacity`: a lookup, and on a miss the object is put (refused when larger than the cache). */
function lruNodeHits(keys: readonly number[], sizeOf: (key: number) => number, capacity: number): boolean[] {
  const node = new LruCacheNode(capacity, 0);
  return keys.map((key) => {
    const hit = node.lookup(key, 0) >= 0;
    if (!hit) node.put(key, sizeOf(key), 0, 0, 1, 200);
    return hit;
  });
}

function lruStoreHits(keys: readonly number[], sizeOf: (key: number) => number, capacity: number): boolean[] {
  const store = new LruStore({ capacity });
  return keys.map((key) => {
    const hit = store.lookup(key, 0);
    if (!hit) store.insert(key, sizeOf(key), Infinity);
    return hit;
  });
}

const referenceStrings = fc.record({
  keys: fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 300 }),
  sizes: fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 31, maxLength: 31 }),
  capacity: fc.integer({ min: 0, max: 1500 }),
});

describe('byte stack distances (Mattson et al. 1970)', () => {
  it('the Fenwick recorder equals the definition, across compactions of its time axis', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1500 }), { minLength: 1, maxLength: 4000 }), (keys) => {
        const sizeOf = (key: number): number => (key * 37) % 101;
        expect(recorded(keys, sizeOf)).toEqual(naiveDistances(keys, sizeOf));
      }),
      { numRuns: 20 },
    );
  });

  it('seed (a stationary start, docs/curves.md): a recorder started from a stack gives the distances of one that stored the stack least recent first, across compactions', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 3000 }), { maxLength: 1500 }), fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 1, maxLength: 3000 }), (stack, keys) => {
        const sizeOf = (key: number): number => (key * 37) % 101;
        const seeded = new StackDistanceRecorder();
        seeded.seed(Int32Array.from(stack), Float64Array.from(stack, sizeOf), stack.length);
        const stored = new StackDistanceRecorder();
        for (let k = stack.length - 1; k >= 0; k--) stored.stored(stack[k], sizeOf(stack[k]));
        const known = new Set(stack);
        for (const key of keys) {
          const hit = known.has(key);
          expect(look(seeded, key, hit)).toBe(look(stored, key, hit));
          if (!hit) {
            known.add(key);
            seeded.stored(key, sizeOf(key));
            stored.stored(key, sizeOf(key));
          }
        }
        expect(seeded.keys).toBe(stored.keys);
        expect(seeded.largestBytes).toBe(stored.largestBytes);
      }),
      { numRuns: 20 },
    );
    // By hand: stack 1 (10 B), 2 (20 B), 3 (30 B), most recent first.
    const recorder = new StackDistanceRecorder();
    recorder.seed(Int32Array.of(1, 2, 3), Float64Array.of(10, 20, 30), 3);
    expect(look(recorder, 3)).toBe(60);
    expect(look(recorder, 1)).toBe(40);
    expect(look(recorder, 4, false)).toBe(Infinity);
  });

  it('a key looked up but not stored yet (its fetch in flight) has an infinite distance; a store moves it to the top', () => {
    const recorder = new StackDistanceRecorder();
    expect(look(recorder, 7, false)).toBe(Infinity);
    expect(look(recorder, 7, false)).toBe(Infinity);
    recorder.stored(7, 40);
    expect(look(recorder, 8, false)).toBe(Infinity);
    recorder.stored(8, 2);
    expect(look(recorder, 7)).toBe(42);
    // A miss (the node evicted 8) does not move 8 up: 7's next distance still leaves 8 below it.
    expect(look(recorder, 8, false)).toBe(42);
    expect(look(recorder, 7)).toBe(40);
    recorder.stored(8, 2);
    expect(look(recorder, 7)).toBe(42);
  });

  it('inclusion: the LRU node and LruStore hit exactly when the distance ≤ capacity, for every capacity at least the largest object', () => {
    fc.assert(
      fc.property(referenceStrings, ({ keys, sizes, capacity }) => {
        const sizeOf = (key: number): number => sizes[key];
        const largest = Math.max(...keys.map(sizeOf));
        const atCapacity = Math.max(capacity, largest);
        const expected = recorded(keys, sizeOf).map((distance) => distance <= atCapacity);
        expect(lruNodeHits(keys, sizeOf, atCapacity)).toEqual(expected);
        expect(lruStoreHits(keys, sizeOf, atCapacity)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('objects larger than the cache: the LRU refuses them, so it hits when the distance over the references to objects that fit is ≤ capacity', () => {
    fc.assert(
      fc.property(referenceStrings, ({ keys, sizes, capacity }) => {
        const sizeOf = (key: number): number => sizes[key];
        const atCapacity = capacity % 101;
        const fitting = keys.filter((key) => sizeOf(key) <= atCapacity);
        const fits = recorded(fitting, sizeOf).map((distance) => distance <= atCapacity);
        let next = 0;
        // A refused object never hits; every other reference is read off the filtered string.
        const expected = keys.map((key) => (sizeOf(key) <= atCapacity ? fits[next++] : false));
        expect(lruNodeHits(keys, sizeOf, atCapacity)).toEqual(expected);
        expect(lruStoreHits(keys, sizeOf, atCapacity)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('below the largest object the LRU is no stack algorithm: A(1) B(10) A hits at 9 bytes and misses at 10', () => {
    const sizeOf = (key: number): number => (key === 0 ? 1 : 10);
    expect(recorded([0, 1, 0], sizeOf)).toEqual([Infinity, Infinity, 11]);
    expect(lruNodeHits([0, 1, 0], sizeOf, 9)).toEqual([false, false, true]);
    expect(lruNodeHits([0, 1, 0], sizeOf, 10)).toEqual([false, false, false]);
    expect(lruNodeHits([0, 1, 0], sizeOf, 11)).toEqual([false, false, true]);
  });
});

describe('hit-ratio curves on the log grid', () => {
  it('a distance falls in the bucket of the first grid capacity at least as large', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 52 }), (distance) => {
        const b = curveBucketOf(distance);
        expect(distance).toBeLessThanOrEqual(CURVE_GRID_BYTES[b]);
        if (b > 0) expect(distance).toBeGreaterThan(CURVE_GRID_BYTES[b - 1]);
      }),
    );
    expect(curveBucketOf(Infinity)).toBe(CURVE_GRID_BYTES.length);
    expect(CURVE_GRID_BYTES[64]).toBe(10_000);
    expect(CURVE_GRID_BYTES[1] / CURVE_GRID_BYTES[0]).toBeLessThan(1.05);
  });

  it("the curve read through LruCacheNode's hook equals LRU runs at grid capacities (hit ratio and byte hit ratio)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 200 }), { minLength: 1, maxLength: 2000 }),
        fc.array(fc.integer({ min: 1, max: 100_000 }), { minLength: 201, maxLength: 201 }),
        (keys, sizes) => {
          const sizeOf = (key: number): number => sizes[key];
          const layer = new CurveLayer('edge', 1);
          const node = new LruCacheNode(Infinity, 0);
          node.recordCurve(layer, 0);
          for (const key of keys) {
            const hit = node.lookup(key, 0) >= 0;
            layer.countLast(sizeOf(key));
            if (!hit) node.put(key, sizeOf(key), 0, 0, 1, 200);
          }
          const points = curvePoints(layer.histogram(0));
          expect(points[0].capacityBytes).toBeGreaterThanOrEqual(Math.max(...keys.map(sizeOf)));
          const total = keys.reduce((sum, key) => sum + sizeOf(key), 0);
          for (const point of [points[0], points[Math.floor(points.length / 2)], points[points.length - 1]]) {
            const hits = lruNodeHits(keys, sizeOf, point.capacityBytes);
            expect(point.hitRatio).toBeCloseTo(hits.filter(Boolean).length / keys.length, 12);
            expect(point.byteHitRatio).toBeCloseTo(keys.reduce((sum, key, i) => sum + (hits[i] ? sizeOf(key) : 0), 0) / total, 12);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('capacityFor: the smallest grid capacity meeting the target, or the most an unbounded cache gives', () => {
    // Three objects of 5 KB, one each, referenced A B C A B C: the second round hits from 15 KB.
    const layer = new CurveLayer('edge', 1);
    const node = new LruCacheNode(Infinity, 0);
    node.recordCurve(layer, 0);
    for (const key of [1, 2, 3, 1, 2, 3]) {
      if (node.lookup(key, 0) < 0) node.put(key, 5000, 0, 0, 1, 200);
      layer.countLast(5000);
    }
    const histogram = layer.histogram(0);
    // 15,000 bytes is not on the grid: the first grid capacity at least 15,000 is 1000 × 10^(76/64) ≈ 15,399.
    expect(capacityFor(histogram, 0.5)).toEqual({ reached: true, capacityBytes: 15_399, hitRatio: 0.5 });
    expect(capacityFor(histogram, 0.6)).toEqual({ reached: false, maxHitRatio: 0.5 });
    expect(capacityFor(histogram, 0.5, 'bytes')).toEqual({ reached: true, capacityBytes: 15_399, hitRatio: 0.5 });
    expect(curvePoints(histogram).map((point) => point.hitRatio)).toEqual([...Array(curveBucketOf(15_000) - curveBucketOf(5000)).fill(0), 0.5]);
  });
});
