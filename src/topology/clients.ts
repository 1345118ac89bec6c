import { z } from 'zod';
import { UserError } from '../userError.js';
import { dataFilePath, describeIssues, readJsonFile } from './dataFiles.js';
import type { LatLon } from './geo.js';
import { REGIONS, type Region } from './regions.js';

/**
 * Where clients are and how much they ask for. Demand is split over the five regions by a
 * documented share, then over each region's client places (major metros,
 * data/clientCities.json) in proportion to population.
 */

/**
 * Default demand per region: each region's share of the world's Internet users. Source:
 * ITU, "Facts and Figures 2023" (individuals using the Internet by ITU region: Africa
 * 37 %, Americas 87 %, Arab States 69 %, Asia-Pacific 66 %, CIS 89 %, Europe 91 %;
 * 5.4 billion users) applied to UN population figures and regrouped into the spec's five
 * regions (the Middle East and the CIS west of the Urals to Europe, North Africa to
 * Africa, Mexico and the Caribbean to Latin America): about 0.35 billion users in North
 * America, 1.0 in Europe, 2.8 in Asia-Pacific, 0.55 in Latin America and 0.6 in Africa,
 * rounded to half a percent. docs/topology.md shows the arithmetic; the spec's global
 * average of 25.45 ms is consistent with a user-weighted mean of its regional ranges.
 */
export const DEFAULT_DEMAND_SHARES: Readonly<Record<Region, number>> = {
  'North America': 0.065,
  Europe: 0.185,
  'Asia-Pacific': 0.53,
  'Latin America': 0.105,
  Africa: 0.115,
};

/**
 * Default share of requests from mobile devices per region (spec 4.5 serves them other
 * variants; the latency model gives them a slower last mile). Source: StatCounter Global
 * Stats, "Desktop vs Mobile vs Tablet market share", 2024 (page views, tablets counted
 * with desktop), rounded: Africa and Asia about 70 %, South America near 60 %, North
 * America and Europe under 50 %.
 */
export const DEFAULT_MOBILE_SHARES: Readonly<Record<Region, number>> = {
  'North America': 0.48,
  Europe: 0.45,
  'Asia-Pacific': 0.7,
  'Latin America': 0.58,
  Africa: 0.72,
};

export interface ClientCity extends LatLon {
  readonly name: string;
  readonly cca2: string;
  readonly region: Region;
  /** Metro population in millions: the place's weight within its region. */
  readonly populationM: number;
}

export const clientCitySchema = z.strictObject({
  name: z.string().min(1, { error: 'expected the place name' }),
  cca2: z.string().regex(/^[A-Z]{2}$/, { error: 'expected an ISO 3166-1 alpha-2 country code such as KE' }),
  region: z.enum(REGIONS, { error: `expected one of the five regions: ${REGIONS.join(', ')}` }),
  lat: z.number().min(-90, { error: 'expected a latitude from -90 to 90' }).max(90, { error: 'expected a latitude from -90 to 90' }),
  lon: z.number().min(-180, { error: 'expected a longitude from -180 to 180' }).max(180, { error: 'expected a longitude from -180 to 180' }),
  populationM: z.number().positive({ error: 'expected a population in millions, > 0' }),
});

const cityTableSchema = z.object({ cities: z.array(clientCitySchema).min(1, { error: 'expected at least one place' }) });

export function parseClientCities(json: unknown, source: string): ClientCity[] {
  const parsed = cityTableSchema.safeParse(json);
  if (!parsed.success) throw new UserError(describeIssues(source, parsed.error.issues));
  return parsed.data.cities;
}

let defaultCities: readonly ClientCity[] | undefined;

/** The committed client places (data/clientCities.json), read once; or another file's. */
export function loadClientCities(path?: string): readonly ClientCity[] {
  if (path !== undefined) return parseClientCities(readJsonFile(path), path);
  if (!defaultCities) {
    const file = dataFilePath('clientCities.json');
    defaultCities = Object.freeze(parseClientCities(readJsonFile(file), file));
  }
  return defaultCities;
}

export interface RegionPlaces {
  /** Indices of the region's places. */
  readonly places: Int32Array;
  /** Cumulative within-region probability per place; the last entry is 1. */
  readonly cumulative: Float64Array;
}

