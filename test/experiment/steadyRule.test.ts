import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSteady, STEADY_MIN_BLOCKS, steadyBlockRequests, steadyGain } from '../../src/experiment/steadyRule.js';

/**
 * The steady rule (docs/warmup.md "Until steady"; spec 1.1 states the hit ratios of a CDN in
 * service): what a warm-up four times as long would still change, from the last two doublings
 * of the blocks ([n/8, n/4) → [n/4, n/2) → [n/2, n)), projected as a power-law approach
 * (h∞ − c·t^−a), bounded both ways by two standard errors of the block noise.
 * Expected values derived by hand below each case.
 */
const series = (n: number, f: (i: number) => number): number[] => Array.from({ length: n }, (_, i) => f(i));
const TOLERANCE = 0.0025;
/** A cache hit ratio approaching 0.9 as a power of the requests, block i at t = i + ½ blocks. */
const approach = (a: number, sign = -1) => (t: number): number => 0.9 + sign * 0.3 * t ** -a;
const firstSteady = (f: (n: number) => number[], upTo = 2000): number | undefined =>
  series(upTo, (i) => i + 1).find((n) => n >= STEADY_MIN_BLOCKS && isSteady(f(n), f(n), TOLERANCE));

describe('steady rule: the change a warm-up four times as long would bring', () => {
  it('spec 1.1: fewer than eight blocks are no evidence: no projection, not steady, even when flat', () => {
    expect(STEADY_MIN_BLOCKS).toBe(8);
    expect(steadyGain(series(7, () => 0.9))).toBeNull();
    expect(isSteady(series(7, () => 0.9), series(7, () => 0.5), TOLERANCE)).toBe(false);
  });

  it('spec 1.1: a series that starts at its level (a stationary start) is steady at its eighth block: no change, no noise, gain 0', () => {
    const flat = steadyGain(series(8, () => 0.9));
    expect(flat?.change).toBeCloseTo(0, 12);
    expect(flat?.gain).toBeCloseTo(0, 12);
    expect(isSteady(series(8, () => 0.9), series(8, () => 0.4), TOLERANCE)).toBe(true);
  });

  it('spec 1.1: segments 0.50 | 0.54 0.54 | 0.56 ×4 (block 0 ignored): D1 = 4, D2 = 2 points, r = ½, projected 2 × (½^1.5 + ½^2.5) = 1.061 points, bound 1.642', () => {
    // Successive differences over blocks 2..7: 0, 0.02, 0, 0, 0 → σ = √(0.0004 / 10) = 0.006325;
    // SE(D2) = σ √(1/2 + 1/4) = 0.005477, SE(D1) = σ √(1 + 1/2) = 0.007746 (D1 > 2 SE: decay evident).
    const g = steadyGain([0.3, 0.5, 0.54, 0.54, 0.56, 0.56, 0.56, 0.56]);
    expect(g?.previousChange).toBeCloseTo(0.04, 12);
    expect(g?.change).toBeCloseTo(0.02, 12);
    expect(g?.ratio).toBeCloseTo(0.5, 12);
    expect(g?.blockNoise).toBeCloseTo(0.006325, 6);
    expect(g?.changeError).toBeCloseTo(0.005477, 6);
    expect(g?.projected).toBeCloseTo(0.010607, 6);
    expect(g?.gain).toBeCloseTo(0.016416, 6);
  });

  it('spec 1.1: a rising power law, 0.9 − 0.3/t: the projection matches the exact ×4 change (1.407 against 1.406 points at 16 blocks) and the rule stops at 84 blocks, where ×4 adds 0.268 points', () => {
    const h = approach(1);
    const at16 = steadyGain(series(16, (i) => h(i + 0.5)));
    expect(at16?.ratio).toBeCloseTo(0.507, 3);
    expect(at16?.projected).toBeCloseTo(0.01407, 5);
    expect(h(64) - h(16)).toBeCloseTo(0.01406, 5);
    expect(firstSteady((n) => series(n, (i) => h(i + 0.5)))).toBe(84);
    expect(h(4 * 84) - h(84)).toBeCloseTo(0.002679, 6);
  });

  it('spec 1.1: a faster approach, 0.9 − 0.3/t², stops at 12 blocks, where ×4 adds 0.195 points', () => {
    const h = approach(2);
    expect(firstSteady((n) => series(n, (i) => h(i + 0.5)))).toBe(12);
    expect(h(48) - h(12)).toBeCloseTo(0.001953, 6);
  });

  it('spec 1.1: a falling series (a fill that overshoots, TTL expiry), 0.9 + 0.3/t, is not steady while it still falls by more than the tolerance: first at 84 blocks, as the rising one', () => {
    const h = approach(1, 1);
    expect(steadyGain(series(16, (i) => h(i + 0.5)))?.projected).toBeCloseTo(-0.01407, 5);
    const stop = firstSteady((n) => series(n, (i) => h(i + 0.5)));
    expect(stop).toBe(84);
    for (let n = STEADY_MIN_BLOCKS; n < 84; n++) expect(isSteady(series(n, (i) => h(i + 0.5)), series(n, () => 0.5), TOLERANCE)).toBe(false);
  });

  it('spec 1.1: a series rising linearly, 0.1 point a block, is never steady: no decay, gain (0.30 + 2 × 0.061) × 2 = 0.845 points at 8 blocks, 3.11 at 40', () => {
    // n = 8: means 0.501 | 0.5025 | 0.5055 → D2 = 0.003; σ = √(5 × 1e-6 / 10) = 0.000707, SE = 0.000612.
    const eight = steadyGain(series(8, (i) => 0.5 + 0.001 * i));
    expect(eight?.ratio).toBe(1);
    expect(eight?.gain).toBeCloseTo(0.008449, 6);
    expect(steadyGain(series(40, (i) => 0.5 + 0.001 * i))?.gain).toBeCloseTo(0.031095, 6);
    for (let n = STEADY_MIN_BLOCKS; n <= 400; n++) expect(isSteady(series(n, (i) => 0.5 + 0.001 * i), series(n, () => 0.3), TOLERANCE)).toBe(false);
  });

  it('spec 1.1: a flat series with noise of ±0.1 point waits for its noise to average out: bound 0.490 points at 8 blocks (σ 0.141, no decay evident), steady first at 31', () => {
    // n = 8: D2 = 0, σ = √(5 × 4e-6 / 10) = 0.001414, SE = σ √(3/4) = 0.001225, bound 2 × 2 SE = 0.004899.
    const noisy = (n: number): number[] => series(n, (i) => 0.9 + 0.001 * (i % 2 === 0 ? 1 : -1));
    expect(steadyGain(noisy(8))?.gain).toBeCloseTo(0.004899, 6);
    expect(steadyGain(noisy(32))?.gain).toBeCloseTo(0.002449, 6);
    expect(firstSteady(noisy, 200)).toBe(31);
  });

  it('spec 1.1: the edge hit ratio is held to the rule too: a flat CDN series with a rising edge series is not steady', () => {
    const flat = series(30, () => 0.9);
    const risingEdge = series(30, (i) => 0.3 + 0.005 * Math.log(i + 0.5));
    expect(isSteady(flat, risingEdge, TOLERANCE)).toBe(false);
    expect(isSteady(risingEdge, flat, TOLERANCE)).toBe(false);
    expect(isSteady(flat, flat, TOLERANCE)).toBe(true);
  });

  it('changes too small to multiply (1.8e-188 then 5e-324, opposite signs): not a decay the same way, so the ratio stays 1 and the gain a number (was NaN)', () => {
    const found = steadyGain([0, 1.8121506418308554e-188, 0, 0, 0, 0, 1e-323, 5e-324]);
    expect(found).not.toBeNull();
    expect(found?.ratio).toBe(1);
    expect(Number.isNaN(found?.gain)).toBe(false);
    const mirrored = steadyGain([0, 1.8121506418308554e-188, 0, 0, 0, 0, 1e-323, 5e-324].map((r) => 1 - r));
    expect(mirrored?.gain).toBeCloseTo(found?.gain ?? Number.NaN, 9);
  });

  it('property: the bound ignores the level, is the same for a series and its mirror image, and is at least the projection', () => {
    const blocks = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: STEADY_MIN_BLOCKS, maxLength: 60 });
    fc.assert(
      fc.property(blocks, fc.double({ min: -0.5, max: 0.5, noNaN: true }), (ratios, level) => {
        const base = steadyGain(ratios);
        const shifted = steadyGain(ratios.map((r) => r + level));
        const mirrored = steadyGain(ratios.map((r) => 1 - r));
        if (base === null || shifted === null || mirrored === null) return false;
        expect(shifted.gain).toBeCloseTo(base.gain, 9);
        expect(mirrored.gain).toBeCloseTo(base.gain, 9);
        expect(mirrored.projected).toBeCloseTo(-base.projected, 9);
        expect(base.gain).toBeGreaterThanOrEqual(Math.abs(base.projected) - 1e-12);
        expect(base.ratio).toBeGreaterThanOrEqual(0);
        expect(base.ratio).toBeLessThanOrEqual(1);
        return true;
      }),
    );
  });
});


describe('steady rule: the default block scales with the catalogue and the edge caches', () => {
  it('the baseline (100,000 objects, 339 edges): 3,000 requests per edge, 1.1 M', () => {
    expect(steadyBlockRequests(100_000, 339)).toBe(1_100_000);
  });
  it('2,000,000 objects over 339 edges: one request per object, 2 M', () => {
    expect(steadyBlockRequests(2_000_000, 339)).toBe(2_000_000);
  });
  it('small networks get 100 k, huge catalogues 10 M', () => {
    expect(steadyBlockRequests(20_000, 8)).toBe(100_000);
    expect(steadyBlockRequests(50_000_000, 339)).toBe(10_000_000);
  });
});
