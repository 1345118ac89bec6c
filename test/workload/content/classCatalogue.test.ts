import { describe, expect, it } from 'vitest';
import { linearRegression, probit, quantile } from 'simple-statistics';
import { RandomStreams } from '../../../src/sim/random.js';
import { cheApproximation } from '../../../src/cache/che.js';
import { zipfProbabilities } from '../../../src/workload/zipf.js';
import { ClassCatalogue, classCatalogueObjects, type CatalogueClass } from '../../../src/workload/content/classCatalogue.js';
import { CONTENT_PRESET_NAMES, DEFAULT_CLASS_MIX, classFromPreset, type ContentPresetName } from '../../../src/workload/content/contentClasses.js';

function klass(name: string, overrides: Partial<CatalogueClass> = {}, presetName: ContentPresetName = 'image'): CatalogueClass {
  return { ...classFromPreset(name, presetName), ...overrides };
}

/** Positions where two equally long typed arrays differ (vitest's deep equality is slow on 100k elements). */
function differences(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let count = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) count++;
  return count;
}

/** Counts of pick() per object id over `draws` requests from one seeded stream. */
function pickCounts(catalogue: ClassCatalogue, draws: number, seed: number): Float64Array {
  const stream = new RandomStreams(seed).stream('test.requests');
  const counts = new Float64Array(catalogue.idCapacity);
  for (let i = 0; i < draws; i++) counts[catalogue.pick(stream.next(), stream.next())]++;
  return counts;
}

describe('content catalogue: Zipf popularity per class (Breslau et al. 1999) and class shares', () => {
  // Three classes with different exponents, sampled together through pick(uClass, uObject).
  const classes = [
    klass('flat', { share: 0.5, objects: 2_000, zipfExponent: 0.6 }),
    klass('web', { share: 0.3, objects: 1_000, zipfExponent: 0.8 }),
    klass('steep', { share: 0.2, objects: 5_000, zipfExponent: 1.0 }),
  ];
  const catalogue = new ClassCatalogue(classes, new RandomStreams(1));
  const draws = 4_000_000;
  const counts = pickCounts(catalogue, draws, 2);

  it('Zipf exponent recovered per class by regressing log frequency on log rank, within 0.01', () => {
    // Only ranks expected to get ≥ 1000 requests enter the fit: their log counts carry
    // Poisson noise ≤ 1/√1000 ≈ 0.032; over the 87–462 such ranks the slope's standard
    // error is 0.001–0.003 (seeds 2–6 gave errors ≤ 0.005), so 0.01 is at least three
    // standard errors. Rarer ranks would bias the slope (log of small counts), not just
    // widen it.
    classes.forEach((spec, c) => {
      const start = catalogue.classStart[c];
      const zipf = zipfProbabilities(spec.objects, spec.zipfExponent);
      const points: [number, number][] = [];
      for (let rank = 0; rank < spec.objects; rank++) {
        if (draws * spec.share * zipf[rank] < 1_000) break;
        points.push([Math.log(rank + 1), Math.log(counts[start + rank])]);
      }
      expect(points.length, spec.name).toBeGreaterThan(20);
      const { m } = linearRegression(points);
      expect(Math.abs(-m - spec.zipfExponent), `${spec.name}: fitted ${-m}`).toBeLessThan(0.01);
    });
  });

  it('class shares within 3σ of a binomial (n = 4M)', () => {
    classes.forEach((spec, c) => {
      let observed = 0;
      for (let id = catalogue.classStart[c]; id < catalogue.classStart[c + 1]; id++) observed += counts[id];
      const sigma = Math.sqrt(draws * spec.share * (1 - spec.share));
      expect(Math.abs(observed - draws * spec.share), spec.name).toBeLessThan(3 * sigma);
    });
  });

  it('popularity is share × Zipf per id and sums to 1; pickObject and pickClass agree with pick', () => {
    let total = 0;
    classes.forEach((spec, c) => {
      const zipf = zipfProbabilities(spec.objects, spec.zipfExponent);
      for (let rank = 0; rank < spec.objects; rank++) {
        expect(catalogue.popularity[catalogue.classStart[c] + rank]).toBeCloseTo(spec.share * zipf[rank], 15);
        total += catalogue.popularity[catalogue.classStart[c] + rank];
      }
    });
    expect(total).toBeCloseTo(1, 12);
    for (const [uClass, uObject] of [[0.1, 0.3], [0.55, 0.9], [0.95, 0.01]]) {
      const c = catalogue.pickClass(uClass);
      expect(catalogue.pick(uClass, uObject)).toBe(catalogue.pickObject(c, uObject));
      expect(catalogue.classOf(catalogue.pick(uClass, uObject))).toBe(c);
    }
  });

  it('pickOne(u) follows the same popularity from one draw: over 1e6 evenly spaced u each id gets its probability within 1e-5', () => {
    const small = new ClassCatalogue([klass('a', { share: 0.3, objects: 10, zipfExponent: 1 }), klass('b', { share: 0.7, objects: 20, zipfExponent: 0.5 })], new RandomStreams(1), {
      reservedIds: [3, 0],
    });
    const points = 1_000_000;
    const frequencies = new Float64Array(small.idCapacity);
    for (let i = 0; i < points; i++) frequencies[small.pickOne(i / points)] += 1 / points;
    for (let id = 0; id < small.idCapacity; id++) expect(Math.abs(frequencies[id] - small.popularity[id]), `id ${id}`).toBeLessThan(1e-5);
  });

  it('shares that do not add up to 1 are normalised (popularity still sums to 1)', () => {
    const odd = new ClassCatalogue([klass('a', { share: 2, objects: 10 }), klass('b', { share: 6, objects: 10 })], new RandomStreams(1));
    const sum = (from: number, to: number) => Array.from(odd.popularity.subarray(from, to)).reduce((a, b) => a + b, 0);
    expect(sum(0, 10)).toBeCloseTo(0.25, 12);
    expect(sum(10, 20)).toBeCloseTo(0.75, 12);
  });
});

