import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSteady, STEADY_MIN_BLOCKS, steadyBlockRequests, steadyGain } from '../../src/experiment/steadyRule.js';

/**
 * The steady rule (docs/warmup.md "Until steady"; spec 1.1 states the hit ratios of a CDN in
 * service): the gain a warm-up four times as long would still bring, fitted over the last
 * half of the blocks against ln(requests), plus two standard errors, times ln 4.
 * Expected values derived by hand (least squares over x = ln(i + ½), the last half of i).
 */
const series = (n: number, f: (i: number) => number): number[] => Array.from({ length: n }, (_, i) => f(i));
const TOLERANCE = 0.0025;

describe('steady rule: projected gain of a warm-up four times as long', () => {
  it('spec 1.1: fewer than eight blocks are no evidence: no gain, not steady, even when flat', () => {
    expect(STEADY_MIN_BLOCKS).toBe(8);
    expect(steadyGain(series(7, () => 0.9))).toBeNull();
    expect(isSteady(series(7, () => 0.9), series(7, () => 0.5), TOLERANCE)).toBe(false);
  });

  it('spec 1.1: a flat series is steady at its eighth block: slope 0, no residuals, gain 0', () => {
    const flat = steadyGain(series(8, () => 0.9));
    expect(flat?.slope).toBeCloseTo(0, 12);
    expect(flat?.gain).toBeCloseTo(0, 12);
    expect(flat?.window).toBe(4);
    expect(isSteady(series(8, () => 0.9), series(8, () => 0.4), TOLERANCE)).toBe(true);
  });

  it('spec 1.1: a series rising 1 point per e-fold of requests gains exactly 0.01 × ln 4 = 1.386 points, whatever its length', () => {
    for (const n of [8, 9, 20, 101]) {
      const rising = steadyGain(series(n, (i) => 0.5 + 0.01 * Math.log(i + 0.5)));
      expect(rising?.slope).toBeCloseTo(0.01, 12);
      expect(rising?.slopeError).toBeCloseTo(0, 12);
      expect(rising?.gain).toBeCloseTo(0.013863, 6);
    }
  });

  it('spec 1.1: a series rising linearly, 0.1 point a block, is never steady: slope 0.00585 and gain 0.898 points at 8 blocks, 4.20 points at 40', () => {
    const eight = steadyGain(series(8, (i) => 0.5 + 0.001 * i));
    expect(eight?.slope).toBeCloseTo(0.00585, 5);
    expect(eight?.gain).toBeCloseTo(0.008981, 6);
    expect(steadyGain(series(40, (i) => 0.5 + 0.001 * i))?.gain).toBeCloseTo(0.042012, 6);
    for (let n = STEADY_MIN_BLOCKS; n <= 400; n++) expect(isSteady(series(n, (i) => 0.5 + 0.001 * i), series(n, () => 0.3), TOLERANCE)).toBe(false);
  });

  it('spec 1.1: a flat series with noise of ±0.1 point waits for its noise to average out: gain 0.590 points at 8 blocks, steady first at 48 (gain 0.247)', () => {
    const noisy = (n: number): number[] => series(n, (i) => 0.9 + 0.001 * (i % 2 === 0 ? 1 : -1));
    expect(steadyGain(noisy(8))?.gain).toBeCloseTo(0.005901, 6);
    expect(steadyGain(noisy(48))?.gain).toBeCloseTo(0.002472, 6);
    const firstSteady = series(200, (i) => i + 1).find((n) => n >= STEADY_MIN_BLOCKS && isSteady(noisy(n), noisy(n), TOLERANCE));
    expect(firstSteady).toBe(48);
  });

  it('spec 1.1: the edge hit ratio is held to the rule too: a flat CDN series with a rising edge series is not steady', () => {
    const flat = series(30, () => 0.9);
    const risingEdge = series(30, (i) => 0.3 + 0.005 * Math.log(i + 0.5));
    expect(isSteady(flat, risingEdge, TOLERANCE)).toBe(false);
    expect(isSteady(risingEdge, flat, TOLERANCE)).toBe(false);
    expect(isSteady(flat, flat, TOLERANCE)).toBe(true);
  });

  it('property: the gain ignores the level, adds c × ln 4 for c × ln(requests), and is at least slope × ln 4', () => {
    const blocks = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: STEADY_MIN_BLOCKS, maxLength: 60 });
    fc.assert(
      fc.property(blocks, fc.double({ min: -0.5, max: 0.5, noNaN: true }), fc.double({ min: -0.05, max: 0.05, noNaN: true }), (ratios, level, c) => {
        const base = steadyGain(ratios);
        const shifted = steadyGain(ratios.map((r) => r + level));
        const tilted = steadyGain(ratios.map((r, i) => r + c * Math.log(i + 0.5)));
        if (base === null || shifted === null || tilted === null) return false;
        expect(shifted.gain).toBeCloseTo(base.gain, 9);
        expect(tilted.slopeError).toBeCloseTo(base.slopeError, 9);
        expect(tilted.gain - base.gain).toBeCloseTo(c * Math.log(4), 9);
        expect(base.gain).toBeGreaterThanOrEqual(base.slope * Math.log(4) - 1e-12);
        expect(base.window).toBe(ratios.length - Math.floor(ratios.length / 2));
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
