import type { WarmupFacts } from '../experiment/cacheWarmup.js';
import { formatCount, formatPercent } from './consoleTable.js';
import { roundTo } from './rounding.js';

/** summary.json `warmup`: WarmupFacts in seconds and rounded ratios (deterministic JSON). */
export interface WarmupSummary {
  method: WarmupFacts['method'];
  until?: WarmupFacts['until'];
  /** `caches`: how the caches started (docs/warmup.md "A stationary start"). */
  start?: WarmupFacts['start'];
  /** `start: stationary`: the objects and bytes the fill placed per layer (all caches of the layer together), and Che's hit ratio of one of its caches. */
  fill?: WarmupFacts['fill'];
  requests: number;
  simulatedSeconds: number;
  finalBlockHitRatio?: number;
  steady?: NonNullable<WarmupFacts['steady']>;
  /** until steady, when it stopped at `max` with the hit ratio still rising: what a longer warm-up would still change. */
  warning?: string;
}

const round6 = (value: number): number => roundTo(value, 6);

export function warmupSummary(facts: WarmupFacts): WarmupSummary {
  return {
    method: facts.method,
    ...(facts.until === undefined ? {} : { until: facts.until }),
    ...(facts.start === undefined ? {} : { start: facts.start }),
    ...(facts.fill === undefined ? {} : { fill: fillSummary(facts.fill) }),
    requests: facts.requests,
    simulatedSeconds: round6(facts.simulatedMs / 1000),
    ...(facts.finalBlockHitRatio === undefined ? {} : { finalBlockHitRatio: round6(facts.finalBlockHitRatio) }),
    ...(facts.steady === undefined ? {} : { steady: steadySummary(facts.steady) }),
    ...(facts.steady === undefined || facts.steady.converged ? {} : { warning: notSteadyWarning(facts.requests, facts.steady) }),
  };
}

function fillSummary(fill: NonNullable<WarmupFacts['fill']>): NonNullable<WarmupSummary['fill']> {
  const layer = (facts: NonNullable<WarmupFacts['fill']>['edge']) => ({ ...facts, cheHitRatio: round6(facts.cheHitRatio) });
  return { edge: layer(fill.edge), ...(fill.regional === undefined ? {} : { regional: layer(fill.regional) }) };
}

const points = (gain: number): string => `${(gain * 100).toFixed(2)} points`;

/**
 * A warm-up until steady that stopped at its cap measured caches still filling: the run's
 * hit ratios are below those of the CDN in service (spec 1.1), by up to the projected gain.
 */
function notSteadyWarning(requests: number, steady: NonNullable<WarmupFacts['steady']>): string {
  const { cdn, edge } = steady.projectedGain;
  const stopped = `the warm-up stopped at run.warmup.max (${formatCount(requests)} requests`;
  if (cdn === null || edge === null) {
    return `${stopped}, fewer than the 8 blocks of ${formatCount(steady.blockRequests)} the rule needs) before it could judge the hit ratios; raise run.warmup.max (docs/warmup.md)`;
  }
  return (
    `${stopped}) before the hit ratios settled: a warm-up four times as long could still change the CDN hit ratio ` +
    `by up to ${points(cdn)} and the edge hit ratio by up to ${points(edge)} (tolerance ${points(steady.tolerance)}); raise run.warmup.max (docs/warmup.md)`
  );
}

function steadySummary(steady: NonNullable<WarmupFacts['steady']>): NonNullable<WarmupSummary['steady']> {
  const { cdn, edge } = steady.projectedGain;
  return {
    ...steady,
    blockHitRatios: steady.blockHitRatios.map(round6),
    blockEdgeHitRatios: steady.blockEdgeHitRatios.map(round6),
    projectedGain: { cdn: cdn === null ? null : round6(cdn), edge: edge === null ? null : round6(edge) },
  };
}

/** The report's words for the warm-up, after the measured requests: "(500,000 warm-up)", "(caches warmed with …)". */
export function warmupText(warmup: WarmupSummary): string {
  if (warmup.method !== 'caches') return `(${formatCount(warmup.requests)} warm-up)`;
  const time = `${warmup.simulatedSeconds.toFixed(0)} s`;
  const last = warmup.finalBlockHitRatio === undefined ? '' : `, last block's CDN hit ratio ${formatPercent(warmup.finalBlockHitRatio)}`;
  const steady = warmup.steady === undefined ? '' : warmup.steady.converged ? ', steady' : `, NOT steady after ${formatCount(warmup.requests)} requests (run.warmup.max)`;
  const start = warmup.start === 'stationary' ? 'filled to their stationary state, then ' : '';
  return `(caches ${start}warmed with ${formatCount(warmup.requests)} requests over ${time}${last}${steady})`;
}

/**
 * The warm-up in a sentence for report.html: its kind (none, through the flow, or the caches
 * alone until steady, for a request count or for a time), how much, and the simulated time it
 * took, which the measured part follows (docs/warmup.md).
 */
export function warmupDescription(warmup: WarmupSummary): string {
  const span = `0–${formatSeconds(warmup.simulatedSeconds)} simulated`;
  switch (warmup.method) {
    case 'none':
      return 'none: measured from the first request, with empty caches';
    case 'flow':
      return `through the whole flow: the first ${formatCount(warmup.requests)} requests (${span}), not measured`;
    case 'caches': {
      const last = warmup.finalBlockHitRatio === undefined ? '' : `; last block's CDN hit ratio ${formatPercent(warmup.finalBlockHitRatio)}`;
      const filled = warmup.fill === undefined ? '' : `, after a stationary start (${formatCount(warmup.fill.edge.objects)} objects placed in the edge caches${warmup.fill.regional === undefined ? '' : `, ${formatCount(warmup.fill.regional.objects)} in the regional`})`;
      const requests = `${formatCount(warmup.requests)} requests (${span})${filled}`;
      if (warmup.until === 'steady') {
        const steady = warmup.steady;
        const verdict = steady === undefined ? '' : steady.converged ? ', steady' : `, not steady at the ${formatCount(steady.maxRequests)}-request limit`;
        return `cache-only, until steady: ${requests}${verdict}${last}`;
      }
      if (warmup.until === 'time') return `cache-only, for ${formatSeconds(warmup.simulatedSeconds)} of simulated time: ${requests}${last}`;
      return `cache-only, for a fixed ${requests}${last}`;
    }
  }
}

/** Where the measured part starts on the simulated clock, s: the end of the warm-up (0 without one). */
export function measuredFromSeconds(warmup: WarmupSummary): number {
  return warmup.method === 'none' ? 0 : warmup.simulatedSeconds;
}

const formatSeconds = (seconds: number): string => `${seconds.toFixed(seconds >= 100 ? 0 : 1)} s`;
