import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StackDistanceRecorder } from '../../../src/cache/stackDistance.js';
import { RandomStreams, type RandomStream } from '../../../src/sim/random.js';
import { AliasTable } from '../../../src/workload/aliasTable.js';
import { parseDescriptor, parseSizeDistribution, type FootprintDescriptor, type SizeDistribution } from '../../../src/workload/trafficModels/modelFiles.js';
import { FreshObjects, ObjectSizes, StackModelGenerator, type HeldMarks } from '../../../src/workload/trafficModels/stackGenerator.js';
import { missShare, type Fidelity } from '../../../src/workload/trafficModels/trafficModel.js';

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

  it('the window and the Fenwick axis give, draw for draw, the stream of the definition on one LRU list (random models, caps and sizes)', () => {
    // The generator keeps its stack's top in a window and the rest on a Fenwick axis
    // (docs/traffic-models.md, "Where a model run's time goes"); PlainStack is the definition
    // with nothing else: one array, top first, stack distances summed per request. Sizes up to
    // 250 MB span the 200 MB bins (redraws); caps from 100 MB forget from the window too; a
    // first bin that does not start at 0 searches the window by bytes.
    fc.assert(
      fc.property(randomModel, (model) => {
        const { fast, plain } = generatorPair(model, false);
        expect(fast.warmupRequests).toBe(plain.ids.length);
        for (let i = 0; i < fast.warmupRequests + 1500; i++) {
          fast.next();
          plain.next();
          expectSameDraw(fast, plain, i);
        }
        expect(fast.stackObjects).toBe(plain.ids.length);
        expect(fast.stackBytes).toBe(plain.sizes.reduce((sum, size) => sum + size, 0));
        expect([fast.tooDeep, fast.spanned]).toEqual([plain.tooDeep, plain.spanned]);
      }),
      { numRuns: 40, seed: 33 },
    );
  });

  it('issue 28 "Cost": small objects put the window over many blocks of 32 slots and the axis over hundreds, both compacted again and again; the block masks, the block scans and the first-bin shortcut give the definition\'s stream draw for draw', () => {
    // 2 MB bins (0, 2, 4, 8, 16 MB) and objects of 5-50 KB: about 150 objects in the window
    // (1,024 slots, 32 blocks; compacted 22 times here) and about 1,100 on the axis (4,096
    // slots, 128 blocks; compacted 4 times); deep bins search the axis's blocks.
    const descriptor = descriptorOf([0, 2_000, 4_000, 8_000, 16_000], [40, 15, 15, 15, 15, 0], 0.2);
    const sizes = sizesOf([5, 10, 20, 50], [4, 3, 2, 1]);
    const fast = new StackModelGenerator(descriptor, new FreshObjects(new ObjectSizes(sizes), new RandomStreams(5).stream('sizes')), new RandomStreams(5).stream('draws'), new ObjectSizes(sizes), { fidelity: 'fd', depthCapBytes: 1e12 });
    const plain = new PlainStack(descriptor, new FreshObjects(new ObjectSizes(sizes), new RandomStreams(5).stream('sizes')), new RandomStreams(5).stream('draws'), 1e12);
    for (let i = 0; i < fast.warmupRequests + 20_000; i++) {
      fast.next();
      plain.next();
      expectSameDraw(fast, plain, i);
    }
    expect(fast.stackObjects).toBe(plain.ids.length);
    expect([fast.tooDeep, fast.spanned]).toEqual([0, 0]);
  });

  it('issue 28 "Cost", held marks (docs/traffic-models.md, "One stream per PoP"): the stack tells the marks of each id it takes and forgets, once, under its PoP, and its table keeps exactly the held ids the marks sent to it (random models, caps, sizes)', () => {
    // A run's CdnObjects marks one holder per id in the id's own row and sends the others to
    // their stacks' tables; here the marks keep every third id and send the others (the table grows past its first 4,096 slots). Taken minus forgotten must be
    // the list's ids (1 each) and the table those of them the marks sent.
    fc.assert(
      fc.property(randomModel, fc.integer({ min: 0, max: 3000 }), (model, draws) => {
        const marks = new TwoThirdsTabled();
        const { fast, plain } = generatorPair(model, true, marks);
        fast.skipWarmup();
        plain.warmup = 0;
        for (let i = 0; i < draws; i++) {
          fast.next();
          plain.next();
          expectSameDraw(fast, plain, i);
        }
        expectMarked(fast, plain, marks, draws);
      }),
      { numRuns: 15, seed: 36 },
    );
    // 1 KB objects down to 6 MB: 6,000 held, 4,000 in the table, which grows from 4,096 slots to 16,384 (rehashed, not taken again).
    // The generator is told a mean of 8 KB, so its held table, sized once for depth ÷ mean (2 × 751
    // ids: 4,096 slots), must grow; told the true 1 KB it would start at 16,384 and never grow.
    const descriptor = descriptorOf([0, 2_000, 4_000], [40, 30, 30, 0], 0.2);
    const sizes = sizesOf([1], [1]);
    const marks = new TwoThirdsTabled();
    const fast = new StackModelGenerator(descriptor, new FreshObjects(new ObjectSizes(sizes), new RandomStreams(9).stream('sizes')), new RandomStreams(9).stream('draws'), new ObjectSizes(sizesOf([8], [1])), { fidelity: 'fd', depthCapBytes: 1e12, trackHeld: true, heldMarks: marks, pop: 7 });
    const plain = new PlainStack(descriptor, new FreshObjects(new ObjectSizes(sizes), new RandomStreams(9).stream('sizes')), new RandomStreams(9).stream('draws'), 1e12);
    expect(fast.stackObjects).toBe(6_000);
    fast.skipWarmup();
    plain.warmup = 0;
    for (let i = 0; i < 300; i++) {
      fast.next();
      plain.next();
    }
    expectMarked(fast, plain, marks, 300);
  });

  it('settling (docs/traffic-models.md, "The model\'s warm-up in a run"): draws without the warm-up, then replayStack replays the stack as it stands, bottom to top, and the draws go on from it as on the definition\'s list; holds() is the list\'s ids (random models, caps, sizes)', () => {
    // A run's PoPs draw from their initial stacks before anything is replayed (ModelTraffic
    // settles the sharing), then replay the stack they reached. Its window has holes and
    // its axis a forgotten bottom by then: the replay must read neither.
    fc.assert(
      fc.property(randomModel, fc.integer({ min: 0, max: 3000 }), (model, settling) => {
        const { fast, plain } = generatorPair(model, true);
        fast.skipWarmup();
        plain.warmup = 0;
        for (let i = 0; i < settling; i++) {
          fast.next();
          plain.next();
          expectSameDraw(fast, plain, i);
        }
        // The ids it holds are exactly the list's (fresh ids are 0, 1, 2 …: every id made so far is asked).
        const made = Math.max(...plain.ids) + 1;
        for (let id = 0; id < made; id++) if (fast.holds(id) !== plain.ids.includes(id)) throw new Error(`holds(${id}) is ${fast.holds(id)} after ${settling} draws`);
        fast.replayStack();
        plain.warmup = plain.ids.length;
        expect(fast.warmupRequests).toBe(plain.ids.length);
        // The replay is the definition's list bottom to top, each a first request; then its draws.
        for (let i = 0; i < fast.warmupRequests + 1500; i++) {
          fast.next();
          plain.next();
          expectSameDraw(fast, plain, settling + i);
        }
        expect(fast.inWarmup).toBe(false);
      }),
      { numRuns: 40, seed: 34 },
    );
  });
});

