import { describe, expect, it } from 'vitest';
import { median } from 'simple-statistics';
import { Catalogue, type CatalogueSpec } from '../../src/workload/catalogue.js';
import { AliasTable } from '../../src/workload/aliasTable.js';
import { zipfProbabilities } from '../../src/workload/zipf.js';
import { RandomStreams } from '../../src/sim/random.js';

function spec(objects: number, objectSize: CatalogueSpec['objectSize'], zipfExponent = 0.8): CatalogueSpec {
  return { objects, zipfExponent, objectSize };
}

const sizes = (catalogue: Catalogue) => Array.from(catalogue.objectSizes);

describe('Catalogue: object sizes', () => {
  it('sigma 1, 100k objects, median 32,000 B: the sample median is within 2% of 32,000 and ~84.1% are ≤ median·e (within 0.01)', () => {
    const catalogue = new Catalogue(
      spec(100_000, { median: 32_000, sigma: 1, min: 1, max: 1e12 }),
      new RandomStreams(1).stream('catalogue.sizes'),
    );
    const values = sizes(catalogue);
    expect(values.length).toBe(100_000);
    expect(Math.abs(median(values) / 32_000 - 1)).toBeLessThan(0.02);
    // Lognormal quantiles: P(size ≤ median·e^σ) = Φ(1) = 0.8413, P(size ≤ median·e^−σ) = Φ(−1) = 0.1587.
    const below = (x: number) => values.filter((v) => v <= x).length / values.length;
    expect(Math.abs(below(32_000 * Math.E) - 0.8413)).toBeLessThan(0.01);
    expect(Math.abs(below(32_000 / Math.E) - 0.1587)).toBeLessThan(0.01);
    expect(values.every((v) => Number.isInteger(v) && v >= 1)).toBe(true);
  });

  it('sizes are clamped to [min, max]: with median 10,000, sigma 2, bounds [1,000, 100,000] about 12.5% sit at each bound', () => {
    const catalogue = new Catalogue(
      spec(100_000, { median: 10_000, sigma: 2, min: 1_000, max: 100_000 }),
      new RandomStreams(2).stream('catalogue.sizes'),
    );
    const values = sizes(catalogue);
    expect(Math.min(...values)).toBe(1_000);
    expect(Math.max(...values)).toBe(100_000);
    // P(Z < ln(0.1)/2) = Φ(−1.1513) = 0.1248 on either side.
    const atMin = values.filter((v) => v === 1_000).length / values.length;
    const atMax = values.filter((v) => v === 100_000).length / values.length;
    expect(Math.abs(atMin - 0.1248)).toBeLessThan(0.01);
    expect(Math.abs(atMax - 0.1248)).toBeLessThan(0.01);
  });

  it('sigma 0 gives every object exactly the median size, and totalBytes is objects × median', () => {
    const catalogue = new Catalogue(spec(1_000, { median: 4_096, sigma: 0, min: 1, max: 1e9 }), new RandomStreams(3).stream('catalogue.sizes'));
    expect(new Set(sizes(catalogue))).toEqual(new Set([4_096]));
    expect(catalogue.totalBytes()).toBe(4_096_000);
  });

  it('sigma 0 with a median outside [min, max] is clamped: median 50 with min 100 gives 100 everywhere', () => {
    const catalogue = new Catalogue(spec(10, { median: 50, sigma: 0, min: 100, max: 1_000 }), new RandomStreams(3).stream('catalogue.sizes'));
    expect(sizes(catalogue)).toEqual(new Array(10).fill(100));
  });

  it('the same seed gives identical sizes; another seed gives different ones', () => {
    const size = { median: 32_000, sigma: 1.2, min: 100, max: 1e9 };
    const a = new Catalogue(spec(10_000, size), new RandomStreams(7).stream('catalogue.sizes'));
    const b = new Catalogue(spec(10_000, size), new RandomStreams(7).stream('catalogue.sizes'));
    const c = new Catalogue(spec(10_000, size), new RandomStreams(8).stream('catalogue.sizes'));
    expect(sizes(a)).toEqual(sizes(b));
    const other = sizes(c);
    const equal = sizes(a).filter((v, i) => v === other[i]).length;
    expect(equal).toBeLessThan(100);
  });

  it('sizes do not depend on the Zipf exponent (drawn independently of popularity)', () => {
    const size = { median: 32_000, sigma: 1, min: 100, max: 1e9 };
    const a = new Catalogue(spec(5_000, size, 0.6), new RandomStreams(9).stream('catalogue.sizes'));
    const b = new Catalogue(spec(5_000, size, 1.1), new RandomStreams(9).stream('catalogue.sizes'));
    expect(sizes(a)).toEqual(sizes(b));
  });

  it('totalBytes is the sum of the object sizes', () => {
    const catalogue = new Catalogue(spec(2_000, { median: 1_000, sigma: 0.5, min: 1, max: 1e9 }), new RandomStreams(10).stream('catalogue.sizes'));
    expect(catalogue.totalBytes()).toBe(sizes(catalogue).reduce((a, b) => a + b, 0));
  });
});

describe('Catalogue: popularity', () => {
  it('the popularity array is zipfProbabilities(objects, exponent) exactly', () => {
    const catalogue = new Catalogue(spec(10_000, { median: 1_000, sigma: 1, min: 1, max: 1e9 }, 0.8), new RandomStreams(11).stream('catalogue.sizes'));
    expect(catalogue.size).toBe(10_000);
    expect(Array.from(catalogue.popularity)).toEqual(Array.from(zipfProbabilities(10_000, 0.8)));
  });

  it('pick(u) is the alias-table sample of the popularity (identical over 200,000 evenly spaced u)', () => {
    const catalogue = new Catalogue(spec(10_000, { median: 1_000, sigma: 1, min: 1, max: 1e9 }, 0.8), new RandomStreams(12).stream('catalogue.sizes'));
    const table = new AliasTable(zipfProbabilities(10_000, 0.8));
    const points = 200_000;
    let same = 0;
    for (let i = 0; i < points; i++) if (catalogue.pick(i / points) === table.sample(i / points)) same++;
    expect(same).toBe(points);
  });

  it('pick(u) over 1e6 evenly spaced u gives each of 10 objects (exponent 1) its Zipf share within 1e-5', () => {
    const catalogue = new Catalogue(spec(10, { median: 1_000, sigma: 0, min: 1, max: 1e9 }, 1), new RandomStreams(13).stream('catalogue.sizes'));
    const points = 1_000_000;
    const counts = new Array<number>(10).fill(0);
    for (let i = 0; i < points; i++) counts[catalogue.pick(i / points)]++;
    // 1/H(10) = 1/2.9289682539682538 = 0.34141715… for object 0.
    expect(Math.abs(counts[0] / points - 0.3414171521474055)).toBeLessThan(1e-5);
    for (let id = 0; id < 10; id++) expect(Math.abs(counts[id] / points - catalogue.popularity[id])).toBeLessThan(1e-5);
  });
});
