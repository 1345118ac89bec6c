import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chiSquaredDistributionTable, mean, standardDeviation } from 'simple-statistics';
import { defaultDiurnal, flatDiurnal, hourlyDiurnal, integrateDiurnal, peakTroughDiurnal, weeklyMultipliers, type DiurnalCurve } from '../../../src/workload/arrivals/diurnal.js';
import { MS_PER_DAY, MS_PER_HOUR, MS_PER_MINUTE, localDayOfWeek, localWeekPositionAtStart } from '../../../src/workload/arrivals/localTime.js';
import { RateShape, buildWeeklyRateTable, growthPerMs, type FlashWindow } from '../../../src/workload/arrivals/rateShape.js';
import { ThinnedPoissonArrivals } from '../../../src/workload/arrivals/thinnedPoisson.js';
import { RandomStreams, type RandomStream } from '../../../src/sim/random.js';

const MONDAY = Date.parse('2026-01-05T00:00:00Z');

interface ShapeOptions {
  curve?: DiurnalCurve;
  weekly?: number[];
  utcOffsetHours?: number;
  /** Growth per 30 days, as a fraction. */
  growth?: number;
  window?: FlashWindow | null;
}

function shapeFor(options: ShapeOptions = {}): RateShape {
  const table = buildWeeklyRateTable(options.curve ?? defaultDiurnal(), weeklyMultipliers(options.weekly));
  return new RateShape(table, localWeekPositionAtStart(MONDAY, options.utcOffsetHours ?? 0), growthPerMs(options.growth ?? 0, 30 * MS_PER_DAY), options.window ?? null);
}

function streamFor(seed: number, name: string): RandomStream {
  return new RandomStreams(seed).stream(name);
}

/** Calls `visit` with every arrival in [fromMs, toMs), without keeping them. */
function forEachArrival(generator: ThinnedPoissonArrivals, stream: RandomStream, fromMs: number, toMs: number, visit: (t: number) => void): void {
  for (let t = generator.next(fromMs, stream); t < toMs; t = generator.next(t, stream)) visit(t);
}

function arrivalsIn(generator: ThinnedPoissonArrivals, stream: RandomStream, fromMs: number, toMs: number): number[] {
  const times: number[] = [];
  forEachArrival(generator, stream, fromMs, toMs, (t) => times.push(t));
  return times;
}

/** Pearson's statistic Σ (observed − expected)² / expected. */
function chiSquare(observed: readonly number[], expected: readonly number[]): number {
  return observed.reduce((sum, o, i) => sum + (o - expected[i]) ** 2 / expected[i], 0);
}

describe('a flat shape is a homogeneous Poisson process', () => {
  it('1000/s for 100 s: 100,000 arrivals within 3σ (±949), gaps exponential: mean 1 ms within 2 %, coefficient of variation within 0.03 of 1', () => {
    const generator = new ThinnedPoissonArrivals(1000, shapeFor({ curve: flatDiurnal() }));
    const times = arrivalsIn(generator, streamFor(1, 'flat'), 0, 100_000);
    expect(Math.abs(times.length - 100_000)).toBeLessThan(3 * Math.sqrt(100_000));
    const gaps = times.map((t, i) => t - (i === 0 ? 0 : times[i - 1]));
    expect(Math.abs(mean(gaps) - 1)).toBeLessThan(0.02);
    expect(Math.abs(standardDeviation(gaps) / mean(gaps) - 1)).toBeLessThan(0.03);
    // A flat table and no growth: every candidate is kept.
    expect(generator.candidates).toBe(generator.arrivals);
  });
});

