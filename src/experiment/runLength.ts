import type { Scenario } from '../scenario/schema.js';

/** A command line's --requests / --duration, which replace the scenario's run length. */
export interface RunLengthLimits {
  readonly requests?: number;
  readonly durationMs?: number;
}

/**
 * How long a run of `scenario` is: a request limit and a simulated horizon (Infinity: none).
 * A command line's limit replaces the scenario's; given one of them alone, the scenario's other
 * limit is dropped, so `--requests` on a scenario with `run.duration` runs that many requests.
 */
export function runLength(scenario: Scenario, limits: RunLengthLimits = {}): { requestLimit: number; horizonMs: number } {
  const requestLimit = limits.requests ?? (limits.durationMs === undefined ? scenario.run.requests : undefined) ?? Infinity;
  const horizonMs = limits.durationMs ?? (limits.requests === undefined ? scenario.run.durationMs : undefined) ?? Infinity;
  return { requestLimit, horizonMs };
}
