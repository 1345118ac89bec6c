import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StationaryScratch, stationaryLruOrder, weightBuckets } from '../../src/cache/lruStationary.js';
import { cheApproximation, cheCharacteristicTime } from '../../src/cache/che.js';
import { LruCacheNode } from '../../src/cdn/lruCacheNode.js';
import { RandomStreams, type RandomStream } from '../../src/sim/random.js';
import type { KeyId } from '../../src/sim/ids.js';
import { AliasTable } from '../../src/workload/aliasTable.js';
import { zipfProbabilities } from '../../src/workload/zipf.js';

/**
 * The stationary start (docs/warmup.md "A stationary start"): an LRU cache filled with one draw
 * of move-to-front's stationary law under the independent reference model, the longest prefix
 * of the recency order that fits.
 */
const filler = (weights: Float64Array, sizes: Float64Array, capacity: number) => {
  const buckets = weightBuckets(weights, sizes, capacity);
  const x = cheCharacteristicTime(buckets.idWeights, buckets.idSizes, capacity);
  const scratch = new StationaryScratch();
  const out = { ids: new Int32Array(16) };
  return (stream: RandomStream): number[] => {
    const held = stationaryLruOrder(buckets, capacity, x, stream, scratch, out);
    return Array.from(out.ids.subarray(0, held));
  };
};
const fill = (weights: Float64Array, sizes: Float64Array, capacity: number, stream: RandomStream): number[] => filler(weights, sizes, capacity)(stream);

/** An LRU cache filled least recent first, then asked `requests` independent requests by `weights`: its hit ratio. */
function hitRatioAfter(weights: Float64Array, sizes: Float64Array, capacity: number, contents: number[], requests: number, stream: RandomStream): number {
  const cache = new LruCacheNode(capacity, 0);
  for (let k = contents.length - 1; k >= 0; k--) cache.put(contents[k] as KeyId, sizes[contents[k]], 0, 0, 0, 200);
  const picker = new AliasTable(weights);
  let hits = 0;
  for (let r = 0; r < requests; r++) {
    const id = picker.sample(stream.next());
    if (cache.lookup(id as KeyId, 0 as never) >= 0) hits++;
    else cache.put(id as KeyId, sizes[id], 0, 0, 0, 200);
  }
  return hits / requests;
}