/** Marks that answer for the ids divisible by 3 (the stack's table keeps the others), recording each take and forget. */
class TwoThirdsTabled implements HeldMarks {
  readonly taken = new Map<number, number>();
  pops = new Set<number>();
  take(pop: number, id: number): boolean {
    this.pops.add(pop);
    this.taken.set(id, (this.taken.get(id) ?? 0) + 1);
    return id % 3 !== 0;
  }
  forget(pop: number, id: number): boolean {
    this.pops.add(pop);
    this.taken.set(id, (this.taken.get(id) ?? 0) - 1);
    return id % 3 !== 0;
  }
}

/** Throws where the marks' net takes are not the list's ids (1 each) or the table not those of them the marks sent (every id not divisible by 3). */
function expectMarked(fast: StackModelGenerator, plain: PlainStack, marks: TwoThirdsTabled, draws: number): void {
  const made = Math.max(...plain.ids) + 1;
  const listed = new Set(plain.ids);
  for (let id = 0; id < made; id++) {
    const held = listed.has(id);
    if ((marks.taken.get(id) ?? 0) !== (held ? 1 : 0)) throw new Error(`id ${id}: taken ${marks.taken.get(id)} times net, held ${held}, after ${draws} draws`);
    if (fast.holds(id) !== (held && id % 3 !== 0)) throw new Error(`holds(${id}) is ${fast.holds(id)} after ${draws} draws`);
  }
  expect([...marks.pops]).toEqual([7]);
}

