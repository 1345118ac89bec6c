import type { AdaptiveController } from '../cdn/adaptiveController.js';
import { LayeredFlow, type CompletedRequest, type LayeredFlowOptions, type OriginActivity } from '../cdn/layeredFlow.js';
import type { RunTimeline, TimelineFigures } from '../metrics/runTimeline.js';
import type { Simulation } from '../sim/simulation.js';
import type { QueryKeys } from '../workload/requests/queryKeys.js';
import type { ClientRequest, RequestSink } from '../workload/request.js';
import type { CacheWarmup, WarmingProgress, WarmupFacts } from './cacheWarmup.js';
import { flowWarmupFacts } from './cacheWarmup.js';
import type { RunRecorder } from './runRecorder.js';
import type { RunResult } from './runResult.js';

/**
 * The phases of a run, in the only order they come (docs/run-lifecycle.md):
 * - `warming`: a cache-only warm-up (`run.warmup: steady | {until: …}`) takes the requests;
 * - `warm-up`: requests go through the flow, not measured (a count, a time or a share of the run);
 * - `measuring`: requests go through the flow and are measured;
 * - `closed`: the request limit, the horizon or the recording's end is reached: no new arrivals;
 * - `draining requests`: the clock runs on until the last request sent is answered;
 * - `draining fetches`: …and until the last fetch the measured requests caused is back;
 * - `done`: every figure may be read.
 */
export type RunPhase = 'warming' | 'warm-up' | 'measuring' | 'closed' | 'draining requests' | 'draining fetches' | 'done';

// Numbers on the hot path (one comparison per request), names for readers.
const WARMING = 0;
const WARM_UP = 1;
const MEASURING = 2;
const CLOSED = 3;
const DRAINING_REQUESTS = 4;
const DRAINING_FETCHES = 5;
const DONE = 6;
const PHASE_NAMES: readonly RunPhase[] = ['warming', 'warm-up', 'measuring', 'closed', 'draining requests', 'draining fetches', 'done'];

export interface RunProgress {
  simulatedMs: number;
  requests: number;
  /** Share of the run done, 0..1, by whichever limit is closer (of the warm-up, while `warming` is set). */
  fraction: number;
  /** Set while the caches are warmed alone, before the run: how far that has come. */
  warming?: WarmingProgress;
}

/** How long a run takes requests and which of them are measured. */
export interface RunBounds {
  /** Requests the run takes through the flow (Infinity: no limit). */
  requestLimit: number;
  /** Simulated time the run takes requests for, counted from the end of a cache-only warm-up (Infinity: no limit). */
  horizonMs: number;
  /** A warm-up through the flow: both this many requests and this simulated time pass before measuring starts. */
  warmupCount: number;
  warmupUntilMs: number;
  /** The request limit is a replayed recording's length: reaching it is the recording's end, not the scenario's limit. */
  limitIsRecordingEnd: boolean;
}

export interface RunLifecycleOptions {
  simulation: Simulation;
  workload: { attach(simulation: Simulation, sink: RequestSink): void };
  /** The flow's options, the completion handler aside: the life cycle is the flow's sink. */
  flow: Omit<LayeredFlowOptions, 'onComplete'>;
  /** Where completed requests go: every one (`recordAny`), and the measured ones (`record`). */
  recorder: Pick<RunRecorder, 'recordAny' | 'record'>;
  /** Builds the time series on the flow's origin counters; null: no time series. */
  timeline: ((origin: OriginActivity) => RunTimeline) | null;
  /** The cache-only warm-up (built on the same `flow` wiring), or null. */
  cacheWarmup: CacheWarmup | null;
  adaptive: AdaptiveController | null;
  /** Keys each request's query string before anything else sees it; null: no class has query strings. */
  queryKeys: QueryKeys | null;
  bounds: RunBounds;
}

