import { requestAttributesToInput } from '../workload/requests/requestAttributesSchema.js';
import { REGIONS } from '../topology/regions.js';
import { incidentsToInput } from '../workload/incidents/incidentSchema.js';
import { expectToInput } from './expectSchema.js';
import type { ArrivalShape, ArrivalShapeInput } from '../workload/arrivals/arrivalsSchema.js';
import type { ContentClass } from '../workload/content/contentClasses.js';
import type { ContentClassInput } from '../workload/content/contentSchema.js';
import { querySpecInput } from '../workload/content/querySchema.js';
import type { RecordedContent, Scenario, ScenarioInput, ScenarioTopology } from './schema.js';
import { strategiesToInput } from './strategySchema.js';
import { warmupToInput } from './warmupSchema.js';
import { adaptiveTtlToInput } from './adaptiveSchema.js';

const ms = (value: number): string => `${value}ms`;

/** A per-region mapping without the regions it leaves out. */
const definedOnly = <T>(values: Readonly<Record<string, T | undefined>>): Record<string, T> =>
  Object.fromEntries(Object.entries(values).filter((entry): entry is [string, T] => entry[1] !== undefined));

/**
 * A resolved scenario written back as scenario-file input (bytes and per-second numbers,
 * durations in ms): loading it again gives the same scenario. Run folders keep it as
 * scenario.json so a run can be repeated from its folder alone.
 */
export function scenarioToInput(scenario: Scenario): ScenarioInput {
  return {
    name: scenario.name,
    ...(scenario.description === undefined ? {} : { description: scenario.description }),
    ...(scenario.modelsService ? { modelsService: true } : {}),
    seed: scenario.seed,
    run: {
      ...(scenario.run.requests === undefined ? {} : { requests: scenario.run.requests }),
      ...(scenario.run.durationMs === undefined ? {} : { duration: ms(scenario.run.durationMs) }),
      warmup: warmupToInput(scenario.run.warmup),
      ...(scenario.run.curves ? { curves: true } : {}),
    },
    traffic: {
      rate: scenario.traffic.rate,
      regions: Object.fromEntries(REGIONS.map((region) => [region, scenario.traffic.regions[region]])),
      ...arrivalShapeToInput(scenario.traffic),
      ...(scenario.traffic.clients === undefined ? {} : { clients: requestAttributesToInput(scenario.traffic.clients) }),
    },
    deployment: { ...scenario.deployment },
    content: scenario.content.recorded
      ? { recorded: recordedToInput(scenario.content.recorded) }
      : scenario.content.classes === undefined
        ? {
            objects: scenario.content.objects,
            zipfExponent: scenario.content.zipfExponent,
            objectSize: { ...scenario.content.objectSize },
            headers: { profile: scenario.content.headers.profile, fields: { ...scenario.content.headers.fields } },
          }
        : { classes: scenario.content.classes.map(contentClassToInput) },
    edge: {
      policy: scenario.edge.policy,
      capacity: scenario.edge.capacity,
      ...(scenario.edge.capacityByRegion === undefined ? {} : { capacityByRegion: definedOnly(scenario.edge.capacityByRegion) }),
      ...(scenario.edge.capacityByPop === undefined ? {} : { capacityByPop: { ...scenario.edge.capacityByPop } }),
    },
    regional: {
      policy: scenario.regional.policy,
      capacity: scenario.regional.capacity,
      ...(scenario.regional.capacityByRegion === undefined ? {} : { capacityByRegion: definedOnly(scenario.regional.capacityByRegion) }),
      ...(scenario.regional.capacityBySite === undefined ? {} : { capacityBySite: { ...scenario.regional.capacityBySite } }),
    },
    topology: topologyToInput(scenario.topology),
    cdn: {
      coalescing: scenario.cdn.coalescing,
      validators: scenario.cdn.validators,
      purgeDelay: ms(scenario.cdn.purgeDelayMs),
      ...(scenario.cdn.adaptiveTtl === undefined ? {} : { adaptiveTtl: adaptiveTtlToInput(scenario.cdn.adaptiveTtl) }),
    },
    metrics: { interval: ms(scenario.metrics.intervalMs) },
    incidents: incidentsToInput(scenario.incidents),
    ...(Object.keys(scenario.expect).length === 0 ? {} : { expect: expectToInput(scenario.expect) }),
    ...(scenario.strategies === undefined ? {} : { strategies: strategiesToInput(scenario.strategies) }),
  };
}

