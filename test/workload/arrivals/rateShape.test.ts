import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { max, mean, sum } from 'simple-statistics';
import { defaultDiurnal, flatDiurnal, integrateDiurnal, peakTroughDiurnal, weeklyMultipliers } from '../../../src/workload/arrivals/diurnal.js';
import { MS_PER_DAY, MS_PER_HOUR, MS_PER_MINUTE, MS_PER_WEEK, groupPlacesByTimeZone, localWeekPositionAtStart } from '../../../src/workload/arrivals/localTime.js';
import { RateShape, buildWeeklyRateTable, growthPerMs, planArrivalStreams, type FlashWindow } from '../../../src/workload/arrivals/rateShape.js';
import { arrivalShapeSchema } from '../../../src/workload/arrivals/arrivalsSchema.js';
import { buildClientPlaces, DEFAULT_DEMAND_SHARES, loadClientCities } from '../../../src/topology/clients.js';
import { REGIONS } from '../../../src/topology/regions.js';

const MONDAY = Date.parse('2026-01-05T00:00:00Z');
const defaultTable = buildWeeklyRateTable(defaultDiurnal(), weeklyMultipliers());
const flatTable = buildWeeklyRateTable(flatDiurnal(), weeklyMultipliers());

/** Midpoint rule over [a, b] with `steps` steps. */
function riemann(shape: RateShape, a: number, b: number, steps: number): number {
  const h = (b - a) / steps;
  let total = 0;
  for (let i = 0; i < steps; i++) total += shape.multiplierAt(a + (i + 0.5) * h);
  return total * h;
}

describe('weekly rate table (diurnal × weekday per local minute)', () => {
  it('has 10,080 one-minute cells with mean 1 over the week (to 1e-12)', () => {
    expect(defaultTable.values.length).toBe(10_080);
    expect(defaultTable.cellMs).toBe(MS_PER_MINUTE);
    expect(Math.abs(mean(Array.from(defaultTable.values)) - 1)).toBeLessThan(1e-12);
  });

  it('each hour of cells integrates to the curve over that hour (to 1e-12 hours): the table is exact cell averages, not samples', () => {
    const curve = defaultDiurnal();
    for (let hour = 0; hour < 24; hour++) {
      const cells = Array.from(defaultTable.values.subarray(hour * 60, hour * 60 + 60));
      expect(Math.abs(sum(cells) / 60 - integrateDiurnal(curve, hour, hour + 1))).toBeLessThan(1e-12);
    }
    // The busiest cell is the minute either side of 21:00, within 1e-4 of the peak 1.428571.
    const peakCell = Array.from(defaultTable.values).indexOf(defaultTable.max);
    expect([20 * 60 + 59, 21 * 60]).toContain(peakCell);
    expect(defaultTable.max).toBeCloseTo(1 + 1.5 / 3.5, 4);
  });

  it('weekday weights [1, 1, 1, 1, 1, 0.5, 0.5] make Saturday cells half of Monday\'s, and the week still averages 1', () => {
    const table = buildWeeklyRateTable(defaultDiurnal(), weeklyMultipliers([1, 1, 1, 1, 1, 0.5, 0.5]));
    const monday = Array.from(table.values.subarray(0, 1440));
    const saturday = Array.from(table.values.subarray(5 * 1440, 6 * 1440));
    saturday.forEach((v, i) => expect(v / monday[i]).toBeCloseTo(0.5, 12));
    expect(Math.abs(mean(Array.from(table.values)) - 1)).toBeLessThan(1e-12);
  });

  it('rejects a cell length that does not divide a day', () => {
    expect(() => buildWeeklyRateTable(defaultDiurnal(), weeklyMultipliers(), 7 * MS_PER_MINUTE)).toThrow(RangeError);
  });
});

