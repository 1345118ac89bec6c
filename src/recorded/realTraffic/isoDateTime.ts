import { daysFromCivil } from '../traces/clfReader.js';

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Milliseconds since the epoch of an ISO 8601 date-time with a zone offset (`Z`, `±hh:mm`,
 * `±hhmm` or `±hh`), fractions of a millisecond kept; NaN for anything else, a date-time
 * without a zone included (its instant is unknown). Exact integer arithmetic where
 * Date.parse would depend on the engine for `+0100` or more than 3 decimals.
 */
export function parseIsoDateTime(text: string): number {
  const match = ISO_DATE_TIME.exec(text);
  if (match === null) return NaN;
  const [, y, mo, d, h, mi, s = '0', fraction = '', zulu, sign, zoneHours = '0', zoneMinutes = '0'] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  const offsetMinutes = zulu !== undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(zoneHours) * 60 + Number(zoneMinutes));
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const monthDays = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
  if (!(month >= 1 && month <= 12 && day >= 1 && day <= monthDays && hour <= 23 && minute <= 59 && second <= 60)) return NaN;
  if (!(Number(zoneHours) <= 23 && Number(zoneMinutes) <= 59)) return NaN;
  const wholeMs = fraction === '' ? 0 : Number(fraction.slice(0, 3).padEnd(3, '0'));
  const subMs = fraction.length > 3 ? Number(`0.${fraction.slice(3)}`) : 0;
  const seconds = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offsetMinutes * 60;
  return seconds * 1000 + wholeMs + subMs;
}
