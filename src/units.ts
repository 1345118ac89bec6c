/**
 * Human quantities in scenario files and on the command line: sizes, durations, rates and
 * percentages. Each parser returns a number in the base unit (bytes, milliseconds,
 * per second, fraction) or a message that says what was expected.
 */
export type Parsed = { ok: true; value: number } | { ok: false; expected: string };

const NUMBER = '([0-9]+(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|\\.[0-9]+)';

// Decimal units are powers of 1000 (5MB = 5,000,000 bytes), binary ones powers of 1024
// (193MiB), as IEC 80000-13 has it and as libCacheSim's and webcachesim's tools print.
const SIZE_UNITS: Record<string, number> = {
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  pb: 1e15,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  tib: 1024 ** 4,
  pib: 1024 ** 5,
  k: 1e3,
  m: 1e6,
  g: 1e9,
  t: 1e12,
};

export const SIZE_EXPECTED = 'a size such as 5MB, 193MiB, 10GB or a whole number of bytes';

export function parseSize(input: unknown): Parsed {
  if (typeof input === 'number') {
    return Number.isFinite(input) && input >= 0 && Number.isInteger(input)
      ? { ok: true, value: input }
      : { ok: false, expected: SIZE_EXPECTED };
  }
  if (typeof input !== 'string') return { ok: false, expected: SIZE_EXPECTED };
  const match = new RegExp(`^${NUMBER}\\s*([a-zA-Z]*)$`).exec(input.trim());
  if (!match) return { ok: false, expected: SIZE_EXPECTED };
  const unit = match[2].toLowerCase();
  const factor = unit === '' ? 1 : SIZE_UNITS[unit];
  if (factor === undefined) return { ok: false, expected: SIZE_EXPECTED };
  const exact = Number(match[1]) * factor;
  // A fraction of a byte is a mistake; a fraction of a larger unit rounds to whole bytes.
  if (factor === 1 && !Number.isInteger(exact)) return { ok: false, expected: SIZE_EXPECTED };
  const value = Math.round(exact);
  return Number.isFinite(value) ? { ok: true, value } : { ok: false, expected: SIZE_EXPECTED };
}

