import { z } from 'zod';
import { quantity } from '../quantitySchema.js';
import { ONLINE_CACHE_POLICY_NAMES, type OnlineCachePolicyName } from '../cache/registry.js';
import { DEPLOYMENT_KINDS } from '../policy/deployment.js';
import { HEADER_PROFILES } from '../policy/profiles.js';
import { DEFAULT_DEMAND_SHARES } from '../topology/clients.js';
import { requestAttributesSection } from '../workload/requests/requestAttributesSchema.js';
import { arrivalShapeFields } from '../workload/arrivals/arrivalsSchema.js';
import { contentClassesSchema } from '../workload/content/contentSchema.js';
import { incidentEntriesSchema } from '../workload/incidents/incidentSchema.js';
import { expandIncidents } from '../workload/incidents/incidentRepeat.js';
import { formatSimTime } from '../workload/incidents/simTime.js';
import { expectSchema } from './expectSchema.js';
import { clockedParts, steadyWarmupIssues, warmupCoversRunProblem, warmupSchema, type Warmup } from './warmupSchema.js';
import { strategiesSchema, strategyClassProblems } from './strategySchema.js';
import { adaptiveClassProblems, adaptiveTtlSchema } from './adaptiveSchema.js';
import { REGIONS, type Region } from '../topology/regions.js';
import {
  clientPlacesShape,
  latencySection as topologyLatencySection,
  originsList,
  popsSection,
  regionalTierSection,
  routingSection,
  type TopologySpec,
} from '../topology/topologySpec.js';
import {
  COUNT_EXPECTED,
  DURATION_EXPECTED,
  FRACTION_EXPECTED,
  RATE_EXPECTED,
  SIZE_EXPECTED,
  parseCount,
  parseDuration,
  parseFraction,
  parseRate,
  parseSize,
} from '../units.js';

/**
 * The scenario file schema. Every object is strict (an unknown key is an error with a
 * suggestion), every quantity accepts human units, and every default is filled in here,
 * so the rest of the program sees one fully resolved `Scenario`.
 */

const size = (description: string) => quantity(parseSize, SIZE_EXPECTED, description);
/** A cache's byte capacity: 0 would make a cache that stores nothing, which no run means. */
const cacheCapacity = (description: string, withoutIt: string) =>
  size(description).refine((bytes) => bytes > 0, { error: `expected a capacity above 0 bytes (a cache of 0 stores nothing); ${withoutIt}` });
/** Per-node capacities (docs/plan.md): by region, and by a node's code (checked against the topology when the file loads). */
const capacityByRegion = (layer: string) =>
  perRegion((region) => cacheCapacity(`byte capacity of each ${layer} cache in ${region}`, `leave ${region} out to keep the layer's capacity there`).optional());
const capacityByCode = (node: string, example: string) =>
  z.record(z.string().regex(/^[A-Z][A-Z0-9]{2,7}$/, { error: `expected a ${node} code of 3 to 8 upper-case letters or digits, such as ${example}` }), cacheCapacity(`byte capacity of this ${node}'s cache`, `leave the ${node} out to keep its region's or the layer's capacity`));
const duration = (description: string) => quantity((v) => parseDuration(v), DURATION_EXPECTED, description);
const rate = (description: string) => quantity(parseRate, RATE_EXPECTED, description);
const fraction = (description: string) => quantity(parseFraction, FRACTION_EXPECTED, description);

/** Default demand shares by region: each region's share of Internet users (ITU 2023; src/topology/clients.ts). */
export const DEFAULT_REGION_SHARES: Readonly<Record<Region, number>> = DEFAULT_DEMAND_SHARES;

/**
 * Default client→edge latency medians of the regions model (ms). With the default lognormal jitter (sigma 0.35,
 * mean = median × e^(σ²/2) ≈ 1.063 × median) each region's mean edge-hit latency lands near
 * the middle of its stated range (spec 1.1).
 */
export const DEFAULT_CLIENT_TO_EDGE_MEDIAN_MS: Readonly<Record<Region, number>> = {
  'North America': 16.5,
  Europe: 20,
  'Asia-Pacific': 23.5,
  'Latin America': 28,
  Africa: 35,
};

function perRegion<T extends z.ZodType>(value: (region: Region) => T) {
  const shape = Object.fromEntries(REGIONS.map((region) => [region, value(region)])) as Record<Region, T>;
  return z.strictObject(shape);
}

