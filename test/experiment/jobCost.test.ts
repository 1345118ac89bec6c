import { describe, expect, it } from 'vitest';
import { expectedRequests } from '../../src/experiment/jobCost.js';
import { parseScenarioText } from '../../src/scenario/load.js';

const scenario = (run: string) => parseScenarioText(`name: cost\nrun: ${run}\ntraffic: { rate: 2k/s }\n`, 'cost.yaml');

describe('expectedRequests: a sweep job pool\'s ordering hint (issue 14)', () => {
  it('the request limit when the run has one, the rate times the duration when it has a duration', () => {
    expect(expectedRequests(scenario('{ requests: 50000 }'))).toBe(50_000);
    expect(expectedRequests(scenario('{ duration: 10m }'))).toBe(1_200_000);
  });

  it('the command line replaces the scenario\'s length, as in runScenario: --duration wins over run.requests', () => {
    expect(expectedRequests(scenario('{ requests: 50000 }'), { durationMs: 60_000 })).toBe(120_000);
    expect(expectedRequests(scenario('{ duration: 10m }'), { requests: 7000 })).toBe(7000);
  });
});
