import { DEFAULT_CELL_MS } from '../workload/arrivals/rateShape.js';
import type { Scenario } from './schema.js';

/**
 * Bounds on the work a scenario generates, checked before a run starts: a scenario that
 * asks for the impossible (a rate that doubles every second for an hour, traffic that dies
 * out before the requests asked for) is refused with its key, instead of a run that never
 * finishes.
 */

/** Most requests one run may generate, by count or by traffic.rate over run.duration: hours of CPU at the simulator's rate. */
export const MAX_RUN_REQUESTS = 1e10;
/** Largest growth of the rate over the run: beyond a million-fold no capacity plan is meant. */
export const MAX_GROWTH_OVER_RUN = 1e6;
/**
 * Largest growth within one minute (a cell of the arrival table): arrivals are drawn by
 * thinning against the rate at a cell's end, so at ×2 at least half the candidates are kept;
 * steeper growth makes nearly every candidate a rejection and the run stalls.
 */
export const MAX_GROWTH_PER_CELL = 2;
/**
 * Fewest expected arrivals left after the run's end under shrinking traffic: each arrival
 * stream looks for its next arrival, and with less than this left it may search forever
 * (the chance of that is e^−50).
 */
const MIN_TAIL_ARRIVALS = 50;

export interface WorkBoundProblem {
  keyPath: (string | number)[];
  message: string;
}

const formatFactor = (factor: number): string => (Number.isFinite(factor) ? `×${factor.toPrecision(3)}` : 'beyond any number');

/** The first bound the scenario breaks, or null. */
export function workBoundProblem(scenario: Scenario): WorkBoundProblem | null {
  if (scenario.content.recorded?.use === 'replay') return null;
  const ratePerMs = scenario.traffic.rate / 1000;
  const { rate: growthRate, per: perMs } = scenario.traffic.growth;
  const kappa = Math.log1p(growthRate) / perMs;
  const { requests: runRequests, durationMs: runMs } = scenario.run;
  // A cache-only warm-up of fixed length comes before the run on the same clock: the traffic must last through both.
  const warmup = scenario.run.warmup;
  const cacheWarmup = warmup.kind === 'caches' ? warmup.length : undefined;
  const requests = runRequests === undefined ? undefined : runRequests + (cacheWarmup?.kind === 'requests' ? cacheWarmup.requests : 0);
  const durationMs = runMs === undefined ? undefined : runMs + (cacheWarmup?.kind === 'time' ? cacheWarmup.ms : 0);
  const growthText = `{rate: ${+(growthRate * 100).toPrecision(6)}%, per: ${perMs / 1000} s}`;

  if (kappa > 0) {
    const perCell = Math.exp(kappa * DEFAULT_CELL_MS);
    if (!(perCell <= MAX_GROWTH_PER_CELL)) {
      return {
        keyPath: ['traffic', 'growth'],
        message: `expected growth of at most ×${MAX_GROWTH_PER_CELL} per minute, found ${growthText}, which is ${formatFactor(perCell)} per minute; use a longer \`per\` (such as 1d or 30d) or a smaller rate`,
      };
    }
  }
  if (kappa > 0 && durationMs !== undefined) {
    const overRun = Math.exp(kappa * durationMs);
    if (!(overRun <= MAX_GROWTH_OVER_RUN)) {
      return {
        keyPath: ['traffic', 'growth'],
        message: `expected growth of at most ×${MAX_GROWTH_OVER_RUN.toExponential(0)} over the run, found ${growthText} over ${durationMs / 1000} s of run.duration (${formatFactor(overRun)}); shorten run.duration or slow the growth`,
      };
    }
  }
  if (kappa < 0) {
    const decay = -kappa;
    // Expected arrivals of the smallest region's stream from the horizon on: r·s·e^(−κT)/κ.
    const shares = Object.values(scenario.traffic.regions).filter((share) => share > 0);
    const smallest = shares.length > 0 ? Math.min(...shares) : 1;
    if (durationMs === undefined && requests !== undefined && ratePerMs / decay < requests * 2) {
      return {
        keyPath: ['traffic', 'growth'],
        message: `traffic shrinking by ${growthText} dies out after about ${Math.round(ratePerMs / decay).toLocaleString('en-US')} requests, fewer than twice ${cacheWarmup?.kind === 'requests' ? 'run.requests and the warm-up\'s requests' : 'run.requests'} (${requests.toLocaleString('en-US')}); slow the decline or ask for fewer requests`,
      };
    }
    const tailMs = durationMs ?? Math.log(1 / (1 - (requests ?? 0) * decay / ratePerMs)) / decay;
    const tail = ((ratePerMs * smallest) / decay) * Math.exp(-decay * tailMs);
    if (!(tail >= MIN_TAIL_ARRIVALS)) {
      return {
        keyPath: ['traffic', 'growth'],
        message: `traffic shrinking by ${growthText} has all but died out by the run's end (about ${tail.toPrecision(2)} requests of the smallest region left to come); slow the decline or shorten the run`,
      };
    }
  }
  if (requests !== undefined && !(requests <= MAX_RUN_REQUESTS)) {
    const fromWarmup = cacheWarmup?.kind === 'requests' && runRequests !== undefined && runRequests <= MAX_RUN_REQUESTS;
    return {
      keyPath: fromWarmup ? ['run', 'warmup'] : ['run', 'requests'],
      message: `expected a run of at most ${MAX_RUN_REQUESTS.toExponential(0)} requests${fromWarmup ? ', warm-up included' : ''}, found ${requests.toExponential(3)}; ask for fewer requests (a run of 1e10 already takes hours)`,
    };
  }
  if (durationMs !== undefined && requests === undefined) {
    // Mean multiplier over the run under growth: (e^(κT) − 1)/(κT); the weekly shape averages 1.
    const meanGrowth = kappa === 0 ? 1 : Math.expm1(kappa * durationMs) / (kappa * durationMs);
    const expected = ratePerMs * durationMs * meanGrowth;
    if (!(expected <= MAX_RUN_REQUESTS)) {
      return {
        keyPath: ['run', 'duration'],
        message: `expected a run of at most ${MAX_RUN_REQUESTS.toExponential(0)} requests, found about ${expected.toPrecision(3)} (traffic.rate over run.duration); shorten run.duration or add run.requests`,
      };
    }
  }
  return null;
}
