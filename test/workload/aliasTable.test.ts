import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { linearRegression } from 'simple-statistics';
import { AliasTable } from '../../src/workload/aliasTable.js';
import { zipfProbabilities } from '../../src/workload/zipf.js';
import { RandomStreams } from '../../src/sim/random.js';

/** Counts of table.sample(u) for `points` evenly spaced u = i / points in [0, 1). */
function sweep(table: AliasTable, points: number): number[] {
  const counts = new Array<number>(table.size).fill(0);
  for (let i = 0; i < points; i++) counts[table.sample(i / points)]++;
  return counts;
}

describe('AliasTable: exact probabilities', () => {
  it('weights [1, 2, 3, 4]: over 1e6 evenly spaced u in [0, 1), frequencies are 0.1, 0.2, 0.3, 0.4 within 1e-5', () => {
    const table = new AliasTable([1, 2, 3, 4]);
    expect(table.size).toBe(4);
    const points = 1_000_000;
    const frequencies = sweep(table, points).map((count) => count / points);
    const expected = [0.1, 0.2, 0.3, 0.4];
    for (let i = 0; i < 4; i++) expect(Math.abs(frequencies[i] - expected[i])).toBeLessThan(1e-5);
  });

  it('unnormalised weights [0.5, 0, 2.5, 0, 7] on a Float64Array: zero weights are never sampled, others get 0.05, 0.25, 0.7', () => {
    const table = new AliasTable(Float64Array.from([0.5, 0, 2.5, 0, 7]));
    const points = 1_000_000;
    const counts = sweep(table, points);
    expect(counts[1]).toBe(0);
    expect(counts[3]).toBe(0);
    expect(Math.abs(counts[0] / points - 0.05)).toBeLessThan(1e-5);
    expect(Math.abs(counts[2] / points - 0.25)).toBeLessThan(1e-5);
    expect(Math.abs(counts[4] / points - 0.7)).toBeLessThan(1e-5);
  });

  it('a single weight always gives index 0', () => {
    const table = new AliasTable([3.5]);
    for (const u of [0, 0.25, 0.5, 0.999999, 1 - Number.EPSILON / 2]) expect(table.sample(u)).toBe(0);
  });

  it('equal weights split [0, 1) into equal columns: u in [k/4, (k+1)/4) gives k', () => {
    const table = new AliasTable([1, 1, 1, 1]);
    expect([0, 0.2499, 0.25, 0.4999, 0.5, 0.7499, 0.75, 0.9999].map((u) => table.sample(u))).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);
  });

  it('u just below 1 (1 − 2^−53) still gives a valid index for 3, 10, 1000 and 10,000 weights', () => {
    const u = 1 - Number.EPSILON / 2;
    for (const n of [3, 10, 1_000, 10_000]) {
      const table = new AliasTable(zipfProbabilities(n, 0.8));
      const index = table.sample(u);
      expect(Number.isInteger(index)).toBe(true);
      expect(index).toBeGreaterThanOrEqual(0);
      expect(index).toBeLessThan(n);
    }
  });

  it('property: for random weight vectors with zeros, zero weights are never sampled and frequencies match weight/total within 2n/points', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constant(0), fc.double({ min: 1e-3, max: 1e3, noNaN: true }), fc.integer({ min: 1, max: 100 })), { minLength: 1, maxLength: 20 }),
        (weights) => {
          fc.pre(weights.some((w) => w > 0));
          const table = new AliasTable(weights);
          const points = 20_000;
          const counts = sweep(table, points);
          const total = weights.reduce((a, b) => a + b, 0);
          for (let i = 0; i < weights.length; i++) {
            if (weights[i] === 0 && counts[i] !== 0) return false;
            if (Math.abs(counts[i] / points - weights[i] / total) > (2 * weights.length) / points) return false;
          }
          return true;
        },
      ),
      { numRuns: 300, seed: 4242 },
    );
  });
});

/**
 * The table as Vose builds it, read the plain way: a column's probability as a double, then
 * its alias. The packed 4-byte columns must give the same index for every u.
 */
function plainAliasTable(weights: readonly number[]): (u: number) => number {
  const n = weights.length;
  const total = weights.reduce((a, b) => a + b, 0);
  const probability = new Float64Array(n);
  const alias = new Int32Array(n);
  const scaled = weights.map((w) => (w * n) / total);
  const small: number[] = [];
  const large: number[] = [];
  scaled.forEach((value, i) => (value < 1 ? small : large).push(i));
  while (small.length > 0 && large.length > 0) {
    const less = small.pop() as number;
    const more = large.pop() as number;
    probability[less] = scaled[less];
    alias[less] = more;
    scaled[more] = scaled[more] + scaled[less] - 1;
    (scaled[more] < 1 ? small : large).push(more);
  }
  for (const i of [...large, ...small]) probability[i] = 1;
  return (u) => {
    const column = Math.floor(u * n);
    return u * n - column < probability[column] ? column : alias[column];
  };
}