describe('content catalogue: object sizes (clamped lognormal per class)', () => {
  it('each preset: median, p10 and p90 of 100k sizes match the lognormal quantiles median·e^(σ·z) within 2 %', () => {
    // Standard error of a sample p-quantile in log space: σ·√(p(1−p)/n)/φ(z_p), for p = 0.1,
    // σ = 1.5, n = 100k: 1.5 · 0.00095 / 0.1755 ≈ 0.8 %, so 2 % is 2.5 standard errors at
    // worst (and over 5 for the median). The presets' bounds lie outside p10…p90, so
    // clamping leaves these quantiles alone.
    for (const name of CONTENT_PRESET_NAMES) {
      const spec = klass(name, { objects: 100_000 }, name);
      const catalogue = new ClassCatalogue([spec], new RandomStreams(3));
      const sizes = Array.from(catalogue.objectSizes);
      const { median, sigma } = spec.size;
      for (const p of [0.1, 0.5, 0.9]) {
        const theoretical = median * Math.exp(sigma * probit(p));
        expect(Math.abs(quantile(sizes, p) / theoretical - 1), `${name} p${p * 100}`).toBeLessThan(0.02);
      }
      expect(sizes.every((size) => Number.isInteger(size) && size >= spec.size.min && size <= spec.size.max)).toBe(true);
    }
  });

  it('sizes are clamped to [min, max]', () => {
    const catalogue = new ClassCatalogue([klass('tight', { objects: 20_000, size: { median: 10_000, sigma: 2, min: 1_000, max: 100_000 } })], new RandomStreams(4));
    const sizes = Array.from(catalogue.objectSizes);
    expect(Math.min(...sizes)).toBe(1_000);
    expect(Math.max(...sizes)).toBe(100_000);
  });
});

