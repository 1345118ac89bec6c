import { UserError } from '../userError.js';
import { nearestIndex } from './geo.js';
import type { Pop } from './pops.js';
import { resolveSites, type Site, type SiteRef } from './sites.js';

/**
 * Origins: where the application runs (spec 4.9 layer 4). A miss at the last cache layer
 * goes to the origin nearest to that layer's site.
 */

/**
 * Default: one origin in Ashburn, Virginia — the eastern-US data-centre hub where most
 * hosting platforms put their default region (AWS us-east-1 and the services built on it).
 * Ashburn is 10 km from the IAD PoP; the coordinates are the town's.
 */
export const DEFAULT_ORIGINS: readonly Site[] = [{ code: 'IAD', city: 'Ashburn', region: 'North America', lat: 39.04, lon: -77.49 }];

export function resolveOrigins(refs: readonly SiteRef[] | undefined, table: readonly Pop[]): Site[] {
  if (refs === undefined) return [...DEFAULT_ORIGINS];
  if (refs.length === 0) throw new UserError('origins: expected at least one origin', ['origins']);
  return resolveSites(refs, table, 'origins');
}

/** For each place, the index of its nearest origin. */
export function nearestOrigins(places: readonly { lat: number; lon: number }[], origins: readonly Site[]): Int32Array {
  return Int32Array.from(places, (place) => nearestIndex(place, origins));
}