function arrivalShapeToInput(shape: ArrivalShape): ArrivalShapeInput {
  const { diurnal } = shape;
  return {
    start: new Date(shape.start).toISOString(),
    diurnal: diurnal.kind === 'off' ? 'off' : diurnal.kind === 'hourly' ? { hourly: [...diurnal.hourly] } : { peakHour: diurnal.peakHour, troughHour: diurnal.troughHour, peakToTrough: diurnal.peakToTrough },
    weekly: [...shape.weekly],
    growth: { rate: shape.growth.rate, per: ms(shape.growth.per) },
    flashCrowds: shape.flashCrowds.map((crowd) => ({
      start: ms(crowd.start),
      duration: ms(crowd.duration),
      multiplier: crowd.multiplier,
      ...(crowd.region === null ? {} : { region: crowd.region }),
      ...(crowd.objects.kind === 'top' ? { objects: { top: crowd.objects.top } } : crowd.objects.kind === 'ids' ? { objects: { ids: [...crowd.objects.ids] } } : {}),
      rampUp: ms(crowd.rampUp),
      rampDown: ms(crowd.rampDown),
    })),
  };
}

/** A resolved class written in full (every field), so loading it needs no preset defaults. */
function contentClassToInput(klass: ContentClass): ContentClassInput {
  const perSecond = (rate: number) => (rate === 0 ? 0 : `${rate}/s`);
  const traffic = klass.traffic;
  // The fields every class has, in the order a file lists them: who it is, then how its objects are served.
  const identity = { name: klass.name, preset: klass.preset, share: klass.share };
  const serving = {
    path: klass.path,
    fileTypes: klass.fileTypes.map((fileType) => ({ ...fileType })),
    rendering: klass.rendering,
    rangeRequests: klass.rangeRequests,
    headers: { profile: klass.headers.profile, fields: { ...klass.headers.fields } },
  };
  const queries = klass.queries === undefined ? {} : { queries: querySpecInput(klass.queries) };
  if (traffic !== undefined) {
    // A model class's objects, popularity, sizes and churn are its model's (docs/traffic-models.md); a folder is written absolute, so the run folder's scenario.json finds it.
    return {
      ...identity,
      ...serving,
      ...queries,
      model: traffic.folder ?? traffic.model,
      fidelity: traffic.fidelity,
      sharing: traffic.sharing,
      sharingWindow: traffic.sharingWindow,
      ...(traffic.depthCapBytes === undefined ? {} : { depthCap: traffic.depthCapBytes }),
    };
  }
  return {
    ...identity,
    objects: klass.objects,
    zipfExponent: klass.zipfExponent,
    size: { ...klass.size },
    ...serving,
    churn: {
      newObjects: perSecond(klass.churn.newObjectsPerSecond),
      oneHitWonderShare: klass.churn.oneHitWonderShare,
      entry: klass.churn.entry,
      updates: {
        rate: perSecond(klass.churn.updates.perSecond),
        newUrl: klass.churn.updates.newUrl,
        ...(klass.churn.updates.onDeployShare === undefined ? {} : { onDeploy: klass.churn.updates.onDeployShare }),
      },
    },
    ...queries,
  };
}

const perRegionMs = (values: Readonly<Record<string, number>>) => Object.fromEntries(REGIONS.map((region) => [region, ms(values[region])]));

function topologyToInput(topology: ScenarioTopology): NonNullable<ScenarioInput['topology']> {
  if (topology.model === 'regions') {
    return {
      model: 'regions',
      edgeSites: topology.edgeSites,
      clientToEdge: perRegionMs(topology.clientToEdge),
      jitter: topology.jitter,
      originLatency: ms(topology.originLatencyMs),
    };
  }
  const { pops, regionalTier, origins, clients, routing, latency } = topology;
  return {
    model: 'pops',
    pops: structuredClone(pops),
    regionalTier: structuredClone(regionalTier),
    ...(origins === undefined ? {} : { origins: structuredClone(origins) }),
    clients: structuredClone(clients),
    routing: { ...routing },
    latency: {
      fibreKmPerMs: latency.fibreKmPerMs,
      accessRouteInflation: latency.accessRouteInflation,
      backboneRouteInflation: latency.backboneRouteInflation,
      lastMile: perRegionMs(latency.lastMileMedianMs),
      lastMileSigma: latency.lastMileSigma,
      mobileLastMileFactor: latency.mobileLastMileFactor,
      edgeProcessing: ms(latency.edgeProcessingMs),
      regionalProcessing: ms(latency.regionalProcessingMs),
      originService: { median: ms(latency.originServiceMedianMs), sigma: latency.originServiceSigma },
    },
  };
}

function recordedToInput(recorded: RecordedContent): NonNullable<ScenarioInput['content']>['recorded'] {
  return {
    file: recorded.file,
    format: recorded.format,
    use: recorded.use,
    popularity: recorded.popularity.kind,
    ...(recorded.popularity.kind === 'zipf' ? { zipfExponent: recorded.popularity.exponent } : {}),
    speed: recorded.speed,
    skipBad: recorded.skipBad,
  };
}
