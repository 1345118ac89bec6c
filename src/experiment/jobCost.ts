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

/**
 * Rough speeds of one core of this project's machines, for the estimate printed before a
 * long run (docs/performance.md "Where the time goes": the baseline's flow at about 0.5 M requests a
 * second, its cache-only warm-up about 2.4 times as fast). Only an order of magnitude: a
 * scenario with every feature on runs at about half the flow's rate.
 */
export const FLOW_REQUESTS_PER_SECOND = 500_000;
export const CACHE_WARMUP_REQUESTS_PER_SECOND = 1_200_000;
/** Runs estimated shorter than this get no estimate line. */
const ESTIMATE_FROM_SECONDS = 60;

export interface RunTimeEstimate {
  /** Requests through the flow (warm-up by count or share included). */
  flowRequests: number;
  /** Requests of a cache-only warm-up; for `steady`, its cap (not counted in `seconds`). */
  cacheWarmupRequests: number;
  /** The warm-up stops when the caches settle: `cacheWarmupRequests` is at most this many. */
  cacheWarmupIsCap: boolean;
  seconds: number;
}

/** How long a run of `scenario` may take on one core, from its length and warm-up. */
export function runTimeEstimate(scenario: Scenario, limits: RunLengthLimits = {}): RunTimeEstimate {
  const flowRequests = expectedRequests(scenario, limits);
  const warmup = scenario.run.warmup;
  let cacheWarmupRequests = 0;
  let cacheWarmupIsCap = false;
  if (warmup.kind === 'caches') {
    const length = warmup.length;
    if (length.kind === 'requests') cacheWarmupRequests = length.requests;
    else if (length.kind === 'time') cacheWarmupRequests = (scenario.traffic.rate * length.ms) / 1000;
    else {
      cacheWarmupRequests = length.maxRequests;
      cacheWarmupIsCap = true;
    }
  }
  // A steady warm-up usually stops far below its cap (the baseline's after about 15 M of 100 M): its time is not counted.
  const seconds = flowRequests / FLOW_REQUESTS_PER_SECOND + (cacheWarmupIsCap ? 0 : cacheWarmupRequests / CACHE_WARMUP_REQUESTS_PER_SECOND);
  return { flowRequests, cacheWarmupRequests, cacheWarmupIsCap, seconds };
}

/** One line for stderr before a run that may take more than a minute; null for shorter ones. */
export function runTimeEstimateLine(estimate: RunTimeEstimate): string | null {
  if (!(estimate.seconds >= ESTIMATE_FROM_SECONDS)) return null;
  const millions = (requests: number): string => `${+(requests / 1e6).toPrecision(3)} M`;
  const warmup =
    estimate.cacheWarmupRequests === 0
      ? ''
      : estimate.cacheWarmupIsCap
        ? `, plus a warm-up until the caches settle (up to ${millions(estimate.cacheWarmupRequests)} requests)`
        : ` after ${millions(estimate.cacheWarmupRequests)} warming the caches alone`;
  const minutes = estimate.seconds / 60;
  const time = minutes < 90 ? `${Math.ceil(minutes)} min` : `${+(minutes / 60).toPrecision(2)} h`;
  return `a long run: about ${millions(estimate.flowRequests)} requests through the flow${warmup}; expect about ${time} on one core`;
}