describe('diurnal shape: 28 simulated days at a mean 2/s in UTC+0 (default curve: peak 21:00, trough 04:30, ratio 2.5)', () => {
  const curve = defaultDiurnal();
  const generator = new ThinnedPoissonArrivals(2, shapeFor({ curve }));
  const days = 28;
  const perHour = new Array<number>(24).fill(0);
  forEachArrival(generator, streamFor(7, 'diurnal'), 0, days * MS_PER_DAY, (t) => {
    perHour[Math.floor((t % MS_PER_DAY) / MS_PER_HOUR)]++;
  });
  // Expected per local hour from the curve itself: rate × days × ∫ curve over the hour (in s).
  const expected = perHour.map((_, h) => 2 * 3600 * days * integrateDiurnal(curve, h, h + 1));
  const total = perHour.reduce((a, b) => a + b, 0);

  it('total count (≈ 4.84 M) matches the integrated rate within 3σ of a Poisson count (±6,600)', () => {
    const expectedTotal = generator.expectedCount(0, days * MS_PER_DAY);
    expect(expectedTotal).toBeCloseTo(2 * 86_400 * days, 3);
    expect(Math.abs(total - expectedTotal)).toBeLessThan(3 * Math.sqrt(expectedTotal));
  });

  it('counts per local hour fit the curve: χ² over 24 hours below 45.56 (df 24, p = 0.005, from simple-statistics\' table)', () => {
    const critical = chiSquaredDistributionTable[24][0.005];
    expect(critical).toBe(45.56);
    expect(chiSquare(perHour, expected)).toBeLessThan(critical);
  });

  it('every hour is within 4σ of its expected count (≈ 0.2–0.3 % each; 4σ keeps 24 bins\' false alarms < 0.2 %)', () => {
    perHour.forEach((observed, h) => expect(Math.abs(observed - expected[h])).toBeLessThan(4 * Math.sqrt(expected[h])));
  });

  it('the busiest hour is 20:00–21:00 and the quietest 04:00–05:00; their ratio matches the curve\'s within 3σ (≈ ±0.011)', () => {
    expect(perHour.indexOf(Math.max(...perHour))).toBe(20);
    expect(perHour.indexOf(Math.min(...perHour))).toBe(4);
    const expectedRatio = expected[20] / expected[4];
    expect(expectedRatio).toBeGreaterThan(2.45); // hour means: slightly under the 2.5 of the extremes
    const sigma = expectedRatio * Math.sqrt(1 / expected[20] + 1 / expected[4]);
    expect(Math.abs(perHour[20] / perHour[4] - expectedRatio)).toBeLessThan(3 * sigma);
  });
});

describe('time zones and weekdays', () => {
  it('UTC+9 and UTC−5 groups peak at different UTC hours (11:00 and 01:00 UTC = 20:00 local); weekday weights [1,1,1,1,1,0.5,0.5] fit by χ² (df 7)', () => {
    const weekly = [1, 1, 1, 1, 1, 0.5, 0.5];
    const days = 14;
    for (const [offset, busiestUtcHour] of [[9, 11], [-5, 1]] as const) {
      const generator = new ThinnedPoissonArrivals(1, shapeFor({ utcOffsetHours: offset, weekly }));
      const perUtcHour = new Array<number>(24).fill(0);
      const perWeekday = new Array<number>(7).fill(0);
      forEachArrival(generator, streamFor(3, `tz${offset}`), 0, days * MS_PER_DAY, (t) => {
        perUtcHour[Math.floor((t % MS_PER_DAY) / MS_PER_HOUR)]++;
        perWeekday[localDayOfWeek(t, MONDAY, offset)]++;
      });
      expect(perUtcHour.indexOf(Math.max(...perUtcHour))).toBe(busiestUtcHour);
      // Expected per local weekday: the runs cover each weekday twice (14 days), but the
      // first and last local days are cut by the offset, so take the exact integrals.
      const expectedPerWeekday = new Array<number>(7).fill(0);
      for (let hour = 0; hour < days * 24; hour++) {
        const from = hour * MS_PER_HOUR;
        expectedPerWeekday[localDayOfWeek(from, MONDAY, offset)] += generator.expectedCount(from, from + MS_PER_HOUR);
      }
      expect(chiSquare(perWeekday, expectedPerWeekday)).toBeLessThan(chiSquaredDistributionTable[7][0.005]);
      // Saturday carries about half of a weekday (weights normalised: 0.5/6 ÷ 1/6 of the total).
      const weekdayMean = mean(perWeekday.slice(1, 5));
      expect(Math.abs(perWeekday[5] / weekdayMean - 0.5)).toBeLessThan(0.03);
    }
  });
});

