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
/**
 * Highest traffic.rate, and highest rate inside a flash crowd (traffic.rate × multiplier):
 * 10 M requests a simulated second. Every request is held from its arrival until its answer,
 * so about rate × round trip are in flight at once (Little's law): at 1e7/s and round trips
 * of 50–300 ms, 0.5–3 M requests, which the machine's memory still holds (measured: about
 * 275 bytes each, a 4 M-request run at 1e9/s took 1.7 GB against 0.6 GB at 1e6/s). The
 * simulator also serves about 0.5 M requests per CPU second, so a simulated second at this
 * rate already costs 20 s.
 */
export const MAX_TRAFFIC_RATE = 1e7;
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

/** 1e9/s, 2.5e7/s, 20,000/s: as a scenario would write it. */
function rateText(perSecond: number): string {
  if (perSecond < 1e6) return `${(+perSecond.toPrecision(4)).toLocaleString('en-US')}/s`;
  const exponent = Math.floor(Math.log10(perSecond));
  return `${+(perSecond / 10 ** exponent).toPrecision(4)}e${exponent}/s`;
}

/** traffic.rate or a flash crowd's peak above MAX_TRAFFIC_RATE (a replayed recording keeps its own rate). */
function trafficRateProblem(scenario: Scenario): WorkBoundProblem | null {
  const { rate, flashCrowds } = scenario.traffic;
  const why = `requests in flight at once grow with the rate (about rate × round trip), and so do the memory and time a simulated second takes`;
  if (!(rate <= MAX_TRAFFIC_RATE)) {
    return {
      keyPath: ['traffic', 'rate'],
      message: `expected a rate of at most ${rateText(MAX_TRAFFIC_RATE)} (10M/s), found ${rateText(rate)}: ${why}; model a share of the traffic (one region's, say) at a lower rate`,
    };
  }
  for (const [index, crowd] of flashCrowds.entries()) {
    const peak = rate * crowd.multiplier;
    if (!(peak <= MAX_TRAFFIC_RATE)) {
      return {
        keyPath: ['traffic', 'flashCrowds', index, 'multiplier'],
        message: `expected a crowd's rate (traffic.rate × multiplier) of at most ${rateText(MAX_TRAFFIC_RATE)} (10M/s), found ${rateText(rate)} × ${crowd.multiplier} = ${rateText(peak)}: ${why}; lower the multiplier or traffic.rate`,
      };
    }
  }
  return null;
}

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

  const rateProblem = trafficRateProblem(scenario);
  if (rateProblem !== null) return rateProblem;
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
