import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseGbps } from '../../src/scenario/expectSchema.js';
import {
  COUNT_EXPECTED,
  COUNT_TOO_LARGE,
  DURATION_EXPECTED,
  FRACTION_EXPECTED,
  RATE_EXPECTED,
  SIZE_EXPECTED,
  parseCount,
  parseDuration,
  parseFraction,
  parseRate,
  parseSize,
  type Parsed,
} from '../../src/units.js';

const ok = (value: number): Parsed => ({ ok: true, value });
const bad = (expected: string): Parsed => ({ ok: false, expected });

const FC_OPTIONS = { numRuns: 500, seed: 424242 };

describe('parseSize', () => {
  it('the expected-message constant', () => {
    expect(SIZE_EXPECTED).toBe('a size such as 5MB, 193MiB, 10GB or a whole number of bytes');
  });

  it.each<[unknown, number]>([
    ['5MB', 5e6], // spec 8: chunk size 5 MB for range requests
    ['193MiB', 202_375_168],
    ['10GB', 1e10],
    ['1.5KiB', 1536],
    ['1KB', 1000],
    ['1KiB', 1024],
    ['2GiB', 2_147_483_648],
    ['1TB', 1e12],
    ['1TiB', 1024 ** 4],
    ['1PB', 1e15],
    ['1PiB', 1024 ** 5],
    ['512 B', 512],
    ['512B', 512],
    ['2k', 2000],
    ['3m', 3e6],
    ['4g', 4e9],
    ['1t', 1e12],
    ['.5KB', 500],
    ['1e3', 1000],
    ['1E3KB', 1e6],
    ['  7 MB  ', 7e6],
    ['0', 0],
    ['0GB', 0],
    ['1024', 1024],
    [0, 0],
    [1024, 1024],
    [1e10, 1e10],
  ])('parseSize(%j) → %d bytes', (input, bytes) => {
    expect(parseSize(input)).toEqual(ok(bytes));
  });

  it.each<[unknown]>([
    ['5XB'],
    ['-5GB'],
    ['-1'],
    [-1],
    [1.5],
    [NaN],
    [Infinity],
    ['Infinity'],
    ['1e400'],
    [''],
    ['   '],
    ['MB'],
    ['5 M B'],
    ['5MB extra'],
    ['5,000'],
    ['0x10'],
    ['5 mbit'],
    [null],
    [undefined],
    [true],
    [{}],
    [['5MB']],
  ])('rejects %j with the size message', (input) => {
    expect(parseSize(input)).toEqual(bad(SIZE_EXPECTED));
  });

  it('units are case-insensitive: 5mb, 5MB, 5Mb and 5mB are all 5,000,000 bytes', () => {
    for (const text of ['5mb', '5MB', '5Mb', '5mB']) expect(parseSize(text)).toEqual(ok(5e6));
    for (const text of ['1gib', '1GIB', '1GiB', '1gIb']) expect(parseSize(text)).toEqual(ok(1024 ** 3));
  });

  const SIZE_FACTORS: readonly [string, number][] = [
    ['B', 1],
    ['KB', 1e3],
    ['MB', 1e6],
    ['GB', 1e9],
    ['KiB', 1024],
    ['MiB', 1024 ** 2],
    ['GiB', 1024 ** 3],
  ];

  it.each(SIZE_FACTORS)('property: parseSize(`${n}%s`) is exactly n × %d for every whole n with a safe product', (unit, factor) => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Math.floor(Number.MAX_SAFE_INTEGER / factor) }), (n) => {
        const expected = ok(n * factor);
        expect(parseSize(`${n}${unit}`)).toEqual(expected);
        expect(parseSize(`${n}${unit.toLowerCase()}`)).toEqual(expected);
        expect(parseSize(`${n} ${unit.toUpperCase()}`)).toEqual(expected);
      }),
      FC_OPTIONS,
    );
  });

  it('property: a whole number of bytes, as a number or a string, is returned unchanged', () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), (n) => {
        expect(parseSize(n)).toEqual(ok(n));
        expect(parseSize(String(n))).toEqual(ok(n));
      }),
      FC_OPTIONS,
    );
  });
});