describe('flash crowds', () => {
  const start = 2 * MS_PER_HOUR;
  const end = 2.5 * MS_PER_HOUR;

  it('×8 for 30 min from 2h (a step): all crowd arrivals fall in the window and number 7 × the everyday count expected there, within 3σ', () => {
    const everyday = new ThinnedPoissonArrivals(20, shapeFor());
    const crowd = new ThinnedPoissonArrivals(20, shapeFor({ window: { startMs: start, endMs: end, rampUpMs: 0, rampDownMs: 0, height: 7 } }));
    const times = arrivalsIn(crowd, streamFor(11, 'crowd'), 0, MS_PER_DAY);
    expect(times.every((t) => t >= start && t <= end)).toBe(true);
    const expectedExtra = 7 * everyday.expectedCount(start, end);
    expect(expectedExtra).toBeCloseTo(crowd.expectedCount(0, MS_PER_DAY), 6);
    // 7 × 20/s × 3600 s × ∫ curve over 02:00–02:30 (0.749 × 0.5 h) ≈ 188,600.
    expect(expectedExtra / (7 * 20 * 3600 * integrateDiurnal(defaultDiurnal(), 2, 2.5)) - 1).toBeCloseTo(0, 12);
    expect(Math.round(expectedExtra / 100) * 100).toBe(188_600);
    expect(Math.abs(times.length - expectedExtra)).toBeLessThan(3 * Math.sqrt(expectedExtra));
    // The crowd is over: no arrival after it.
    expect(crowd.next(end, streamFor(11, 'after'))).toBe(Infinity);
    // From before the window the next arrival is at or after its start.
    expect(crowd.next(0, streamFor(11, 'before'))).toBeGreaterThanOrEqual(start);
  });

  it('with a 5 min linear ramp up and 10 min down: counts in the ramp-up, plateau and ramp-down each match their integrals within 3σ', () => {
    const window: FlashWindow = { startMs: start, endMs: end, rampUpMs: 5 * MS_PER_MINUTE, rampDownMs: 10 * MS_PER_MINUTE, height: 7 };
    const crowd = new ThinnedPoissonArrivals(20, shapeFor({ window }));
    const times = arrivalsIn(crowd, streamFor(12, 'ramped'), 0, MS_PER_DAY);
    const phases: Array<[number, number]> = [
      [start, start + window.rampUpMs],
      [start + window.rampUpMs, end - window.rampDownMs],
      [end - window.rampDownMs, end],
    ];
    for (const [from, to] of phases) {
      const observed = times.filter((t) => t >= from && t < to).length;
      const expected = crowd.expectedCount(from, to);
      expect(Math.abs(observed - expected)).toBeLessThan(3 * Math.sqrt(expected));
    }
    // A ramp averages half the plateau rate: the 5-min ramp-up expects ≈ 2.5 min of full crowd.
    const plateauPerMs = crowd.expectedCount(phases[1][0], phases[1][1]) / (phases[1][1] - phases[1][0]);
    expect(crowd.expectedCount(...phases[0]) / (plateauPerMs * 2.5 * MS_PER_MINUTE)).toBeCloseTo(1, 1);
    expect(crowd.candidates).toBeGreaterThan(crowd.arrivals); // the ramps are thinned
  });

  it('a crowd of multiplier 1 and a zero rate never arrive; NaN or a negative now is refused', () => {
    expect(() => new ThinnedPoissonArrivals(20, shapeFor()).next(Number.NaN, streamFor(1, 'nan'))).toThrow(RangeError);
    expect(() => new ThinnedPoissonArrivals(20, shapeFor()).next(-1, streamFor(1, 'negative'))).toThrow(RangeError);
    const none = new ThinnedPoissonArrivals(20, shapeFor({ window: { startMs: start, endMs: end, rampUpMs: 0, rampDownMs: 0, height: 0 } }));
    expect(none.next(0, streamFor(1, 'none'))).toBe(Infinity);
    expect(new ThinnedPoissonArrivals(0, shapeFor()).next(0, streamFor(1, 'zero'))).toBe(Infinity);
  });
});

