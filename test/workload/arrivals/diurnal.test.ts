import { describe, expect, it } from 'vitest';
import { max, mean, min } from 'simple-statistics';
import {
  defaultDiurnal,
  flatDiurnal,
  hourlyDiurnal,
  integrateDiurnal,
  peakTroughDiurnal,
  weeklyMultipliers,
  type DiurnalCurve,
} from '../../../src/workload/arrivals/diurnal.js';

/**
 * Midpoint rule with one-second steps over [from, to] hours. For these C¹ curves its
 * error is below 1e-9 (h²/24 × the jump in the second derivative, h = 1/3600 h).
 */
function quadrature(curve: DiurnalCurve, from: number, to: number): number {
  const steps = Math.round((to - from) * 3600);
  const h = (to - from) / steps;
  let sum = 0;
  for (let i = 0; i < steps; i++) sum += curve.value(from + (i + 0.5) * h);
  return sum * h;
}

/** Values on a one-minute grid over a day. */
function grid(curve: DiurnalCurve): number[] {
  return Array.from({ length: 1440 }, (_, i) => curve.value(i / 60));
}

describe('default diurnal curve (peak 21:00, trough 04:30, peak-to-trough 2.5)', () => {
  const curve = defaultDiurnal();

  it('has mean exactly 1 over a day: quadrature within 1e-9, the analytic integral within 1e-12', () => {
    expect(Math.abs(quadrature(curve, 0, 24) / 24 - 1)).toBeLessThan(1e-9);
    expect(Math.abs(curve.cumulative(24) - 24)).toBeLessThan(1e-12);
    expect(Math.abs(integrateDiurnal(curve, 0, 24) - 24)).toBeLessThan(1e-12);
  });

  it('peaks at 21:00 at 1 + 1.5/3.5 = 1.428571, bottoms at 04:30 at 0.571429: ratio 2.5 to 1e-12', () => {
    expect(curve.value(21)).toBeCloseTo(1 + 1.5 / 3.5, 12);
    expect(curve.value(4.5)).toBeCloseTo(1 - 1.5 / 3.5, 12);
    expect(curve.value(21) / curve.value(4.5)).toBeCloseTo(2.5, 12);
    const values = grid(curve);
    expect(values.indexOf(max(values)) / 60).toBe(21);
    expect(values.indexOf(min(values)) / 60).toBe(4.5);
    expect(max(values)).toBeCloseTo(curve.max, 12);
    expect(min(values)).toBeCloseTo(curve.min, 12);
  });

  it('is smooth (C¹) where its pieces meet: the slope either side of 21:00 and 04:30 is 0 within 1e-6 per hour', () => {
    const slope = (h: number, e: number) => (curve.value(h + e) - curve.value(h)) / e;
    for (const h of [21, 4.5]) {
      expect(Math.abs(slope(h, 1e-7))).toBeLessThan(1e-6);
      expect(Math.abs(slope(h, -1e-7))).toBeLessThan(1e-6);
    }
    // Periodic: the value and slope at 24 h equal those at 0 h.
    expect(curve.value(24)).toBeCloseTo(curve.value(0), 12);
    expect(curve.value(-3)).toBeCloseTo(curve.value(21), 12);
  });

  it('its cumulative integral matches quadrature at 0.5, 4.5, 7.3, 12, 21 and 23.9 h (within 1e-9)', () => {
    for (const h of [0.5, 4.5, 7.3, 12, 21, 23.9]) expect(Math.abs(curve.cumulative(h) - quadrature(curve, 0, h))).toBeLessThan(1e-9);
  });

  it('integrates to 24 h per whole day: 3 days from 10:00 give 72 ± 1e-9, 3.5 days 72 + ∫ 10–22 h; a span across midnight matches quadrature', () => {
    expect(integrateDiurnal(curve, 10, 10 + 72)).toBeCloseTo(72, 9);
    expect(integrateDiurnal(curve, 10, 10 + 84)).toBeCloseTo(72 + integrateDiurnal(curve, 10, 22), 9);
    expect(Math.abs(integrateDiurnal(curve, 22, 27) - quadrature(curve, 22, 27))).toBeLessThan(1e-9);
  });
});

