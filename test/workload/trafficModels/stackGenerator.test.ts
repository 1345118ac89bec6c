import { describe, expect, it } from 'vitest';
import { StackDistanceRecorder } from '../../../src/cache/stackDistance.js';
import { RandomStreams } from '../../../src/sim/random.js';
import { parseDescriptor, parseSizeDistribution } from '../../../src/workload/trafficModels/modelFiles.js';
import { FreshObjects, ObjectSizes, StackModelGenerator } from '../../../src/workload/trafficModels/stackGenerator.js';
import type { Fidelity } from '../../../src/workload/trafficModels/trafficModel.js';

/** Every object 50 MB; 40 % first requests, 30 % stack distance in [0, 200 MB), 30 % in [200, 400 MB). */
const FD = parseDescriptor('1000 1 0 1 400 0.4\n0 0 0.3\n0 200000 0.3\n', 'fd.txt');
const SIZES = parseSizeDistribution('1\n50000 1\n', 'popularity.txt');

function generator(seed: number, depthCapBytes = 1e12, fidelity: Fidelity = 'fd'): StackModelGenerator {
  const streams = new RandomStreams(seed);
  const sizes = new ObjectSizes(SIZES);
  return new StackModelGenerator(FD, new FreshObjects(sizes, streams.stream('sizes')), streams.stream('draws'), sizes, { fidelity, depthCapBytes });
}

/** Request hit ratio of an LRU at each capacity, over `requests` requests after the generator's warm-up. */
function lruCurve(gen: StackModelGenerator, requests: number, capacities: number[]): number[] {
  const recorder = new StackDistanceRecorder();
  const hits = capacities.map(() => 0);
  const replay = (count: boolean) => {
    gen.next();
    recorder.reference(gen.objectId);
    const distance = recorder.lastDistance();
    if (gen.isNew) recorder.stored(gen.objectId, gen.size);
    if (count) capacities.forEach((capacity, i) => (hits[i] += distance <= capacity ? 1 : 0));
  };
  while (gen.inWarmup) replay(false);
  for (let i = 0; i < requests; i++) replay(true);
  return hits.map((hit) => hit / requests);
}

describe('stack-model generator (docs/traffic-models.md)', () => {
  it('warm-up: the initial stack down to the deepest bin (400 MB = 8 objects of 50 MB), each a first request', () => {
    const gen = generator(1);
    expect(gen.warmupRequests).toBe(8);
    expect(gen.stackBytes).toBe(400e6);
    const seen = new Set<number>();
    while (gen.inWarmup) {
      gen.next();
      expect(gen.isNew).toBe(true);
      seen.add(gen.objectId);
    }
    expect(seen.size).toBe(8);
  });

  it('a reuse is drawn by count among the objects whose stack distance is in its bin: the LRU curve by hand', () => {
    // Bin [0, 200 MB) holds the objects at 50, 100, 150 MB (200 MB is the next bin's), bin
    // [200, 400 MB) those at 200, 250, 300, 350 MB. Hit ratio at C: 0.3 × (share of bin 0 ≤ C) + 0.3 × (share of bin 1 ≤ C).
    const curve = lruCurve(generator(7), 200_000, [100e6, 199e6, 300e6, 399e6, 1e9]);
    const expected = [0.3 * (2 / 3), 0.3, 0.3 + 0.3 * (3 / 4), 0.6, 0.6];
    curve.forEach((ratio, i) => expect(Math.abs(ratio - expected[i])).toBeLessThan(0.005));
  });

  it('depth cap: a draw below the cap asks for a new object, so the curve is exact up to the cap and flat after it', () => {
    // Cap 200 MB: bin [200, 400 MB) is beyond it, its 30 % become first requests.
    const gen = generator(3, 200e6);
    expect(gen.beyondCapShare).toBeCloseTo(0.3, 12);
    expect(gen.warmupRequests).toBe(4);
    const curve = lruCurve(gen, 200_000, [100e6, 199e6, 1e9]);
    [0.2, 0.3, 0.3].forEach((ratio, i) => expect(Math.abs(curve[i] - ratio)).toBeLessThan(0.005));
    expect(gen.stackBytes).toBeLessThanOrEqual(200e6);
  });

  it('same seed, same stream', () => {
    const a = generator(11);
    const b = generator(11);
    for (let i = 0; i < 10_000; i++) {
      a.next();
      b.next();
      expect(a.objectId).toBe(b.objectId);
    }
  });
});
