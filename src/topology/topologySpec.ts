import { z } from 'zod';
import { quantity } from '../quantitySchema.js';
import { DURATION_EXPECTED, FRACTION_EXPECTED, parseDuration, parseFraction } from '../units.js';
import { UserError } from '../userError.js';
import { clientCitySchema, DEFAULT_DEMAND_SHARES, DEFAULT_MOBILE_SHARES } from './clients.js';
import { describeIssues } from './dataFiles.js';
import { DEFAULT_LATENCY_PARAMETERS as D } from './latencyParameters.js';
import { popSchema } from './pops.js';
import { DEFAULT_REGIONAL_SITES } from './regionalTier.js';
import { REGIONS, type Region } from './regions.js';
import { DEFAULT_ROUTING_PARAMETERS } from './routing.js';
import { siteSchema } from './sites.js';

/**
 * The topology a scenario describes: which PoPs, the regional tier, the origins, where
 * clients are, routing and every latency parameter. A standalone schema: the scenario
 * file's `topology` section is to map onto it. Every field is optional and defaults to the
 * calibrated model (docs/topology.md); quantities take the scenario file's units (`12ms`,
 * `35%`). The output is a fully resolved TopologySpec for buildTopology().
 */

const duration = (description: string) => quantity((input) => parseDuration(input), DURATION_EXPECTED, description);
const fraction = (description: string) => quantity(parseFraction, FRACTION_EXPECTED, description);
const positive = (description: string) => z.number({ error: 'expected a number > 0' }).positive({ error: 'expected a number > 0' }).meta({ description });
const sigma = (description: string) => z.number({ error: 'expected a sigma from 0 to 3' }).min(0).max(3).meta({ description });

function perRegion<T extends z.ZodType>(value: (region: Region) => T) {
  return z.strictObject(Object.fromEntries(REGIONS.map((region) => [region, value(region)])) as Record<Region, T>);
}

/** Region shares that must add up to 100 %; a region left out gets 0. */
const demandShares = perRegion((region) => fraction(`share of requests from ${region}`).optional()).transform((shares, ctx) => {
  const resolved = Object.fromEntries(REGIONS.map((region) => [region, shares[region] ?? 0])) as Record<Region, number>;
  const total = REGIONS.reduce((sum, region) => sum + resolved[region], 0);
  if (Math.abs(total - 1) > 1e-6) ctx.addIssue({ code: 'custom', message: `expected region shares that add up to 100%, found a total of ${+(total * 100).toFixed(4)}%` });
  return resolved;
});

/** Per-region values where a region left out keeps its default. */
function perRegionWithDefaults<T extends z.ZodType<number, unknown>>(value: (region: Region) => T, defaults: Readonly<Record<Region, number>>) {
  return perRegion((region) => value(region).optional())
    .transform((given) => Object.fromEntries(REGIONS.map((region) => [region, (given as Partial<Record<Region, number>>)[region] ?? defaults[region]])) as Record<Region, number>)
    .prefault({});
}

const code = z.string().regex(/^[A-Z][A-Z0-9]{2,7}$/, { error: 'expected a PoP code of 3 to 8 upper-case letters or digits, such as FRA' });
const country = z.string().regex(/^[A-Z]{2}$/, { error: 'expected an ISO 3166-1 alpha-2 country code such as CN' });
const siteRef = z.union([code, siteSchema], { error: 'expected a PoP code such as FRA or a site {code, city, region, lat, lon}' });

export const popsSection = z.strictObject({
  codes: z.array(code).min(1).optional().meta({ description: 'only these PoPs (codes from data/pops.json)' }),
  regions: z.array(z.enum(REGIONS)).min(1).optional().meta({ description: 'only PoPs in these regions' }),
  countries: z.array(country).min(1).optional().meta({ description: 'only PoPs in these countries' }),
  excludeCountries: z.array(country).optional().meta({ description: "drop PoPs in these countries, e.g. [CN] without the China network" }),
  exclude: z.array(code).optional().meta({ description: 'drop these PoPs' }),
  count: z.number().int().min(1).optional().meta({ description: 'keep this many, spread out (majors first, farthest-point order)' }),
  add: z.array(popSchema).default([]).meta({ description: "the scenario's own PoPs {code, city, country, cca2, region, lat, lon, sizeClass}" }),
});

export const regionalTierSection = z.strictObject({
  enabled: z.boolean().default(true).meta({ description: 'false: PoPs go straight to the origin' }),
  sites: z.array(siteRef).min(1).default([...DEFAULT_REGIONAL_SITES]).meta({ description: 'regional cache sites: PoP codes or {code, city, region, lat, lon}' }),
});