const regionShares = perRegion((region) =>
  fraction(`share of requests from ${region}`).optional(),
).transform((shares, ctx) => {
  const resolved = Object.fromEntries(REGIONS.map((region) => [region, shares[region] ?? 0])) as Record<Region, number>;
  const total = REGIONS.reduce((sum, region) => sum + resolved[region], 0);
  if (Math.abs(total - 1) > 1e-6) {
    ctx.addIssue({
      code: 'custom',
      message: `expected region shares that add up to 100%, found a total of ${+(total * 100).toFixed(4)}%`,
    });
    return z.NEVER;
  }
  return resolved;
});

export type { Warmup } from './warmupSchema.js';

/** Requests in a run when a scenario sets neither `run.requests` nor `run.duration`. */
export const DEFAULT_RUN_REQUESTS = 1_000_000;

const runSection = z
  .strictObject({
    requests: quantity(parseCount, COUNT_EXPECTED, 'stop after this many requests, warm-up included (2000000, 2M, 500k)')
      .refine((n) => n > 0, { error: 'expected at least 1 request' })
      .optional(),
    duration: duration('stop at this simulated time').optional(),
    warmup: warmupSchema.default({ kind: 'requests', requests: 0 }),
    curves: z
      .boolean()
      .default(false)
      .meta({ description: "write curves.csv: every LRU edge and regional cache's hit ratio at every capacity, from byte stack distances (docs/curves.md; `cdnsim run --curves`)" }),
  })
  .transform((run) => ({
    requests: run.requests ?? (run.duration === undefined ? DEFAULT_RUN_REQUESTS : undefined),
    durationMs: run.duration,
    warmup: run.warmup,
    curves: run.curves,
  }));

const trafficSection = z.strictObject({
  rate: rate('mean request rate over all regions (Poisson arrivals; the mean over a week when the arrivals are shaped); at most 10M/s, a flash crowd included (docs/outputs.md)').default(20_000),
  regions: regionShares.default({ ...DEFAULT_REGION_SHARES }).meta({ description: 'share of requests per region; the shares add up to 100%' }),
  ...arrivalShapeFields,
  clients: requestAttributesSection.optional().meta({
    description:
      'a population of clients: returning visitors with browser caches (spec 4.9 layer 1), device and AVIF variants (4.4, 4.5), range requests for media (4.8); absent: every request from a new anonymous client, whole objects, no variants',
  }),
});

/** Largest catalogue a scenario may ask for. */
export const MAX_CATALOGUE_OBJECTS = 20_000_000;

const objectSizeSection = z
  .strictObject({
    median: size('median object size').default(32_000),
    sigma: z.number().min(0).default(1).meta({ description: 'sigma of the lognormal size distribution (0: every object has the median size)' }),
    min: size('smallest object size').default(100),
    max: size('largest object size').default(100_000_000),
  })
  .superRefine((sizes, ctx) => {
    if (sizes.min > sizes.max) ctx.addIssue({ code: 'custom', path: ['min'], message: `expected min (${sizes.min} B) not above max (${sizes.max} B)` });
    else if (sizes.median < sizes.min || sizes.median > sizes.max) {
      ctx.addIssue({ code: 'custom', path: ['median'], message: `expected a median between min (${sizes.min} B) and max (${sizes.max} B)` });
    }
  });

const HEADER_PROFILE_NAMES = [...HEADER_PROFILES.keys()] as [string, ...string[]];

/** The response headers the origin sends for the catalogue's objects (spec 4.3, 8.1, 8.2 profiles). */
const headersSection = z.strictObject({
  profile: z.enum(HEADER_PROFILE_NAMES).default('guidance-static-assets').meta({
    description: 'named header profile: spec 4.3 framework defaults, spec 8.1 guidance rows, spec 8.2 container rules, or no-cache-headers',
  }),
  fields: z
    .record(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, { error: 'expected a header field name such as Cache-Control' }), z.string())
    .default({})
    .meta({ description: 'response header fields that replace the same fields of the profile, e.g. {Cache-Control: "public, max-age=600"}' }),
});

const DEFAULT_CATALOGUE_OBJECTS = 100_000;
const DEFAULT_ZIPF_EXPONENT = 0.8;
/** The single-class keys of `content`; with `content.classes` each class sets its own. */
const SINGLE_CLASS_KEYS = ['objects', 'zipfExponent', 'objectSize', 'headers'] as const;

