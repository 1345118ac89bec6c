import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatHttpDate, parseHttpDate } from '../../src/policy/httpDate.js';

const FC_OPTIONS = { numRuns: 400, seed: 9110 };
const NOW = Date.UTC(2026, 0, 1);
/** RFC 9110 §5.6.7's own example instant. */
const EXAMPLE_MS = 784111777000;
const MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59);

const SHORT_DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const LONG_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
const clock = (d: Date): string => `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;

/** rfc850-date: `Sunday, 06-Nov-94 08:49:37 GMT`. */
function rfc850(ms: number): string {
  const d = new Date(ms);
  return `${LONG_DAYS[d.getUTCDay()]}, ${pad(d.getUTCDate())}-${MONTHS[d.getUTCMonth()]}-${pad(d.getUTCFullYear() % 100)} ${clock(d)} GMT`;
}

/** asctime-date: `Sun Nov  6 08:49:37 1994` (day padded with a space). */
function asctime(ms: number): string {
  const d = new Date(ms);
  return `${SHORT_DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${clock(d)} ${d.getUTCFullYear()}`;
}

describe('parseHttpDate: the three forms (RFC 9110 §5.6.7)', () => {
  it.each<[string, string, number]>([
    ['IMF-fixdate', 'Sun, 06 Nov 1994 08:49:37 GMT', EXAMPLE_MS],
    ['obsolete RFC 850 form', 'Sunday, 06-Nov-94 08:49:37 GMT', EXAMPLE_MS],
    ['obsolete asctime form (day padded with a space)', 'Sun Nov  6 08:49:37 1994', EXAMPLE_MS],
    ['asctime with a two-digit day', 'Thu Feb 29 00:00:00 2024', Date.UTC(2024, 1, 29)],
    ['IMF-fixdate at the epoch', 'Thu, 01 Jan 1970 00:00:00 GMT', 0],
    ['IMF-fixdate before the epoch', 'Sun, 20 Jul 1969 00:00:00 GMT', -14256000000],
    ['IMF-fixdate on a leap day', 'Thu, 29 Feb 2024 00:00:00 GMT', Date.UTC(2024, 1, 29)],
    ['IMF-fixdate in year 9999', 'Fri, 31 Dec 9999 23:59:59 GMT', MAX_MS],
  ])('RFC 9110 §5.6.7: %s', (_name, text, expected) => {
    expect(parseHttpDate(text, NOW)).toBe(expected);
  });

  it('RFC 9110 §5.6.7: the three forms of the same instant parse to the same ms', () => {
    const forms = ['Sun, 06 Nov 1994 08:49:37 GMT', 'Sunday, 06-Nov-94 08:49:37 GMT', 'Sun Nov  6 08:49:37 1994'];
    expect(forms.map((text) => parseHttpDate(text, NOW))).toEqual([EXAMPLE_MS, EXAMPLE_MS, EXAMPLE_MS]);
  });

  it('RFC 5322 §3.3 (via RFC 9110 §5.6.7): second 60 is a leap second, the instant after :59', () => {
    expect(parseHttpDate('Sat, 31 Dec 2016 23:59:60 GMT')).toBe(Date.UTC(2017, 0, 1));
  });
});

describe('parseHttpDate: RFC 850 two-digit years (RFC 9110 §5.6.7)', () => {
  it.each<[string, string, number, number]>([
    ['94 with a 2026 reference is 1994 (2094 would be 68 years ahead)', 'Sunday, 06-Nov-94 08:49:37 GMT', NOW, EXAMPLE_MS],
    ['94 with the default 1970 reference is 1994', 'Sunday, 06-Nov-94 08:49:37 GMT', 0, EXAMPLE_MS],
    ['25 with a 2026 reference is 2025 (last year)', 'Sunday, 15-Jun-25 00:00:00 GMT', NOW, Date.UTC(2025, 5, 15)],
    ['76 with a 2026 reference is 2076: exactly 50 years ahead is not "more than 50"', 'Wednesday, 01-Jan-76 00:00:00 GMT', NOW, Date.UTC(2076, 0, 1)],
    ['77 with a 2026 reference is 1977: 2077 is more than 50 years ahead', 'Saturday, 01-Jan-77 00:00:00 GMT', NOW, Date.UTC(1977, 0, 1)],
    ['69 with a 1970 reference is 1969', 'Sunday, 20-Jul-69 00:00:00 GMT', 0, -14256000000],
    ['00 with a 2099 reference is 2100, not 2000 (99 years back)', 'Friday, 01-Jan-00 00:00:00 GMT', Date.UTC(2099, 5, 1), Date.UTC(2100, 0, 1)],
    ['00 with a 2050 reference is 2000', 'Saturday, 01-Jan-00 00:00:00 GMT', Date.UTC(2050, 0, 1), Date.UTC(2000, 0, 1)],
  ])('RFC 9110 §5.6.7: %s', (_name, text, referenceMs, expected) => {
    expect(parseHttpDate(text, referenceMs)).toBe(expected);
  });
});

describe('parseHttpDate: what is not an HTTP-date (RFC 9110 §5.6.7, RFC 9111 §5.3)', () => {
  it.each<[string, string]>([
    ['"0" (the classic "already expired" Expires)', '0'],
    ['"-1"', '-1'],
    ['the empty string', ''],
    ['only spaces', '   '],
    ['31 February (a calendar-invalid date)', 'Tue, 31 Feb 1994 08:49:37 GMT'],
    ['29 February of a non-leap year (1900)', 'Thu, 29 Feb 1900 00:00:00 GMT'],
    ['day 00', 'Sun, 00 Nov 1994 08:49:37 GMT'],
    ['day 32', 'Sun, 32 Nov 1994 08:49:37 GMT'],
    ['hour 24', 'Sun, 06 Nov 1994 24:00:00 GMT'],
    ['minute 60', 'Sun, 06 Nov 1994 08:60:37 GMT'],
    ['second 61', 'Sun, 06 Nov 1994 08:49:61 GMT'],
    ['a weekday name that is no weekday', 'Sux, 06 Nov 1994 08:49:37 GMT'],
    ['a long weekday name in IMF-fixdate', 'Sunday, 06 Nov 1994 08:49:37 GMT'],
    ['a short weekday name in the RFC 850 form', 'Sun, 06-Nov-94 08:49:37 GMT'],
    ['a long weekday name in the asctime form', 'Sunday Nov  6 08:49:37 1994'],
    ['an unknown month', 'Sun, 06 Nox 1994 08:49:37 GMT'],
    ['a zone other than GMT', 'Sun, 06 Nov 1994 08:49:37 UTC'],
    ['a numeric zone', 'Sun, 06 Nov 1994 08:49:37 +0000'],
    ['a one-digit day in IMF-fixdate', 'Sun, 6 Nov 1994 08:49:37 GMT'],
    ['a two-digit year in IMF-fixdate', 'Sun, 06 Nov 94 08:49:37 GMT'],
    ['ISO 8601', '1994-11-06T08:49:37Z'],
    ['a delta-seconds number', '3600'],
    ['trailing garbage', 'Sun, 06 Nov 1994 08:49:37 GMT x'],
    ['runs of spaces between parts (the grammar has exactly one SP)', 'Sun,  06  Nov  1994  08:49:37  GMT'],
    ['two spaces between day and month only', 'Thu, 18  Aug 2050 02:01:18 GMT'],
    ['runs of spaces in the RFC 850 form', 'Sunday,  06-Nov-94  08:49:37 GMT'],
    ['asctime with a single space before a one-digit day (date3 pads it with a second SP)', 'Sun Nov 6 08:49:37 1994'],
    ['asctime with three spaces before a one-digit day', 'Sun Nov   6 08:49:37 1994'],
  ])('RFC 9110 §5.6.7: %s → undefined', (_name, text) => {
    expect(parseHttpDate(text, NOW)).toBeUndefined();
  });

  // cdnsim reading: the recipient is robust (RFC 9110 §5.6.7) and only checks that the name
  // is a weekday, not that it is the weekday of that date (see the report).
  it('cdnsim reading (RFC 9110 §5.6.7 robustness): a real weekday name that does not match the date is accepted', () => {
    expect(parseHttpDate('Mon, 06 Nov 1994 08:49:37 GMT')).toBe(EXAMPLE_MS);
  });

  // Suspected bug: Date.UTC maps years 0–99 to 1900–1999, so a four-digit year 0050 is read as 1950.
  it('RFC 9110 §5.6.7: a four-digit year below 100 (0050) is that year, not 1950', () => {
    const year50 = new Date(0).setUTCFullYear(50, 0, 1);
    expect(parseHttpDate('Sat, 01 Jan 0050 00:00:00 GMT')).toBe(year50);
  });
});

describe('parseHttpDate: robustness (RFC 9110 §5.6.7 "recipients … be robust")', () => {
  it.each<[string, string]>([
    ['IMF-fixdate in upper case', 'SUN, 06 NOV 1994 08:49:37 GMT'],
    ['IMF-fixdate in lower case', 'sun, 06 nov 1994 08:49:37 gmt'],
    ['RFC 850 in mixed case', 'sUNDAY, 06-nOV-94 08:49:37 Gmt'],
    ['asctime in lower case', 'sun nov  6 08:49:37 1994'],
    ['surrounding whitespace', '  Sun, 06 Nov 1994 08:49:37 GMT \t'],
  ])('RFC 9110 §5.6.7: %s', (_name, text) => {
    expect(parseHttpDate(text, NOW)).toBe(EXAMPLE_MS);
  });
});

describe('formatHttpDate (RFC 9110 §5.6.7: senders generate IMF-fixdate)', () => {
  it.each<[number, string]>([
    [EXAMPLE_MS, 'Sun, 06 Nov 1994 08:49:37 GMT'],
    [EXAMPLE_MS + 999, 'Sun, 06 Nov 1994 08:49:37 GMT'],
    [0, 'Thu, 01 Jan 1970 00:00:00 GMT'],
    [NOW, 'Thu, 01 Jan 2026 00:00:00 GMT'],
  ])('RFC 9110 §5.6.7: %d → %s (whole seconds, rounded down)', (ms, expected) => {
    expect(formatHttpDate(ms)).toBe(expected);
  });
});

describe('parseHttpDate / formatHttpDate properties', () => {
  const dateish = fc.string({
    unit: fc.oneof(
      fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
      fc.constantFrom(' ', ',', '-', ':', 'GMT', 'Sun', 'Sunday', 'Nov', 'Feb', '06', '31', '94', '1994', '08', '60', '0000'),
    ),
    maxLength: 40,
  });

  it('RFC 9110 §5.6.7: never throws on arbitrary strings; the result is undefined or an integer', () => {
    fc.assert(
      fc.property(dateish, fc.integer({ min: -8.64e15, max: 8.64e15 }), (text, referenceMs) => {
        const parsed = parseHttpDate(text, referenceMs);
        return parsed === undefined || Number.isInteger(parsed);
      }),
      FC_OPTIONS,
    );
  });

  const wholeSecond = fc.integer({ min: 0, max: MAX_MS / 1000 }).map((seconds) => seconds * 1000);

  it('RFC 9110 §5.6.7: formatHttpDate → parseHttpDate round-trips every whole second from 1970 to 9999', () => {
    fc.assert(
      fc.property(wholeSecond, (ms) => parseHttpDate(formatHttpDate(ms)) === ms),
      FC_OPTIONS,
    );
  });

  it('RFC 9110 §5.6.7, RFC 9111 §5.3: one extra space anywhere between the parts of an IMF-fixdate makes it no date', () => {
    fc.assert(
      fc.property(wholeSecond, fc.nat(), (ms, pick) => {
        const text = formatHttpDate(ms);
        const spaces = [...text].flatMap((char, index) => (char === ' ' ? [index] : []));
        const at = spaces[pick % spaces.length];
        return parseHttpDate(`${text.slice(0, at)} ${text.slice(at)}`) === undefined;
      }),
      FC_OPTIONS,
    );
  });

  it('RFC 9110 §5.6.7: formatHttpDate floors any instant to its second', () => {
    fc.assert(
      fc.property(wholeSecond, fc.integer({ min: 0, max: 999 }), (ms, extra) => parseHttpDate(formatHttpDate(ms + extra)) === ms),
      FC_OPTIONS,
    );
  });

  it('RFC 9110 §5.6.7: the RFC 850 form round-trips when the reference time is the instant itself', () => {
    fc.assert(
      fc.property(wholeSecond, (ms) => parseHttpDate(rfc850(ms), ms) === ms),
      FC_OPTIONS,
    );
  });

  it('RFC 9110 §5.6.7: the asctime form round-trips', () => {
    fc.assert(
      fc.property(wholeSecond, (ms) => parseHttpDate(asctime(ms)) === ms),
      FC_OPTIONS,
    );
  });

  it('RFC 9110 §5.6.7: a parsed RFC 850 year keeps its two digits and lies within 50 years of the reference year', () => {
    fc.assert(
      fc.property(wholeSecond, wholeSecond, (ms, referenceMs) => {
        const parsed = parseHttpDate(rfc850(ms), referenceMs);
        const original = new Date(ms);
        // 29 Feb may land in a century year that is not a leap year (2000 → 1900/2100): not a date.
        if (parsed === undefined) return original.getUTCMonth() === 1 && original.getUTCDate() === 29;
        const year = new Date(parsed).getUTCFullYear();
        const referenceYear = new Date(referenceMs).getUTCFullYear();
        return year % 100 === original.getUTCFullYear() % 100 && year >= referenceYear - 50 && year <= referenceYear + 50;
      }),
      FC_OPTIONS,
    );
  });
});