describe('LRU stationary contents (move-to-front under the independent reference model)', () => {
  it('three objects, p = 0.5, 0.3, 0.2, room for one: the cache holds object i with probability p_i (the most recent request)', () => {
    const weights = new Float64Array([0.5, 0.3, 0.2]);
    const sizes = new Float64Array([1, 1, 1]);
    const stream = new RandomStreams(3).stream('test');
    const held = [0, 0, 0];
    const draws = 20_000;
    const draw = filler(weights, sizes, 1);
    for (let d = 0; d < draws; d++) {
      const [only, ...rest] = draw(stream);
      expect(rest).toEqual([]);
      held[only]++;
    }
    // Binomial standard deviation √(0.5 × 0.5 / 20,000) = 0.0035: within 4 of it.
    expect(held[0] / draws).toBeCloseTo(0.5, 1);
    expect(Math.abs(held[0] / draws - 0.5)).toBeLessThan(0.014);
    expect(Math.abs(held[2] / draws - 0.2)).toBeLessThan(0.012);
  });

  it('room for two: contents {0, 1} with probability 0.5·0.3/0.5 + 0.3·0.5/0.7 = 0.5143, and the more recent first', () => {
    const weights = new Float64Array([0.5, 0.3, 0.2]);
    const sizes = new Float64Array([1, 1, 1]);
    const stream = new RandomStreams(4).stream('test');
    let both = 0;
    let zeroFirst = 0;
    const draws = 20_000;
    const draw = filler(weights, sizes, 2);
    for (let d = 0; d < draws; d++) {
      const contents = draw(stream);
      expect(contents).toHaveLength(2);
      if (contents.includes(0) && contents.includes(1)) both++;
      if (contents[0] === 0) zeroFirst++;
    }
    // σ = √(0.514 × 0.486 / 20,000) = 0.0035.
    expect(Math.abs(both / draws - 0.5143)).toBeLessThan(0.014);
    expect(Math.abs(zeroFirst / draws - 0.5)).toBeLessThan(0.014);
  });

  it('bytes: the longest prefix that fits, never more than the capacity; everything when the catalogue fits', () => {
    const weights = zipfProbabilities(1_000, 0.8);
    const sizes = new Float64Array(1_000).map((_, i) => 100 + (i % 7) * 50);
    const stream = new RandomStreams(5).stream('test');
    const contents = fill(weights, sizes, 20_000, stream);
    const bytes = contents.reduce((sum, id) => sum + sizes[id], 0);
    expect(bytes).toBeLessThanOrEqual(20_000);
    expect(bytes).toBeGreaterThan(20_000 - 400);
    expect(new Set(contents).size).toBe(contents.length);
    expect(fill(weights, sizes, 1e9, stream).sort((a, b) => a - b)).toEqual(Array.from({ length: 1_000 }, (_, i) => i));
  });

  it("Che's characteristic time over the buckets' objects is the whole catalogue's (one solver, src/cache/che.ts): unit sizes, 20,000 objects, room for 2,000", () => {
    const weights = zipfProbabilities(20_000, 0.8);
    const sizes = new Float64Array(20_000).fill(1);
    const buckets = weightBuckets(weights, sizes, 2_000);
    const onBuckets = cheApproximation(buckets.idWeights, buckets.idSizes, 2_000);
    const reference = cheApproximation(weights, sizes, 2_000);
    // The same objects in bucket order: the same root to rounding, and it fills exactly 2,000.
    expect(onBuckets.characteristicTime / reference.characteristicTime).toBeCloseTo(1, 9);
    expect(onBuckets.hitRatio).toBeCloseTo(reference.hitRatio, 9);
    let occupied = 0;
    for (const p of weights) occupied -= Math.expm1(-p * onBuckets.characteristicTime);
    expect(occupied).toBeCloseTo(2_000, 5);
  });

  for (const [label, sizesOf] of [
    ['unit sizes', (n: number) => new Float64Array(n).fill(1)],
    ['lognormal sizes (median 1, σ 1)', (n: number) => new Float64Array(n).map(() => 0)],
  ] as const) {
    it(`spec 1.1, ${label}: Zipf(0.8) over 20,000 objects, room for a tenth: the 100,000 requests after the fill hit as often as after 2,000,000 from empty, and as Che says`, () => {
      const n = 20_000;
      const streams = new RandomStreams(11);
      const weights = zipfProbabilities(n, 0.8);
      let sizes = sizesOf(n);
      if (sizes[0] === 0) {
        const sizeStream = streams.stream('sizes');
        sizes = sizes.map(() => sizeStream.lognormal(1, 1));
      }
      let total = 0;
      for (const size of sizes) total += size;
      const capacity = total / 10;
      const filled = hitRatioAfter(weights, sizes, capacity, fill(weights, sizes, capacity, streams.stream('fill')), 100_000, streams.stream('after fill'));
      // The long warm-up: 2 M requests from empty, then the same 100,000 measured.
      const longStream = streams.stream('long');
      const cache = new LruCacheNode(capacity, 0);
      const picker = new AliasTable(weights);
      for (let r = 0; r < 2_000_000; r++) {
        const id = picker.sample(longStream.next());
        if (cache.lookup(id as KeyId, 0 as never) < 0) cache.put(id as KeyId, sizes[id], 0, 0, 0, 200);
      }
      let hits = 0;
      for (let r = 0; r < 100_000; r++) {
        const id = picker.sample(longStream.next());
        if (cache.lookup(id as KeyId, 0 as never) >= 0) hits++;
        else cache.put(id as KeyId, sizes[id], 0, 0, 0, 200);
      }
      const warmed = hits / 100_000;
      const buckets = weightBuckets(weights, sizes, capacity);
      const che = cheApproximation(buckets.idWeights, buckets.idSizes, capacity).hitRatio;
      // The hit ratio of 100,000 requests varies by about √(h(1 − h)/n) = 0.0015 (more, as
      // successive requests share a cache state): 0.008 between the two runs is over 3.5 of
      // their joint deviation; Che's approximation is itself within a few tenths of a point.
      expect(Math.abs(filled - warmed)).toBeLessThan(0.008);
      expect(Math.abs(filled - che)).toBeLessThan(0.008);
    }, 20_000);
  }

  it('a regional\'s weights p·e^{−p x}: the popular objects underflow to ~1e−300 and the draw still ends, filling the cache (it looped forever)', () => {
    const p = zipfProbabilities(2_000, 0.8);
    const weights = p.map((pi) => pi * Math.exp(-pi * 5_000));
    const sizes = new Float64Array(2_000).fill(1);
    const contents = fill(weights, sizes, 500, new RandomStreams(9).stream('test'));
    expect(contents).toHaveLength(500);
    expect(contents).not.toContain(0);
    expect(fill(new Float64Array([1, 1e-300]), new Float64Array([1, 1]), 1, new RandomStreams(9).stream('test'))).toEqual([0]);
  });

  it('deterministic: the same stream gives the same fill, another stream another', () => {
    const weights = zipfProbabilities(5_000, 0.8);
    const sizes = new Float64Array(5_000).fill(1);
    const a = fill(weights, sizes, 500, new RandomStreams(7).stream('warmup.fill'));
    const b = fill(weights, sizes, 500, new RandomStreams(7).stream('warmup.fill'));
    const c = fill(weights, sizes, 500, new RandomStreams(8).stream('warmup.fill'));
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    expect(a).toHaveLength(500);
  });
});