/** A random model for the property tests: bins, fractions, miss share, sizes that span the 200 MB bins, a depth cap. */
const randomModel = fc.record({
  lows: fc.uniqueArray(fc.integer({ min: 0, max: 10 }), { minLength: 1, maxLength: 6 }),
  fractions: fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 6, maxLength: 6 }),
  missPercent: fc.integer({ min: 0, max: 60 }),
  sizeWeights: fc.array(fc.integer({ min: 0, max: 10 }), { minLength: 5, maxLength: 5 }),
  capMB: fc.integer({ min: 100, max: 2500 }),
  seed: fc.integer({ min: 1, max: 1000 }),
});
type RandomModel = typeof randomModel extends fc.Arbitrary<infer T> ? T : never;

/** The generator under test and the definition (PlainStack) on the same model, sizes and seed. */
function generatorPair({ lows, fractions, missPercent, sizeWeights, capMB, seed }: RandomModel, trackHeld: boolean, heldMarks?: HeldMarks): { fast: StackModelGenerator; plain: PlainStack } {
  const descriptor = descriptorOf(lows.map((low) => low * 200_000), fractions, missPercent / 100);
  const sizes = sizesOf([500, 5_000, 50_000, 150_000, 250_000], sizeWeights.map((weight) => weight + 1));
  const fast = new StackModelGenerator(descriptor, new FreshObjects(new ObjectSizes(sizes), new RandomStreams(seed).stream('sizes')), new RandomStreams(seed).stream('draws'), new ObjectSizes(sizes), {
    fidelity: 'fd',
    depthCapBytes: capMB * 1e6,
    trackHeld,
    ...(heldMarks ? { heldMarks, pop: 7 } : {}),
  });
  const plain = new PlainStack(descriptor, new FreshObjects(new ObjectSizes(sizes), new RandomStreams(seed).stream('sizes')), new RandomStreams(seed).stream('draws'), capMB * 1e6);
  return { fast, plain };
}

/** Throws, naming the request, where the generator's draw is not the definition's. */
function expectSameDraw(fast: StackModelGenerator, plain: PlainStack, i: number): void {
  if (fast.objectId !== plain.objectId || fast.size !== plain.size || fast.isNew !== plain.isNew) {
    throw new Error(`request ${i}: ${fast.objectId}/${fast.size}/${fast.isNew} against the definition's ${plain.objectId}/${plain.size}/${plain.isNew}`);
  }
}

/** A request-weighted descriptor: bins at `lowsKB` with the `fractions` (scaled to 1 − miss), first requests `miss`. */
function descriptorOf(lowsKB: number[], fractions: number[], miss: number): FootprintDescriptor {
  const sum = lowsKB.reduce((total, _, i) => total + fractions[i], 0);
  return {
    requests: 1000,
    totalKB: 1e6,
    startSeconds: 0,
    endSeconds: 1,
    missRequests: 1000 * miss,
    missKB: 1e6 * miss,
    reuseSeconds: new Float64Array(lowsKB.length),
    stackDistanceKB: Float64Array.from(lowsKB),
    fraction: Float64Array.from(lowsKB, (_, i) => ((1 - miss) * fractions[i]) / sum),
  };
}

function sizesOf(sizeKB: number[], weights: number[]): SizeDistribution {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return { sizeKB: Float64Array.from(sizeKB), probability: Float64Array.from(weights, (weight) => weight / total) };
}