/** Traffic recorded from a real site (a HAR export or an access log): its URLs, sizes and response headers as the content. */
const recordedSection = z
  .strictObject({
    file: z.string().min(1, { error: 'expected a file name' }).meta({ description: 'a HAR export (.har) or an access log (Common/Combined Log Format), relative to the scenario file' }),
    format: z.enum(['har', 'access-log']).optional().meta({ description: 'har or access-log; default: har for a .har file, else access-log' }),
    use: z.enum(['amplify', 'replay']).default('amplify').meta({
      description:
        "amplify: the file's GET URLs are the catalogue, asked for by traffic.* (rate, shape, clients) with `popularity`; replay: the file's GET requests once, at their recorded times (÷ speed), from clients placed by traffic.regions",
    }),
    popularity: z.enum(['zipf', 'observed']).default('zipf').meta({
      description: "amplify: zipf over the URLs ranked by how often the file asks for them, or observed (as often as in the file)",
    }),
    zipfExponent: z.number().min(0).max(5).default(DEFAULT_ZIPF_EXPONENT).meta({ description: 'amplify with popularity zipf: the exponent (default 0.8)' }),
    speed: z.number().positive({ error: 'expected a speed above 0' }).default(1).meta({ description: 'replay: 2 plays the recording twice as fast' }),
    skipBad: z.number().int().min(0).default(0).meta({ description: 'malformed HAR entries or log lines to skip (and count) before giving up' }),
  })
  .transform((recorded) => ({
    file: recorded.file,
    format: recorded.format ?? (recorded.file.toLowerCase().endsWith('.har') ? ('har' as const) : ('access-log' as const)),
    use: recorded.use,
    popularity: recorded.popularity === 'zipf' ? { kind: 'zipf' as const, exponent: recorded.zipfExponent } : { kind: 'observed' as const },
    speed: recorded.speed,
    skipBad: recorded.skipBad,
  }));

/** The resolved `content.recorded` section. */
export type RecordedContent = z.output<typeof recordedSection>;

const contentSection = z
  .strictObject({
    // About 60 bytes per object for the catalogue plus 24 per object per edge cache: 20 M
    // objects stay within a few GB. More is a mistake rather than a plan.
    objects: z.number().int().positive().max(MAX_CATALOGUE_OBJECTS).optional().meta({ description: 'number of distinct objects in the catalogue (default 100000)' }),
    zipfExponent: z.number().min(0).max(5).optional().meta({ description: 'Zipf popularity exponent (default 0.8; 0.6–1.0 is typical of web traffic)' }),
    objectSize: objectSizeSection.optional(),
    headers: headersSection.optional(),
    classes: contentClassesSchema.optional().meta({
      description:
        'content classes, each with its own paths, sizes, popularity, share of requests and headers (presets: static-asset, image, font, html, api, media, download); replaces objects, zipfExponent, objectSize and headers',
    }),
    recorded: recordedSection.optional().meta({
      description: "a site's real traffic as its content: a HAR export or access log, amplified to many clients or replayed; replaces classes and the single-class keys",
    }),
  })
  .superRefine((content, ctx) => {
    if (content.recorded !== undefined) {
      for (const key of [...SINGLE_CLASS_KEYS, 'classes'] as const) {
        if (content[key] === undefined) continue;
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `expected no \`${key}\` beside content.recorded: the recording gives the URLs, sizes and headers (remove one of them)`,
        });
      }
      return;
    }
    if (content.classes === undefined) return;
    for (const key of SINGLE_CLASS_KEYS) {
      if (content[key] === undefined) continue;
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: `expected no \`${key}\` beside content.classes: each class sets its own (move it into the classes, or remove classes)`,
      });
    }
  })
  .transform((content) => ({
    objects: content.objects ?? DEFAULT_CATALOGUE_OBJECTS,
    zipfExponent: content.zipfExponent ?? DEFAULT_ZIPF_EXPONENT,
    objectSize: content.objectSize ?? objectSizeSection.parse({}),
    headers: content.headers ?? headersSection.parse({}),
    ...(content.classes === undefined ? {} : { classes: content.classes }),
    ...(content.recorded === undefined ? {} : { recorded: content.recorded }),
  }));