describe('rate shape of a time-zone group', () => {
  it('UTC+9 from Monday 00:00 UTC: 12 h into the run is local 21:00, the table\'s Monday 21:00 cell', () => {
    const shape = new RateShape(defaultTable, localWeekPositionAtStart(MONDAY, 9), 0, null);
    expect(shape.multiplierAt(12 * MS_PER_HOUR)).toBe(defaultTable.values[21 * 60]);
    expect(shape.multiplierAt(0)).toBe(defaultTable.values[9 * 60]);
  });

  it('integral over a whole week is one week of ms (mean 1, to 1e-12 relative), at any offset and start', () => {
    for (const offset of [-5, 0, 9]) {
      const shape = new RateShape(defaultTable, localWeekPositionAtStart(MONDAY, offset), 0, null);
      expect(Math.abs(shape.integral(0, MS_PER_WEEK) / MS_PER_WEEK - 1)).toBeLessThan(1e-12);
      expect(Math.abs(shape.integral(12_345, 12_345 + MS_PER_WEEK) / MS_PER_WEEK - 1)).toBeLessThan(1e-12);
    }
  });

  it('growth 10% per 30 days compounds: ×1.1 after 30 days, ×1.21 after 60 (to 1e-12); the first 30 days integrate to 30 d × 0.1/ln 1.1', () => {
    const kappa = growthPerMs(0.1, 30 * MS_PER_DAY);
    const shape = new RateShape(flatTable, 0, kappa, null);
    expect(shape.multiplierAt(30 * MS_PER_DAY)).toBeCloseTo(1.1, 12);
    expect(shape.multiplierAt(60 * MS_PER_DAY)).toBeCloseTo(1.21, 12);
    const expected = (30 * MS_PER_DAY * 0.1) / Math.log(1.1);
    expect(Math.abs(shape.integral(0, 30 * MS_PER_DAY) / expected - 1)).toBeLessThan(1e-12);
  });

  it('a flash crowd ×8 (height 7) over 30 min with 5 min ramps up and 10 min down integrates to 7 × (30 − 7.5) min on a flat table', () => {
    const window: FlashWindow = { startMs: 2 * MS_PER_HOUR, endMs: 2.5 * MS_PER_HOUR, rampUpMs: 5 * MS_PER_MINUTE, rampDownMs: 10 * MS_PER_MINUTE, height: 7 };
    const shape = new RateShape(flatTable, 0, 0, window);
    expect(shape.integral(0, MS_PER_DAY)).toBeCloseTo(7 * 22.5 * MS_PER_MINUTE, 6);
    expect(shape.integral(0, 2 * MS_PER_HOUR)).toBe(0);
    expect(shape.integral(2.5 * MS_PER_HOUR, MS_PER_DAY)).toBe(0);
    expect(shape.multiplierAt(2 * MS_PER_HOUR + 2.5 * MS_PER_MINUTE)).toBeCloseTo(3.5, 12);
    expect(shape.multiplierAt(2.25 * MS_PER_HOUR)).toBeCloseTo(7, 12);
    expect(shape.multiplierAt(2.5 * MS_PER_HOUR)).toBe(0);
  });

  it('integral = a midpoint sum (relative 1e-10) with the default curve, growth 50%/7d, a ramped crowd and an interval not on cell bounds', () => {
    const window: FlashWindow = { startMs: 3.3 * MS_PER_HOUR, endMs: 5.1 * MS_PER_HOUR, rampUpMs: 17 * MS_PER_MINUTE, rampDownMs: 41 * MS_PER_MINUTE, height: 4 };
    const shape = new RateShape(defaultTable, localWeekPositionAtStart(MONDAY, -5), growthPerMs(0.5, 7 * MS_PER_DAY), window);
    const a = 3 * MS_PER_HOUR + 1250;
    const b = 5.5 * MS_PER_HOUR - 750;
    // 250 ms steps meet every cell and ramp boundary, so the midpoint rule is exact on the
    // constant cells and off by ~(κh)² on the exponential and linear pieces.
    expect(Math.abs(shape.integral(a, b) / riemann(shape, a, b, (b - a) / 250) - 1)).toBeLessThan(1e-10);
    // Additive over adjacent intervals.
    const middle = 4.2 * MS_PER_HOUR + 0.25;
    expect(Math.abs((shape.integral(a, middle) + shape.integral(middle, b)) / shape.integral(a, b) - 1)).toBeLessThan(1e-12);
  });

  it('a crowd of multiplier 1 (height 0) is zero everywhere', () => {
    const shape = new RateShape(flatTable, 0, 0, { startMs: 0, endMs: MS_PER_HOUR, rampUpMs: 0, rampDownMs: 0, height: 0 });
    expect(shape.isZero).toBe(true);
  });

  it('property: the multiplier at any t in [a, b] never exceeds upperBound(a, b) — curve, offset, growth and crowd random', () => {
    const windowArb = fc.option(
      fc.record({
        start: fc.double({ min: 0, max: 5 * MS_PER_DAY, noNaN: true }),
        duration: fc.double({ min: 1, max: 2 * MS_PER_DAY, noNaN: true }),
        up: fc.double({ min: 0, max: 0.5, noNaN: true }),
        down: fc.double({ min: 0, max: 0.5, noNaN: true }),
        multiplier: fc.double({ min: 1, max: 50, noNaN: true }),
      }),
      { nil: null },
    );
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 23.99, noNaN: true }),
        fc.double({ min: 1, max: 10, noNaN: true }),
        fc.integer({ min: -12, max: 14 }),
        fc.double({ min: -0.5, max: 2, noNaN: true }),
        windowArb,
        fc.double({ min: 0, max: 10 * MS_PER_DAY, noNaN: true }),
        fc.double({ min: 0, max: 2 * MS_PER_DAY, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (peakHour, ratio, offset, growth, w, a, length, u) => {
          const curve = peakTroughDiurnal({ peakHour, troughHour: (peakHour + 7.5) % 24, peakToTrough: ratio });
          const table = buildWeeklyRateTable(curve, weeklyMultipliers([1, 1.1, 1, 1, 1.2, 0.7, 0.6]));
          const window: FlashWindow | null =
            w === null ? null : { startMs: w.start, endMs: w.start + w.duration, rampUpMs: w.duration * w.up, rampDownMs: w.duration * w.down, height: w.multiplier - 1 };
          const shape = new RateShape(table, localWeekPositionAtStart(MONDAY, offset), growthPerMs(growth, 30 * MS_PER_DAY), window);
          const b = a + length;
          const t = a + u * length;
          return shape.multiplierAt(t) <= shape.upperBound(a, b) * (1 + 1e-12);
        },
      ),
      { numRuns: 500, seed: 20260105 },
    );
  });
});

