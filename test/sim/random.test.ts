import { describe, expect, it } from 'vitest';
import { max, mean, median, min, standardDeviation } from 'simple-statistics';
import { RandomStream, RandomStreams } from '../../src/sim/random.js';

function draws(stream: RandomStream, n: number, draw: (s: RandomStream) => number = (s) => s.next()): number[] {
  return Array.from({ length: n }, () => draw(stream));
}

describe('RandomStreams: determinism and independence', () => {
  it('pins the first draws of seed 1, stream "arrivals" (a change here changes every summary.json)', () => {
    const stream = new RandomStreams(1).stream('arrivals');
    expect(draws(stream, 3)).toEqual([0.8979596926365048, 0.3328882893547416, 0.38296849792823195]);
  });

  it('the same master seed and name give identical first 1000 draws', () => {
    const a = draws(new RandomStreams(42).stream('arrivals'), 1000);
    const b = draws(new RandomStreams(42).stream('arrivals'), 1000);
    expect(a).toEqual(b);
    expect(new Set(a).size).toBe(1000);
  });

  it('stream(name) returns the same stream object, continuing where it left off', () => {
    const streams = new RandomStreams(7);
    const first = streams.stream('sizes');
    const again = streams.stream('sizes');
    expect(again).toBe(first);
    expect(first.name).toBe('sizes');
    const fresh = draws(new RandomStreams(7).stream('sizes'), 4);
    expect([first.next(), first.next(), again.next(), again.next()]).toEqual(fresh);
  });

  it('different names give different sequences', () => {
    const streams = new RandomStreams(42);
    const a = draws(streams.stream('arrivals'), 1000);
    const b = draws(streams.stream('popularity'), 1000);
    const equalPositions = a.filter((value, i) => value === b[i]).length;
    expect(equalPositions).toBe(0);
  });

  it("stream independence: 'b' draws the same whether or not 'a' was created and drawn from, interleaved", () => {
    const alone = draws(new RandomStreams(2024).stream('b'), 500);

    const streams = new RandomStreams(2024);
    const a = streams.stream('a');
    a.next();
    a.normal();
    const b = streams.stream('b');
    const interleaved: number[] = [];
    for (let i = 0; i < 500; i++) {
      a.next();
      a.exponential(3);
      interleaved.push(b.next());
      a.int(10);
    }
    expect(interleaved).toEqual(alone);
  });

  it('different master seeds give different sequences', () => {
    const one = draws(new RandomStreams(1).stream('arrivals'), 1000);
    const two = draws(new RandomStreams(2).stream('arrivals'), 1000);
    expect(one.filter((value, i) => value === two[i]).length).toBe(0);
  });

  it('next() is uniform in [0, 1): range and mean 0.5 over 200k draws', () => {
    const values = draws(new RandomStreams(3).stream('uniform'), 200_000);
    expect(min(values)).toBeGreaterThanOrEqual(0);
    expect(max(values)).toBeLessThan(1);
    expect(Math.abs(mean(values) - 0.5)).toBeLessThan(0.005);
  });
});

describe('RandomStream distributions', () => {
  it('exponential(rate): sample mean within 2% of 1/rate over 200k draws, all finite and ≥ 0', () => {
    for (const rate of [0.5, 20]) {
      const values = draws(new RandomStreams(11).stream(`exp-${rate}`), 200_000, (s) => s.exponential(rate));
      expect(values.every((v) => Number.isFinite(v) && v >= 0)).toBe(true);
      expect(Math.abs(mean(values) * rate - 1)).toBeLessThan(0.02);
      // Exponential: sd equals the mean.
      expect(Math.abs(standardDeviation(values) * rate - 1)).toBeLessThan(0.02);
    }
  });

  it('normal(): mean within 0.01 of 0 and sd within 0.01 of 1 over 200k draws', () => {
    const values = draws(new RandomStreams(12).stream('normal'), 200_000, (s) => s.normal());
    expect(values.every(Number.isFinite)).toBe(true);
    expect(Math.abs(mean(values))).toBeLessThan(0.01);
    expect(Math.abs(standardDeviation(values) - 1)).toBeLessThan(0.01);
    // About 68.3% of draws within one sd.
    const within1 = values.filter((v) => Math.abs(v) < 1).length / values.length;
    expect(Math.abs(within1 - 0.6827)).toBeLessThan(0.005);
  });

  it('lognormal(median, sigma): sample median within 2% of median over 200k draws', () => {
    for (const [med, sigma] of [
      [32_000, 1],
      [20, 0.35],
    ] as const) {
      const values = draws(new RandomStreams(13).stream(`logn-${med}`), 200_000, (s) => s.lognormal(med, sigma));
      expect(values.every((v) => v > 0 && Number.isFinite(v))).toBe(true);
      expect(Math.abs(median(values) / med - 1)).toBeLessThan(0.02);
      // Mean of a lognormal is median × e^(σ²/2).
      expect(Math.abs(mean(values) / (med * Math.exp((sigma * sigma) / 2)) - 1)).toBeLessThan(0.02);
    }
  });

  it('lognormal(median, 0) is exactly the median and draws nothing', () => {
    const stream = new RandomStreams(14).stream('fixed');
    expect(stream.lognormal(123.5, 0)).toBe(123.5);
    expect(stream.lognormal(123.5, 0)).toBe(123.5);
    expect(stream.next()).toBe(new RandomStreams(14).stream('fixed').next());
  });

  it('int(n): always an integer in [0, n), each of 10 buckets within 3% of expected over 100k draws, chi-square < 27.88 (df 9, p 0.001)', () => {
    const n = 10;
    const total = 100_000;
    const counts = new Array<number>(n).fill(0);
    const stream = new RandomStreams(15).stream('int');
    let outOfRange = 0;
    for (let i = 0; i < total; i++) {
      const value = stream.int(n);
      if (!(Number.isInteger(value) && value >= 0 && value < n)) outOfRange++;
      else counts[value]++;
    }
    expect(outOfRange).toBe(0);
    const expected = total / n;
    for (const count of counts) expect(Math.abs(count - expected) / expected).toBeLessThan(0.03);
    const chiSquare = counts.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
    expect(chiSquare).toBeLessThan(27.88);
  });

  it('int(1) is always 0', () => {
    const stream = new RandomStreams(16).stream('one');
    expect(draws(stream, 100, (s) => s.int(1))).toEqual(new Array(100).fill(0));
  });
});