describe('content catalogue: dense id ranges (DESIGN "Hot path")', () => {
  it('each class owns a contiguous range of its objects plus its reserved ids; ranges do not overlap and cover 0…idCapacity', () => {
    const classes = [klass('a', { objects: 100 }), klass('b', { objects: 1 }), klass('c', { objects: 50 })];
    const catalogue = new ClassCatalogue(classes, new RandomStreams(5), { reservedIds: [10, 0, 7] });
    expect(Array.from(catalogue.classStart)).toEqual([0, 110, 111, 168]);
    expect(catalogue.idCapacity).toBe(168);
    expect(catalogue.objectSizes.length).toBe(168);
    for (let id = 0; id < catalogue.idCapacity; id++) {
      const c = catalogue.classOf(id);
      expect(id >= catalogue.classStart[c] && id < catalogue.classStart[c + 1]).toBe(true);
    }
    // Reserved ids are not requested before churn hands them out.
    expect(catalogue.popularity[105]).toBe(0);
    const stream = new RandomStreams(6).stream('test');
    let outside = 0;
    for (let i = 0; i < 100_000; i++) {
      const id = catalogue.pick(stream.next(), stream.next());
      const c = catalogue.classOf(id);
      if (id - catalogue.classStart[c] >= classes[c].objects) outside++;
    }
    expect(outside).toBe(0);
  });

  it('issue 28 (cost): a model class\'s reserved ids get no drawn sizes (its streams set them on creation); its ranked objects and every other class\'s sizes are as without the option', () => {
    const classes = [klass('social', { objects: 1 }), klass('assets', { objects: 100 })];
    const drawn = new ClassCatalogue(classes, new RandomStreams(8), { reservedIds: [1_000, 20] });
    const skipped = new ClassCatalogue(classes, new RandomStreams(8), { reservedIds: [1_000, 20], sizesSetOnCreation: [true, false] });
    // ids: social 0 (ranked) and 1…1000 (reserved), assets 1001…1100 and 1101…1120 (reserved).
    expect(Array.from(skipped.classStart)).toEqual([0, 1_001, 1_121]);
    expect(skipped.objectSizes[0]).toBe(drawn.objectSizes[0]);
    expect(drawn.objectSizes[0]).toBeGreaterThan(0);
    expect(Array.from(skipped.objectSizes.subarray(1, 1_001)).every((bytes) => bytes === 0)).toBe(true);
    expect(Array.from(drawn.objectSizes.subarray(1, 1_001)).every((bytes) => bytes > 0)).toBe(true);
    expect(Array.from(skipped.objectSizes.subarray(1_001))).toEqual(Array.from(drawn.objectSizes.subarray(1_001)));
  });

  it('issue 28 (cost): the flows\' view of a one-class catalogue has no class table (classOf null: every id is class 0, none read per request); with two classes each id\'s class', () => {
    const one = classCatalogueObjects(new ClassCatalogue([klass('social', { objects: 1_000 })], new RandomStreams(17), { reservedIds: [200] }));
    expect(one.classOf).toBeNull();
    expect(one.size).toBe(1_200);
    const two = classCatalogueObjects(new ClassCatalogue([klass('a', { objects: 3 }), klass('b', { objects: 2 }, 'html')], new RandomStreams(17), { reservedIds: [1, 0] }));
    // Ids 0-2 are a's ranked objects and 3 its reserved id; 4-5 are b's.
    expect(Array.from(two.classOf ?? [])).toEqual([0, 0, 0, 0, 1, 1]);
  });

  it('refuses an empty class list, a class without objects, more ids than an Int32Array holds, and duplicate names', () => {
    const streams = new RandomStreams(1);
    expect(() => new ClassCatalogue([], streams)).toThrow(/at least one class/);
    expect(() => new ClassCatalogue([klass('a', { objects: 0 })], streams)).toThrow(/at least 1 object/);
    expect(() => new ClassCatalogue([klass('a', { objects: 1 })], streams, { reservedIds: [2 ** 31] })).toThrow(/object ids/);
    expect(() => new ClassCatalogue([klass('a'), klass('a')], streams)).toThrow(/unique/);
  });
});

describe('spec 4.2, 4.3 content catalogue: paths, extensions and MIME types', () => {
  const escape = (text: string) => text.replace(/[.*+?^$()|[\]\\/]/g, '\\$&');
  /** A regex for the paths of a pattern, with {ext} among the class's extensions. */
  function pathRegex(pattern: string, extensions: readonly string[]): RegExp {
    const parts = pattern.split(/(\{[a-z]+\})/).map((part) => {
      switch (part) {
        case '{framework}':
          return 'next';
        case '{hash}':
          return '[0-9a-f]{16}';
        case '{id}':
          return '\\d+';
        case '{slug}':
          return '[a-z]+-[a-z]+-\\d+';
        case '{ext}':
          return `(?:${extensions.join('|')})`;
        default:
          return escape(part);
      }
    });
    return new RegExp(`^${parts.join('')}$`);
  }

  const catalogue = new ClassCatalogue(DEFAULT_CLASS_MIX, new RandomStreams(7), { reservedIds: DEFAULT_CLASS_MIX.map(() => 5) });

  it('pathOf matches each class\'s pattern and file types, for initial and reserved ids', () => {
    DEFAULT_CLASS_MIX.forEach((spec, c) => {
      const regex = pathRegex(spec.path, spec.fileTypes.map((type) => type.extension));
      for (let id = catalogue.classStart[c]; id < catalogue.classStart[c + 1]; id += Math.max(1, Math.floor(spec.objects / 50))) {
        const path = catalogue.pathOf(id);
        expect(path, spec.name).toMatch(regex);
        const extension = catalogue.fileTypeOf(id).extension;
        if (extension) expect(path.endsWith(`.${extension}`)).toBe(true);
      }
    });
    expect(catalogue.pathOf(catalogue.classStart[3])).toMatch(/^\/blog\/[a-z]+-[a-z]+-0$/);
    expect(catalogue.pathOf(catalogue.classStart[4] + 41)).toBe('/api/items/41');
    expect(catalogue.pathOf(catalogue.classStart[0])).toMatch(/^\/_next\/static\/(js\/[0-9a-f]{16}\.js|css\/[0-9a-f]{16}\.css)$/);
  });

  it('pathOf is deterministic per seed, distinct per id, and changes with the seed', () => {
    const again = new ClassCatalogue(DEFAULT_CLASS_MIX, new RandomStreams(7), { reservedIds: DEFAULT_CLASS_MIX.map(() => 5) });
    const other = new ClassCatalogue(DEFAULT_CLASS_MIX, new RandomStreams(8), { reservedIds: DEFAULT_CLASS_MIX.map(() => 5) });
    const paths = Array.from({ length: catalogue.idCapacity }, (_, id) => catalogue.pathOf(id));
    expect(paths).toEqual(Array.from({ length: again.idCapacity }, (_, id) => again.pathOf(id)));
    expect(new Set(paths).size).toBe(paths.length);
    const assets = catalogue.classStart[1];
    let same = 0;
    for (let id = 0; id < assets; id++) if (catalogue.pathOf(id) === other.pathOf(id)) same++;
    expect(same).toBe(0);
    expect(() => catalogue.pathOf(catalogue.idCapacity)).toThrow(RangeError);
  });

  it('file types follow their weights: about 75 % of asset ids are .js (3σ of a binomial over 2000)', () => {
    let js = 0;
    for (let id = 0; id < 2_000; id++) if (catalogue.fileTypeOf(id).extension === 'js') js++;
    expect(Math.abs(js - 1_500)).toBeLessThan(3 * Math.sqrt(2_000 * 0.75 * 0.25));
  });

  it('the framework option fills {framework}', () => {
    const nuxt = new ClassCatalogue([klass('a', {}, 'font')], new RandomStreams(7), { framework: 'nuxt' });
    expect(nuxt.pathOf(0)).toMatch(/^\/_nuxt\/static\/media\/[0-9a-f]{16}\.woff2?$/);
  });
});