describe('peak/trough curves with other parameters', () => {
  it('peak 14:00, trough 02:00, ratio 3: mean 1 (1e-9), max/min 3, extremes at 14:00 and 02:00', () => {
    const curve = peakTroughDiurnal({ peakHour: 14, troughHour: 2, peakToTrough: 3 });
    expect(Math.abs(quadrature(curve, 0, 24) / 24 - 1)).toBeLessThan(1e-9);
    expect(curve.max / curve.min).toBeCloseTo(3, 12);
    const values = grid(curve);
    expect(values.indexOf(max(values)) / 60).toBe(14);
    expect(values.indexOf(min(values)) / 60).toBe(2);
  });

  it('a trough before the peak in clock terms (peak 02:00, trough 20:00) still has mean 1 and its cumulative is continuous over the day', () => {
    const curve = peakTroughDiurnal({ peakHour: 2, troughHour: 20, peakToTrough: 2 });
    expect(Math.abs(curve.cumulative(24) - 24)).toBeLessThan(1e-12);
    for (const h of [1, 2, 3, 19.9, 20.1, 23.99]) expect(Math.abs(curve.cumulative(h) - quadrature(curve, 0, h))).toBeLessThan(1e-9);
  });

  it('peakToTrough 1 is flat; the flat curve is 1 everywhere with cumulative = hours', () => {
    const curve = peakTroughDiurnal({ peakHour: 20, troughHour: 4, peakToTrough: 1 });
    expect(grid(curve).every((v) => v === 1)).toBe(true);
    expect(flatDiurnal().value(13.7)).toBe(1);
    expect(flatDiurnal().cumulative(13.7)).toBe(13.7);
  });

  it('rejects a peak hour of 24, a trough at the peak hour and a ratio below 1', () => {
    expect(() => peakTroughDiurnal({ peakHour: 24, troughHour: 4, peakToTrough: 2 })).toThrow(RangeError);
    expect(() => peakTroughDiurnal({ peakHour: 20, troughHour: 20, peakToTrough: 2 })).toThrow(/another hour/);
    expect(() => peakTroughDiurnal({ peakHour: 20, troughHour: 4, peakToTrough: 0.5 })).toThrow(RangeError);
  });
});

describe('custom hourly weights', () => {
  // A residential-looking day: low at night, climbing through the day to an evening peak.
  const weights = [5, 4, 3, 2.5, 2, 2, 2.5, 3.5, 4.5, 5, 5.5, 6, 6, 6, 6, 6.5, 7, 7.5, 8.5, 9.5, 10, 9.5, 8, 6.5];
  const curve = hourlyDiurnal(weights);
  const weightMean = mean(weights);

  it('is normalised to mean 1: quadrature within 1e-9, cumulative(24) = 24 within 1e-12', () => {
    expect(Math.abs(quadrature(curve, 0, 24) / 24 - 1)).toBeLessThan(1e-9);
    expect(Math.abs(curve.cumulative(24) - 24)).toBeLessThan(1e-12);
  });

  it('passes through each weight / mean at the middle of its hour and peaks at 20:30 at 10 / mean', () => {
    weights.forEach((w, i) => expect(curve.value(i + 0.5)).toBeCloseTo(w / weightMean, 12));
    expect(curve.peakHour).toBe(20.5);
    expect(curve.max).toBeCloseTo(10 / weightMean, 12);
    expect(max(grid(curve))).toBeLessThanOrEqual(curve.max + 1e-12);
  });

  it('its cumulative integral matches quadrature at 0.25, 0.5, 3.7, 12 and 23.75 h (within 1e-9)', () => {
    for (const h of [0.25, 0.5, 3.7, 12, 23.75]) expect(Math.abs(curve.cumulative(h) - quadrature(curve, 0, h))).toBeLessThan(1e-9);
  });

  it('never overshoots: one spike hour (weights 0 except hour 12 = 10) stays within [0, 24] and is 0 away from hours 11–13', () => {
    const spike = hourlyDiurnal(Array.from({ length: 24 }, (_, i) => (i === 12 ? 10 : 0)));
    const values = grid(spike);
    expect(min(values)).toBeGreaterThanOrEqual(0);
    expect(max(values)).toBeCloseTo(24, 12);
    expect(spike.value(10)).toBe(0);
    expect(spike.value(15)).toBe(0);
    expect(Math.abs(quadrature(spike, 0, 24) / 24 - 1)).toBeLessThan(1e-9);
  });

  it('rejects 23 weights, negative weights and all-zero weights', () => {
    expect(() => hourlyDiurnal(weights.slice(1))).toThrow(/24 hourly weights/);
    expect(() => hourlyDiurnal(weights.map((w, i) => (i === 3 ? -1 : w)))).toThrow(RangeError);
    expect(() => hourlyDiurnal(new Array<number>(24).fill(0))).toThrow(/above 0/);
  });
});

describe('weekly multipliers', () => {
  it('[1, 1, 1, 1, 1.05, 0.9, 0.85] is scaled to mean 1 (to 1e-15) keeping the ratios; the default is flat', () => {
    const week = weeklyMultipliers([1, 1, 1, 1, 1.05, 0.9, 0.85]);
    expect(Math.abs(mean(Array.from(week)) - 1)).toBeLessThan(1e-15);
    expect(week[6] / week[0]).toBeCloseTo(0.85, 15);
    expect(week[4] / week[0]).toBeCloseTo(1.05, 15);
    expect(Array.from(weeklyMultipliers())).toEqual([1, 1, 1, 1, 1, 1, 1]);
  });

  it('rejects 6 weights and all zeros', () => {
    expect(() => weeklyMultipliers([1, 1, 1, 1, 1, 1])).toThrow(/7 weekday weights/);
    expect(() => weeklyMultipliers([0, 0, 0, 0, 0, 0, 0])).toThrow(/above 0/);
  });
});
