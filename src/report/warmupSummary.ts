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
