import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/experiment/runScenario.js';
import { buildSummary } from '../../src/report/summary.js';
import { parseScenarioText } from '../../src/scenario/load.js';

/**
 * summary.json `trafficModels` (docs/summary-json.md, docs/traffic-models.md): a model class's
 * facts from the run. One edge, v, 1 GB: the stack is capped at the edge's capacity (no
 * regional tier), fetches take no time, so every request for an object the stream makes new
 * is a miss and every reuse within the cap a hit.
 */
const SINGLE_EDGE = `
name: model-facts
seed: 28
run: { requests: 20000, warmup: 0 }
traffic: { rate: 20k/s }
content:
  classes:
    - name: video
      model: v
      sharing: 30%
edge: { capacity: 1GB }
topology: { model: regions, edgeSites: single, originLatency: 0ms }
`;

describe('summary.json trafficModels (docs/summary-json.md)', () => {
  it('one PoP: class, model, fidelity and sharing as written; objects created = the stack + one per measured miss, and they are the class\'s catalogue (not 1); nothing shared (a PoP never shares with itself)', () => {
    const summary = buildSummary(runScenario(parseScenarioText(SINGLE_EDGE, 'model-facts.yaml')));
    expect(summary.trafficModels).toHaveLength(1);
    const facts = summary.trafficModels?.[0];
    expect(facts).toMatchObject({ class: 'video', model: 'v', fidelity: 'fd', sharing: 0.3, pops: 1, depthCapBytes: 1e9, sharedObjects: 0, sharedShare: 0 });
    // No warm-up but the model's own: the measured misses are exactly the stream's new objects.
    expect(facts?.createdObjects).toBe((facts?.stackObjects ?? 0) + summary.requestsByLayer.origin);
    // The class's catalogue is what its streams made, not its one ranked id (docs/traffic-models.md).
    expect(summary.contentClasses[0].objects).toBe(facts?.createdObjects);
    expect(summary.catalogue.objects).toBe(facts?.createdObjects);
    // Their bytes: about v's mean object size each (820 KB, data/traffic-models/v/iat_sz_all.txt); 17,417 draws.
    const meanBytes = summary.catalogue.bytes / summary.catalogue.objects;
    expect(meanBytes).toBeGreaterThan(0.9 * 820_147);
    expect(meanBytes).toBeLessThan(1.1 * 820_147);
    expect(summary.contentClasses[0].catalogueBytes).toBe(summary.catalogue.bytes);
    // One PoP shares nothing, so its stream needs no settling: the start's objects are its stack's.
    expect(facts).toMatchObject({ settlingRequests: 0, startObjects: facts?.stackObjects });
    expect(Object.keys(facts ?? {})).toEqual(['class', 'model', 'fidelity', 'sharing', 'sharingWindow', 'pops', 'stackObjects', 'depthCapBytes', 'settlingRequests', 'startObjects', 'createdObjects', 'sharedObjects', 'sharedShare']);
  });

  it('four European PoPs at sharing 50 %: half the new-object draws after the start were objects another PoP had asked for (the start\'s objects, made before the first request, are not counted)', () => {
    const fourPops = SINGLE_EDGE.replace('sharing: 30%', 'sharing: 50%').replace('topology: { model: regions, edgeSites: single, originLatency: 0ms }', 'traffic: { rate: 200/s, regions: { Europe: 100% } }\ntopology: { model: pops, pops: { regions: [Europe], count: 4 }, regionalTier: { enabled: false } }').replace('traffic: { rate: 20k/s }\n', '');
    const facts = buildSummary(runScenario(parseScenarioText(fourPops, 'four-pops.yaml'))).trafficModels?.[0];
    expect(facts?.pops).toBe(4);
    // Each draw after the stacks shares with probability 0.5 (its own objects retried up to four times): 50 % within sampling noise.
    expect(facts?.sharedShare).toBeGreaterThan(0.45);
    expect(facts?.sharedShare).toBeLessThan(0.55);
    // The streams settled two sharing windows (2 × 1,000,000 requests) before the stacks' replay.
    expect(facts?.settlingRequests).toBe(2_000_000);
    expect(facts?.sharedShare).toBe(Number(((facts?.sharedObjects ?? 0) / ((facts?.createdObjects ?? 0) - (facts?.startObjects ?? 0) + (facts?.sharedObjects ?? 0))).toFixed(6)));
  });

  it('a run without a model class has no trafficModels key (summaries of Zipf runs unchanged)', () => {
    const summary = buildSummary(runScenario(parseScenarioText(SINGLE_EDGE.replace(/classes:[\s\S]*?sharing: 30%\n/, 'objects: 1000\n'), 'zipf.yaml')));
    expect('trafficModels' in summary).toBe(false);
  });
});
