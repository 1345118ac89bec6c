import type { WarmupFacts } from '../experiment/cacheWarmup.js';
import { formatCount, formatPercent } from './consoleTable.js';
import { roundTo } from './rounding.js';

/** summary.json `warmup`: WarmupFacts in seconds and rounded ratios (deterministic JSON). */
export interface WarmupSummary {
  method: WarmupFacts['method'];
  until?: WarmupFacts['until'];
  requests: number;
  simulatedSeconds: number;
  finalBlockHitRatio?: number;
  steady?: { tolerance: number; blockRequests: number; maxRequests: number; blockHitRatios: number[]; converged: boolean };
}

const round6 = (value: number): number => roundTo(value, 6);

export function warmupSummary(facts: WarmupFacts): WarmupSummary {
  return {
    method: facts.method,
    ...(facts.until === undefined ? {} : { until: facts.until }),
    requests: facts.requests,
    simulatedSeconds: round6(facts.simulatedMs / 1000),
    ...(facts.finalBlockHitRatio === undefined ? {} : { finalBlockHitRatio: round6(facts.finalBlockHitRatio) }),
    ...(facts.steady === undefined ? {} : { steady: { ...facts.steady, blockHitRatios: facts.steady.blockHitRatios.map(round6) } }),
  };
}

/** The report's words for the warm-up, after the measured requests: "(500,000 warm-up)", "(caches warmed with …)". */
export function warmupText(warmup: WarmupSummary): string {
  if (warmup.method !== 'caches') return `(${formatCount(warmup.requests)} warm-up)`;
  const time = `${warmup.simulatedSeconds.toFixed(0)} s`;
  const last = warmup.finalBlockHitRatio === undefined ? '' : `, last block's CDN hit ratio ${formatPercent(warmup.finalBlockHitRatio)}`;
  const steady = warmup.steady === undefined ? '' : warmup.steady.converged ? ', steady' : `, not steady after ${formatCount(warmup.requests)} requests (run.warmup.max)`;
  return `(caches warmed with ${formatCount(warmup.requests)} requests over ${time}${last}${steady})`;
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
      const requests = `${formatCount(warmup.requests)} requests (${span})`;
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
