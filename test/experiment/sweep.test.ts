import fc from 'fast-check';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSweepParam, readScenarioData, scenarioWithParams } from '../../src/experiment/scenarioParams.js';
import { gridPoints, parseShard, shardPointIndexes } from '../../src/experiment/sweepGrid.js';
import { estimate, studentT975 } from '../../src/experiment/sweepStats.js';
import { parseTarget, seekMaximum, seekMinimum, valueScale } from '../../src/experiment/targetSeek.js';
import { UserError } from '../../src/userError.js';

const SMALL = join(import.meta.dirname, '../fixtures/sweep-small.yaml');

describe('sweep grid and shards', () => {
  const params = [parseSweepParam('edge.capacity=1GB,10GB'), parseSweepParam('traffic.rate=10k/s,50k/s,100k/s')];

  it('the grid is the cartesian product, first --param slowest', () => {
    expect(gridPoints(params).map((point) => point.map(([, value]) => value).join(' '))).toEqual([
      '1GB 10k/s',
      '1GB 50k/s',
      '1GB 100k/s',
      '10GB 10k/s',
      '10GB 50k/s',
      '10GB 100k/s',
    ]);
  });

  it('shards i/N partition the points: every point in exactly one shard, for any grid size and N', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 1, max: 20 }), (points, count) => {
        const all = Array.from({ length: count }, (_, index) => shardPointIndexes(points, { index, count })).flat().sort((a, b) => a - b);
        expect(all).toEqual(Array.from({ length: points }, (_, i) => i));
      }),
    );
  });

  it('--shard: 0/4 and 3/4 are slices; 4/4, 1/0 and 1-4 are refused', () => {
    expect(parseShard('0/4')).toEqual({ index: 0, count: 4 });
    expect(parseShard(' 3 / 4 ')).toEqual({ index: 3, count: 4 });
    for (const bad of ['4/4', '1/0', '1-4', '', 'a/b']) expect(() => parseShard(bad)).toThrow(/--shard: expected i\/N with 0 ≤ i < N/);
  });
});

describe('--param PATH=v1,v2,… (values parsed by the scenario schema)', () => {
  it('parses path and values; content.classes[0].share and content.classes.0.share are the same path', () => {
    expect(parseSweepParam('edge.capacity=1GB, 10GB')).toMatchObject({ path: 'edge.capacity', segments: ['edge', 'capacity'], values: ['1GB', '10GB'] });
    expect(parseSweepParam('content.classes[0].share=10%').segments).toEqual(['content', 'classes', 0, 'share']);
    expect(parseSweepParam('content.classes.0.share=10%').segments).toEqual(['content', 'classes', 0, 'share']);
  });

  it('property: any dotted path of identifiers with any distinct comma-free values round-trips', () => {
    const identifier = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/);
    const value = fc.stringMatching(/^[A-Za-z0-9.%/:_-]{1,10}$/);
    fc.assert(
      fc.property(fc.array(identifier, { minLength: 1, maxLength: 4 }), fc.uniqueArray(value, { minLength: 1, maxLength: 5 }), (keys, values) => {
        const param = parseSweepParam(`${keys.join('.')}=${values.join(',')}`);
        expect(param.segments).toEqual(keys);
        expect(param.values).toEqual(values);
      }),
    );
  });

  it('property: malformed flags are user errors, never anything else', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (text) => {
        try {
          parseSweepParam(text);
        } catch (error) {
          expect(error).toBeInstanceOf(UserError);
          expect((error as Error).message).toMatch(/^--param/);
        }
      }),
    );
  });

  it('a missing =, an empty value and a repeated value are refused', () => {
    expect(() => parseSweepParam('edge.capacity')).toThrow(/expected PATH=v1,v2/);
    expect(() => parseSweepParam('edge.capacity=1GB,,2GB')).toThrow(/empty value/);
    expect(() => parseSweepParam('edge.capacity=1GB,1GB')).toThrow(/each value once/);
  });

  it('values mean what they mean in the file: 1GB is 1e9 bytes, 4k/s 4000 a second, 0.9 a number, false a boolean', () => {
    const data = readScenarioData(SMALL);
    const params = ['edge.capacity=1GB', 'traffic.rate=4k/s', 'content.zipfExponent=0.9', 'cdn.coalescing=false'].map((text) => parseSweepParam(text));
    const scenario = scenarioWithParams(SMALL, data, params, params.map((param) => [param.path, param.values[0]]));
    expect(scenario.edge.capacity).toBe(1e9);
    expect(scenario.traffic.rate).toBe(4000);
    expect(scenario.content.zipfExponent).toBe(0.9);
    expect(scenario.cdn.coalescing).toBe(false);
  });

  it('a bad path is the schema\'s unknown-key error with its suggestion; a bad value the schema\'s expectation', () => {
    const data = readScenarioData(SMALL);
    expect(() => scenarioWithParams(SMALL, data, [], [['edge.capacty', '1GB']])).toThrow(/--param edge\.capacty=1GB in .*sweep-small\.yaml: `edge\.capacty`: unknown key — did you mean `capacity`\?/);
    expect(() => scenarioWithParams(SMALL, data, [], [['edge.capacity', '1XB']])).toThrow(/`edge\.capacity`: expected a size such as 5MB.*found "1XB"/);
    expect(() => scenarioWithParams(SMALL, data, [], [['seed.x', '1']])).toThrow(/`seed` is a value, not a mapping/);
  });
});

