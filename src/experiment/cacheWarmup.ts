import { CacheWarmer, type CacheWarmerOptions } from '../cdn/cacheWarmer.js';
import { fillStationary, type FillCatalogue, type FillCurves, type FillFacts, type FillKeyOf } from '../cdn/stationaryFill.js';
import type { RandomStream } from '../sim/random.js';
import type { CacheWarmupLength, Warmup } from '../scenario/warmupSchema.js';
import type { Simulation } from '../sim/simulation.js';
import type { ClientRequest } from '../workload/request.js';
import { isSteady, steadyBlockRequests, steadyGain } from './steadyRule.js';

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
  /**
   * `caches`: how the caches started: `stationary`, filled with LRU's stationary contents
   * (src/cdn/stationaryFill.ts) before the first warmed request, or `empty`.
   */
  start?: 'stationary' | 'empty';
  /** `stationary`: what the fill placed per layer. */
  fill?: FillFacts;
  /** Requests used by the warm-up. */
  requests: number;
  /** Simulated time the warm-up covered, ms (flow: up to the first measured request). */
  simulatedMs: number;
  /** `caches`: the CDN hit ratio of the last block (steady) or of the last `blockRequests` requests warmed. */
  finalBlockHitRatio?: number;
  /**
   * until steady: the rule, the blocks' CDN and edge hit ratios, the gain a warm-up four
   * times as long would still bring by the rule's fit (src/experiment/steadyRule.ts; null
   * before its eighth block), and whether that gain was below the tolerance for both.
   */
  steady?: {
    tolerance: number;
    blockRequests: number;
    maxRequests: number;
    blockHitRatios: number[];
    blockEdgeHitRatios: number[];
    projectedGain: { cdn: number | null; edge: number | null };
    converged: boolean;
  };
}

/** Requests per block for the fixed-length forms' `finalBlockHitRatio`. */
const FIXED_REPORT_BLOCK = 1_000_000;

/** The steady rule with its block size resolved (scaled from the catalogue and the edges when the scenario leaves it out). */
interface ResolvedSteady {
  kind: 'steady';
  start: 'stationary' | 'empty';
  tolerance: number;
  blockRequests: number;
  maxRequests: number;
}

/**
 * The cache-only warm-up of `run.warmup: steady | {until: …}`, driven on the run's own
 * simulation so the workload's arrival processes, churn and clock carry on into the
 * measured part unchanged: while `accept` takes requests, they go to the CacheWarmer
 * instead of the flow.
 *
 * Until steady: the warm-up runs in blocks of `blockRequests` and stops after the first
 * block at which neither the CDN hit ratio (edge or regional answered, of the requests
 * reaching the edge, spec 1.1) nor the edge hit ratio would gain `tolerance` over a
 * warm-up four times as long (src/experiment/steadyRule.ts), or when another block would
 * pass `maxRequests` (then `converged` is false and the run warns).
 */
export class CacheWarmup {
  private readonly warmer: CacheWarmer;
  private readonly length: ResolvedSteady | Exclude<CacheWarmupLength, { kind: 'steady' }>;
  private readonly blockHitRatios: number[] = [];
  private readonly blockEdgeHitRatios: number[] = [];
  private warming = true;
  private requests = 0;
  private endMs = 0;
  private converged = false;
  private simulation: Simulation | undefined;
  private fillFacts: FillFacts | undefined;
  private filling = false;