describe('parseDuration', () => {
  it('the expected-message constant', () => {
    expect(DURATION_EXPECTED).toBe('a duration with a unit such as 250ms, 5s, 1h or 7d');
  });

  it.each<[unknown, number]>([
    ['250ms', 250],
    ['5s', 5000], // spec 8: error responses are cached for 5 seconds
    ['5sec', 5000],
    ['5 s', 5000],
    ['5S', 5000],
    ['1.5s', 1500],
    ['2m', 120_000],
    ['2min', 120_000],
    ['1h', 3.6e6],
    ['7d', 604_800_000],
    ['1w', 604_800_000],
    ['1h30m', 5.4e6],
    ['1H30M', 5.4e6],
    ['1h 30m', 5.4e6],
    ['1d1h1m1s1ms', 86_400_000 + 3_600_000 + 60_000 + 1000 + 1],
    ['3600s', 3.6e6], // spec 8: static page lifetime
    ['86400s', 86_400_000], // spec 8: stale-while-revalidate 86400 s
    ['31536000s', 31_536_000_000], // spec 8: long cache lifetime, one year
    ['500us', 0.5],
    ['500µs', 0.5],
    ['0ms', 0],
    ['0', 0],
    ['0.0', 0],
    [0, 0],
  ])('parseDuration(%j) → %d ms', (input, ms) => {
    expect(parseDuration(input)).toEqual(ok(ms));
  });

  it.each<[unknown, number]>([
    [120, 120],
    ['120', 120],
  ])('a bare number is ambiguous without bareUnit: %j', (input, n) => {
    expect(parseDuration(input)).toEqual(bad(`${DURATION_EXPECTED} (a bare number is ambiguous: write ${n}ms or ${n}s)`));
  });

  it.each<[unknown, 'ms' | 's', number]>([
    [5, 's', 5000],
    ['5', 's', 5000],
    [1.5, 's', 1500],
    [0, 's', 0],
    [250, 'ms', 250],
    ['250', 'ms', 250],
    ['2m', 's', 120_000],
    ['250ms', 's', 250],
  ])('parseDuration(%j, { bareUnit: %s }) → %d ms', (input, bareUnit, ms) => {
    expect(parseDuration(input, { bareUnit })).toEqual(ok(ms));
  });

  it.each<[unknown]>([
    ['5 fortnights'],
    ['5x'],
    ['-5s'],
    ['ms'],
    [''],
    ['1h30'],
    ['1h, 30m'],
    ['1e400s'],
    [-5],
    [NaN],
    [Infinity],
    [null],
    [true],
    [{ ms: 5 }],
  ])('rejects %j with the duration message', (input) => {
    expect(parseDuration(input)).toEqual(bad(DURATION_EXPECTED));
  });

  it('with bareUnit the rejection message mentions the bare unit', () => {
    expect(parseDuration('soon', { bareUnit: 's' })).toEqual(bad(`${DURATION_EXPECTED}, or a number of seconds`));
    expect(parseDuration(-1, { bareUnit: 'ms' })).toEqual(bad(`${DURATION_EXPECTED}, or a number of milliseconds`));
  });

  it('property: `${n}ms` is n and `${n}s` is n × 1000 for whole n', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Math.floor(Number.MAX_SAFE_INTEGER / 1000) }), (n) => {
        expect(parseDuration(`${n}ms`)).toEqual(ok(n));
        expect(parseDuration(`${n}s`)).toEqual(ok(n * 1000));
        expect(parseDuration(`${n}S`)).toEqual(ok(n * 1000));
        expect(parseDuration(n, { bareUnit: 's' })).toEqual(ok(n * 1000));
        expect(parseDuration(n, { bareUnit: 'ms' })).toEqual(ok(n));
      }),
      FC_OPTIONS,
    );
  });

  it('property: `${h}h${m}m` is the sum of its parts', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 59 }), (h, m) => {
        expect(parseDuration(`${h}h${m}m`)).toEqual(ok(h * 3_600_000 + m * 60_000));
      }),
      FC_OPTIONS,
    );
  });
});

describe('parseRate', () => {
  it('the expected-message constant', () => {
    expect(RATE_EXPECTED).toBe('a rate such as 20k/s, 1200/s, 3M/h or a number per second');
  });

  it.each<[unknown, number]>([
    ['20k/s', 20_000],
    ['20K/s', 20_000],
    ['1200/s', 1200],
    ['1200/sec', 1200],
    ['500/ms', 500_000],
    ['60/min', 1],
    ['60/m', 1],
    ['86400/d', 1],
    ['604800/week', 1],
    ['604.8k/w', 1],
    ['1.5k', 1500],
    ['1 k / s', 1000],
    ['2G/s', 2e9],
    ['1200', 1200],
    [20_000, 20_000],
    [0.5, 0.5],
  ])('parseRate(%j) → %d per second', (input, perSecond) => {
    expect(parseRate(input)).toEqual(ok(perSecond));
  });

  it('parseRate("3M/h") → 833.33… per second', () => {
    const parsed = parseRate('3M/h');
    expect(parsed.ok).toBe(true);
    expect(parsed.ok && parsed.value).toBeCloseTo(3e6 / 3600, 9);
    expect(parsed.ok && parsed.value).toBeCloseTo(833.3333333, 6);
  });

  it.each<[unknown]>([
    ['0/s'],
    ['0'],
    [0],
    [-1],
    ['-5/s'],
    ['5/fortnight'],
    ['5/'],
    ['5 per s'],
    ['5x/s'],
    ['fast'],
    [''],
    [NaN],
    [Infinity],
    [null],
    [[20_000]],
  ])('rejects %j with the rate message', (input) => {
    expect(parseRate(input)).toEqual(bad(RATE_EXPECTED));
  });
});

