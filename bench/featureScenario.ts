import { parseScenarioText } from '../src/scenario/load.js';
import type { Scenario } from '../src/scenario/schema.js';

/**
 * The PoP model with every feature of the layered flow on: seven content classes, clients
 * with browsers, variants and media chunks, and an outage, an error burst, a slowdown and a
 * purging deploy inside the measured part (the requests run at 20k/s, so 2 M last 100 s).
 */
export function allFeaturesScenario(requests: number, caches: { edge: string; regional?: string } = { edge: '4GB' }): Scenario {
  return parseScenarioText(allFeaturesScenarioText(requests, caches), 'bench-features.yaml');
}

/** The scenario text of allFeaturesScenario (bench/buildCompare.ts parses it with the build under test). */
export function allFeaturesScenarioText(requests: number, caches: { edge: string; regional?: string } = { edge: '4GB' }): string {
  return [
    `run: { requests: ${requests}, warmup: 25% }`,
    'traffic: { rate: 20k/s, clients: {} }',
    'content:',
    '  classes: [{ name: static-asset }, { name: image }, { name: font }, { name: html, rendering: static }, { name: api }, { name: media }, { name: download }]',
    `edge: { capacity: ${caches.edge} }`,
    ...(caches.regional === undefined ? [] : [`regional: { capacity: ${caches.regional} }`]),
    'incidents:',
    '  - { kind: outage, start: 40s, duration: 5s }',
    '  - { kind: error-burst, start: 55s, duration: 5s, share: 50% }',
    '  - { kind: slowdown, start: 70s, duration: 10s, factor: 3 }',
    '  - { kind: deploy, at: 85s, purge: true, classes: [html] }',
    '',
  ].join('\n');
}