const edgeSection = z.strictObject({
  policy: z.enum(ONLINE_CACHE_POLICY_NAMES as [OnlineCachePolicyName, ...OnlineCachePolicyName[]]).default('lru').meta({ description: 'eviction policy of each edge cache' }),
  capacity: cacheCapacity('byte capacity of each edge cache', 'to see the origin without a CDN, run a container deployment with cdn: false (spec 1.3)').default(1_000_000_000),
  capacityByRegion: capacityByRegion('edge').optional().meta({ description: "byte capacity of the edge caches of a region, replacing `capacity` there (docs/plan.md)" }),
  capacityByPop: capacityByCode('PoP', 'FRA').optional().meta({ description: "byte capacity of one PoP's edge cache by its code, replacing `capacityByRegion` and `capacity` (model pops; docs/plan.md; `cdnsim plan` writes it)" }),
});

/** spec 1.3: what kind of deployment the CDN is in front of. */
const deploymentSection = z
  .strictObject({
    kind: z.enum(DEPLOYMENT_KINDS as ['full-stack', 'static', 'container']).default('full-stack').meta({ description: 'full-stack framework, static site generation, or container (spec 1.3)' }),
    framework: z.string().regex(/^[A-Za-z0-9._-]+$/, { error: 'expected a path segment such as next or nuxt' }).default('next').meta({
      description: 'framework path segment without the underscore (spec 4.3: /_<framework>/static/*)',
    }),
    cdn: z.boolean().default(true).meta({ description: 'CDN enabled; only a container deployment may disable it (spec 1.3)' }),
  })
  .superRefine((deployment, ctx) => {
    if (!deployment.cdn && deployment.kind !== 'container') {
      ctx.addIssue({ code: 'custom', path: ['cdn'], message: 'expected cdn: true; only a container deployment can run without the CDN (spec 1.3)' });
    }
  });

export const EDGE_SITE_LAYOUTS = ['per-region', 'single'] as const;

/**
 * `pops`: the physical model of src/topology (PoPs on a map, a regional tier, origins,
 * routing and calibrated latency; docs/topology.md). `regions`: one edge cache per region
 * (or one for all) with a lognormal edge latency per region and a fixed origin latency, the
 * model whose edge caches Che's approximation and the TTL formula describe.
 */
export const TOPOLOGY_MODELS = ['pops', 'regions'] as const;
export type TopologyModel = (typeof TOPOLOGY_MODELS)[number];

const POPS_MODEL_KEYS = ['pops', 'regionalTier', 'origins', 'clients', 'routing', 'latency'] as const;
const REGIONS_MODEL_KEYS = ['edgeSites', 'clientToEdge', 'jitter', 'originLatency'] as const;

const topologySection = z
  .strictObject({
    model: z.enum(TOPOLOGY_MODELS).default('pops').meta({
      description: 'pops: PoPs on a map with a regional tier and physical latency (docs/topology.md); regions: one edge per region with fixed latency medians',
    }),
    pops: popsSection.optional().meta({ description: 'model pops: which PoPs (default: all of data/pops.json)' }),
    regionalTier: regionalTierSection.optional().meta({ description: 'model pops: the regional cache tier (spec 4.9 layer 3)' }),
    origins: originsList.optional(),
    clients: z.strictObject(clientPlacesShape).optional().meta({ description: 'model pops: mobile shares and extra client places (demand per region is traffic.regions)' }),
    routing: routingSection.optional().meta({ description: 'model pops: anycast misrouting' }),
    latency: topologyLatencySection.optional().meta({ description: 'model pops: the physical latency parameters (docs/topology.md)' }),
    edgeSites: z.enum(EDGE_SITE_LAYOUTS).optional().meta({
      description: "model regions: per-region: one edge cache per region, clients use their own region's; single: one edge cache for all clients",
    }),
    clientToEdge: perRegion((region) => duration(`median client→edge latency in ${region}`).optional())
      .optional()
      .meta({ description: 'model regions: median time to first byte of an edge hit per region' }),
    jitter: z.number().min(0).max(3).optional().meta({ description: 'model regions: sigma of the lognormal spread around each median (0: fixed latency)' }),
    originLatency: duration('model regions: time from the edge asking the origin to the first byte back (fixed)').optional(),
  })
  .superRefine((topology, ctx) => {
    const [own, other] = topology.model === 'pops' ? [POPS_MODEL_KEYS, REGIONS_MODEL_KEYS] : [REGIONS_MODEL_KEYS, POPS_MODEL_KEYS];
    for (const key of other) {
      if (topology[key] === undefined) continue;
      const model = topology.model === 'pops' ? 'regions' : 'pops';
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message:
          `expected no \`${key}\` under model: ${topology.model} (its keys are ${own.join(', ')}); \`${key}\` belongs to model: ${model}` +
          ` — add \`model: ${model}\` or remove \`${key}\``,
      });
    }
  })
  .transform((topology): ScenarioTopology => {
    if (topology.model === 'regions') {
      return {
        model: 'regions',
        edgeSites: topology.edgeSites ?? 'per-region',
        clientToEdge: Object.fromEntries(
          REGIONS.map((region) => [region, topology.clientToEdge?.[region] ?? DEFAULT_CLIENT_TO_EDGE_MEDIAN_MS[region]]),
        ) as Record<Region, number>,
        jitter: topology.jitter ?? DEFAULT_REGIONS_JITTER,
        originLatencyMs: topology.originLatency ?? DEFAULT_REGIONS_ORIGIN_LATENCY_MS,
      };
    }
    return {
      model: 'pops',
      pops: topology.pops ?? popsSection.parse({}),
      regionalTier: topology.regionalTier ?? regionalTierSection.parse({}),
      ...(topology.origins === undefined ? {} : { origins: topology.origins }),
      clients: topology.clients ?? z.strictObject(clientPlacesShape).parse({}),
      routing: topology.routing ?? routingSection.parse({}),
      latency: topology.latency ?? topologyLatencySection.parse({}),
    };
  });