describe('95 % confidence intervals (Student\'s t over replicates)', () => {
  it('t(0.975) is 12.706 for 1 degree of freedom, 2.042 for 30, and 1.96 + 2.37/df beyond (2.0 for 60: table 2.000)', () => {
    expect(studentT975(1)).toBe(12.706);
    expect(studentT975(30)).toBe(2.042);
    expect(studentT975(60)).toBeCloseTo(2.0, 2);
    expect(studentT975(1000)).toBeCloseTo(1.962, 3);
  });

  it('samples 1, 2, 3: mean 2, s = 1, half-width 4.303/√3 = 2.484', () => {
    const result = estimate([1, 2, 3]);
    expect(result.mean).toBe(2);
    expect(result.ci95Low).toBeCloseTo(2 - 4.303 / Math.sqrt(3), 9);
    expect(result.ci95High).toBeCloseTo(2 + 4.303 / Math.sqrt(3), 9);
    expect(result.n).toBe(3);
  });

  it('one replicate: the interval is the value; equal samples: zero width', () => {
    expect(estimate([0.7])).toEqual({ mean: 0.7, ci95Low: 0.7, ci95High: 0.7, n: 1 });
    expect(estimate([0.5, 0.5, 0.5])).toEqual({ mean: 0.5, ci95Low: 0.5, ci95High: 0.5, n: 3 });
  });
});

