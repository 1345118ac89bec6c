import type { Scenario } from '../scenario/schema.js';
import { runLength, type RunLengthLimits } from './runLength.js';

/**
 * How many requests a run of `scenario` serves, as runScenario resolves its length (a
 * command line's --requests or --duration first, else the scenario's run.requests or
 * run.duration): the request limit or the mean rate over the duration, whichever is
 * smaller. Only a job pool's ordering hint (the dearest run starts first), so the diurnal
 * shape, a cache-only warm-up and a replayed recording's own length are left out.
 */
export function expectedRequests(scenario: Scenario, limits: RunLengthLimits = {}): number {
  const { requestLimit, horizonMs } = runLength(scenario, limits);
  return Math.min(requestLimit, (scenario.traffic.rate * horizonMs) / 1000);
}
