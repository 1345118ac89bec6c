import { z } from 'zod';
import { nearest } from '../suggest.js';
import { UserError } from '../userError.js';
import type { LatLon } from './geo.js';
import { POP_CODE_PATTERN, type Pop } from './pops.js';
import { REGIONS, type Region } from './regions.js';

/** A place that is not a PoP but sits on the map: a regional cache site or an origin. */
export interface Site extends LatLon {
  readonly code: string;
  readonly city: string;
  readonly region: Region;
}

export const siteSchema = z.strictObject({
  code: z.string().regex(POP_CODE_PATTERN, { error: 'expected a site code of 3 to 8 upper-case letters or digits, such as FRA' }),
  city: z.string().min(1, { error: 'expected the city name' }),
  region: z.enum(REGIONS, { error: `expected one of the five regions: ${REGIONS.join(', ')}` }),
  lat: z.number().min(-90, { error: 'expected a latitude from -90 to 90' }).max(90, { error: 'expected a latitude from -90 to 90' }),
  lon: z.number().min(-180, { error: 'expected a longitude from -180 to 180' }).max(180, { error: 'expected a longitude from -180 to 180' }),
});

/** A site given as the code of a PoP in the table (co-located with it) or in full. */
export type SiteRef = string | Site;

/** Resolves site references against the full PoP table; `field` names the list in errors. Codes must be unique. */
export function resolveSites(refs: readonly SiteRef[], table: readonly Pop[], field: string): Site[] {
  const byCode = new Map(table.map((pop) => [pop.code, pop]));
  const sites = refs.map((ref, index): Site => {
    if (typeof ref !== 'string') return ref;
    const pop = byCode.get(ref);
    if (!pop) {
      const guess = nearest(ref, [...byCode.keys()]);
      throw new UserError(`${field}[${index}]: no PoP with code '${ref}' to place the site at${guess ? `; did you mean '${guess}'?` : ''} (or give {code, city, region, lat, lon})`, [...field.split('.'), index]);
    }
    return { code: pop.code, city: pop.city, region: pop.region, lat: pop.lat, lon: pop.lon };
  });
  const seen = new Set<string>();
  sites.forEach((site, index) => {
    if (seen.has(site.code)) throw new UserError(`${field}[${index}]: ${site.code} is listed twice`, [...field.split('.'), index]);
    seen.add(site.code);
  });
  return sites;
}
