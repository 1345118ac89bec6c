import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/experiment/runScenario.js';
import { buildSummary } from '../../src/report/summary.js';
import { parseScenarioText } from '../../src/scenario/load.js';

/**
 * Churn runs on the simulated clock through a cache-only warm-up (docs/warmup.md), so the ids
 * a class reserves for new objects must cover the warm-up's length as well as the run's.
 */
describe('content churn through a cache-only warm-up', () => {
  it('an hour of warm-up with a new API object a second runs, and counts the objects added during it', () => {
    const text = [
      'run: { duration: 1m, warmup: { duration: 1h } }',
      'traffic: { rate: 50/s }',
      'content:',
      '  classes:',
      '    - { name: api, objects: 100, share: 100%, churn: { newObjects: 3600/h, oneHitWonderShare: 0 } }',
      'topology: { model: regions }',
    ].join('\n');
    const summary = buildSummary(runScenario(parseScenarioText(text, 'churn-warmup.yaml')));
    const api = summary.contentClasses?.find((klass) => klass.name === 'api');
    // About 3,660 new objects over 61 simulated minutes (Poisson, one a second).
    expect(api?.newObjects).toBeGreaterThan(3_400);
    expect(api?.newObjects).toBeLessThan(3_900);
  });
});