describe('growth', () => {
  it('10 % per 30 days at 10/s: day 60 over day 0 expects exactly 1.21 (1e-9) and observes it within 3σ (±0.0053); thinning rejects < 1e-5', () => {
    const generator = new ThinnedPoissonArrivals(10, shapeFor({ growth: 0.1 }));
    const stream = streamFor(5, 'growth');
    const firstDay = arrivalsIn(generator, stream, 0, MS_PER_DAY).length;
    const lastDay = arrivalsIn(generator, stream, 60 * MS_PER_DAY, 61 * MS_PER_DAY).length;
    const e0 = generator.expectedCount(0, MS_PER_DAY);
    const e60 = generator.expectedCount(60 * MS_PER_DAY, 61 * MS_PER_DAY);
    expect(Math.abs(e60 / e0 - 1.21)).toBeLessThan(1e-9);
    const sigma = 1.21 * Math.sqrt(1 / e0 + 1 / e60);
    expect(3 * sigma).toBeLessThan(0.0054);
    expect(Math.abs(lastDay / firstDay - 1.21)).toBeLessThan(3 * sigma);
    expect((generator.candidates - generator.arrivals) / generator.candidates).toBeLessThan(1e-5);
  });
});

describe('determinism', () => {
  const generator = new ThinnedPoissonArrivals(500, shapeFor({ growth: 0.2, window: { startMs: 1000, endMs: 40_000, rampUpMs: 5000, rampDownMs: 5000, height: 3 } }));

  it('the same seed and stream name give identical arrival times; another name or seed gives others', () => {
    const first = arrivalsIn(generator, streamFor(42, 'workload.arrivals.Europe.utc+1'), 0, 60_000);
    const again = arrivalsIn(generator, streamFor(42, 'workload.arrivals.Europe.utc+1'), 0, 60_000);
    expect(first.length).toBeGreaterThan(10_000);
    expect(again).toEqual(first);
    const otherName = arrivalsIn(generator, streamFor(42, 'workload.arrivals.Europe.utc+2'), 0, 60_000);
    const otherSeed = arrivalsIn(generator, streamFor(43, 'workload.arrivals.Europe.utc+1'), 0, 60_000);
    expect(otherName.slice(0, 10)).not.toEqual(first.slice(0, 10));
    expect(otherSeed.slice(0, 10)).not.toEqual(first.slice(0, 10));
  });
});

