import { describe, expect, it } from 'vitest';
import { ABSENT_LAYER, decisionLayerOf, NODE_EDGE, NODE_REGIONAL, runLayers } from '../../src/cdn/runLayers.js';
import { CACHE_LAYERS } from '../../src/policy/deployment.js';
import { flowHarness } from './flowHarness.js';

// The four runs a scenario can make (spec 4.9: browser, edge, regional, origin; the browser only
// with traffic.clients, the regional only with a tier). A missing layer is −1 everywhere.
describe('the layers of a run (src/cdn/runLayers.ts)', () => {
  it('spec 4.9: browser caches and a regional tier: browser 0, edge 1, regional 2, origin 3', () => {
    expect(runLayers(true, true)).toEqual({
      browsers: true,
      tiered: true,
      browser: 0,
      edge: 1,
      regional: 2,
      origin: 3,
      names: ['browser', 'edge', 'regional', 'origin'],
      cacheNames: ['browser', 'edge', 'regional'],
      nodeNames: ['edge', 'regional'],
    });
  });

  it('spec 4.9: browser caches, no tier: browser 0, edge 1, regional absent (−1), origin 2', () => {
    expect(runLayers(true, false)).toEqual({
      browsers: true,
      tiered: false,
      browser: 0,
      edge: 1,
      regional: -1,
      origin: 2,
      names: ['browser', 'edge', 'origin'],
      cacheNames: ['browser', 'edge'],
      nodeNames: ['edge'],
    });
  });

  it('spec 4.9: anonymous clients and a tier: browser absent (−1), edge 0, regional 1, origin 2', () => {
    expect(runLayers(false, true)).toEqual({
      browsers: false,
      tiered: true,
      browser: -1,
      edge: 0,
      regional: 1,
      origin: 2,
      names: ['edge', 'regional', 'origin'],
      cacheNames: ['edge', 'regional'],
      nodeNames: ['edge', 'regional'],
    });
  });

  it('spec 4.9: anonymous clients, no tier: edge 0, origin 1, browser and regional absent (−1)', () => {
    expect(runLayers(false, false)).toEqual({
      browsers: false,
      tiered: false,
      browser: -1,
      edge: 0,
      regional: -1,
      origin: 1,
      names: ['edge', 'origin'],
      cacheNames: ['edge'],
      nodeNames: ['edge'],
    });
  });

  it('every present layer is named at its index; an absent one is −1, which names no layer', () => {
    for (const browsers of [false, true]) {
      for (const tiered of [false, true]) {
        const layers = runLayers(browsers, tiered);
        for (const name of ['browser', 'edge', 'regional', 'origin'] as const) {
          expect(layers[name]).toBe(layers.names.indexOf(name));
        }
        expect(ABSENT_LAYER).toBe(-1);
        expect(Object.isFrozen(layers) && Object.isFrozen(layers.names)).toBe(true);
      }
    }
  });

  it('a node kind is its layer counters\' index (nodeNames) and maps to its own row of the compiled decisions (CACHE_LAYERS)', () => {
    const layers = runLayers(true, true);
    expect(layers.nodeNames[NODE_EDGE]).toBe('edge');
    expect(layers.nodeNames[NODE_REGIONAL]).toBe('regional');
    expect(CACHE_LAYERS[decisionLayerOf(NODE_EDGE)]).toBe('edge');
    expect(CACHE_LAYERS[decisionLayerOf(NODE_REGIONAL)]).toBe('regional');
  });

  it('spec 4.9: the flow reports each answer at the run\'s layer index: a miss at 3 (origin), a browser hit at 0, an edge hit at 1', () => {
    // Tiered harness with browsers: request 0 misses to the origin (back at the PoP at 180 ms,
    // the client at 200); request 1 (client 0 again, at 300 ms) is a browser hit; request 2 (client 1) an edge hit.
    const { run, flow } = flowHarness({ headers: { 'cache-control': 'public, max-age=3600' }, browserClients: 4 });
    const done = run([{ timeMs: 0, client: 0 }, { timeMs: 300, client: 0 }, { timeMs: 400, client: 1 }]);
    expect(flow.layers).toEqual(runLayers(true, true));
    expect(done.map((request) => flow.layers.names[request.layer])).toEqual(['origin', 'browser', 'edge']);
  });

  it('the flow refuses layers that do not match its caches (a tier without regional sites, browser caches that were not given)', () => {
    expect(() => flowHarness({ headers: {}, tiered: false, layers: runLayers(false, true) })).toThrow(/regional tier/);
    expect(() => flowHarness({ headers: {}, layers: runLayers(true, true) })).toThrow(/browser caches/);
  });
});