/** Lognormal sigma of the regions model's edge latency. */
export const DEFAULT_REGIONS_JITTER = 0.35;
/** The regions model's fixed origin latency (edge → origin → edge), ms. */
export const DEFAULT_REGIONS_ORIGIN_LATENCY_MS = 100;

/** The regions model: edge caches per region and fixed latency medians. */
export interface RegionsTopology {
  model: 'regions';
  edgeSites: (typeof EDGE_SITE_LAYOUTS)[number];
  /** Median edge-hit latency per region, ms. */
  clientToEdge: Record<Region, number>;
  jitter: number;
  originLatencyMs: number;
}

/** The PoP model: a TopologySpec without demand (the scenario's traffic.regions is the demand). */
export type PopsTopology = { model: 'pops' } & Omit<TopologySpec, 'clients'> & { clients: Omit<TopologySpec['clients'], 'demand'> };

export type ScenarioTopology = RegionsTopology | PopsTopology;

/** The regional caches of the PoP model (spec 4.9 layer 3). */
const regionalSection = z.strictObject({
  policy: z.enum(ONLINE_CACHE_POLICY_NAMES as [OnlineCachePolicyName, ...OnlineCachePolicyName[]]).default('lru').meta({ description: 'eviction policy of each regional cache' }),
  capacity: cacheCapacity('byte capacity of each regional cache', 'to run without the regional tier, set topology.regionalTier.enabled: false').default(20_000_000_000),
  capacityByRegion: capacityByRegion('regional').optional().meta({ description: 'byte capacity of the regional sites of a region, replacing `capacity` there (docs/plan.md)' }),
  capacityBySite: capacityByCode('regional site', 'FRA').optional().meta({ description: "byte capacity of one regional site's cache by its code, replacing `capacityByRegion` and `capacity` (docs/plan.md; `cdnsim plan --regional-hit-ratio` writes it)" }),
});

/** How the CDN's nodes behave on the simulated clock (src/cdn/layeredFlow.ts). */
const cdnSection = z.strictObject({
  coalescing: z.boolean({ error: 'expected true or false' }).default(true).meta({
    description: 'a request for a key already being fetched at a node waits for that fetch (request coalescing); false: every miss goes upstream (the thundering herd)',
  }),
  validators: z.boolean({ error: 'expected true or false' }).default(true).meta({
    description: 'the origin sends validators (ETag), so a stale copy is revalidated with a conditional request and an unchanged object costs a 304 without a body; false: every refresh is a full response (spec 8.2 rule 1 turns validators off)',
  }),
  purgeDelay: duration('how long a purge takes to reach every node after a deploy with purge: true (spec 1.2 item 6)').default(2_000),
  adaptiveTtl: adaptiveTtlSchema.optional(),
}).transform((cdn) => ({ coalescing: cdn.coalescing, validators: cdn.validators, purgeDelayMs: cdn.purgeDelay, ...(cdn.adaptiveTtl === undefined ? {} : { adaptiveTtl: cdn.adaptiveTtl }) }));

