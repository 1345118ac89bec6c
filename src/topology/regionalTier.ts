import { UserError } from '../userError.js';
import { nearestIndex } from './geo.js';
import type { Pop } from './pops.js';
import { resolveSites, type Site, type SiteRef } from './sites.js';

/**
 * The regional tier (spec 4.9 layer 3): a few large cache sites between the PoPs and the
 * origin, as the large CDNs run them (CloudFront's "regional edge caches", about a dozen;
 * Cloudflare's tiered cache). Each PoP sends its misses to its nearest regional site.
 */

/**
 * Default regional sites (14), co-located with major PoPs and spread over the five regions:
 * North America east, south-central (which also takes Mexico) and west (IAD, DFW, SJC);
 * Europe (FRA) and the Middle East (DXB); Asia-Pacific (NRT, HKG — mainland China's PoPs —,
 * SIN, BOM, SYD); Latin America south (GRU) and north, Andes and Caribbean (BOG); Africa
 * south and east (JNB) and west (LOS). With them a regional hit averages 43 ms, inside the
 * stated 25–50 ms; docs/topology.md shows what fewer sites do.
 */
export const DEFAULT_REGIONAL_SITES: readonly string[] = ['IAD', 'DFW', 'SJC', 'FRA', 'DXB', 'NRT', 'HKG', 'SIN', 'BOM', 'SYD', 'GRU', 'BOG', 'JNB', 'LOS'];

export interface RegionalTierSpec {
  /** false: PoPs go straight to the origin (default true). */
  readonly enabled?: boolean;
  /** PoP codes (co-located) or full sites; default DEFAULT_REGIONAL_SITES. */
  readonly sites?: readonly SiteRef[];
}

export interface RegionalTier {
  readonly enabled: boolean;
  /** The regional sites; empty when the tier is off. */
  readonly sites: readonly Site[];
  /** For each PoP (by index), the index of its regional site; −1 when the tier is off. */
  readonly siteOfPop: Int32Array;
}

/** Maps every PoP to its nearest regional site; `table` (all known PoPs) resolves site codes. */
export function buildRegionalTier(pops: readonly Pop[], table: readonly Pop[], spec: RegionalTierSpec = {}): RegionalTier {
  if (spec.enabled === false) return { enabled: false, sites: [], siteOfPop: new Int32Array(pops.length).fill(-1) };
  const refs = spec.sites ?? DEFAULT_REGIONAL_SITES;
  if (refs.length === 0) throw new UserError('regionalTier.sites: expected at least one regional site (or enabled: false to turn the tier off)', ['regionalTier', 'sites']);
  const sites = resolveSites(refs, table, 'regionalTier.sites');
  return { enabled: true, sites, siteOfPop: Int32Array.from(pops, (pop) => nearestIndex(pop, sites)) };
}

/** For each regional site, the PoPs it serves, in PoP order. */
export function popsServedBy(tier: RegionalTier, pops: readonly Pop[]): Pop[][] {
  const served: Pop[][] = tier.sites.map(() => []);
  pops.forEach((pop, index) => {
    const site = tier.siteOfPop[index];
    if (site >= 0) served[site].push(pop);
  });
  return served;
}