describe('AliasTable: the packed columns decide every draw as the probabilities do', () => {
  it('property: for random weights and u (random doubles, multiples of 2^-32 as the random streams give, and each column\'s probability edge), sample(u) is the plain table\'s index', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constant(0), fc.double({ min: 1e-6, max: 1e3, noNaN: true }), fc.integer({ min: 1, max: 100 })), { minLength: 1, maxLength: 300 }),
        fc.array(fc.oneof(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), fc.integer({ min: 0, max: 2 ** 32 - 1 }).map((k) => k / 2 ** 32)), { minLength: 1, maxLength: 50 }),
        (weights, draws) => {
          fc.pre(weights.some((w) => w > 0));
          const table = new AliasTable(weights);
          const plain = plainAliasTable(weights);
          const n = weights.length;
          // Draws at the fractions where a column turns from itself to its alias, and one step of the level either side.
          const edges = weights.flatMap((_, column) => [0, 1e-9, 0.5, 1 - 1e-9].map((f) => (column + f) / n)).filter((u) => u < 1);
          return [...draws, ...edges].every((u) => table.sample(u) === plain(u));
        },
      ),
      { numRuns: 400, seed: 9001 },
    );
  });

  it('Zipf(0.8) over 79,050 objects (the seven default classes\' count): 200,000 draws of k / 2^32 give the plain table\'s indices', () => {
    const weights = Array.from(zipfProbabilities(79_050, 0.8));
    const table = new AliasTable(weights);
    const plain = plainAliasTable(weights);
    const stream = new RandomStreams(7).stream('packed');
    let differing = 0;
    for (let i = 0; i < 200_000; i++) {
      const u = stream.next();
      if (table.sample(u) !== plain(u)) differing++;
    }
    expect(differing).toBe(0);
  });
});

describe('AliasTable: invalid weights', () => {
  it('rejects an empty weight list', () => {
    expect(() => new AliasTable([])).toThrow(new RangeError('an alias table needs at least one weight'));
  });

  it('rejects a negative weight, naming its index', () => {
    expect(() => new AliasTable([1, -2, 3])).toThrow(new RangeError('weight 1 is -2; weights must be ≥ 0'));
  });

  it('rejects a NaN weight, naming its index', () => {
    expect(() => new AliasTable([1, 2, NaN])).toThrow(new RangeError('weight 2 is NaN; weights must be ≥ 0'));
  });

  it('rejects weights that are all zero', () => {
    expect(() => new AliasTable([0, 0, 0])).toThrow(new RangeError('the weights add up to 0'));
  });
});

describe('zipfProbabilities', () => {
  it('sums to 1 (within 1e-12) and decreases with rank, for n = 1, 10, 10,000 and s = 0, 0.8, 1.2', () => {
    for (const n of [1, 10, 10_000]) {
      for (const s of [0, 0.8, 1.2]) {
        const p = zipfProbabilities(n, s);
        expect(p.length).toBe(n);
        expect(Math.abs(p.reduce((a, b) => a + b, 0) - 1)).toBeLessThan(1e-12);
        let increases = 0;
        for (let i = 1; i < n; i++) if (p[i] > p[i - 1]) increases++;
        expect(increases).toBe(0);
      }
    }
  });

  it('p1 / p2 = 2^s and p1 / p10 = 10^s', () => {
    for (const s of [0.6, 0.8, 1]) {
      const p = zipfProbabilities(1_000, s);
      expect(p[0] / p[1]).toBeCloseTo(Math.pow(2, s), 12);
      expect(p[0] / p[9]).toBeCloseTo(Math.pow(10, s), 11);
    }
  });

  it('exponent 0 is uniform; exponent 1 over 3 objects is [6/11, 3/11, 2/11]', () => {
    for (const value of zipfProbabilities(8, 0)) expect(value).toBeCloseTo(1 / 8, 15);
    const p = zipfProbabilities(3, 1);
    expect(p[0]).toBeCloseTo(6 / 11, 15);
    expect(p[1]).toBeCloseTo(3 / 11, 15);
    expect(p[2]).toBeCloseTo(2 / 11, 15);
  });

  it('1e6 alias-table draws over 10,000 objects with exponent 0.8 recover the exponent within 0.03 (log-log regression, top 100 ranks)', () => {
    const objects = 10_000;
    const table = new AliasTable(zipfProbabilities(objects, 0.8));
    const stream = new RandomStreams(99).stream('zipf-fit');
    const counts = new Float64Array(objects);
    const draws = 1_000_000;
    for (let i = 0; i < draws; i++) counts[table.sample(stream.next())]++;
    const points: number[][] = [];
    for (let rank = 1; rank <= 100; rank++) points.push([Math.log(rank), Math.log(counts[rank - 1] / draws)]);
    const { m } = linearRegression(points);
    expect(Math.abs(-m - 0.8)).toBeLessThan(0.03);
    // The most popular object's share matches its probability within 0.001 (it is about 3.7 %).
    expect(Math.abs(counts[0] / draws - zipfProbabilities(objects, 0.8)[0])).toBeLessThan(0.001);
  });
});
