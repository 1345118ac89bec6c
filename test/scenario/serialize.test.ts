import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseScenarioText } from '../../src/scenario/load.js';
import { scenarioToInput } from '../../src/scenario/serialize.js';

const roundTrip = (text: string, file = 'scenarios/x.yaml') => {
  const scenario = parseScenarioText(text, file);
  const again = parseScenarioText(JSON.stringify(scenarioToInput(scenario)), 'scenario.json');
  return { scenario, again };
};

describe('scenarioToInput: a resolved scenario loads back to itself', () => {
  it('the shipped baseline', () => {
    const { scenario, again } = roundTrip(readFileSync('scenarios/baseline.yaml', 'utf8'), 'scenarios/baseline.yaml');
    expect(again).toEqual(scenario);
  });

  it.each(['scenarios/ttl-strategies.yaml', 'scenarios/adaptive-ttl.yaml', 'scenarios/query-strings.yaml'])('the shipped %s: custom strategies with adaptive parameters (spec 1.2 item 6) and query handling (spec 4.3.1)', (file) => {
    const { scenario, again } = roundTrip(readFileSync(file, 'utf8'), file);
    expect(again).toEqual(scenario);
  });

  it.each([
    ['defaults only', '{}'],
    ['duration run, time warm-up, single edge', 'run: { duration: 1h30m, warmup: 90s }\ntopology: { model: regions, edgeSites: single }\n'],
    ['duration run, percentage warm-up', 'run: { duration: 10m, warmup: 12.5% }\n'],
    ['partial regions and odd units', 'traffic: { rate: 3M/h, regions: { Europe: 70%, Africa: 0.3 } }\nedge: { capacity: 193MiB }\ntopology: { model: regions, clientToEdge: { Africa: 0.04s }, jitter: 0, originLatency: 1.5s }\n'],
    [
      'the PoP model with every section given: PoP selection and own PoPs, the tier with a custom site, two origins, clients, routing, latency',
      [
        'regional: { policy: s3fifo, capacity: 50GB }',
        'topology:',
        '  model: pops',
        '  pops: { regions: [Europe, Africa], excludeCountries: [RU], exclude: [LHR], count: 40, add: [{ code: XNBO1, city: Nairobi, country: Kenya, cca2: KE, region: Africa, lat: -1.29, lon: 36.82, sizeClass: major }] }',
        '  regionalTier: { enabled: true, sites: [FRA, { code: XJNB, city: Johannesburg, region: Africa, lat: -26.2, lon: 28.05 }] }',
        '  origins: [FRA, AMS]',
        '  clients: { mobileShare: { Africa: 80% }, add: [{ name: Kisumu, cca2: KE, region: Africa, lat: -0.1, lon: 34.75, populationM: 1.2 }] }',
        '  routing: { misrouteProbability: 2.5%, misrouteCandidates: 3 }',
        '  latency: { accessRouteInflation: 2.2, lastMile: { Africa: 21.5ms }, edgeProcessing: 300us, originService: { median: 80ms, sigma: 0.4 } }',
        'traffic: { regions: { Europe: 60%, Africa: 40% } }',
      ].join('\n'),
    ],
    [
      'shaped arrivals: a start with a zone, a diurnal curve, a weekend dip, growth and two flash crowds',
      [
        'traffic:',
        '  start: "2026-03-02T09:30:00+09:00"',
        '  diurnal: { peakHour: 20.5, peakToTrough: 3 }',
        '  weekly: [1, 1, 1, 1, 1.05, 0.9, 0.85]',
        '  growth: { rate: 10%, per: 30d }',
        '  flashCrowds:',
        '    - { start: 2h, duration: 30m, multiplier: 8, region: Europe, objects: { top: 100 }, rampUp: 5m }',
        '    - { start: 90s, duration: 10s, multiplier: 2, objects: { ids: [3, 1, 4] } }',
      ].join('\n'),
    ],
    [
      'content classes: every preset, one with its own share, sizes, path, file types, headers and churn',
      [
        'content:',
        '  classes:',
        '    - { name: static-asset, share: 30% }',
        '    - { name: photos, preset: image, share: 45%, objects: 1234, zipfExponent: 0.7, size: { median: 60KB, sigma: 1.1 }, path: "/img/{id}.{ext}", fileTypes: [{ extension: avif, mimeType: image/avif, weight: 2 }, { extension: jpg, mimeType: image/jpeg }] }',
        '    - { name: font, share: 5% }',
        '    - { name: html, share: 8%, rendering: static, headers: { profile: guidance-dynamic-html, fields: { Vary: Accept } } }',
        '    - { name: api, share: 9%, churn: { newObjects: 30/h, oneHitWonderShare: 25%, entry: drawn, updates: { rate: 1/min, newUrl: false } } }',
        '    - { name: media, share: 2%, rangeRequests: true }',
        '    - { name: download, share: 1% }',
      ].join('\n'),
    ],
    ['hourly diurnal weights', `traffic: { diurnal: { hourly: [${Array.from({ length: 24 }, (_, h) => 1 + (h % 5)).join(', ')}] } }\n`],
    ['description and both limits', 'description: two limits\nrun: { requests: 2M, duration: 7d, warmup: 1000 }\n'],
    [
      'a container deployment without the CDN, and a header profile with its own fields',
      'deployment: { kind: container, framework: nuxt, cdn: false }\ncontent: { headers: { profile: guidance-frequent-api, fields: { Cache-Control: "public, max-age=60", Vary: Accept } } }\n',
    ],
  ])('%s', (_name, text) => {
    const { scenario, again } = roundTrip(text);
    // The name came from the file name the first time and from the name key the second.
    expect(again).toEqual(scenario);
  });
});