describe('parseFraction', () => {
  it('the expected-message constant', () => {
    expect(FRACTION_EXPECTED).toBe('a percentage such as 35% or a fraction between 0 and 1');
  });

  it.each<[unknown, number]>([
    ['35%', 0.35],
    ['35 %', 0.35],
    ['95%', 0.95], // spec 1.1: stated cache hit ratio
    ['100%', 1],
    ['0%', 0],
    ['0.5%', 0.005],
    ['0.35', 0.35],
    ['.5', 0.5],
    ['1', 1],
    ['0', 0],
    [0.35, 0.35],
    [0, 0],
    [1, 1],
  ])('parseFraction(%j) → %d', (input, fraction) => {
    expect(parseFraction(input)).toEqual(ok(fraction));
  });

  it.each<[unknown]>([
    ['150%'],
    ['100.0001%'],
    [1.5],
    [-0.1],
    ['-0.1'],
    ['-5%'],
    ['1.5'],
    ['%'],
    ['35%%'],
    ['thirty'],
    [''],
    [NaN],
    [Infinity],
    [null],
    [undefined],
  ])('rejects %j with the fraction message', (input) => {
    expect(parseFraction(input)).toEqual(bad(FRACTION_EXPECTED));
  });

  it('property: `${p}%` is p/100 for whole p in 0..100', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), (p) => {
        expect(parseFraction(`${p}%`)).toEqual(ok(p / 100));
      }),
      { ...FC_OPTIONS, numRuns: 200 },
    );
    for (let p = 0; p <= 100; p++) expect(parseFraction(`${p}%`)).toEqual(ok(p / 100));
  });

  it('property: every number in [0, 1] is accepted unchanged, every finite number outside is rejected', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true }), (x) => {
        const expected = x >= 0 && x <= 1 ? ok(x) : bad(FRACTION_EXPECTED);
        expect(parseFraction(x)).toEqual(expected);
      }),
      FC_OPTIONS,
    );
  });
});

describe('all parsers: total functions', () => {
  type Case = readonly [string, (input: unknown) => Parsed, (expected: string) => boolean];
  const parsers: readonly Case[] = [
    ['parseSize', parseSize, (e) => e === SIZE_EXPECTED],
    ['parseDuration', (v) => parseDuration(v), (e) => e.startsWith(DURATION_EXPECTED)],
    ['parseDuration bareUnit ms', (v) => parseDuration(v, { bareUnit: 'ms' }), (e) => e === `${DURATION_EXPECTED}, or a number of milliseconds`],
    ['parseRate', parseRate, (e) => e === RATE_EXPECTED],
    ['parseFraction', parseFraction, (e) => e === FRACTION_EXPECTED],
  ];

  const check = (parse: (input: unknown) => Parsed, isExpected: (expected: string) => boolean) => (input: unknown) => {
    const result = parse(input);
    if (result.ok) {
      expect(typeof result.value).toBe('number');
      expect(Number.isFinite(result.value)).toBe(true);
      expect(result.value).toBeGreaterThanOrEqual(0);
    } else {
      expect(isExpected(result.expected)).toBe(true);
    }
  };

  const unitLike = fc
    .array(fc.constantFrom('1', '0', '.', '5', 'e', 'E', '-', '+', ' ', '%', '/', 'k', 'M', 'i', 'B', 'm', 's', 'h', 'd', 'µ', 'u', 'g', 'T'), { maxLength: 12 })
    .map((parts) => parts.join(''));
  const strings = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), unitLike);

  it.each(parsers)('%s never throws on fc.anything() and returns a finite value ≥ 0 or its own message', (_name, parse, isExpected) => {
    fc.assert(fc.property(fc.anything(), check(parse, isExpected)), FC_OPTIONS);
  });

  it.each(parsers)('%s never throws on arbitrary strings (ASCII, unicode and unit-like)', (_name, parse, isExpected) => {
    fc.assert(fc.property(strings, check(parse, isExpected)), { ...FC_OPTIONS, numRuns: 2000 });
  });

  it('parseDuration with bareUnit s never throws on fc.anything() or arbitrary strings, and never returns Infinity', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), strings, fc.double()), (input) => {
        const result = parseDuration(input, { bareUnit: 's' });
        if (!result.ok) expect(result.expected).toBe(`${DURATION_EXPECTED}, or a number of seconds`);
        else expect(Number.isFinite(result.value)).toBe(true);
      }),
      { ...FC_OPTIONS, numRuns: 2000 },
    );
  });
});

