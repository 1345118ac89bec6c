import { CacheWarmer, type CacheWarmerOptions } from '../cdn/cacheWarmer.js';
import type { CacheWarmupLength, Warmup } from '../scenario/warmupSchema.js';
import type { Simulation } from '../sim/simulation.js';
import type { ClientRequest } from '../workload/request.js';

/** How a run was warmed (summary.json `warmup`). */
export interface WarmupFacts {
  /**
   * `none`: measured from the first request. `flow`: the first requests went through the
   * whole flow, not measured. `caches`: the caches alone were warmed before the run
   * (src/cdn/cacheWarmer.ts).
   */
  method: 'none' | 'flow' | 'caches';
  /** `caches`: steady, or a fixed request count or time. */
  until?: 'steady' | 'requests' | 'time';
  /** Requests used by the warm-up. */
  requests: number;
  /** Simulated time the warm-up covered, ms (flow: up to the first measured request). */
  simulatedMs: number;
  /** `caches`: the CDN hit ratio of the last block (steady) or of the last `blockRequests` requests warmed. */
  finalBlockHitRatio?: number;
  /** until steady: the rule, the blocks' hit ratios, and whether the last two were within the tolerance. */
  steady?: { tolerance: number; blockRequests: number; maxRequests: number; blockHitRatios: number[]; converged: boolean };
}

/** Requests per block for the fixed-length forms' `finalBlockHitRatio`. */
const FIXED_REPORT_BLOCK = 1_000_000;

/**
 * The cache-only warm-up of `run.warmup: steady | {until: …}`, driven on the run's own
 * simulation so the workload's arrival processes, churn and clock carry on into the
 * measured part unchanged: while `accept` takes requests, they go to the CacheWarmer
 * instead of the flow.
 *
 * Until steady: the warm-up runs in blocks of `blockRequests` and stops after the first
 * block whose CDN hit ratio (edge or regional answered, of the requests reaching the edge,
 * spec 1.1) differs from the block before by less than `tolerance`, or when `maxRequests`
 * have been used (then `converged` is false).
 */
export class CacheWarmup {
  private readonly warmer: CacheWarmer;
  private readonly blockHitRatios: number[] = [];
  private warming = true;
  private requests = 0;
  private endMs = 0;
  private converged = false;
  private simulation: Simulation | undefined;

  constructor(
    private readonly length: CacheWarmupLength,
    caches: CacheWarmerOptions,
  ) {
    this.warmer = new CacheWarmer(caches);
  }

  /** Takes `request` for the warm-up (true), or false once the warm-up is over: the flow serves it. */
  accept(request: ClientRequest): boolean {
    if (!this.warming) return false;
    const length = this.length;
    if (length.kind === 'time' && request.timeMs >= length.ms) {
      this.finish(length.ms);
      return false;
    }
    this.warmer.warm(request);
    this.requests++;
    this.endMs = request.timeMs;
    const counts = this.warmer.counts;
    const block = length.kind === 'steady' ? length.blockRequests : FIXED_REPORT_BLOCK;
    if (counts.requests >= block) {
      this.blockHitRatios.push(counts.atEdge === 0 ? 0 : counts.cdnHits / counts.atEdge);
      this.warmer.resetCounts();
      if (length.kind === 'steady') {
        const n = this.blockHitRatios.length;
        this.converged = n >= 2 && Math.abs(this.blockHitRatios[n - 1] - this.blockHitRatios[n - 2]) < length.tolerance;
        if (this.converged || this.requests + length.blockRequests > length.maxRequests) this.finish(request.timeMs);
      }
    }
    if (length.kind === 'requests' && this.requests >= length.requests) this.finish(request.timeMs);
    return true;
  }

  /**
   * Runs `simulation` until the warm-up is over (or the workload runs dry) and returns the
   * simulated time it ended at: the measured run starts there.
   */
  run(simulation: Simulation, onProgress?: (simulatedMs: number, requests: number) => void): number {
    this.simulation = simulation;
    while (this.warming) {
      const outcome = simulation.run({ maxEvents: 1_000_000 });
      onProgress?.(simulation.nowMs, this.requests);
      if (outcome === 'empty') {
        this.finish(simulation.nowMs);
        break;
      }
    }
    return this.endMs;
  }

  facts(): WarmupFacts {
    const length = this.length;
    const lastBlock = this.blockHitRatios.at(-1);
    return {
      method: 'caches',
      until: length.kind,
      requests: this.requests,
      simulatedMs: this.endMs,
      ...(lastBlock === undefined ? {} : { finalBlockHitRatio: lastBlock }),
      ...(length.kind === 'steady'
        ? {
            steady: {
              tolerance: length.tolerance,
              blockRequests: length.blockRequests,
              maxRequests: length.maxRequests,
              blockHitRatios: [...this.blockHitRatios],
              converged: this.converged,
            },
          }
        : {}),
    };
  }

  private finish(atMs: number): void {
    this.warming = false;
    this.endMs = atMs;
    this.simulation?.stop();
  }
}

/** The cache-only warm-up a scenario asks for, or null for a warm-up through the flow. */
export function cacheWarmupFor(warmup: Warmup, caches: CacheWarmerOptions): CacheWarmup | null {
  return warmup.kind === 'caches' ? new CacheWarmup(warmup.length, caches) : null;
}

/** The facts of a warm-up through the flow (or none): its requests and the time of the first measured one. */
export function flowWarmupFacts(warmupRequests: number, firstMeasuredMs: number): WarmupFacts {
  return warmupRequests === 0 ? { method: 'none', requests: 0, simulatedMs: 0 } : { method: 'flow', requests: warmupRequests, simulatedMs: firstMeasuredMs };
}