describe('no growth and no crowd: the piecewise-constant path (issue 27) gives the thinning routine\'s times to the bit', () => {
  // Pinned from the build before the path existed (every such process then ran the whole
  // thinning routine); UTC+9 from Monday 00:00 UTC, seed 7. The flat curve's table holds
  // values a rounding off 1 (the baseline's case), so it takes this path, not the constant one.
  const cases = [
    { name: 'default curve, 1000/s for 10 min', curve: defaultDiurnal(), rate: 1000, untilMs: 10 * MS_PER_MINUTE, count: 434_859, sum: 130487682401.30988, picks: [0.6223601403187843, 1363.6560323901736, 13864.64716252765] },
    { name: 'flat curve, 1000/s for 10 min', curve: flatDiurnal(), rate: 1000, untilMs: 10 * MS_PER_MINUTE, count: 599_914, sum: 179689721725.8925, picks: [0.4480120329729888, 981.6411298995923, 9980.601840207057] },
    { name: 'default curve, 0.05/s for 3 days (most gaps cross several 1-minute cells)', curve: defaultDiurnal(), rate: 0.05, untilMs: 3 * MS_PER_DAY, count: 12_980, sum: 1634114134286.4956, picks: [12447.202806375686, 20985290.343462072, 199653078.12376156] },
  ];
  for (const c of cases) {
    it(`${c.name}: ${c.count} arrivals, the 1st, 1,000th and 10,000th and the sum of all as before`, () => {
      const generator = new ThinnedPoissonArrivals(c.rate, shapeFor({ curve: c.curve, utcOffsetHours: 9 }));
      const stream = streamFor(7, 'workload.arrivals.Asia-Pacific.utc+9');
      let count = 0;
      let sum = 0;
      const picks: number[] = [];
      forEachArrival(generator, stream, 0, c.untilMs, (t) => {
        count++;
        sum += t;
        if (count === 1 || count === 1000 || count === 10_000) picks.push(t);
      });
      expect(count).toBe(c.count);
      expect(sum).toBe(c.sum);
      expect(picks).toEqual(c.picks);
      // One candidate per arrival (the one past the end included): nothing is thinned away.
      expect(generator.candidates).toBe(c.count + 1);
      expect(generator.arrivals).toBe(c.count + 1);
    });
  }
});

describe('property: arrivals never go back in time', () => {
  it('for random curves, offsets, growth, crowds and start times: arrivals are non-decreasing, never before now, and a crowd\'s lie in its window', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.record({ peakHour: fc.double({ min: 0, max: 23.99, noNaN: true }), ratio: fc.double({ min: 1, max: 20, noNaN: true }) }),
          fc.array(fc.oneof(fc.constant(0), fc.double({ min: 0, max: 10, noNaN: true })), { minLength: 24, maxLength: 24 }),
        ),
        fc.integer({ min: -12, max: 14 }),
        fc.double({ min: -0.9, max: 5, noNaN: true }),
        fc.option(
          fc.record({
            start: fc.double({ min: 0, max: 3 * MS_PER_DAY, noNaN: true }),
            duration: fc.double({ min: 1, max: MS_PER_DAY, noNaN: true }),
            up: fc.double({ min: 0, max: 0.5, noNaN: true }),
            down: fc.double({ min: 0, max: 0.5, noNaN: true }),
            multiplier: fc.double({ min: 1.01, max: 20, noNaN: true }),
          }),
          { nil: null },
        ),
        fc.double({ min: 0, max: 10 * MS_PER_DAY, noNaN: true }),
        fc.double({ min: 0.001, max: 5000, noNaN: true }),
        fc.integer({ min: 0, max: 1000 }),
        (diurnal, offset, growth, w, now, rate, seed) => {
          const curve = Array.isArray(diurnal)
            ? diurnal.some((x) => x > 0)
              ? hourlyDiurnal(diurnal)
              : flatDiurnal()
            : peakTroughDiurnal({ peakHour: diurnal.peakHour, troughHour: (diurnal.peakHour + 6) % 24, peakToTrough: diurnal.ratio });
          const window: FlashWindow | null =
            w === null ? null : { startMs: w.start, endMs: w.start + w.duration, rampUpMs: w.duration * w.up, rampDownMs: w.duration * w.down, height: w.multiplier - 1 };
          const generator = new ThinnedPoissonArrivals(rate, shapeFor({ curve, utcOffsetHours: offset, growth, window }));
          const stream = streamFor(seed, 'property');
          let previous = now;
          for (let i = 0; i < 50; i++) {
            const t = generator.next(previous, stream);
            if (t === Infinity) break;
            if (!(t >= previous)) return false;
            if (window !== null && !(t >= window.startMs && t <= window.endMs)) return false;
            previous = t;
          }
          return true;
        },
      ),
      { numRuns: 300, seed: 20260105 },
    );
  });
});