describe('units: cases found in review', () => {
  it('a bare number of seconds that overflows is rejected, not Infinity', () => {
    expect(parseDuration(1.8e305, { bareUnit: 's' })).toEqual({ ok: false, expected: `${DURATION_EXPECTED}, or a number of seconds` });
    expect(parseDuration('1e306', { bareUnit: 's' }).ok).toBe(false);
  });

  it('a fraction of a byte is rejected; a fraction of a larger unit rounds to whole bytes', () => {
    expect(parseSize('1.5')).toEqual({ ok: false, expected: SIZE_EXPECTED });
    expect(parseSize('1.5B')).toEqual({ ok: false, expected: SIZE_EXPECTED });
    expect(parseSize('1.5KiB')).toEqual({ ok: true, value: 1536 });
    expect(parseSize('0.3KiB')).toEqual({ ok: true, value: 307 });
  });

  it('rate units are case-insensitive like the other units', () => {
    expect(parseRate('20k/S')).toEqual({ ok: true, value: 20_000 });
    expect(parseRate('3M/H')).toEqual(parseRate('3M/h'));
  });
});


describe('parseCount (run.requests, --requests)', () => {
  it.each([
    ['2000000', 2_000_000],
    ['2_000_000', 2_000_000],
    ['2M', 2_000_000],
    ['500k', 500_000],
    ['1.5k', 1_500],
    ['1e6', 1_000_000],
    [42, 42],
    ['0', 0],
  ])('%s → %d', (input, expected) => {
    expect(parseCount(input)).toEqual({ ok: true, value: expected });
  });

  it.each(['1.5', '-3', 'lots', '2 millions', '', 1.5, -1, true, '1e400'])('%s is rejected', (input) => {
    expect(parseCount(input)).toEqual({ ok: false, expected: COUNT_EXPECTED });
  });

  it('never throws and only returns safe whole numbers', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.string(), fc.double()), (input) => {
        const result = parseCount(input);
        if (result.ok) expect(Number.isSafeInteger(result.value) && result.value >= 0).toBe(true);
        else if (typeof input === 'number') expect(result.expected).toBe(Number.isInteger(input) && input > Number.MAX_SAFE_INTEGER ? COUNT_TOO_LARGE : COUNT_EXPECTED);
        else expect([COUNT_EXPECTED, COUNT_TOO_LARGE]).toContain(result.expected);
      }),
      { seed: 20261121, numRuns: 2000 },
    );
  });

  it('a whole number past 2^53 is refused as too large, not as "not a whole number" (issue 26)', () => {
    expect(parseCount('1e20')).toEqual({ ok: false, expected: COUNT_TOO_LARGE });
    expect(parseCount(2 ** 60)).toEqual({ ok: false, expected: COUNT_TOO_LARGE });
    expect(parseCount('1.5')).toEqual({ ok: false, expected: COUNT_EXPECTED });
  });
});

describe('expect: Gbit/s bounds of the capacity figures (docs/capacity.md)', () => {
  it('property: every finite x ≥ 0 written as JavaScript writes it, with or without " Gbit/s", parses back to x', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e12, noNaN: true }), fc.boolean(), (x, unit) => {
        const parsed = parseGbps(unit ? `${x} Gbit/s` : String(x));
        expect(parsed).toEqual({ ok: true, value: x });
      }),
    );
  });

  it('a negative, a word or another unit is refused with what is expected', () => {
    for (const text of ['-1', 'fast', '40Mbit/s', '', '1e']) expect(parseGbps(text)).toEqual({ ok: false, expected: 'Gbit/s as a number such as 40 or 0.5 (or "40Gbit/s")' });
    expect(parseGbps('40Gbit/s')).toEqual({ ok: true, value: 40 });
  });
});
