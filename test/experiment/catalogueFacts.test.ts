import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/experiment/runScenario.js';
import { figureValue, sweepFigures } from '../../src/experiment/sweepGrid.js';
import { buildSummary } from '../../src/report/summary.js';
import { parseScenarioText } from '../../src/scenario/load.js';

const summaryOf = (text: string) => buildSummary(runScenario(parseScenarioText(text, 'catalogue.yaml')));

/** Two classes of fixed-size objects; churn adds objects and new URLs over the run. */
const CLASSES = `
seed: 5
run: { requests: 20000, warmup: 0 }
traffic: { rate: 2000/s }
content:
  classes:
    - { name: static-asset, share: 60%, objects: 1000, size: { median: 10KB, sigma: 0 }, churn: { newObjects: 50/s, updates: { rate: 20/s, newUrl: true } } }
    - { name: image, share: 40%, objects: 500, size: { median: 20KB, sigma: 0 } }
`;

describe('the catalogue a run starts with (summary contentClasses[].objects, catalogueBytes and catalogue)', () => {
  it('content.classes: 1,000 × 10 KB and 500 × 20 KB are 10,000,000 bytes each, 1,500 objects and 20,000,000 bytes in all; churn during the run is counted apart', () => {
    const summary = summaryOf(CLASSES);
    expect(summary.contentClasses.map((klass) => [klass.name, klass.objects, klass.catalogueBytes])).toEqual([
      ['static-asset', 1000, 10_000_000],
      ['image', 500, 10_000_000],
    ]);
    expect(summary.catalogue).toEqual({ objects: 1500, bytes: 20_000_000 });
    // 10 s of run at 50 new objects a second: the churn is there, and not in the starting catalogue.
    expect(summary.contentClasses[0].newObjects).toBeGreaterThan(400);
    expect(summary.contentClasses[0].updates).toBeGreaterThan(150);
  });

  it('one class (content.objects): 2,000 objects of 5 KB are 10,000,000 bytes', () => {
    const summary = summaryOf('run: { requests: 5000, warmup: 0 }\ncontent: { objects: 2000, objectSize: { median: 5KB, sigma: 0 } }\n');
    expect(summary.catalogue).toEqual({ objects: 2000, bytes: 10_000_000 });
    expect(summary.contentClasses[0].objects).toBe(2000);
  });
});

describe('sweep figures (cdnsim sweep reports them per point)', () => {
  it('include the catalogue and every incident by index, as figureValue reads them: incidents.0.availability is the outage\'s', () => {
    const summary = summaryOf(`${CLASSES}incidents:\n  - { kind: outage, start: 4s, duration: 2s }\n`);
    const figures = new Map(sweepFigures(summary));
    expect(figures.get('catalogue.bytes')).toBe(20_000_000);
    expect(summary.incidents).toHaveLength(1);
    const availability = summary.incidents[0].availability;
    expect(availability).toBeGreaterThan(0);
    expect(availability).toBeLessThan(1);
    expect(figures.get('incidents.0.availability')).toBe(availability);
    expect(figureValue(summary, 'incidents.0.availability')).toBe(availability);
    expect(figures.get('incidents.0.requests')).toBe(summary.incidents[0].requests);
    expect([...figures.keys()].some((path) => path.startsWith('incidents.0.label') || path.startsWith('incidents.0.kind'))).toBe(false);
  });

  it('include what a steady warm-up found (docs/warmup.md): its requests, simulated time and every block\'s CDN hit ratio by index, not its settings', () => {
    const summary = summaryOf(CLASSES.replace('warmup: 0', 'warmup: { until: steady, tolerance: 0.0001%, block: 5000, max: 15000 }'));
    const figures = new Map(sweepFigures(summary));
    const steady = summary.warmup.steady;
    expect(steady?.blockHitRatios).toHaveLength(3);
    expect(figures.get('warmup.requests')).toBe(15_000);
    expect(figures.get('warmup.simulatedSeconds')).toBe(summary.warmup.simulatedSeconds);
    expect(figures.get('warmup.finalBlockHitRatio')).toBe(steady?.blockHitRatios[2]);
    for (let block = 0; block < 3; block++) expect(figures.get(`warmup.steady.blockHitRatios.${block}`)).toBe(steady?.blockHitRatios[block]);
    expect(figures.has('warmup.steady.blockHitRatios.3')).toBe(false);
    expect([...figures.keys()].filter((path) => /^warmup\.steady\.(tolerance|blockRequests|maxRequests)$/.test(path))).toEqual([]);
  });
});
