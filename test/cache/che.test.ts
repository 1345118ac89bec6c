import { describe, expect, it } from 'vitest';
import { cheApproximation, cheCharacteristicTime } from '../../src/cache/che.js';
import { zipfProbabilities } from '../../src/workload/zipf.js';

describe("Che's approximation (Che et al. 2002)", () => {
  it('solves Σ (1 − e^(−p_i T)) = C for the characteristic time', () => {
    const popularity = zipfProbabilities(10_000, 0.8);
    const { characteristicTime: t } = cheApproximation(popularity, undefined, 1_000);
    let occupancy = 0;
    for (const p of popularity) occupancy += 1 - Math.exp(-p * t);
    expect(occupancy).toBeCloseTo(1_000, 4);
  });

  it('uniform popularity: hit ratio equals the cached share C/N', () => {
    const popularity = new Float64Array(1_000).fill(1 / 1_000);
    expect(cheApproximation(popularity, undefined, 250).hitRatio).toBeCloseTo(0.25, 9);
  });

  it('a cache that holds everything hits always; an empty one never', () => {
    const popularity = zipfProbabilities(100, 1);
    expect(cheApproximation(popularity, undefined, 100).hitRatio).toBe(1);
    expect(cheApproximation(popularity, undefined, 0).hitRatio).toBe(0);
  });

  it('byte mode with equal sizes s gives the same as count mode with capacity C/s', () => {
    const popularity = zipfProbabilities(5_000, 0.9);
    const sizes = new Float64Array(5_000).fill(4_096);
    const bytes = cheApproximation(popularity, sizes, 500 * 4_096);
    const count = cheApproximation(popularity, undefined, 500);
    expect(bytes.hitRatio).toBeCloseTo(count.hitRatio, 9);
    expect(bytes.byteHitRatio).toBeCloseTo(count.hitRatio, 9);
  });

  it('hit ratio grows with capacity', () => {
    const popularity = zipfProbabilities(10_000, 0.8);
    const ratios = [100, 1_000, 5_000].map((c) => cheApproximation(popularity, undefined, c).hitRatio);
    expect(ratios[0]).toBeLessThan(ratios[1]);
    expect(ratios[1]).toBeLessThan(ratios[2]);
  });
});

/**
 * The one solver of Che's equation (the printed theory and the warm-up's stationary fill,
 * docs/warmup.md "A stationary start"): values derived by hand.
 */
describe("Che's characteristic time (the one solver: theory and the stationary fill)", () => {
  it('two equal objects, room for one: 2(1 − e^(−T/2)) = 1, T = 2 ln 2 = 1.386294361, hit ratio 1/2', () => {
    const che = cheApproximation(new Float64Array([0.5, 0.5]), undefined, 1);
    expect(che.characteristicTime).toBeCloseTo(2 * Math.LN2, 8);
    expect(che.hitRatio).toBeCloseTo(0.5, 9);
  });

  it('uniform over 1,000, room for 250: T = 1,000 ln(4/3) = 287.682072', () => {
    expect(cheCharacteristicTime(new Float64Array(1_000).fill(1 / 1_000), undefined, 250)).toBeCloseTo(1_000 * Math.log(4 / 3), 5);
  });

  it('weights need not sum to 1 (a regional is asked by its PoPs\' misses): [3, 1] gives the hit ratios of [0.75, 0.25] and a quarter of their time', () => {
    const sizes = new Float64Array([1, 3]);
    const weights = cheApproximation(new Float64Array([3, 1]), sizes, 2);
    const probabilities = cheApproximation(new Float64Array([0.75, 0.25]), sizes, 2);
    expect(weights.characteristicTime * 4).toBeCloseTo(probabilities.characteristicTime, 9);
    expect(weights.hitRatio).toBeCloseTo(probabilities.hitRatio, 12);
    expect(weights.byteHitRatio).toBeCloseTo(probabilities.byteHitRatio, 12);
    expect(weights.hitRatio).toBeLessThan(1);
  });

  it('objects of weight 0 are never asked for: they hold no room and count in no ratio', () => {
    const with0 = cheApproximation(new Float64Array([0.5, 0, 0.5]), new Float64Array([1, 5, 1]), 1);
    expect(with0.characteristicTime).toBeCloseTo(2 * Math.LN2, 8);
    expect(with0.hitRatio).toBeCloseTo(0.5, 9);
    // Without the weight-0 object the catalogue fits: everything hits.
    expect(cheApproximation(new Float64Array([0.5, 0, 0.5]), new Float64Array([1, 5, 1]), 2)).toEqual({ characteristicTime: Infinity, hitRatio: 1, byteHitRatio: 1 });
  });

  it('a weight too small for a double (1e−320, a regional\'s underflowed p·e^(−p x)) cannot fill the rest: as good as everything fitting', () => {
    expect(cheCharacteristicTime(new Float64Array([1, 1e-320]), undefined, 1.5)).toBe(Infinity);
    // 1e−300 still can: T = ln 2 · 1e300 fills half of it.
    expect(cheCharacteristicTime(new Float64Array([1, 1e-300]), undefined, 1.5) / (Math.LN2 * 1e300)).toBeCloseTo(1, 6);
  });

  it('200,000 Zipf(0.8) objects, room for 5 %: Newton from T = 0 reaches a residual below 1e−9 of C', () => {
    const popularity = zipfProbabilities(200_000, 0.8);
    const t = cheCharacteristicTime(popularity, undefined, 10_000);
    let occupied = 0;
    for (const p of popularity) occupied -= Math.expm1(-p * t);
    expect(Math.abs(occupied - 10_000)).toBeLessThan(1e-9 * 10_000 * 2);
  });
});
