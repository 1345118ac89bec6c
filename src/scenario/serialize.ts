import { REGIONS } from '../topology/regions.js';
import type { Scenario, ScenarioInput, Warmup } from './schema.js';

const ms = (value: number): string => `${value}ms`;

function warmupInput(warmup: Warmup): number | string {
  switch (warmup.kind) {
    case 'requests':
      return warmup.requests;
    case 'fraction':
      return `${warmup.fraction * 100}%`;
    case 'time':
      return ms(warmup.ms);
  }
}

/**
 * A resolved scenario written back as scenario-file input (bytes and per-second numbers,
 * durations in ms): loading it again gives the same scenario. Run folders keep it as
 * scenario.json so a run can be repeated from its folder alone.
 */
export function scenarioToInput(scenario: Scenario): ScenarioInput {
  return {
    name: scenario.name,
    ...(scenario.description === undefined ? {} : { description: scenario.description }),
    seed: scenario.seed,
    run: {
      ...(scenario.run.requests === undefined ? {} : { requests: scenario.run.requests }),
      ...(scenario.run.durationMs === undefined ? {} : { duration: ms(scenario.run.durationMs) }),
      warmup: warmupInput(scenario.run.warmup),
    },
    traffic: {
      rate: scenario.traffic.rate,
      regions: Object.fromEntries(REGIONS.map((region) => [region, scenario.traffic.regions[region]])),
    },
    deployment: { ...scenario.deployment },
    content: {
      objects: scenario.content.objects,
      zipfExponent: scenario.content.zipfExponent,
      objectSize: { ...scenario.content.objectSize },
      headers: { profile: scenario.content.headers.profile, fields: { ...scenario.content.headers.fields } },
    },
    edge: { policy: scenario.edge.policy, capacity: scenario.edge.capacity },
    topology: { edgeSites: scenario.topology.edgeSites },
    latency: {
      clientToEdge: Object.fromEntries(REGIONS.map((region) => [region, ms(scenario.latency.clientToEdge[region])])),
      jitter: scenario.latency.jitter,
    },
    origin: { latency: ms(scenario.origin.latency) },
  };
}
