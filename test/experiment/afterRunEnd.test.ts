import { describe, expect, it } from 'vitest';
import { afterRunEndWarnings, expectedAfterRunEndWarnings, startsAfterRunEnd } from '../../src/experiment/afterRunEnd.js';
import { runLength } from '../../src/experiment/runLength.js';
import { runScenario } from '../../src/experiment/runScenario.js';
import { buildSummary } from '../../src/report/summary.js';
import { summaryText } from '../../src/report/summaryText.js';
import { parseScenarioText } from '../../src/scenario/load.js';

/**
 * Issue 26: incidents and flash crowds after the end of a run ended by a request count. The
 * schema refuses them against run.duration; against a count the end is only estimated before
 * the run (requests / traffic.rate) and known after it, so both say so, and the summary's row
 * says the incident never happened instead of "30m–30m, 0 requests, availability 100.00 %".
 */

// 2,000 requests at 100/s: the run ends at about 20 s.
const LATE = `run: { requests: 2000 }
traffic: { rate: 100/s, flashCrowds: [ { start: 25s, duration: 1m, multiplier: 5 } ] }
content: { objects: 100 }
topology: { model: regions, jitter: 0 }
incidents:
  - { kind: outage, start: 30m, duration: 1m }
  - { kind: deploy, name: r42, at: 10s }
`;

describe('issue 26: what starts after a request-count run ends', () => {
  const scenario = parseScenarioText(LATE, 'late.yaml');

  it('is accepted by the schema (the end is not known), and named in the file order with its time', () => {
    expect(startsAfterRunEnd(scenario, 20_000)).toEqual(['the outage at 30m', 'the flash crowd at 25s (traffic.flashCrowds[0])']);
    // At 30 minutes the crowd has started; the outage starts at the end exactly, so not within the run.
    expect(startsAfterRunEnd(scenario, 1_800_000)).toEqual(['the outage at 30m']);
    expect(startsAfterRunEnd(scenario, 1_800_001)).toEqual([]);
  });

  it('before the run: a warning against the expected end, 2,000 requests / 100/s = 20 s', () => {
    const { requestLimit, horizonMs } = runLength(scenario);
    expect(expectedAfterRunEndWarnings(scenario, requestLimit, horizonMs)).toEqual([
      "the outage at 30m, the flash crowd at 25s (traffic.flashCrowds[0]) start after the run's expected end at about 20 s (2,000 requests at 100/s): they will likely never happen; set run.duration past them, or more run.requests",
    ]);
    // --duration replaces the count: the schema's own check covers a duration.
    expect(expectedAfterRunEndWarnings(scenario, Infinity, 60_000)).toEqual([]);
    expect(expectedAfterRunEndWarnings(scenario, 1_000_000, Infinity)).toEqual([]);
  });

  it('after the run: a warning against the clock\'s end, and the outage\'s row says it never happened, with no figures', () => {
    const summary = buildSummary(runScenario(scenario));
    expect(summary.simulatedSeconds).toBeGreaterThan(15);
    expect(summary.simulatedSeconds).toBeLessThan(25);
    expect(afterRunEndWarnings(scenario, summary.simulatedSeconds * 1000)).toEqual([
      `the outage at 30m, the flash crowd at 25s (traffic.flashCrowds[0]) never happened: the run ended at ${Math.round(summary.simulatedSeconds)} s simulated, before they started; set run.duration past them, or more run.requests`,
    ]);
    const [outage, deploy] = summary.incidents;
    expect(outage).toMatchObject({ kind: 'outage', happened: false, label: 'outage (connections refused), 30m–31m: never happened, the run ended first', requests: 0 });
    expect(deploy.happened).toBeUndefined();
    expect(deploy.requests).toBeGreaterThan(0);
    const row = summaryText(summary, { columns: 200, statedTable: false }).split('\n').find((line) => line.startsWith('outage'));
    expect(row).toMatch(/^outage \(connections refused\), 30m–31m: never happened, the run ended first(\s+–){5}$/);
  });
});