/** Client places with their demand, laid out for O(log n) sampling. */
export interface ClientPlaces {
  readonly cities: readonly ClientCity[];
  /** Region index (into REGIONS) per place. */
  readonly regionOf: Int8Array;
  /** Share of all demand per place; sums to 1. */
  readonly demand: Float64Array;
  /** Demand share per region index, as given. */
  readonly regionShare: Float64Array;
  readonly byRegion: readonly RegionPlaces[];
}

/** Demand shares must add up to 1; a region with demand needs at least one place. */
export function buildClientPlaces(cities: readonly ClientCity[], demandShares: Readonly<Record<Region, number>>): ClientPlaces {
  const total = REGIONS.reduce((sum, region) => sum + demandShares[region], 0);
  for (const region of REGIONS) {
    if (!(demandShares[region] >= 0)) throw new UserError(`clients.demand.${region}: expected a share ≥ 0, got ${demandShares[region]}`);
  }
  if (Math.abs(total - 1) > 1e-6) throw new UserError(`clients.demand: expected region shares that add up to 100%, found ${+(total * 100).toFixed(4)}%`);
  const regionOf = Int8Array.from(cities, (city) => REGIONS.indexOf(city.region));
  const demand = new Float64Array(cities.length);
  const byRegion = REGIONS.map((region, r): RegionPlaces => {
    const indices = [...cities.keys()].filter((i) => regionOf[i] === r);
    if (indices.length === 0) {
      if (demandShares[region] > 0) throw new UserError(`clients: ${region} has a demand share of ${demandShares[region]} but no client places`);
      return { places: new Int32Array(0), cumulative: new Float64Array(0) };
    }
    const population = indices.reduce((sum, i) => sum + cities[i].populationM, 0);
    const cumulative = new Float64Array(indices.length);
    let running = 0;
    indices.forEach((i, k) => {
      running += cities[i].populationM / population;
      cumulative[k] = running;
      demand[i] = (demandShares[region] * cities[i].populationM) / population;
    });
    cumulative[indices.length - 1] = 1;
    return { places: Int32Array.from(indices), cumulative };
  });
  return { cities, regionOf, demand, regionShare: Float64Array.from(REGIONS, (region) => demandShares[region]), byRegion };
}

/** The place a uniform draw `u` in [0, 1) picks within region `r` (by population); −1 when the region has none. */
/** A region drawn by demand (`regionShare`) from one uniform draw in [0, 1). */
export function regionFor(places: ClientPlaces, u: number): number {
  const shares = places.regionShare;
  let region = 0;
  while (region < shares.length - 1 && u >= shares[region]) u -= shares[region++];
  return region;
}

export function placeFor(places: ClientPlaces, r: number, u: number): number {
  const { places: indices, cumulative } = places.byRegion[r];
  return indices.length === 0 ? -1 : indices[cumulativeIndex(cumulative, u)];
}

/**
 * cumulativeIndex over one fixed table in about one step instead of a binary search (a draw
 * per request picks a client place): a guide table (H. C. Chen and Y. Asau, "On generating
 * random variates from an empirical distribution", AIIE Transactions 6(2), 1974) holds, for
 * each of `m` equal steps of [0, 1), the first index whose cumulative share exceeds the
 * step's start; the search walks on from there. Every index before it is ≤ the step's start
 * ≤ u, so the answer is cumulativeIndex's, for any u in [0, 1).
 */
export class CumulativeSearch {
  private readonly guide: Int32Array;
  /** m, a power of two, so u × m and j / m are exact. */
  private readonly steps: number;

  constructor(private readonly cumulative: Float64Array) {
    if (cumulative.length === 0) throw new RangeError('a cumulative table needs at least one entry');
    let steps = 1;
    while (steps < 4 * cumulative.length) steps *= 2;
    this.steps = steps;
    this.guide = new Int32Array(steps);
    let index = 0;
    for (let step = 0; step < steps; step++) {
      while (index < cumulative.length - 1 && cumulative[index] <= step / steps) index++;
      this.guide[step] = index;
    }
  }

  /** cumulativeIndex(cumulative, u) for u in [0, 1). */
  index(u: number): number {
    const cumulative = this.cumulative;
    const last = cumulative.length - 1;
    let index = this.guide[Math.floor(u * this.steps)];
    while (index < last && cumulative[index] <= u) index++;
    return index;
  }
}

/** The first index whose cumulative share exceeds `u` in [0, 1) (binary search; the last entry is 1). */
export function cumulativeIndex(cumulative: Float64Array, u: number): number {
  let low = 0;
  let high = cumulative.length - 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (cumulative[middle] > u) high = middle;
    else low = middle + 1;
  }
  return low;
}