/**
 * The stack model by its definition (docs/traffic-models.md, "How a stream is generated"), on
 * one array, top first: a bin's objects are those whose bytes from the top, themselves
 * included, are in [low, high), by summing; the k-th by count moves to the top; objects past
 * the cap are forgotten from the bottom. The same draws in the same order as the generator.
 */
class PlainStack {
  readonly ids: number[] = [];
  readonly sizes: number[] = [];
  objectId = 0;
  size = 0;
  isNew = false;
  tooDeep = 0;
  spanned = 0;
  private readonly outcomes: AliasTable;
  private readonly binLow: number[] = [];
  private readonly width: number;
  private readonly cap: number;
  /** Requests of the warm-up still to replay (the list's bottom ones first). */
  warmup: number;

  constructor(
    descriptor: FootprintDescriptor,
    private readonly fresh: FreshObjects,
    private readonly random: RandomStream,
    capBytes: number,
  ) {
    const byBin = new Map<number, number>();
    descriptor.stackDistanceKB.forEach((low, i) => byBin.set(low, (byBin.get(low) ?? 0) + descriptor.fraction[i]));
    const lows = [...byBin.keys()].sort((a, b) => a - b);
    let width = Infinity;
    for (let i = 1; i < lows.length; i++) width = Math.min(width, lows[i] - lows[i - 1]);
    if (lows[0] > 0) width = Math.min(width, lows[0]);
    this.width = (Number.isFinite(width) ? width : 200_000) * 1000;
    const miss = missShare(descriptor, 'fd');
    const reuse = lows.reduce((sum, low) => sum + (byBin.get(low) ?? 0), 0);
    const weights = [miss];
    for (const low of lows) {
      const weight = ((byBin.get(low) ?? 0) * (1 - miss)) / reuse;
      if (low * 1000 >= capBytes) weights[0] += weight;
      else {
        weights.push(weight);
        this.binLow.push(low * 1000);
      }
    }
    this.outcomes = new AliasTable(weights);
    const deepest = this.binLow.length === 0 ? 0 : this.binLow[this.binLow.length - 1] + this.width;
    this.cap = Math.min(capBytes, Math.max(deepest, 1));
    while (this.total() < this.cap) {
      this.ids.unshift(fresh.next());
      this.sizes.unshift(fresh.lastSize);
    }
    this.warmup = this.ids.length;
  }

  total(): number {
    return this.sizes.reduce((sum, size) => sum + size, 0);
  }

  /** Objects below the one whose bytes from the top reach `depth`. */
  private below(depth: number): number {
    let bytes = 0;
    for (let i = 0; ; i++) {
      bytes += this.sizes[i];
      if (bytes >= depth) return this.ids.length - 1 - i;
    }
  }

  next(): void {
    if (this.warmup > 0) {
      this.warmup--;
      this.objectId = this.ids[this.warmup];
      this.size = this.sizes[this.warmup];
      this.isNew = true;
      return;
    }
    for (let attempt = 0; attempt < 16; attempt++) {
      const outcome = this.outcomes.sample(this.random.next());
      if (outcome === 0) break;
      const low = this.binLow[outcome - 1];
      const total = this.total();
      if (low >= total) {
        this.tooDeep++;
        break;
      }
      const high = low + this.width;
      const upTo = this.below(Math.max(low, 1)) + 1;
      const below = high <= total ? this.below(high) + 1 : 0;
      if (upTo - below > 0) {
        const index = this.ids.length - 1 - (below + Math.floor(this.random.next() * (upTo - below)));
        const [id] = this.ids.splice(index, 1);
        const [size] = this.sizes.splice(index, 1);
        this.top(id, size, false);
        return;
      }
      this.spanned++;
    }
    this.top(this.fresh.next(), this.fresh.lastSize, true);
  }

  private top(id: number, size: number, isNew: boolean): void {
    this.ids.unshift(id);
    this.sizes.unshift(size);
    while (this.total() > this.cap && this.ids.length > 1) {
      this.ids.pop();
      this.sizes.pop();
    }
    this.objectId = id;
    this.size = size;
    this.isNew = isNew;
  }
}