/** How the run ended, as its last request is back (before the fetches still under way finish). */
export interface RunEnd {
  stopReason: RunResult['stopReason'];
  /** The simulated time the run stopped taking requests. */
  simulatedMs: number;
  /** The time series, closed as the last request was back; undefined without one. */
  timeline: TimelineFigures | undefined;
  /** Events processed until the last request was back. */
  events: number;
}

/**
 * One run's life cycle: it owns the flow (whose every completed request it records), the
 * counters of requests taken and the point measuring starts from, and it takes the run
 * through its phases in order (RunPhase). The run stops taking requests in one place,
 * `close`, whichever limit comes first.
 */
export class RunLifecycle {
  readonly flow: LayeredFlow;
  readonly timeline: RunTimeline | null;
  /** Range requests and their chunks among the measured requests (spec 4.8). */
  readonly rangeRequests = { requests: 0, chunks: 0 };
  private readonly simulation: Simulation;
  private readonly recorder: Pick<RunRecorder, 'recordAny' | 'record'>;
  private readonly cacheWarmup: CacheWarmup | null;
  private readonly adaptive: AdaptiveController | null;
  private readonly queryKeys: QueryKeys | null;
  private readonly bounds: RunBounds;
  private phaseNow: number;
  /** Requests taken by the flow: the next one's arrival order (seq). */
  private taken = 0;
  /**
   * The first measured request's arrival time. Its seq is the flow's `measuredFromSeq`
   * (Infinity before measuring starts): one definition of measured, which the flow counts its
   * work by and this sink records by (docs/origin-accounting.md).
   */
  private measuredFromMs = 0;
  private endMs = 0;

  constructor(options: RunLifecycleOptions) {
    this.simulation = options.simulation;
    this.recorder = options.recorder;
    this.cacheWarmup = options.cacheWarmup;
    this.adaptive = options.adaptive;
    this.queryKeys = options.queryKeys;
    this.bounds = options.bounds;
    this.phaseNow = options.cacheWarmup === null ? WARM_UP : WARMING;
    const complete = (done: CompletedRequest): void => this.complete(done);
    this.flow = new LayeredFlow({ ...options.flow, onComplete: options.adaptive === null ? complete : options.adaptive.wrap(complete) });
    this.timeline = options.timeline === null ? null : options.timeline(this.flow.originActivity);
    options.workload.attach(options.simulation, (request) => this.arrive(request));
  }

  get phase(): RunPhase {
    return PHASE_NAMES[this.phaseNow];
  }

  /** Requests the flow took (warm-up through the flow included, a cache-only warm-up's not). */
  get requests(): number {
    return this.taken;
  }

  /** Requests the flow took before measuring started (all of them if it never did). */
  get warmupRequests(): number {
    return this.flow.measuredFromSeq === Infinity ? this.taken : this.flow.measuredFromSeq;
  }

  /** How the run was warmed: the cache-only warm-up's facts, or those of the flow's first requests. */
  warmupFacts(): WarmupFacts {
    return this.cacheWarmup?.facts() ?? flowWarmupFacts(this.warmupRequests, this.flow.measuredFromSeq === Infinity ? this.endMs : this.measuredFromMs);
  }

