import { describe, expect, it } from 'vitest';
import { OriginModel } from '../../src/cdn/origin.js';
import { runScenario } from '../../src/experiment/runScenario.js';
import { buildSummary } from '../../src/report/summary.js';
import { parseScenarioText } from '../../src/scenario/load.js';
import { RandomStreams } from '../../src/sim/random.js';

/**
 * Issue 27 (docs/performance.md, "Lean per-request path"): the flow decides once per run, from
 * the origin, which blocks of the per-request path the scenario can need. These tests pin the
 * decision and that the lean path gives the figures of the full one.
 */
describe('lean per-request path (issue 27)', () => {
  const errors = new RandomStreams(1).stream('origin.errors');

  it('spec 1.2 item 6, 7.1: an origin without incidents or churn keeps every version at 0 and never fails, so the flow skips staleness, purges and held errors', () => {
    const origin = new OriginModel(null, new Int32Array(1), null, 10, errors, () => 95);
    expect(origin.versionsChange).toBe(false);
    expect(origin.mayFail).toBe(false);
    expect(origin.purges).toBe(false);
    expect(origin.versionAt(7, 0, 1e9)).toBe(0);
  });

  it('content churn (same-URL updates) changes versions but never fails', () => {
    const origin = new OriginModel(null, new Int32Array(1), new Uint32Array(10), 10, errors, () => 95);
    expect(origin.versionsChange).toBe(true);
    expect(origin.mayFail).toBe(false);
  });

  // The same run twice: without incidents (the lean path: no staleness, purge or held-error
  // bookkeeping) and with an outage that starts after the run's end (the full path: the origin
  // may fail and versions may change, yet nothing does within the run). Every figure but the
  // incident table must agree.
  const text = (incidents: string): string =>
    [
      'seed: 5',
      'run: { requests: 6000, warmup: 1000 }',
      'traffic: { rate: 400/s, regions: { Europe: 100% } }',
      'content: { objects: 500 }',
      'edge: { capacity: 2MB }',
      'topology: { pops: { regions: [Europe], count: 3 }, regionalTier: { sites: [FRA] } }',
      incidents,
      '',
    ].join('\n');

  it('the lean path gives the full path\'s figures: the same run without incidents and with an outage after its end', () => {
    const lean = buildSummary(runScenario(parseScenarioText(text(''), 'lean.yaml')));
    const full = buildSummary(runScenario(parseScenarioText(text('incidents: [{ kind: outage, start: 10h, duration: 1m }]'), 'full.yaml')));
    // What differs by design: the incident table, the scenario echo, the checks and stated notes about incidents.
    const figures = (summary: ReturnType<typeof buildSummary>): unknown => ({ ...summary, incidents: undefined, scenario: undefined, run: undefined, checks: undefined, stated: undefined });
    expect(lean.hitRatio).toEqual(full.hitRatio);
    expect(figures(lean)).toEqual(figures(full));
  });
});
