import { describe, expect, it } from 'vitest';
import { exactly, outsideBy, pointMean, verdictOf } from '../../src/metrics/statedVerdict.js';
import { STATED_FIGURES } from '../../src/metrics/statedFigures.js';

describe('stated figures: verdict rules', () => {
  it('spec 1.1 regional range 15–20 ms: both edges are within (inclusive), just past them is outside', () => {
    const bounds = { min: 15, max: 20 };
    expect(verdictOf(15, bounds)).toBe('within');
    expect(verdictOf(20, bounds)).toBe('within');
    expect(verdictOf(17.3, bounds)).toBe('within');
    expect(verdictOf(14.999, bounds)).toBe('outside');
    expect(verdictOf(20.001, bounds)).toBe('outside');
  });

  it('spec 1.1 global 25.45 ms: a point mean is within 5 % either way (24.1775 to 26.7225 ms)', () => {
    const bounds = pointMean(25.45);
    expect(bounds.min).toBeCloseTo(24.1775, 10);
    expect(bounds.max).toBeCloseTo(26.7225, 10);
    expect(verdictOf(24.18, bounds)).toBe('within');
    expect(verdictOf(26.72, bounds)).toBe('within');
    expect(verdictOf(24.17, bounds)).toBe('outside');
    expect(verdictOf(26.73, bounds)).toBe('outside');
  });

  it('spec 1.1 95 % hit ratio and 99.9 % availability are floors; more than 200 PoPs is at least 201', () => {
    const hit = STATED_FIGURES.find((f) => f.id === 'cdnHitRatio')!.bounds;
    expect(verdictOf(0.95, hit)).toBe('within');
    expect(verdictOf(1, hit)).toBe('within');
    expect(verdictOf(0.949999, hit)).toBe('outside');
    const availability = STATED_FIGURES.find((f) => f.id === 'availability.originProblems')!.bounds;
    expect(verdictOf(0.999, availability)).toBe('within');
    expect(verdictOf(0.998999, availability)).toBe('outside');
    const pops = STATED_FIGURES.find((f) => f.id === 'pops')!.bounds;
    expect(verdictOf(200, pops)).toBe('outside');
    expect(verdictOf(201, pops)).toBe('within');
    expect(verdictOf(339, pops)).toBe('within');
  });

  it('spec 7.1 and 8 constants are exact: 5 s error caching, 5 MB chunks', () => {
    expect(verdictOf(5, exactly(5))).toBe('within');
    expect(verdictOf(4, exactly(5))).toBe('outside');
    expect(verdictOf(6, exactly(5))).toBe('outside');
    const chunk = STATED_FIGURES.find((f) => f.id === 'chunkSize')!.bounds;
    expect(verdictOf(5_000_000, chunk)).toBe('within');
    expect(verdictOf(5_242_880, chunk)).toBe('outside');
  });

  it('no value (no requests of that kind, no incident) is not applicable, whatever the bounds', () => {
    expect(verdictOf(null, { min: 0 })).toBe('not-applicable');
    expect(verdictOf(Number.NaN, { max: 25 })).toBe('not-applicable');
  });

  it('a one-sided bound leaves the other side open', () => {
    expect(verdictOf(1e9, { min: 0.6 })).toBe('within');
    expect(verdictOf(-5, { max: 25 })).toBe('within');
  });

  it('says which bound a value misses', () => {
    const ms = (v: number) => `${v} ms`;
    expect(outsideBy(14, { min: 15, max: 20 }, ms)).toBe('14 ms is below the minimum 15 ms');
    expect(outsideBy(21, { min: 15, max: 20 }, ms)).toBe('21 ms is above the maximum 20 ms');
  });

  it('row ids are unique, and the stated table has the 20 rows of spec 1.1, 4.8, 4.9, 7.1 and 8', () => {
    const ids = STATED_FIGURES.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([
      'pops',
      'latency.global.edge',
      'latency.global.all',
      'latency.region.northAmerica',
      'latency.region.europe',
      'latency.region.asiaPacific',
      'latency.region.latinAmerica',
      'latency.region.africa',
      'latency.layer.browser',
      'latency.layer.edge',
      'latency.layer.regional',
      'latency.layer.originService',
      'latency.layer.origin',
      'cdnHitRatio',
      'availability.originProblems',
      'errorCaching',
      'chunkSize',
      'lifetime.long',
      'lifetime.staticPage',
      'uplink.major',
    ]);
  });

  it('spec 1.1 and 4.9 readings: the all-requests mean and the client time to first byte of origin fetches are comparison rows of an existing judged row', () => {
    const comparisons = STATED_FIGURES.filter((f) => f.comparisonFor !== undefined).map((f) => [f.id, f.comparisonFor]);
    expect(comparisons).toEqual([
      ['latency.global.all', 'latency.global.edge'],
      ['latency.layer.origin', 'latency.layer.originService'],
    ]);
    const ids = new Set(STATED_FIGURES.filter((f) => f.comparisonFor === undefined).map((f) => f.id));
    for (const [, judged] of comparisons) expect(ids.has(judged as string)).toBe(true);
  });
});