const DURATION_UNITS: Record<string, number> = {
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  sec: 1000,
  m: 60_000,
  min: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

export const DURATION_EXPECTED = 'a duration with a unit such as 250ms, 5s, 1h or 7d';

export interface DurationOptions {
  /** Unit of a bare number; undefined means a unit is required (except for 0). */
  bareUnit?: 'ms' | 's';
}

/** A duration in milliseconds; `1h30m` style sums are accepted. */
export function parseDuration(input: unknown, options: DurationOptions = {}): Parsed {
  const expected = options.bareUnit
    ? `${DURATION_EXPECTED}, or a number of ${options.bareUnit === 's' ? 'seconds' : 'milliseconds'}`
    : DURATION_EXPECTED;
  const bare = (n: number): Parsed => {
    if (!Number.isFinite(n) || n < 0) return { ok: false, expected };
    if (n === 0) return { ok: true, value: 0 };
    if (!options.bareUnit) return { ok: false, expected: `${DURATION_EXPECTED} (a bare number is ambiguous: write ${n}ms or ${n}s)` };
    const value = options.bareUnit === 's' ? n * 1000 : n;
    return Number.isFinite(value) ? { ok: true, value } : { ok: false, expected };
  };
  if (typeof input === 'number') return bare(input);
  if (typeof input !== 'string') return { ok: false, expected };
  const text = input.trim();
  if (new RegExp(`^${NUMBER}$`).test(text)) return bare(Number(text));
  const part = new RegExp(`${NUMBER}\\s*([a-zA-Zµ]+)`, 'y');
  let total = 0;
  let position = 0;
  while (position < text.length) {
    part.lastIndex = position;
    const match = part.exec(text);
    if (!match) return { ok: false, expected };
    const factor = DURATION_UNITS[match[2].toLowerCase()];
    if (factor === undefined) return { ok: false, expected };
    total += Number(match[1]) * factor;
    position = part.lastIndex;
    while (text[position] === ' ') position++;
  }
  return position === 0 || !Number.isFinite(total) ? { ok: false, expected } : { ok: true, value: total };
}

const RATE_MULTIPLIERS: Record<string, number> = { '': 1, k: 1e3, m: 1e6, g: 1e9 };
// Weeks for content churn, which studies of the web report per week (e.g. 8 % of pages new each week).
const RATE_PER: Record<string, number> = { ms: 1000, s: 1, sec: 1, min: 1 / 60, m: 1 / 60, h: 1 / 3600, d: 1 / 86400, w: 1 / 604800, week: 1 / 604800 };

export const RATE_EXPECTED = 'a rate such as 20k/s, 1200/s, 3M/h or a number per second';

/** A rate in events per second: `20k/s`, `500/ms`, `3M/h`, `8000/week`; a bare number is per second. */
export function parseRate(input: unknown): Parsed {
  if (typeof input === 'number') {
    return Number.isFinite(input) && input > 0 ? { ok: true, value: input } : { ok: false, expected: RATE_EXPECTED };
  }
  if (typeof input !== 'string') return { ok: false, expected: RATE_EXPECTED };
  const match = new RegExp(`^${NUMBER}\\s*([kKmMgG]?)\\s*(?:/\\s*([a-zA-Z]+))?$`).exec(input.trim());
  if (!match) return { ok: false, expected: RATE_EXPECTED };
  const multiplier = RATE_MULTIPLIERS[match[2].toLowerCase()];
  const per = match[3] === undefined ? 1 : RATE_PER[match[3].toLowerCase()];
  if (per === undefined) return { ok: false, expected: RATE_EXPECTED };
  const value = Number(match[1]) * multiplier * per;
  return Number.isFinite(value) && value > 0 ? { ok: true, value } : { ok: false, expected: RATE_EXPECTED };
}

export const COUNT_EXPECTED = 'a whole number such as 2000000, 2M, 500k or 1e6';
/** A whole number past 2^53 is whole, but no longer exact as a count. */
export const COUNT_TOO_LARGE = `a whole number of at most ${Number.MAX_SAFE_INTEGER.toExponential(3)}`;

/** A whole count: `2000000`, `2_000_000`, `2M`, `500k`, `1e6`. */
export function parseCount(input: unknown): Parsed {
  let value: number;
  if (typeof input === 'number') value = input;
  else if (typeof input === 'string') {
    const match = new RegExp(`^${NUMBER}\\s*([kKmMgG]?)$`).exec(input.trim().replace(/_/g, ''));
    if (!match) return { ok: false, expected: COUNT_EXPECTED };
    value = Number(match[1]) * RATE_MULTIPLIERS[match[2].toLowerCase()];
  } else return { ok: false, expected: COUNT_EXPECTED };
  if (Number.isInteger(value) && value > Number.MAX_SAFE_INTEGER) return { ok: false, expected: COUNT_TOO_LARGE };
  return Number.isSafeInteger(value) && value >= 0 ? { ok: true, value } : { ok: false, expected: COUNT_EXPECTED };
}

export const FRACTION_EXPECTED = 'a percentage such as 35% or a fraction between 0 and 1';

/** A fraction in [0, 1] from `35%`, `0.35` or 0.35. */
export function parseFraction(input: unknown): Parsed {
  let value: number;
  if (typeof input === 'number') value = input;
  else if (typeof input === 'string') {
    const match = new RegExp(`^${NUMBER}\\s*(%?)$`).exec(input.trim());
    if (!match) return { ok: false, expected: FRACTION_EXPECTED };
    value = Number(match[1]) / (match[2] === '%' ? 100 : 1);
  } else return { ok: false, expected: FRACTION_EXPECTED };
  return Number.isFinite(value) && value >= 0 && value <= 1
    ? { ok: true, value }
    : { ok: false, expected: FRACTION_EXPECTED };
}

/** Formats bytes for people in decimal units: 1.5 GB (the convention of every summary and table). */
export function formatBytes(bytes: number): string {
  return formatScaled(bytes, 1000, ['B', 'KB', 'MB', 'GB', 'TB', 'PB']);
}

/** Binary units, for output that echoes sizes a user gave in them: 100 MiB, 1.50 GiB. */
export function formatBinaryBytes(bytes: number): string {
  return formatScaled(bytes, 1024, ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB']);
}

function formatScaled(bytes: number, step: number, units: readonly string[]): string {
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= step && unit < units.length - 1) {
    value /= step;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(value < 10 ? 2 : value < 100 ? 1 : 0)} ${units[unit]}`;
}