/** Client places and devices; the demand per region comes separately (a scenario's traffic.regions). */
export const clientPlacesShape = {
  mobileShare: perRegionWithDefaults((region) => fraction(`share of mobile requests in ${region}`), DEFAULT_MOBILE_SHARES).meta({
    description: 'share of requests from mobile devices per region (default: StatCounter 2024)',
  }),
  add: z.array(clientCitySchema).default([]).meta({ description: 'extra client places {name, cca2, region, lat, lon, populationM}' }),
};

export const clientsSection = z.strictObject({
  demand: demandShares.default({ ...DEFAULT_DEMAND_SHARES }).meta({ description: 'share of requests per region (default: share of Internet users, ITU 2023)' }),
  ...clientPlacesShape,
});

export const originsList = z.array(siteRef).min(1, { error: 'expected at least one origin' }).meta({ description: 'origin sites (default: one in Ashburn, Virginia)' });

export const routingSection = z.strictObject({
  misrouteProbability: fraction('share of requests anycast sends to a PoP other than the nearest').default(DEFAULT_ROUTING_PARAMETERS.misrouteProbability),
  misrouteCandidates: z.number().int().min(1).default(DEFAULT_ROUTING_PARAMETERS.misrouteCandidates).meta({ description: 'a misrouted request lands on one of this many next-nearest PoPs' }),
});

export const latencySection = z
  .strictObject({
    fibreKmPerMs: positive('speed of light in fibre, km per ms one way (204 = 4.9 µs/km)').default(D.fibreKmPerMs),
    accessRouteInflation: positive('client → PoP path length over great-circle distance').default(D.accessRouteInflation),
    backboneRouteInflation: positive('PoP → regional → origin path length over great-circle distance').default(D.backboneRouteInflation),
    lastMile: perRegionWithDefaults((region) => duration(`median last-mile round trip of a fixed-line client in ${region}`), D.lastMileMedianMs).meta({
      description: 'median last-mile round trip per region (fixed line)',
    }),
    lastMileSigma: sigma('lognormal sigma of the last mile').default(D.lastMileSigma),
    mobileLastMileFactor: positive("a mobile client's last-mile median over a fixed-line one").default(D.mobileLastMileFactor),
    edgeProcessing: duration('time a PoP takes to answer a hit').default(D.edgeProcessingMs),
    regionalProcessing: duration('time a regional site takes to answer a hit').default(D.regionalProcessingMs),
    originService: z
      .strictObject({
        median: duration('median origin service time').default(D.originServiceMedianMs),
        sigma: sigma('lognormal sigma of the origin service time').default(D.originServiceSigma),
      })
      .prefault({}),
  })
  .transform((latency) => ({
    fibreKmPerMs: latency.fibreKmPerMs,
    accessRouteInflation: latency.accessRouteInflation,
    backboneRouteInflation: latency.backboneRouteInflation,
    lastMileMedianMs: latency.lastMile,
    lastMileSigma: latency.lastMileSigma,
    mobileLastMileFactor: latency.mobileLastMileFactor,
    edgeProcessingMs: latency.edgeProcessing,
    regionalProcessingMs: latency.regionalProcessing,
    originServiceMedianMs: latency.originService.median,
    originServiceSigma: latency.originService.sigma,
  }));

export const topologySpecSchema = z
  .strictObject({
    pops: popsSection.prefault({}),
    regionalTier: regionalTierSection.prefault({}),
    origins: originsList.optional(),
    clients: clientsSection.prefault({}),
    routing: routingSection.prefault({}),
    latency: latencySection.prefault({}),
  })
  .meta({ title: 'cdnsim topology', description: 'PoPs, regional tier, origins, clients, routing and the latency model (docs/topology.md).' });

/** The topology as written (units, optional fields). */
export type TopologySpecInput = z.input<typeof topologySpecSchema>;
/** The resolved topology: every default filled in, durations in ms, shares as fractions. */
export type TopologySpec = z.output<typeof topologySpecSchema>;

/** Validates and resolves a topology description; `source` (a file and key) prefixes errors. */
export function parseTopologySpec(input: unknown, source = 'topology'): TopologySpec {
  const parsed = topologySpecSchema.safeParse(input ?? {});
  if (!parsed.success) throw new UserError(describeIssues(source, parsed.error.issues));
  return parsed.data;
}

/** The default topology: all PoPs, the default regional tier and origin, calibrated latency. */
export function defaultTopologySpec(): TopologySpec {
  return parseTopologySpec({});
}