describe('target seeking by bisection (--target … --minimize …)', () => {
  const exact = (value: number) => ({ mean: value, ci95Low: value, ci95High: value, n: 1 });

  it('on a monotone toy function (the figure is the value / 1000) finds the smallest value ≥ 0.95 within the tolerance', async () => {
    const evaluated: number[] = [];
    const result = await seekMinimum(1, 10_000, parseTarget('hitRatio.cdn>=0.95'), async (values) => {
      evaluated.push(...values);
      return values.map((value) => exact(value / 1000));
    }, { tolerance: 0.01, maxProbes: 40, round: Math.round });
    expect(result.found?.value).toBeGreaterThanOrEqual(950);
    expect(result.found?.value).toBeLessThanOrEqual(950 * 1.01 + 1);
    expect(result.below?.value).toBeLessThan(950);
    // Geometric bisection: about log2(ln(10^4)/ln(1.01)) ≈ 10 midpoints after the two ends.
    expect(evaluated.length).toBeLessThanOrEqual(14);
  });

  it('a figure that must stay below a bound (latencyMs.all.p95<=50) on a decreasing toy function', async () => {
    const result = await seekMinimum(0, 100, parseTarget('latencyMs.all.p95<=50'), async (values) => values.map((value) => exact(100 - value)), { tolerance: 0.001, maxProbes: 60, round: (v: number) => v });
    expect(result.found?.value).toBeCloseTo(50, 1);
  });

  it('an upper end that does not meet the target finds nothing; a lower end that meets it is the answer', async () => {
    const target = parseTarget('hitRatio.cdn>=0.95');
    expect((await seekMinimum(1, 10, target, async (values) => values.map((v) => exact(v / 100)), { tolerance: 0.01, maxProbes: 10, round: (v: number) => v })).found).toBeUndefined();
    expect((await seekMinimum(1, 10, target, async (values) => values.map(() => exact(1)), { tolerance: 0.01, maxProbes: 10, round: (v: number) => v })).found?.value).toBe(1);
  });

  it('--maximize on a monotone toy load (the busiest PoP\'s uplink share is rate / 125,000): the largest rate with a share ≤ 0.8 is 100,000/s within the tolerance', async () => {
    const evaluated: number[] = [];
    const result = await seekMaximum(1_000, 1_000_000, parseTarget('capacity.pops.maxUplinkShare1s<=0.8'), async (values) => {
      evaluated.push(...values);
      return values.map((rate) => exact(rate / 125_000));
    }, { tolerance: 0.01, maxProbes: 40, round: Math.round });
    // 0.8 × 125,000 = 100,000: the answer meets it, the smallest value tried above it does not, and they are within 1 %.
    expect(result.found?.value).toBeLessThanOrEqual(100_000);
    expect(result.found?.value).toBeGreaterThanOrEqual(100_000 / 1.01 - 1);
    expect(result.above?.value).toBeGreaterThan(100_000);
    expect((result.above?.value ?? 0) / (result.found?.value ?? 1)).toBeLessThanOrEqual(1.01);
    // Geometric bisection over three decades: about log2(ln(1000)/ln(1.01)) ≈ 10 midpoints after the two ends.
    expect(evaluated.slice(0, 2)).toEqual([1_000, 1_000_000]);
    expect(evaluated.length).toBeLessThanOrEqual(14);
  });

  it('--maximize: a lower end already past the bound finds nothing; an upper end within it is the answer; a figure that moves the other way is a user error naming --minimize', async () => {
    const target = parseTarget('capacity.origin.peakRequestsPerSecond1s<=100');
    const options = { tolerance: 0.01, maxProbes: 10, round: (v: number) => v, format: (v: number) => `${v}/s` };
    const none = await seekMaximum(200, 400, target, async (values) => values.map((v) => exact(v)), options);
    expect(none.found).toBeUndefined();
    expect(none.above?.value).toBe(200);
    expect((await seekMaximum(10, 50, target, async (values) => values.map((v) => exact(v)), options)).found?.value).toBe(50);
    await expect(seekMaximum(10, 1_000, target, async (values) => values.map((v) => exact(10_000 / v)), options)).rejects.toThrow(
      '--maximize: capacity.origin.peakRequestsPerSecond1s<=100 is met at 1000/s (capacity.origin.peakRequestsPerSecond1s 10) but not at 10/s (1000): the figure moves the other way in this parameter, so the largest value is not what to ask; use --minimize for the smallest value meeting it',
    );
    // The mirror: --minimize on a figure that falls below the bound as the value grows.
    await expect(seekMinimum(1, 10, parseTarget('hitRatio.cdn>=0.5'), async (values) => values.map((v) => exact(1 / v)), options)).rejects.toThrow(/--minimize: .* use --maximize for the largest value meeting it/);
  });

  it('--target parses FIGURE OP NUMBER (and a percentage); --minimize reads the scale of its two ends', () => {
    expect(parseTarget('hitRatio.cdn>=95%')).toMatchObject({ figure: 'hitRatio.cdn', comparison: '>=', value: 0.95 });
    expect(() => parseTarget('hitRatio.cdn=>0.95')).toThrow(/--target: expected FIGURE OP NUMBER/);
    const size = valueScale('edge.capacity', ['100MB', '10GB']);
    expect(size.kind).toBe('size');
    // A midpoint is written as the schema reads it back, to four significant digits.
    expect(size.format(size.round(286_602_514))).toBe('286.6MB');
    expect(size.parse(size.format(size.round(286_602_514)))).toBe(286_600_000);
    expect(size.format(size.round(3_162_277_660))).toBe('3.162GB');
    expect(valueScale('traffic.rate', ['10k/s', '100k/s']).kind).toBe('rate');
    expect(valueScale('run.duration', ['1m', '1h']).kind).toBe('duration');
    expect(valueScale('content.objects', ['1000', '100000']).kind).toBe('integer');
    expect(() => valueScale('edge.policy', ['lru', 'arc'])).toThrow(/--minimize edge\.policy: expected numeric values/);
    expect(() => valueScale('edge.policy', ['lru', 'arc'], 'maximize')).toThrow(/--maximize edge\.policy: expected numeric values/);
  });
});