describe('content catalogue: determinism', () => {
  it('the same seed gives the same sizes, file types and picks', () => {
    const a = new ClassCatalogue(DEFAULT_CLASS_MIX, new RandomStreams(11));
    const b = new ClassCatalogue(DEFAULT_CLASS_MIX, new RandomStreams(11));
    expect(differences(a.objectSizes, b.objectSizes)).toBe(0);
    expect(differences(a.fileTypeOfId, b.fileTypeOfId)).toBe(0);
    expect(differences(pickCounts(a, 50_000, 3), pickCounts(b, 50_000, 3))).toBe(0);
    const c = new ClassCatalogue(DEFAULT_CLASS_MIX, new RandomStreams(12));
    expect(differences(c.objectSizes, a.objectSizes)).toBeGreaterThan(0.99 * a.idCapacity);
  });

  it('adding a class, or reserving ids, leaves another class\'s sizes and paths unchanged', () => {
    const alone = new ClassCatalogue([klass('image', { objects: 5_000 })], new RandomStreams(13));
    const mixed = new ClassCatalogue(
      [klass('assets', { objects: 3_000 }, 'static-asset'), klass('image', { objects: 5_000 }), klass('video', { objects: 10 }, 'media')],
      new RandomStreams(13),
      { reservedIds: [100, 50, 0] },
    );
    const start = mixed.classStart[1];
    expect(Array.from(mixed.objectSizes.subarray(start, start + 5_000))).toEqual(Array.from(alone.objectSizes));
    // {id} is the index within the class, so the paths match too.
    for (const index of [0, 1, 4_999]) expect(mixed.pathOf(start + index)).toBe(alone.pathOf(index));
  });
});

describe('content catalogue: theory inputs', () => {
  it('livePopularity gives the ranked objects only, so Che\'s approximation ignores reserved ids', () => {
    const classes = [klass('a', { objects: 2_000, share: 0.7 }), klass('b', { objects: 1_000, share: 0.3 }, 'html')];
    const plain = new ClassCatalogue(classes, new RandomStreams(14));
    const reserved = new ClassCatalogue(classes, new RandomStreams(14), { reservedIds: [500, 500] });
    const live = reserved.livePopularity();
    expect(live.ids.length).toBe(3_000);
    expect(Array.from(live.popularity)).toEqual(Array.from(plain.popularity));
    expect(Array.from(live.sizes)).toEqual(Array.from(plain.objectSizes));
    const capacity = 0.1 * live.sizes.reduce((a, b) => a + b, 0);
    expect(cheApproximation(live.popularity, live.sizes, capacity)).toEqual(cheApproximation(plain.popularity, plain.objectSizes, capacity));
  });
});
