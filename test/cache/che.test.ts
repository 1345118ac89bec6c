import { describe, expect, it } from 'vitest';
import { cheApproximation } from '../../src/cache/che.js';
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
