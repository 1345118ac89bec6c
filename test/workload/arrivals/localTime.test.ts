import { describe, expect, it } from 'vitest';
import {
  MS_PER_HOUR,
  groupPlacesByTimeZone,
  localDayOfWeek,
  localHourOfDay,
  localWeekPositionAtStart,
  placeInGroup,
  utcOffsetHoursForLongitude,
} from '../../../src/workload/arrivals/localTime.js';
import { buildClientPlaces, DEFAULT_DEMAND_SHARES, loadClientCities } from '../../../src/topology/clients.js';
import { REGIONS } from '../../../src/topology/regions.js';

/** Monday 2026-01-05 00:00 UTC, the default run start. */
const MONDAY = Date.parse('2026-01-05T00:00:00Z');

describe('solar time zone from longitude', () => {
  it('Tokyo (139.69° E) is UTC+9, New York (−74.01°) UTC−5, London (−0.13°) UTC+0, Delhi (77.21° E) UTC+5 (civil +5:30)', () => {
    expect(utcOffsetHoursForLongitude(139.69)).toBe(9);
    expect(utcOffsetHoursForLongitude(-74.01)).toBe(-5);
    expect(utcOffsetHoursForLongitude(-0.13)).toBe(0);
    expect(Object.is(utcOffsetHoursForLongitude(-0.13), -0)).toBe(false);
    expect(utcOffsetHoursForLongitude(77.21)).toBe(5);
  });

  it('rounds half away from zero (±7.5° → ±1 h) and stays within −12…+12 at the date line', () => {
    expect(utcOffsetHoursForLongitude(7.5)).toBe(1);
    expect(utcOffsetHoursForLongitude(-7.5)).toBe(-1);
    expect(utcOffsetHoursForLongitude(180)).toBe(12);
    expect(utcOffsetHoursForLongitude(-180)).toBe(-12);
    expect(() => utcOffsetHoursForLongitude(181)).toThrow(RangeError);
    expect(() => utcOffsetHoursForLongitude(Number.NaN)).toThrow(RangeError);
  });
});

describe('local hour and weekday of a simulated time', () => {
  it('a run starting Monday 00:00 UTC starts at Monday 09:00 in UTC+9 and Sunday 19:00 in UTC−5', () => {
    expect(localHourOfDay(0, MONDAY, 9)).toBe(9);
    expect(localDayOfWeek(0, MONDAY, 9)).toBe(0);
    expect(localHourOfDay(0, MONDAY, -5)).toBe(19);
    expect(localDayOfWeek(0, MONDAY, -5)).toBe(6);
    expect(localWeekPositionAtStart(MONDAY, 0)).toBe(0);
  });

  it('15 h into the run it is Monday 10:00 in UTC−5; 7 days later the same local time again', () => {
    expect(localHourOfDay(15 * MS_PER_HOUR, MONDAY, -5)).toBe(10);
    expect(localDayOfWeek(15 * MS_PER_HOUR, MONDAY, -5)).toBe(0);
    expect(localHourOfDay((15 + 168) * MS_PER_HOUR, MONDAY, -5)).toBe(10);
    expect(localDayOfWeek((15 + 168) * MS_PER_HOUR, MONDAY, -5)).toBe(0);
  });

  it('a start of Wednesday 2026-01-07 12:30 UTC is hour 12.5 of day 2 (Wednesday) at UTC+0, 02:30 Thursday at UTC+14', () => {
    const start = Date.parse('2026-01-07T12:30:00Z');
    expect(localHourOfDay(0, start, 0)).toBe(12.5);
    expect(localDayOfWeek(0, start, 0)).toBe(2);
    expect(localHourOfDay(0, start, 14)).toBe(2.5);
    expect(localDayOfWeek(0, start, 14)).toBe(3);
  });

  it('a start before the first Monday of the epoch still gives a position in [0, one week)', () => {
    const start = Date.parse('1970-01-01T00:00:00Z'); // a Thursday
    expect(localDayOfWeek(0, start, 0)).toBe(3);
    expect(localDayOfWeek(0, start, -12)).toBe(2);
  });
});

describe('time-zone groups of the client places', () => {
  const places = buildClientPlaces(loadClientCities(), DEFAULT_DEMAND_SHARES);
  const groups = groupPlacesByTimeZone(places);

  it('partitions all demand: the group shares sum to 1 (to 1e-12) and every place with demand is in exactly one group', () => {
    expect(groups.reduce((sum, g) => sum + g.demandShare, 0)).toBeCloseTo(1, 12);
    const seen = new Set<number>();
    for (const group of groups) for (const place of group.places) seen.add(place);
    const withDemand = Array.from(places.demand).filter((d) => d > 0).length;
    expect(seen.size).toBe(withDemand);
    expect(groups.reduce((sum, g) => sum + g.places.length, 0)).toBe(withDemand);
  });

  it('each group holds one region and one offset, ordered by region then offset; New York is in North America UTC−5, Tokyo in Asia-Pacific UTC+9', () => {
    for (const group of groups) {
      for (const place of group.places) {
        expect(places.regionOf[place]).toBe(group.region);
        expect(utcOffsetHoursForLongitude(places.cities[place].lon)).toBe(group.utcOffsetHours);
      }
    }
    for (let i = 1; i < groups.length; i++) {
      const order = groups[i - 1].region - groups[i].region || groups[i - 1].utcOffsetHours - groups[i].utcOffsetHours;
      expect(order).toBeLessThan(0);
    }
    const groupOf = (name: string) => groups.find((g) => Array.from(g.places).some((p) => places.cities[p].name === name));
    expect(groupOf('New York')).toMatchObject({ region: REGIONS.indexOf('North America'), utcOffsetHours: -5 });
    expect(groupOf('Tokyo')).toMatchObject({ region: REGIONS.indexOf('Asia-Pacific'), utcOffsetHours: 9 });
  });

  it('placeInGroup picks places by demand: u = 0 gives the first place, u just below 1 the last', () => {
    const group = groups.find((g) => g.places.length > 1);
    expect(group).toBeDefined();
    if (!group) return;
    expect(placeInGroup(group, 0)).toBe(group.places[0]);
    expect(placeInGroup(group, 1 - 1e-12)).toBe(group.places[group.places.length - 1]);
    expect(group.cumulative[group.cumulative.length - 1]).toBe(1);
  });
});