  /**
   * Takes the run through every phase: the cache-only warm-up, the flow until a limit, then
   * the clock on until every request and every fetch is back. `readAtLastAnswer` is called
   * between the two drains, for what must be read as the last request is back (what the
   * caches hold: the background revalidations still under way would store what they fetch).
   */
  run<Held>(readAtLastAnswer: (end: RunEnd) => Held, onProgress?: (progress: RunProgress) => void, progressEvery = 100_000): RunEnd & { held: Held } {
    if (this.phaseNow >= CLOSED) throw new Error(`a run's life cycle runs once (it is ${this.phase})`);
    const { simulation, flow, bounds } = this;
    // A cache-only warm-up comes before the run: the run's duration counts from its end.
    const warmedMs =
      this.cacheWarmup?.run(simulation, (simulatedMs) => {
        if (onProgress === undefined || this.cacheWarmup === null) return;
        const warming = this.cacheWarmup.progress(simulatedMs);
        onProgress({ simulatedMs, requests: warming.requests, fraction: warming.fraction ?? 0, warming });
      }) ?? 0;
    this.adaptive?.start(warmedMs);
    // Until `close` at the request limit (from `arrive`), the horizon, or no events left.
    while (this.phaseNow < CLOSED) {
      const result = simulation.run({ untilMs: warmedMs + bounds.horizonMs, maxEvents: progressEvery });
      onProgress?.({
        simulatedMs: simulation.nowMs,
        requests: this.taken,
        fraction: Math.min(1, Math.max(this.taken / bounds.requestLimit, (simulation.nowMs - warmedMs) / bounds.horizonMs)),
      });
      if (result !== 'event-budget') break;
    }
    const stopReason: RunResult['stopReason'] = this.phaseNow < CLOSED ? 'duration' : bounds.limitIsRecordingEnd ? 'recording' : 'requests';
    this.close();
    const simulatedMs = simulation.nowMs;
    this.endMs = simulatedMs;
    this.timeline?.endRun(simulatedMs);
    this.adaptive?.stop();
    // Requests sent before the end are answered: the clock runs on, taking no new ones, until the last is back.
    this.phaseNow = DRAINING_REQUESTS;
    while (flow.requestsInFlight > 0) {
      if (simulation.run({ maxEvents: 1 }) === 'empty') break;
    }
    const end: RunEnd = { stopReason, simulatedMs, timeline: this.timeline?.finish(simulation.nowMs), events: simulation.eventsProcessed };
    const held = readAtLastAnswer(end);
    // docs/origin-accounting.md: the origin requests measured requests caused are all counted,
    // the background revalidations the last ones started included, so the clock runs on until
    // every fetch is back (an event at a time: nothing else is read after this).
    this.phaseNow = DRAINING_FETCHES;
    while (flow.fetchesInFlight > 0) {
      if (simulation.run({ maxEvents: 1 }) === 'empty') break;
    }
    this.phaseNow = DONE;
    return { ...end, held };
  }

  /** The workload's sink: a client request arrives. */
  private arrive(request: ClientRequest): void {
    this.queryKeys?.keyRequest(request);
    let phase = this.phaseNow;
    if (phase >= CLOSED) return;
    if (phase === WARMING) {
      if (this.cacheWarmup !== null && this.cacheWarmup.accept(request)) return;
      phase = this.phaseNow = WARM_UP;
    }
    const seq = this.taken++;
    if (phase === WARM_UP && seq >= this.bounds.warmupCount && request.timeMs >= this.bounds.warmupUntilMs) {
      phase = this.phaseNow = MEASURING;
      this.measuredFromMs = request.timeMs;
      this.flow.measuredFromSeq = seq;
      // docs/capacity.md: the origin's and regional sites' 1 s windows are whole seconds from where the measured time starts.
      this.flow.upstreamLoad.startMeasuring(this.warmupFacts().simulatedMs);
      this.timeline?.start(request.timeMs);
    }
    if (phase === MEASURING && request.firstChunk >= 0) {
      this.rangeRequests.requests++;
      this.rangeRequests.chunks += request.pieces;
    }
    this.flow.serve(request, seq);
    if (this.taken >= this.bounds.requestLimit) this.close();
  }

  /** The flow's sink: every request is recorded, the measured ones in the measured figures too. */
  private complete(done: CompletedRequest): void {
    this.recorder.recordAny(done);
    if (done.seq >= this.flow.measuredFromSeq) {
      // The timeline first: it may close an interval, which must not hold this request yet.
      this.timeline?.record(this.simulation.nowMs, done);
      this.recorder.record(done);
    }
  }

  /** The one way the run stops taking requests: at the request limit (from `arrive`) or after the horizon (from `run`). */
  private close(): void {
    if (this.phaseNow >= CLOSED) return;
    this.phaseNow = CLOSED;
    this.simulation.closeArrivals();
    this.simulation.stop();
  }
}