describe('planArrivalStreams', () => {
  const places = buildClientPlaces(loadClientCities(), DEFAULT_DEMAND_SHARES);
  const groups = groupPlacesByTimeZone(places);
  const shape = arrivalShapeSchema.parse({
    diurnal: 'on',
    flashCrowds: [{ start: '2h', duration: '30m', multiplier: 8, region: 'Europe', objects: { top: 100 } }],
  });
  const plans = planArrivalStreams(shape, 20_000, groups);

  it('one everyday stream per time-zone group, their rates summing to 20,000/s; one crowd stream per European group', () => {
    const everyday = plans.filter((p) => p.flashCrowd === -1);
    expect(everyday.length).toBe(groups.length);
    expect(sum(everyday.map((p) => p.ratePerSecond))).toBeCloseTo(20_000, 6);
    const europe = REGIONS.indexOf('Europe');
    const crowd = plans.filter((p) => p.flashCrowd === 0);
    expect(crowd.length).toBe(groups.filter((g) => g.region === europe).length);
    expect(crowd.every((p) => groups[p.group].region === europe)).toBe(true);
    expect(crowd.every((p) => p.shape.window?.height === 7 && p.shape.window.startMs === 2 * MS_PER_HOUR)).toBe(true);
  });

  it('stream names are unique and stable: adding the crowd leaves the everyday names as they were', () => {
    const names = plans.map((p) => p.streamName);
    expect(new Set(names).size).toBe(names.length);
    const without = planArrivalStreams(arrivalShapeSchema.parse({ diurnal: 'on' }), 20_000, groups).map((p) => p.streamName);
    expect(names.slice(0, without.length)).toEqual(without);
    expect(names).toContain('workload.arrivals.Asia-Pacific.utc+9');
    expect(names).toContain('workload.arrivals.North America.utc-5');
  });

  it('the crowd adds (8 − 1) × Europe\'s expected everyday count over its window (to 1e-9 relative)', () => {
    const europe = REGIONS.indexOf('Europe');
    const window: [number, number] = [2 * MS_PER_HOUR, 2.5 * MS_PER_HOUR];
    const expected = (p: (typeof plans)[number]) => (p.ratePerSecond / 1000) * p.shape.integral(...window);
    const base = sum(plans.filter((p) => p.flashCrowd === -1 && groups[p.group].region === europe).map(expected));
    const extra = sum(plans.filter((p) => p.flashCrowd === 0).map(expected));
    expect(Math.abs(extra / (7 * base) - 1)).toBeLessThan(1e-9);
  });

  it('with the diurnal curve on, the all-regions expected rate over a week is the configured 20,000/s (to 1e-9)', () => {
    const everyday = plans.filter((p) => p.flashCrowd === -1);
    const perWeek = sum(everyday.map((p) => (p.ratePerSecond / 1000) * p.shape.integral(0, MS_PER_WEEK)));
    expect(Math.abs(perWeek / (20_000 * 604_800) - 1)).toBeLessThan(1e-9);
    // At the default start (Monday 00:00 UTC) the instantaneous total is not 20,000/s: it
    // depends on where the clients' evenings are. Largest group multiplier at t = 0 ≤ peak.
    expect(max(everyday.map((p) => p.shape.multiplierAt(0)))).toBeLessThanOrEqual(1 + 1.5 / 3.5);
  });
});