/** What a run records beside its totals (src/metrics/timeSeries.ts, docs/outputs.md). */
const metricsSection = z
  .strictObject({
    interval: duration('length of one row of timeseries.csv, in simulated time (at least 1s)')
      .refine((ms) => ms >= 1_000, { error: 'expected an interval of at least 1s (one row of timeseries.csv per interval)' })
      .default(60_000),
  })
  .transform((metrics) => ({ intervalMs: metrics.interval }));

export const scenarioSchema = z
  .strictObject({
    $schema: z.string().optional().meta({ description: 'path or URL of this JSON Schema, for editors' }),
    name: z.string().min(1).max(100, { error: 'expected a name of at most 100 characters (it names the results folder)' }).regex(/^[A-Za-z0-9._-]+$/, { error: 'expected a name of letters, digits, ".", "_" or "-" (it names the results folder)' })
      // "." and ".." would put the run folder in results/ itself or above it.
      .refine((name) => !/^\.+$/.test(name), { error: 'expected a name with a letter, digit, "_" or "-": a name of dots only names a folder outside results/' })
      .optional(),
    description: z.string().optional(),
    modelsService: z
      .boolean()
      .default(false)
      .meta({
        description:
          "true when the scenario models the service itself (its PoPs, latencies and lifetimes, as scenarios/baseline.yaml does): `cdnsim run` then prints the whole stated-figures table; otherwise one line of verdicts and stated.csv (run --stated shows the table; docs/stated-figures.md)",
      }),
    seed: z.number().int().min(0).max(2 ** 53 - 1).default(1).meta({ description: 'master seed: the same scenario and seed give the same summary.json' }),
    run: runSection.prefault({}),
    traffic: trafficSection.prefault({}),
    deployment: deploymentSection.prefault({}),
    content: contentSection.prefault({}),
    edge: edgeSection.prefault({}),
    regional: regionalSection.prefault({}),
    topology: topologySection.prefault({}),
    cdn: cdnSection.prefault({}).meta({ description: 'request coalescing, revalidation and purge propagation at every CDN node' }),
    metrics: metricsSection.prefault({}).meta({ description: 'the time series of the run folder (timeseries.csv)' }),
    incidents: incidentEntriesSchema,
    expect: expectSchema.default({}),
    strategies: strategiesSchema.optional(),
  })
  .superRefine((scenario, ctx) => {
    for (const issue of steadyWarmupIssues(scenario.run.warmup, clockedParts(scenario))) ctx.addIssue({ code: 'custom', ...issue });
    const coversRun = warmupCoversRunProblem(scenario.run);
    if (coversRun !== null) ctx.addIssue({ code: 'custom', path: ['run', 'warmup'], message: coversRun });
    // A replay sends the recorded requests as they were: nothing of the traffic section's own requests applies.
    if (scenario.content.recorded?.use === 'replay') {
      if (scenario.traffic.clients !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['traffic', 'clients'], message: 'expected no clients with content.recorded use: replay (each recorded request is sent once, as recorded); use: amplify takes them' });
      }
      if (scenario.traffic.flashCrowds.length > 0) {
        ctx.addIssue({ code: 'custom', path: ['traffic', 'flashCrowds'], message: 'expected no flash crowds with content.recorded use: replay (the recording has its own peaks); use: amplify takes them' });
      }
    }
    // A deploy names content classes: those the scenario has.
    const classNames = scenario.content.classes === undefined ? (scenario.content.recorded === undefined ? ['objects'] : undefined) : scenario.content.classes.map((klass) => klass.name);
    // So do custom TTL strategies (src/scenario/strategySchema.ts).
    if (classNames !== undefined && scenario.strategies !== undefined) {
      for (const problem of strategyClassProblems(scenario.strategies, classNames, (scenario.content.classes ?? []).filter((klass) => klass.queries !== undefined).map((klass) => klass.name))) ctx.addIssue({ code: 'custom', path: ['strategies', ...problem.path], message: problem.message });
    }
    if (classNames !== undefined && scenario.cdn.adaptiveTtl !== undefined) {
      for (const problem of adaptiveClassProblems(scenario.cdn.adaptiveTtl, classNames)) ctx.addIssue({ code: 'custom', path: ['cdn', 'adaptiveTtl', ...problem.path], message: problem.message });
    }
    // Repeated incidents become occurrences up to the run's end (src/workload/incidents/incidentRepeat.ts).
    for (const issue of expandIncidents(scenario.incidents, incidentClockEndMs(scenario.run)).issues) ctx.addIssue({ code: 'custom', ...issue, path: ['incidents', ...issue.path] });
    if (classNames !== undefined) {
      scenario.incidents.forEach((incident, index) => {
        if (incident.kind !== 'deploy') return;
        incident.classes.forEach((name, j) => {
          if (classNames.includes(name)) return;
          ctx.addIssue({ code: 'custom', path: ['incidents', index, 'classes', j], message: `expected a content class of this scenario (${classNames.join(', ')}), found ${JSON.stringify(name)}` });
        });
      });
    }
    // What starts at or after the run's end never happens: its row would read "0 requests, availability 100 %".
    const endMs = incidentClockEndMs(scenario.run);
    if (endMs !== undefined) {
      const never = (startMs: number): string => `expected a time before the run's end at ${formatSimTime(endMs)}, found ${formatSimTime(startMs)}, so it would never happen; move it earlier or lengthen run.duration`;
      scenario.incidents.forEach((incident, index) => {
        const startMs = incident.kind === 'deploy' ? incident.atMs : incident.startMs;
        if (startMs >= endMs) ctx.addIssue({ code: 'custom', path: ['incidents', index, incident.kind === 'deploy' ? 'at' : 'start'], message: never(startMs) });
      });
      scenario.traffic.flashCrowds.forEach((crowd, index) => {
        if (crowd.start >= endMs) ctx.addIssue({ code: 'custom', path: ['traffic', 'flashCrowds', index, 'start'], message: never(crowd.start) });
      });
    }
    // Flash crowds name objects of the catalogue: checked here, where both sections are known.
    scenario.traffic.flashCrowds.forEach((crowd, index) => {
      const path = ['traffic', 'flashCrowds', index, 'objects'];
      if (crowd.objects.kind === 'ids' && scenario.content.recorded === undefined) {
        const objects = scenario.content.classes === undefined ? scenario.content.objects : scenario.content.classes.reduce((sum, c) => sum + c.objects, 0);
        const outside = crowd.objects.ids.findIndex((id) => id >= objects);
        if (outside >= 0) {
          ctx.addIssue({ code: 'custom', path: [...path, 'ids', outside], message: `expected an object id below the catalogue's ${objects} objects` });
        }
      } else if (crowd.objects.kind === 'class') {
        ctx.addIssue({ code: 'custom', path: [...path, 'class'], message: 'expected top or ids: runs have one class of content so far, so a crowd cannot name a class' });
      }
    });
    // Only on a scenario whose sections parsed: after an issue inside one (a flash crowd's
    // multiplier out of range, say), its values are the raw input, not the resolved shape.
  }, { when: (payload) => payload.issues.length === 0 })
  .transform((scenario) => ({ ...scenario, incidents: expandIncidents(scenario.incidents, incidentClockEndMs(scenario.run)).incidents }))
  .meta({ title: 'cdnsim scenario', description: 'One simulated CDN run: traffic, content, caches, latency and run length.' });

/**
 * The run's end on the incidents' clock as the file states it: `run.duration`, after a
 * cache-only warm-up of fixed length (which runs on the same clock first); undefined when a
 * request count ends the run or the warm-up, whose time is not known in advance.
 */
export function incidentClockEndMs(run: { durationMs?: number; warmup: Warmup }): number | undefined {
  if (run.durationMs === undefined) return undefined;
  if (run.warmup.kind !== 'caches') return run.durationMs;
  return run.warmup.length.kind === 'time' ? run.warmup.length.ms + run.durationMs : undefined;
}

/** A scenario as written in a file (before defaults and units are resolved). */
export type ScenarioInput = z.input<typeof scenarioSchema>;

/** A fully resolved scenario: every default filled, every quantity in base units (bytes, ms, per second). */
export type Scenario = Omit<z.output<typeof scenarioSchema>, 'name' | '$schema'> & { name: string };