describe('the whole stationary order for a curve recorder (docs/curves.md, "A stationary start")', () => {
  it('move-to-front law past the capacity: p = 0.5, 0.3, 0.2, room for one, the six orders of 20,000 draws within 0.015 of p_a · p_b/(1 − p_a) (4.5 standard deviations)', () => {
    const weights = Float64Array.of(0.5, 0.3, 0.2);
    const sizes = Float64Array.of(1, 1, 1);
    const buckets = weightBuckets(weights, sizes, 1);
    const x = cheCharacteristicTime(buckets.idWeights, buckets.idSizes, 1);
    const scratch = new StationaryScratch();
    const out = { ids: new Int32Array(4) };
    const streams = new RandomStreams(9);
    const whole = { stream: streams.stream('whole'), ids: new Int32Array(0), count: 0 };
    const fill = streams.stream('fill');
    const counts = new Map<string, number>();
    const draws = 20_000;
    for (let d = 0; d < draws; d++) {
      const held = stationaryLruOrder(buckets, 1, x, fill, scratch, out, whole);
      expect(held).toBe(1);
      expect(whole.count).toBe(3);
      // The cache's contents are the whole order's prefix.
      expect(whole.ids[0]).toBe(out.ids[0]);
      const order = Array.from(whole.ids.subarray(0, 3)).join('');
      counts.set(order, (counts.get(order) ?? 0) + 1);
    }
    const expected: Record<string, number> = { '012': 0.3, '021': 0.2, '102': 0.3 * (0.5 / 0.7), '120': 0.3 * (0.2 / 0.7), '201': 0.2 * (0.5 / 0.8), '210': 0.2 * (0.3 / 0.8) };
    for (const [order, p] of Object.entries(expected)) expect(Math.abs((counts.get(order) ?? 0) / draws - p)).toBeLessThan(0.015);
  });

  it("the fill's own draws do not change: the same contents with the whole order asked for or not, and each object once in it", () => {
    const n = 5_000;
    const weights = zipfProbabilities(n, 0.8);
    const sizes = Float64Array.from({ length: n }, (_, i) => 1 + (i % 7));
    const capacity = 2_000;
    const buckets = weightBuckets(weights, sizes, capacity);
    const x = cheCharacteristicTime(buckets.idWeights, buckets.idSizes, capacity);
    const plain = { ids: new Int32Array(16) };
    const withWhole = { ids: new Int32Array(16) };
    const whole = { stream: new RandomStreams(4).stream('whole'), ids: new Int32Array(0), count: 0 };
    const a = new RandomStreams(4).stream('fill');
    const b = new RandomStreams(4).stream('fill');
    for (let cache = 0; cache < 5; cache++) {
      const held = stationaryLruOrder(buckets, capacity, x, a, new StationaryScratch(), plain);
      expect(stationaryLruOrder(buckets, capacity, x, b, new StationaryScratch(), withWhole, whole)).toBe(held);
      expect(withWhole.ids.subarray(0, held)).toEqual(plain.ids.subarray(0, held));
      expect(whole.ids.subarray(0, held)).toEqual(plain.ids.subarray(0, held));
      expect(whole.count).toBe(n);
      expect(new Set(whole.ids.subarray(0, n)).size).toBe(n);
    }
  });

  it('sortWholeOrder: the order of a stable comparison sort, ties in the order given (equal drawn shares, two infinite keys), 0 first', () => {
    const scratch = new StationaryScratch();
    const keys = Float64Array.of(3, 1, 1, Infinity, 0, Infinity, 2, 1e300, 5e-324);
    scratch.wholeArrays(keys.length);
    scratch.wholeOrder.set([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(Array.from(scratch.sortWholeOrder(keys.length, keys).subarray(0, keys.length))).toEqual([4, 8, 1, 2, 6, 0, 7, 3, 5]);
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.double({ min: 0, max: 1e6, noNaN: true }), fc.constantFrom(0, 1, 2.5, Infinity)), { maxLength: 300 }), (values) => {
        const sorter = new StationaryScratch();
        const keyed = Float64Array.from(values);
        sorter.wholeArrays(values.length);
        // Ids given in reverse: "ties in the order given" is then not the ids' order.
        const given = values.map((_, k) => values.length - 1 - k);
        sorter.wholeOrder.set(given);
        const expected = [...given].sort((a, b) => (keyed[a] < keyed[b] ? -1 : keyed[a] > keyed[b] ? 1 : 0));
        expect(Array.from(sorter.sortWholeOrder(values.length, keyed).subarray(0, values.length))).toEqual(expected);
      }),
    );
  });

  it('the whole order is pinned: 5,000 objects, Zipf(0.8), the sampled path (room for 2,000 bytes) and the every-key path (room for 3), three caches each from one scratch, the same ids in the same order as when each cache allocated its own arrays', () => {
    const n = 5_000;
    const weights = zipfProbabilities(n, 0.8);
    const sizes = Float64Array.from({ length: n }, (_, i) => 1 + (i % 7));
    // An order's fingerprint: its first ids and a position-weighted sum of all n (any swap moves it).
    const fingerprint = (ids: Int32Array, count: number) => {
      let sum = 0;
      for (let k = 0; k < count; k++) sum = (sum + (k + 1) * (ids[k] + 1)) % 1_000_000_007;
      return { count, first: Array.from(ids.subarray(0, 6)), sum };
    };
    const orders = [2_000, 3].flatMap((capacity) => {
      const buckets = weightBuckets(weights, sizes, capacity);
      const x = cheCharacteristicTime(buckets.idWeights, buckets.idSizes, capacity);
      const streams = new RandomStreams(9);
      const fill = streams.stream('fill');
      const whole = { stream: streams.stream('whole'), ids: new Int32Array(0), count: 0 };
      const scratch = new StationaryScratch();
      const out = { ids: new Int32Array(16) };
      return [0, 1, 2].map(() => {
        stationaryLruOrder(buckets, capacity, x, fill, scratch, out, whole);
        return fingerprint(whole.ids, whole.count);
      });
    });
    // Sizes 1–7 and room for 3: only the 2,144 objects of 1–3 bytes can be stored, so only they are ordered. The first room-for-3 cache takes the every-key path.
    expect(orders).toEqual([
      { count: 5_000, first: [532, 560, 392, 0, 3772, 1173], sum: 231_099_773 },
      { count: 5_000, first: [5, 279, 48, 1604, 32, 1106], sum: 84_885_571 },
      { count: 5_000, first: [556, 232, 761, 2, 225, 112], sum: 261_896_541 },
      { count: 2_144, first: [1199, 875, 1267, 2613, 1211, 36], sum: 699_240_215 },
      { count: 2_144, first: [541, 898, 23, 58, 7, 3451], sum: 630_498_588 },
      { count: 2_144, first: [2, 21, 2170, 196, 1, 4796], sum: 686_431_819 },
    ]);
  });
});
