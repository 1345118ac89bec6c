import { CumulativeSearch, type ClientPlaces } from '../../topology/clients.js';

/**
 * Local time of client places. Simulated time 0 is the run's start, a UTC instant; a
 * place's local clock is UTC plus its offset. Demand follows the local clock (people sleep
 * at night wherever they are), so the arrival process needs local hour of day and day of
 * week for every simulated time.
 */

export const MS_PER_MINUTE = 60_000;
export const MS_PER_HOUR = 3_600_000;
export const MS_PER_DAY = 86_400_000;
export const MS_PER_WEEK = 604_800_000;

/** 1970-01-05T00:00:00Z, the first Monday of the Unix epoch (1970-01-01 was a Thursday). */
const FIRST_MONDAY_EPOCH_MS = 4 * MS_PER_DAY;

/** The day names in the order the weekly weights use (ISO 8601: Monday first). */
export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/**
 * UTC offset in whole hours of a place, from its longitude: its solar time zone,
 * round(lon / 15°), half away from zero, within −12…+12.
 *
 * An approximation of civil zones: most places are within an hour of it, but some are
 * not (all of China keeps UTC+8, so Ürümqi at 87.6° E is 2 h off; India keeps UTC+5:30;
 * Spain and France keep UTC+1 at 0–8° E/W; Argentina keeps UTC−3 at 58° W), and daylight
 * saving time is ignored. For a diurnal curve that is hours wide this error is small, and
 * it needs no time-zone database; a per-place civil offset could replace it later.
 */
export function utcOffsetHoursForLongitude(lonDeg: number): number {
  if (!(lonDeg >= -180 && lonDeg <= 180)) throw new RangeError(`expected a longitude from -180 to 180, got ${lonDeg}`);
  const hours = Math.sign(lonDeg) * Math.round(Math.abs(lonDeg) / 15);
  // West of Greenwich within 7.5° the product is −0; return +0 so it prints and keys as 0.
  return hours === 0 ? 0 : hours;
}

/** x mod m in [0, m), for negative x too. */
function positiveModulo(x: number, m: number): number {
  const r = x % m;
  return r < 0 ? r + m : r;
}

/**
 * Position in the local week (ms since local Monday 00:00) at simulated time 0, for a
 * place `utcOffsetHours` from UTC when the run starts at `runStartEpochMs` (UTC). The local
 * week position at simulated time t is then (this + t) mod one week.
 */
export function localWeekPositionAtStart(runStartEpochMs: number, utcOffsetHours: number): number {
  return positiveModulo(runStartEpochMs + utcOffsetHours * MS_PER_HOUR - FIRST_MONDAY_EPOCH_MS, MS_PER_WEEK);
}

/** Position in the local week (ms since local Monday 00:00) at simulated time `simMs`. */
export function localWeekPosition(simMs: number, runStartEpochMs: number, utcOffsetHours: number): number {
  return positiveModulo(localWeekPositionAtStart(runStartEpochMs, utcOffsetHours) + simMs, MS_PER_WEEK);
}

/** Local hour of day, fractional, in [0, 24), at simulated time `simMs`. */
export function localHourOfDay(simMs: number, runStartEpochMs: number, utcOffsetHours: number): number {
  return (localWeekPosition(simMs, runStartEpochMs, utcOffsetHours) % MS_PER_DAY) / MS_PER_HOUR;
}

/** Local day of week at simulated time `simMs`: 0 = Monday … 6 = Sunday (ISO order). */
export function localDayOfWeek(simMs: number, runStartEpochMs: number, utcOffsetHours: number): number {
  return Math.floor(localWeekPosition(simMs, runStartEpochMs, utcOffsetHours) / MS_PER_DAY);
}

/**
 * The client places of one region that share a UTC offset: one arrival stream each, since
 * they share one local clock. Places are sampled within the group by population.
 */
export interface TimeZoneGroup {
  /** Region index (into REGIONS). */
  readonly region: number;
  readonly utcOffsetHours: number;
  /** Share of all demand in this group (the groups' shares sum to 1). */
  readonly demandShare: number;
  /** Indices of the group's places (into ClientPlaces.cities). */
  readonly places: Int32Array;
  /** Cumulative within-group probability per place; the last entry is 1. */
  readonly cumulative: Float64Array;
  /** The search over `cumulative` a draw per request goes through (placeInGroup). */
  readonly placeSearch: CumulativeSearch;
}

/**
 * Groups client places by (region, solar UTC offset), in region order then offset order,
 * so the list (and the stream names built from it) is the same for the same places.
 * Groups without demand are left out.
 */
export function groupPlacesByTimeZone(clientPlaces: ClientPlaces): TimeZoneGroup[] {
  const keyed = new Map<string, { region: number; offset: number; indices: number[] }>();
  clientPlaces.cities.forEach((city, i) => {
    if (!(clientPlaces.demand[i] > 0)) return;
    const region = clientPlaces.regionOf[i];
    const offset = utcOffsetHoursForLongitude(city.lon);
    const key = `${region}:${offset}`;
    let group = keyed.get(key);
    if (!group) keyed.set(key, (group = { region, offset, indices: [] }));
    group.indices.push(i);
  });
  const ordered = [...keyed.values()].sort((a, b) => a.region - b.region || a.offset - b.offset);
  return ordered.map(({ region, offset, indices }): TimeZoneGroup => {
    const share = indices.reduce((sum, i) => sum + clientPlaces.demand[i], 0);
    const cumulative = new Float64Array(indices.length);
    let running = 0;
    indices.forEach((i, k) => {
      running += clientPlaces.demand[i] / share;
      cumulative[k] = running;
    });
    cumulative[indices.length - 1] = 1;
    return { region, utcOffsetHours: offset, demandShare: share, places: Int32Array.from(indices), cumulative, placeSearch: new CumulativeSearch(cumulative) };
  });
}

/** The place a uniform draw `u` in [0, 1) picks within a group (by demand; a guide table, not a binary search per request). */
export function placeInGroup(group: TimeZoneGroup, u: number): number {
  return group.places[group.placeSearch.index(u)];
}
