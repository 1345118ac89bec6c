import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { arrivalShapeFields, arrivalShapeSchema, parseGrowthRate, parseRunStart } from '../../../src/workload/arrivals/arrivalsSchema.js';

const DAY_MS = 86_400_000;

/** The messages of a failed parse, as "path: message". */
function problems(input: unknown): string[] {
  const result = arrivalShapeSchema.safeParse(input);
  if (result.success) return [];
  return result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('arrival shape schema: defaults', () => {
  it('an empty section resolves to Monday 2026-01-05 00:00 UTC, no diurnal curve, flat week, no growth, no crowds', () => {
    expect(arrivalShapeSchema.parse({})).toEqual({
      start: Date.parse('2026-01-05T00:00:00Z'),
      diurnal: { kind: 'off' },
      weekly: [1, 1, 1, 1, 1, 1, 1],
      growth: { rate: 0, per: 30 * DAY_MS },
      flashCrowds: [],
    });
  });

  it('diurnal: on and diurnal: {} give the published default (peak 21, trough 4.5, ratio 2.5); a peak alone puts the trough 7.5 h later', () => {
    const defaults = { kind: 'peak', peakHour: 21, troughHour: 4.5, peakToTrough: 2.5 };
    expect(arrivalShapeSchema.parse({ diurnal: 'on' }).diurnal).toEqual(defaults);
    expect(arrivalShapeSchema.parse({ diurnal: true }).diurnal).toEqual(defaults);
    expect(arrivalShapeSchema.parse({ diurnal: {} }).diurnal).toEqual(defaults);
    expect(arrivalShapeSchema.parse({ diurnal: false }).diurnal).toEqual({ kind: 'off' });
    expect(arrivalShapeSchema.parse({ diurnal: { peakHour: 20, peakToTrough: 2.8 } }).diurnal).toEqual({ kind: 'peak', peakHour: 20, troughHour: 3.5, peakToTrough: 2.8 });
    const hourly = Array.from({ length: 24 }, (_, h) => 1 + h / 24);
    expect(arrivalShapeSchema.parse({ diurnal: { hourly } }).diurnal).toEqual({ kind: 'hourly', hourly });
  });

  it('the example section from the issue parses from YAML with units resolved', () => {
    const yaml = `
start: 2026-01-05T00:00:00Z
diurnal: { peakHour: 20, peakToTrough: 2.8 }
weekly: [1, 1, 1, 1, 1.05, 0.9, 0.85]
growth: { rate: 10%, per: 30d }
flashCrowds:
  - { start: 2h, duration: 30m, multiplier: 8, region: Europe, objects: { top: 100 } }
  - { start: 1d, duration: 1h, multiplier: 3, rampUp: 10m, rampDown: 20m, objects: { class: video } }
`;
    const shape = arrivalShapeSchema.parse(parseYaml(yaml));
    expect(shape.start).toBe(Date.parse('2026-01-05T00:00:00Z'));
    expect(shape.weekly).toEqual([1, 1, 1, 1, 1.05, 0.9, 0.85]);
    expect(shape.growth).toEqual({ rate: 0.1, per: 30 * DAY_MS });
    expect(shape.flashCrowds).toEqual([
      { start: 7_200_000, duration: 1_800_000, multiplier: 8, region: 'Europe', objects: { kind: 'top', top: 100 }, rampUp: 0, rampDown: 0 },
      { start: DAY_MS, duration: 3_600_000, multiplier: 3, region: null, objects: { kind: 'class', class: 'video' }, rampUp: 600_000, rampDown: 1_200_000 },
    ]);
  });

  it('a crowd without objects keeps the normal popularity ({kind: catalogue}); ids are kept as given', () => {
    const [plain, ids] = arrivalShapeSchema.parse({
      flashCrowds: [
        { start: '0s', duration: '1m', multiplier: 2 },
        { start: '0s', duration: '1m', multiplier: 2, objects: { ids: [3, 1, 4] } },
      ],
    }).flashCrowds;
    expect(plain.objects).toEqual({ kind: 'catalogue' });
    expect(ids.objects).toEqual({ kind: 'ids', ids: [3, 1, 4] });
  });

  it('its fields spread into another strict object (how the integrator adds them to traffic)', () => {
    const traffic = z.strictObject({ rate: z.number().default(20_000), ...arrivalShapeFields });
    expect(traffic.parse({ diurnal: 'on' })).toMatchObject({ rate: 20_000, diurnal: { kind: 'peak' }, flashCrowds: [] });
    const jsonSchema = z.toJSONSchema(arrivalShapeSchema, { io: 'input', unrepresentable: 'any' }) as { properties: Record<string, { description?: string }> };
    for (const key of ['start', 'diurnal', 'weekly', 'growth', 'flashCrowds']) expect(jsonSchema.properties[key].description).toBeTruthy();
  });
});

describe('arrival shape schema: errors say what was expected', () => {
  it('peakHour 24 and −1: "a local hour from 0 to 23.99"; trough at the peak hour; ratio below 1', () => {
    expect(problems({ diurnal: { peakHour: 24 } })).toEqual(['diurnal.peakHour: expected peakHour as a local hour from 0 to 23.99']);
    expect(problems({ diurnal: { peakHour: -1 } })).toEqual(['diurnal.peakHour: expected peakHour as a local hour from 0 to 23.99']);
    expect(problems({ diurnal: { peakHour: 20, troughHour: 20 } })).toEqual(['diurnal.troughHour: expected troughHour at another hour than peakHour']);
    expect(problems({ diurnal: { peakToTrough: 0.5 } })).toEqual(['diurnal.peakToTrough: expected peakToTrough ≥ 1 (1 is flat)']);
  });

  it('hourly weights: 23 of them, or mixed with peakHour, or all zero', () => {
    expect(problems({ diurnal: { hourly: new Array(23).fill(1) } })).toEqual(['diurnal.hourly: expected exactly 24 hourly weights, for local hours 0 to 23']);
    expect(problems({ diurnal: { hourly: new Array(24).fill(1), peakHour: 20 } })).toEqual([
      'diurnal.peakHour: expected either hourly weights or peakHour/troughHour/peakToTrough, not both',
    ]);
    expect(problems({ diurnal: { hourly: new Array(24).fill(0) } })).toEqual(['diurnal.hourly: expected at least one hourly weight above 0']);
  });

  it('diurnal: "of" or 7 is neither off, on nor a mapping; an unknown key is reported as such', () => {
    expect(problems({ diurnal: 'of' })).toEqual(['diurnal: expected off, on, or a mapping with peakHour, troughHour and peakToTrough (or hourly: 24 weights)']);
    expect(problems({ diurnal: 7 })).toHaveLength(1);
    const unknown = arrivalShapeSchema.safeParse({ diurnal: { peak: 20 } });
    expect(unknown.success).toBe(false);
    expect(unknown.error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['peak'], path: ['diurnal'] });
  });

  it('start: a date-time without a zone, a date alone, 2026-02-30 and a number are refused with an ISO 8601 hint', () => {
    for (const start of ['2026-01-05T00:00:00', '2026-01-05', '2026-02-30T00:00:00Z']) {
      expect(problems({ start })).toEqual([
        'start: expected an ISO 8601 date-time with a zone, such as 2026-01-05T00:00:00Z or 2026-01-05T09:00:00+09:00',
      ]);
    }
    expect(problems({ start: 0 })[0]).toMatch(/^start: expected an ISO 8601 date-time with a zone/);
    expect(arrivalShapeSchema.parse({ start: '2026-01-05T09:00:00+09:00' }).start).toBe(Date.parse('2026-01-05T00:00:00Z'));
  });

  it('flash crowds: multiplier 0.5, a zero duration, ramps longer than the crowd, two object sets, an unknown region', () => {
    const crowd = { start: '1h', duration: '30m', multiplier: 8 };
    expect(problems({ flashCrowds: [{ ...crowd, multiplier: 0.5 }] })).toEqual(['flashCrowds.0.multiplier: expected multiplier ≥ 1 (1 adds nothing; 8 means eight times the normal rate)']);
    expect(problems({ flashCrowds: [{ ...crowd, duration: '0s' }] })).toEqual(['flashCrowds.0.duration: expected a duration above 0, such as 30m']);
    expect(problems({ flashCrowds: [{ ...crowd, rampUp: '20m', rampDown: '15m' }] })).toEqual([
      'flashCrowds.0.rampUp: expected rampUp + rampDown (2100000 ms) within duration (1800000 ms)',
    ]);
    expect(problems({ flashCrowds: [{ ...crowd, objects: { top: 10, class: 'video' } }] })).toEqual([
      'flashCrowds.0.objects: expected exactly one of top, ids or class, found top and class',
    ]);
    expect(problems({ flashCrowds: [{ ...crowd, region: 'Antarctica' }] })[0]).toMatch(/^flashCrowds\.0\.region: expected one of the five regions/);
    expect(problems({ flashCrowds: [{ ...crowd, objects: { top: 0 } }] })).toEqual(['flashCrowds.0.objects.top: expected top as a whole number of objects ≥ 1']);
  });

  it('weekly needs 7 non-negative weights, not all zero; growth needs a rate above −100 % and a period above 0', () => {
    expect(problems({ weekly: [1, 1, 1] })).toEqual(['weekly: expected exactly 7 weekday weights, Monday to Sunday']);
    expect(problems({ weekly: [0, 0, 0, 0, 0, 0, 0] })).toEqual(['weekly: expected at least one weekday weight above 0']);
    expect(problems({ growth: { rate: '-100%' } })).toEqual(['growth.rate: expected a growth per period such as 10%, -5% or 0.1 (above -100%)']);
    expect(problems({ growth: { rate: '10%', per: '0s' } })).toEqual(['growth.per: expected a period above 0, such as 30d']);
    expect(arrivalShapeSchema.parse({ growth: { rate: '-5%', per: '7d' } }).growth).toEqual({ rate: -0.05, per: 7 * DAY_MS });
  });
});

describe('parsers', () => {
  it('parseGrowthRate: 10% → 0.1, "-5%" → −0.05, 1.5 → 1.5 (150 %), "abc" and −1 → undefined', () => {
    expect(parseGrowthRate('10%')).toBeCloseTo(0.1, 15);
    expect(parseGrowthRate('-5%')).toBeCloseTo(-0.05, 15);
    expect(parseGrowthRate(1.5)).toBe(1.5);
    expect(parseGrowthRate('abc')).toBeUndefined();
    expect(parseGrowthRate(-1)).toBeUndefined();
  });

  it('parseRunStart accepts Z and ±hh:mm zones, with or without seconds and fractions', () => {
    expect(parseRunStart('2026-01-05T00:00Z')).toBe(Date.parse('2026-01-05T00:00:00Z'));
    expect(parseRunStart('2026-01-04T19:00:00.000-05:00')).toBe(Date.parse('2026-01-05T00:00:00Z'));
    expect(parseRunStart('2024-02-29T12:00:00Z')).toBe(Date.parse('2024-02-29T12:00:00Z'));
    expect(parseRunStart('2025-02-29T12:00:00Z')).toBeUndefined();
  });
});