  /** `objects`: the catalogue's size, which with the number of edges sets a steady warm-up's default block. */
  constructor(
    length: CacheWarmupLength,
    private readonly caches: CacheWarmerOptions,
    objects: number,
    private readonly fill: StationaryFillInputs | null = null,
  ) {
    this.warmer = new CacheWarmer(caches);
    this.length = length.kind === 'steady' ? { ...length, blockRequests: length.blockRequests ?? steadyBlockRequests(objects, caches.edges.length) } : length;
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
      this.blockEdgeHitRatios.push(counts.atEdge === 0 ? 0 : counts.edgeHits / counts.atEdge);
      this.warmer.resetCounts();
      if (length.kind === 'steady') {
        this.converged = isSteady(this.blockHitRatios, this.blockEdgeHitRatios, length.tolerance);
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
    if (this.length.start === 'stationary') {
      if (this.fill === null) throw new Error('a stationary start needs the catalogue, its keys and a random stream (cacheWarmupFor)');
      this.filling = true;
      onProgress?.(simulation.nowMs, 0);
      this.fillFacts = fillStationary(this.caches, this.fill.catalogue, this.fill.keyOf, this.fill.stream, this.fill.curves ?? null, this.fill.routedEdges ?? null);
      this.filling = false;
    }
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

  /** How far the warm-up has come at `simulatedMs`, for a progress bar (issue 26: it read 0 % through the whole warm-up). */
  progress(simulatedMs: number): WarmingProgress {
    const length = this.length;
    const target = length.kind === 'requests' ? length.requests : length.kind === 'steady' ? length.maxRequests : null;
    // A steady warm-up's share is of its cap: an upper bound on what is left, said as such.
    const fraction = length.kind === 'time' ? Math.min(1, simulatedMs / length.ms) : target === null || target === 0 ? null : Math.min(1, this.requests / target);
    return { requests: this.requests, target, until: length.kind, filling: this.filling, fraction, lastBlockHitRatio: this.blockHitRatios.at(-1) ?? null };
  }

  facts(): WarmupFacts {
    const length = this.length;
    const lastBlock = this.blockHitRatios.at(-1);
    return {
      method: 'caches',
      until: length.kind,
      start: length.start,
      ...(this.fillFacts === undefined ? {} : { fill: this.fillFacts }),
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
              blockEdgeHitRatios: [...this.blockEdgeHitRatios],
              projectedGain: { cdn: steadyGain(this.blockHitRatios)?.gain ?? null, edge: steadyGain(this.blockEdgeHitRatios)?.gain ?? null },
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

/** A cache-only warm-up under way (RunProgress.warming). */
export interface WarmingProgress {
  /** Requests warmed so far. */
  requests: number;
  /** The count it warms (`{requests: N}`), or a steady warm-up's cap; null for a simulated time. */
  target: number | null;
  until: CacheWarmupLength['kind'];
  /** The caches are being filled with their stationary contents (before the first warmed request). */
  filling: boolean;
  /** Share done: of the count, the cap (steady) or the time; null when none applies. */
  fraction: number | null;
  /** The CDN hit ratio of the last full block, null before the first. */
  lastBlockHitRatio: number | null;
}

/** What a stationary start reads: the catalogue's probabilities and sizes, each object's key, and the fill's own random stream. */
export interface StationaryFillInputs {
  catalogue: FillCatalogue;
  keyOf: FillKeyOf;
  stream: RandomStream;
  /** With run.curves: the recorders to start from the stationary order (docs/curves.md, "A stationary start"). */
  curves?: FillCurves | null;
  /** Per edge, 1 when normal routing sends it requests; the others stay empty (all filled when absent). */
  routedEdges?: Uint8Array | null;
}

/**
 * The cache-only warm-up a scenario asks for, or null for a warm-up through the flow.
 * `fill` is called only for a stationary start, so a run that starts empty opens no stream for it.
 */
export function cacheWarmupFor(warmup: Warmup, caches: CacheWarmerOptions, objects: number, fill: () => StationaryFillInputs): CacheWarmup | null {
  if (warmup.kind !== 'caches') return null;
  return new CacheWarmup(warmup.length, caches, objects, warmup.length.start === 'stationary' ? fill() : null);
}

/** The facts of a warm-up through the flow (or none): its requests and the time of the first measured one. */
export function flowWarmupFacts(warmupRequests: number, firstMeasuredMs: number): WarmupFacts {
  return warmupRequests === 0 ? { method: 'none', requests: 0, simulatedMs: 0 } : { method: 'flow', requests: warmupRequests, simulatedMs: firstMeasuredMs };
}
