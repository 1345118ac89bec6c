import { z } from 'zod';
import { quantity } from '../quantitySchema.js';
import { CAPACITY_EXPECT_FIGURES, STATED_FIGURES, type StatedUnit } from '../metrics/statedFigures.js';
import type { Bounds } from '../metrics/statedVerdict.js';
import { COUNT_EXPECTED, DURATION_EXPECTED, FRACTION_EXPECTED, RATE_EXPECTED, SIZE_EXPECTED, parseCount, parseDuration, parseFraction, parseRate, parseSize, type Parsed } from '../units.js';

const GBPS_EXPECTED = 'Gbit/s as a number such as 40 or 0.5 (or "40Gbit/s")';

/** Gbit/s: a number ≥ 0, with or without its unit. */
export function parseGbps(input: unknown): Parsed {
  const text = typeof input === 'number' ? String(input) : typeof input === 'string' ? input.trim().replace(/\s*Gbit\/s$/, '') : '';
  const value = /^\d+(\.\d+)?(e[-+]?\d+)?$/.test(text) ? Number(text) : NaN;
  return Number.isFinite(value) ? { ok: true, value } : { ok: false, expected: GBPS_EXPECTED };
}

/**
 * `expect:` in a scenario: per stated-figure row id (summary.json `stated`), the bounds this
 * run is held to instead of the service's stated value, e.g.
 * `expect: { cdnHitRatio: { min: 60% }, latency.layer.edge: { max: 25ms } }`.
 * Both bounds are inclusive; each row takes its own unit.
 */

function valueSchema(unit: StatedUnit, description: string) {
  switch (unit) {
    case 'ms':
      return quantity((v) => parseDuration(v), DURATION_EXPECTED, description);
    case 'seconds':
      // Parsed as a duration (ms) and kept in seconds, the rows' unit.
      return quantity((v) => {
        const parsed = parseDuration(v);
        return parsed.ok ? { ok: true, value: parsed.value / 1000 } : parsed;
      }, DURATION_EXPECTED, description);
    case 'ratio':
      return quantity(parseFraction, FRACTION_EXPECTED, description);
    case 'count':
      return quantity(parseCount, COUNT_EXPECTED, description);
    case 'bytes':
      return quantity(parseSize, SIZE_EXPECTED, description);
    case 'perSecond':
      // A rate (5k/s) or a plain number of requests per second; 0/s is no rate, a bound of 0 is written 0.
      return quantity((v) => (v === 0 || v === '0' ? { ok: true, value: 0 } : parseRate(v)), RATE_EXPECTED, description);
    case 'gbps':
      return quantity(parseGbps, GBPS_EXPECTED, description);
  }
}

function boundsSchema(unit: StatedUnit, figure: string) {
  return z
    .strictObject({
      min: valueSchema(unit, `lowest value within (inclusive) for: ${figure}`).optional(),
      max: valueSchema(unit, `highest value within (inclusive) for: ${figure}`).optional(),
    })
    .superRefine((bounds, ctx) => {
      if (bounds.min === undefined && bounds.max === undefined) ctx.addIssue({ code: 'custom', message: 'expected min, max or both, e.g. { min: 60% } or { max: 25ms }' });
      else if (bounds.min !== undefined && bounds.max !== undefined && bounds.min > bounds.max) {
        ctx.addIssue({ code: 'custom', path: ['min'], message: `expected min (${bounds.min}) not above max (${bounds.max})` });
      }
    })
    .transform((bounds): Bounds => ({ ...(bounds.min === undefined ? {} : { min: bounds.min }), ...(bounds.max === undefined ? {} : { max: bounds.max }) }));
}

export const expectSchema = z
  .strictObject(Object.fromEntries([...STATED_FIGURES, ...CAPACITY_EXPECT_FIGURES].map((figure) => [figure.id, boundsSchema(figure.unit, figure.figure).optional()])))
  .transform((expect) => Object.fromEntries(Object.entries(expect).filter((entry): entry is [string, Bounds] => entry[1] !== undefined)))
  .meta({
    description:
      'bounds this run is held to, per stated-figure row (summary.json "stated"), replacing the stated value for that row: `{ min?, max? }`, inclusive, in the row\'s unit (latency: 25ms; ratios: 60%; pops: a count; errorCaching and lifetimes: 5s; chunkSize: 5MB). capacity figures by their summary.json path, e.g. capacity.origin.peakRequestsPerSecond1s: { max: 5k/s } (docs/capacity.md). `cdnsim run --check` exits 3 when a row is outside',
  });

/** The resolved expectations written back as scenario input (scenario.json): loading it again gives the same bounds. */
export function expectToInput(expect: Readonly<Record<string, Bounds>>): Record<string, { min?: number | string; max?: number | string }> {
  const units = new Map([...STATED_FIGURES, ...CAPACITY_EXPECT_FIGURES].map((figure) => [figure.id, figure.unit]));
  const written = (value: number, unit: StatedUnit | undefined): number | string => (unit === 'ms' ? `${value}ms` : unit === 'seconds' ? `${value * 1000}ms` : value);
  return Object.fromEntries(
    Object.entries(expect).map(([id, bounds]) => {
      const unit = units.get(id);
      return [id, { ...(bounds.min === undefined ? {} : { min: written(bounds.min, unit) }), ...(bounds.max === undefined ? {} : { max: written(bounds.max, unit) }) }];
    }),
  );
}
