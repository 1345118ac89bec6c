import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/experiment/runScenario.js';
import { buildSummary, summaryJson } from '../../src/report/summary.js';
import { parseScenarioText } from '../../src/scenario/load.js';

const NO_MOBILE = '{ North America: 0%, Europe: 0%, Asia-Pacific: 0%, Latin America: 0%, Africa: 0% }';
const HALF_MOBILE = '{ North America: 50%, Europe: 50%, Asia-Pacific: 50%, Latin America: 50%, Africa: 50% }';

const scenarioText = (clients: string, classes: string, run = 'requests: 100000, warmup: 0') => `
run: { ${run} }
deployment: { kind: full-stack, framework: next }
topology: { model: regions, edgeSites: single }
edge: { capacity: 100GB }
traffic:
  rate: 1000/s
  clients: ${clients}
content:
  classes:
${classes}
`;
const runText = (text: string) => runScenario(parseScenarioText(text, 'clients.yaml'));

describe('traffic.clients through a run (issue 6: clients and requests)', () => {
  const IMAGES = "    - { name: image, share: 100%, objects: 200, fileTypes: [{ extension: jpg, mimeType: image/jpeg }], churn: { newObjects: 0/s, updates: { rate: 0/s } } }";

  it('spec 4.4/4.5: with half the clients on AVIF and half on mobile, the edge stores all 4 variants of each of 200 images (800 keys); with none, 200', () => {
    const mixed = runText(scenarioText(`{ avifShare: 50%, revisitShare: 0%, mobileShare: ${HALF_MOBILE} }`, IMAGES));
    const plain = runText(scenarioText(`{ avifShare: 0%, revisitShare: 0%, mobileShare: ${NO_MOBILE} }`, IMAGES));
    expect(mixed.edges[0].storedObjects).toBe(800);
    expect(plain.edges[0].storedObjects).toBe(200);
    // More keys for the same requests: more cold misses. A request for a key still being
    // fetched waits for it (coalesced, spec 4.9 in flight) and is no hit.
    expect(mixed.edges[0].hits + mixed.cdn.outcomes.coalesced.edge).toBe(100_000 - 800);
    expect(plain.edges[0].hits + plain.cdn.outcomes.coalesced.edge).toBe(100_000 - 200);
  });

  it('spec 4.9 layer 1: browsers answer repeats of immutable assets (0 ms) and never of server-rendered HTML (no-cache at the browser)', () => {
    const classes = [
      '    - { name: static-asset, share: 50%, objects: 2000, churn: { newObjects: 0/s, updates: { rate: 0/s } } }',
      '    - { name: html, share: 50%, objects: 200, rendering: server, churn: { newObjects: 0/s, updates: { rate: 0/s } } }',
    ].join('\n');
    const result = runText(scenarioText('{ perRegion: 200, revisitShare: 90%, repeatShare: 50% }', classes));
    const summary = buildSummary(result);
    const [assets, html] = summary.contentClasses;
    // A returning client (90 %) re-asks a recent object half the time; assets it has seen are fresh for a year.
    expect(assets.browserHitRatio).toBeGreaterThan(0.4);
    expect(html.browserHitRatio).toBe(0);
    expect(summary.requestsByLayer.browser).toBe(Math.round(assets.browserHitRatio! * assets.requests));
    expect(summary.hitRatio.browser).toBeCloseTo(summary.requestsByLayer.browser / summary.requests, 6);
    expect(summary.latencyMs.byLayer.browser.p99).toBe(0);
    // The CDN hit ratio still counts from the edge: requests the browsers answered never reach it.
    expect(summary.edges[0].requests).toBe(summary.requests - summary.requestsByLayer.browser);
    expect(assets.requests + html.requests).toBe(100_000);
  });

  it('spec 4.8: media viewing sessions ask for windows; the edge stores 5 MB chunks, not whole 50 MB files', () => {
    const media = '    - { name: media, share: 100%, objects: 20, size: { median: 50MB, sigma: 0 }, churn: { newObjects: 0/s, updates: { rate: 0/s } } }';
    const result = runText(scenarioText('{ revisitShare: 0% }', media, 'duration: 60s, warmup: 0'));
    const edge = result.edges[0];
    // 20 objects × 10 chunks at most; every stored entry is one chunk.
    expect(edge.storedObjects).toBeGreaterThan(20);
    expect(edge.storedObjects).toBeLessThanOrEqual(200);
    expect(edge.storedBytes).toBe(edge.storedObjects * 5_000_000);
    // Each session's first window is one arrival (rate 1000/s × 60 s); later windows come on top, 6.4 s apart.
    expect(result.totalRequests).toBeGreaterThan(60_000 * 1.2);
    // Windows of 4 MB, the last of a 50 MB object 2 MB: the mean response is below 4 MB.
    const served = result.metrics.layerNames.map((_, layer) => result.metrics.servedBy(layer));
    const meanBytes = served.reduce((sum, figures) => sum + figures.bytes, 0) / served.reduce((sum, figures) => sum + figures.requests, 0);
    expect(meanBytes).toBeGreaterThan(3_500_000);
    expect(meanBytes).toBeLessThanOrEqual(4_000_000);
  });

  it('same scenario and seed: byte-identical summary with clients, browsers, variants and ranges', () => {
    const text = scenarioText('{ perRegion: 1000 }', '    - { name: image, share: 80% }\n    - { name: media, share: 20% }', 'requests: 30000, warmup: 0');
    expect(summaryJson(buildSummary(runText(text)))).toBe(summaryJson(buildSummary(runText(text))));
  });

  it('without traffic.clients there is no browser layer and the keys are the object ids', () => {
    const result = runText(scenarioText('{}', IMAGES).replace('  clients: {}\n', ''));
    expect(result.layers.browsers).toBe(false);
    expect(result.metrics.layerNames).toEqual(['edge', 'origin']);
    expect(result.edges[0].storedObjects).toBe(200);
  });
});
