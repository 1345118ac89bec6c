/**
 * HTTP-date (RFC 9110 §5.6.7): the preferred IMF-fixdate and the two obsolete forms a
 * recipient must still accept (RFC 850 and ANSI C asctime). Names of days, months and the
 * zone are matched case-insensitively (the grammar's literals are case-insensitive, RFC 5234
 * §2.3), but the parts are separated by exactly one SP as the grammar says (asctime's
 * single-digit day is padded with a second SP): a date with runs of spaces is not a date
 * (`undefined`), which for Expires means "already expired" (RFC 9111 §5.3).
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const SHORT_DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const LONG_DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

const IMF_FIXDATE = /^([a-z]{3}), (\d{2}) ([a-z]{3}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) gmt$/i;
const RFC850_DATE = /^([a-z]{6,9}), (\d{2})-([a-z]{3})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) gmt$/i;
/** date3 = month SP ( 2DIGIT / ( SP DIGIT ) ). */
const ASCTIME_DATE = /^([a-z]{3}) ([a-z]{3}) (\d{2}| \d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/i;

/**
 * Milliseconds since the epoch, or undefined when `value` is not an HTTP-date.
 * `referenceMs` resolves RFC 850's two-digit year: a year that would be more than 50 years
 * in the future is the most recent past year with those digits (RFC 9110 §5.6.7).
 */
export function parseHttpDate(value: string, referenceMs = 0): number | undefined {
  const text = value.trim();
  let match = IMF_FIXDATE.exec(text);
  if (match) return build(match[1], SHORT_DAYS, +match[4], match[3], +match[2], +match[5], +match[6], +match[7]);
  match = RFC850_DATE.exec(text);
  if (match) {
    const twoDigit = +match[4];
    const referenceYear = new Date(referenceMs).getUTCFullYear();
    let year = Math.floor(referenceYear / 100) * 100 + twoDigit;
    if (year > referenceYear + 50) year -= 100;
    else if (year < referenceYear - 50) year += 100;
    return build(match[1], LONG_DAYS, year, match[3], +match[2], +match[5], +match[6], +match[7]);
  }
  match = ASCTIME_DATE.exec(text);
  if (match) return build(match[1], SHORT_DAYS, +match[7], match[2], +match[3], +match[4], +match[5], +match[6]);
  return undefined;
}

function build(dayName: string, days: readonly string[], year: number, monthName: string, day: number, hour: number, minute: number, second: number): number | undefined {
  const month = MONTHS.indexOf(monthName.toLowerCase());
  if (month < 0 || !days.includes(dayName.toLowerCase())) return undefined;
  // second 60 is a leap second (RFC 5322 §3.3); it names the same instant as :59 + 1 s.
  if (day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return undefined;
  // Date.UTC maps years 0–99 to 1900–1999; setUTCFullYear takes the year as given.
  const ms = new Date(Date.UTC(2000, month, day, hour, minute, Math.min(second, 59))).setUTCFullYear(year, month, day);
  // Date.UTC rolls 31 Feb into March; a calendar-invalid date is not a date.
  if (new Date(ms).getUTCDate() !== day) return undefined;
  return second === 60 ? ms + 1000 : ms;
}

/** IMF-fixdate, the form every sender must generate (RFC 9110 §5.6.7). */
export function formatHttpDate(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toUTCString();
}

