import { EDGE_DECISION, FLAG_REVALIDATE_ALWAYS, FLAG_STORE, REGIONAL_DECISION, type CompiledDecisionTable } from '../policy/compile.js';
import { KEEP_QUERY, STRIP_TRACKING_QUERY, type QueryHandling } from '../policy/queryHandling.js';
import type { AdaptiveTtl } from '../scenario/adaptiveSchema.js';
import type { Simulation } from '../sim/simulation.js';
import { classVerdict, nextTtlMs, type ClassVerdict, type TtlBounds, type VerdictLimits } from './adaptiveRule.js';
import type { RunLayers } from './runLayers.js';

/**
 * The adaptive controller of spec 1.2 item 6 on the simulated clock. Every `window` it reads
 * each content class's CDN hit ratio and outdated share over the window (counted from the
 * finished requests, in typed arrays: nothing allocated per request), takes the rule's
 * verdict (adaptiveRule.ts) and lets each action respond:
 * - TtlAction changes the class's freshness lifetime at the edge and regional layers in the
 *   compiled decision table the flow reads; the flow judges every stored copy by the lifetime
 *   in force (docs/ttl-strategies.md says why);
 * - QueryAction ("query-string handling" in 1.2 item 6) leaves the tracking parameters of a
 *   class with query strings out of its cache key from the next request on.
 */

/** The window that decided a change. */
interface AdjustmentWindow {
  /** Simulated time of the window's end, ms since the start of the run. */
  readonly atMs: number;
  readonly requests: number;
  readonly cdnHitRatio: number;
  readonly outdatedShare: number;
}

/** One change the controller made: a class's CDN lifetime (`ttl`) or its query handling (`query`). */
export type AdaptiveAdjustment = AdjustmentWindow & {
  readonly classId: number;
  readonly reason: Exclude<ClassVerdict, 'hold'>;
} & ({ readonly action: 'ttl'; readonly fromTtlMs: number; readonly toTtlMs: number } | { readonly action: 'query'; readonly fromQuery: QueryHandling; readonly toQuery: QueryHandling });

/** One class over one window: adaptive.csv's row. */
export interface AdaptiveWindow {
  readonly startMs: number;
  readonly endMs: number;
  readonly classId: number;
  readonly requests: number;
  readonly cdnHits: number;
  readonly outdated: number;
  /** The CDN lifetime in force for new stores during the window. */
  readonly ttlMs: number;
  readonly verdict: ClassVerdict;
  /** The lifetime from the window's end on. */
  readonly nextTtlMs: number;
  /** The query handling in force during the window; null for a class without query strings. */
  readonly query: QueryHandling | null;
}

/** A class as the controller treats it. */
export interface AdaptiveClass {
  readonly name: string;
  /** Whether the controller may change its lifetime: the CDN stores it and need not revalidate every use. */
  readonly adjustable: boolean;
  /** Whether the CDN stores it at all (fewer keys then help, revalidated or not). */
  readonly stored: boolean;
  readonly headerTtlMs: number;
  readonly limits: VerdictLimits;
  readonly bounds: TtlBounds;
}

export interface AdaptiveFigures {
  readonly settings: AdaptiveTtl;
  readonly classes: readonly AdaptiveClass[];
  /** Each class's lifetime when the run ended. */
  readonly finalTtlMs: readonly number[];
  readonly adjustments: readonly AdaptiveAdjustment[];
  readonly windows: readonly AdaptiveWindow[];
}

/** The finished request's fields the controller counts (the flow's CompletedRequest has them). */
export interface CountedRequest {
  readonly layer: number;
  readonly classId: number;
  readonly staleForMs: number;
}

/** Something the controller does to a class on a verdict; returns the change made, or null. */
export interface AdaptiveAction {
  respond(classId: number, verdict: ClassVerdict, window: AdjustmentWindow): AdaptiveAdjustment | null;
}

/** The per-class query handling the run's keys follow (src/workload/requests/queryKeys.ts). */
export interface QueryHandlingTable {
  hasQueries(classIndex: number): boolean;
  queryHandling(classIndex: number): QueryHandling;
  setQueryHandling(classIndex: number, handling: QueryHandling): void;
}

/**
 * spec 1.2 item 6's query-string handling: a stored class with query strings that is below its
 * target while its key keeps every parameter (4.3.1) gets its tracking parameters left out of
 * the key. It is never undone: a key without tracking values serves the same content, so it
 * costs no staleness, and a handling the scenario chose (`strip-tracking`, `ignore`) is left alone.
 */
export class QueryAction implements AdaptiveAction {
  constructor(
    private readonly keys: QueryHandlingTable,
    private readonly classes: readonly AdaptiveClass[],
  ) {}

  respond(classId: number, verdict: ClassVerdict, window: AdjustmentWindow): AdaptiveAdjustment | null {
    if (verdict !== 'below-target' || !this.classes[classId].stored || !this.keys.hasQueries(classId)) return null;
    const fromQuery = this.keys.queryHandling(classId);
    if (fromQuery.kind !== KEEP_QUERY.kind) return null;
    this.keys.setQueryHandling(classId, STRIP_TRACKING_QUERY);
    return { ...window, classId, reason: verdict, action: 'query', fromQuery, toQuery: STRIP_TRACKING_QUERY };
  }
}

/** Raises or lowers a class's CDN lifetime (edge and regional; the browser's is the origin's business). */
export class TtlAction implements AdaptiveAction {
  /** The lifetime in force per class (the edge's; the regional layer gets the same, or its own headers' if longer). */
  readonly ttlMs: Float64Array;
  private readonly regionalHeaderTtlMs: Float64Array;

  constructor(
    private readonly table: CompiledDecisionTable,
    private readonly classes: readonly AdaptiveClass[],
  ) {
    this.ttlMs = Float64Array.from(classes, (klass) => klass.headerTtlMs);
    this.regionalHeaderTtlMs = Float64Array.from(classes, (_, c) => table.ttlMsOf(c, REGIONAL_DECISION));
  }

  respond(classId: number, verdict: ClassVerdict, window: AdjustmentWindow): AdaptiveAdjustment | null {
    const klass = this.classes[classId];
    if (!klass.adjustable || verdict === 'hold') return null;
    const fromTtlMs = this.ttlMs[classId];
    const toTtlMs = nextTtlMs(verdict, fromTtlMs, klass.bounds);
    if (toTtlMs === fromTtlMs) return null;
    this.ttlMs[classId] = toTtlMs;
    this.table.setTtlMs(classId, EDGE_DECISION, toTtlMs);
    // Never below what the headers give the regional layer (a longer s-maxage there stays).
    this.table.setTtlMs(classId, REGIONAL_DECISION, Math.max(toTtlMs, this.regionalHeaderTtlMs[classId]));
    return { ...window, classId, reason: verdict, action: 'ttl', fromTtlMs, toTtlMs };
  }
}

export interface AdaptiveControllerOptions {
  readonly simulation: Simulation;
  readonly table: CompiledDecisionTable;
  readonly settings: AdaptiveTtl;
  /** Content class names in class-id order. */
  readonly classNames: readonly string[];
  /** The run's layers: which finished requests reached the CDN and which a CDN layer answered. */
  readonly layers: RunLayers;
  /** The run's per-class query handling, or null when no class has query strings. */
  readonly queryKeys: QueryHandlingTable | null;
}

/** Each class's limits and bounds: the controller's, with the class's own under `classes` replacing them. */
export function adaptiveClasses(settings: AdaptiveTtl, table: CompiledDecisionTable, classNames: readonly string[]): AdaptiveClass[] {
  return classNames.map((name, c) => {
    const own = settings.classes[name] ?? {};
    const flags = table.flagsOf(c, EDGE_DECISION);
    const headerTtlMs = table.ttlMsOf(c, EDGE_DECISION);
    return {
      name,
      // RFC 9111 §5.2.2.4: no-cache asks for validation at every use, whatever the lifetime; the controller leaves it so.
      adjustable: (flags & FLAG_STORE) !== 0 && (flags & FLAG_REVALIDATE_ALWAYS) === 0,
      stored: (flags & FLAG_STORE) !== 0,
      headerTtlMs,
      limits: { targetHitRatio: own.targetHitRatio ?? settings.targetHitRatio, maxStaleShare: own.maxStaleShare ?? settings.maxStaleShare, minRequests: settings.minRequests },
      bounds: { headerTtlMs, maxTtlMs: own.maxTtlMs ?? settings.maxTtlMs, startTtlMs: settings.startTtlMs, factor: settings.factor },
    };
  });
}

export class AdaptiveController {
  private readonly classes: AdaptiveClass[];
  private readonly requests: Float64Array;
  private readonly cdnHits: Float64Array;
  private readonly outdated: Float64Array;
  private readonly edgeLayer: number;
  private readonly regionalLayer: number;
  private readonly ttl: TtlAction;
  private readonly actions: readonly AdaptiveAction[];
  private readonly windowEvent: number;
  private readonly adjustments: AdaptiveAdjustment[] = [];
  private readonly windows: AdaptiveWindow[] = [];
  private windowStartMs = 0;
  private running = false;

  constructor(private readonly options: AdaptiveControllerOptions) {
    const { table, settings, classNames, layers, simulation } = options;
    this.classes = adaptiveClasses(settings, table, classNames);
    this.requests = new Float64Array(classNames.length);
    this.cdnHits = new Float64Array(classNames.length);
    this.outdated = new Float64Array(classNames.length);
    this.edgeLayer = layers.edge;
    this.regionalLayer = layers.regional;
    this.ttl = new TtlAction(table, this.classes);
    const { queryKeys } = options;
    this.actions = queryKeys === null || settings.queries === 'keep' ? [this.ttl] : [this.ttl, new QueryAction(queryKeys, this.classes)];
    this.windowEvent = simulation.defineEvent('adaptive.window', () => this.closeWindow());
  }

  /** Wraps the run's sink so every finished request is counted first (runs without the controller keep their sink untouched). */
  wrap<T extends CountedRequest>(sink: (done: T) => void): (done: T) => void {
    return (done) => {
      this.record(done);
      sink(done);
    };
  }

  /** A finished request (warm-up included: the controller acts on the whole clock, as a CDN's would). */
  record(done: CountedRequest): void {
    if (done.layer < this.edgeLayer) return; // a browser hit never reached the CDN
    const c = done.classId;
    if (c >= this.requests.length) return;
    this.requests[c]++;
    if (done.layer === this.edgeLayer || done.layer === this.regionalLayer) this.cdnHits[c]++;
    if (done.staleForMs >= 0) this.outdated[c]++;
  }

  /** The first window opens at `nowMs` (after a cache-only warm-up, which has no clock of its own). */
  start(nowMs: number): void {
    this.running = true;
    this.windowStartMs = nowMs;
    this.options.simulation.schedule(nowMs + this.options.settings.windowMs, this.windowEvent);
  }

  /** The run takes no more requests: no further windows (the requests still in flight come back unjudged). */
  stop(): void {
    this.running = false;
  }

  figures(): AdaptiveFigures {
    return { settings: this.options.settings, classes: this.classes, finalTtlMs: [...this.ttl.ttlMs], adjustments: this.adjustments, windows: this.windows };
  }

  private closeWindow(): void {
    if (!this.running) return;
    const atMs = this.options.simulation.nowMs;
    for (let c = 0; c < this.classes.length; c++) {
      const requests = this.requests[c];
      const counts = { requests, cdnHits: this.cdnHits[c], outdated: this.outdated[c] };
      const verdict = classVerdict(counts, this.classes[c].limits);
      const ttlMs = this.ttl.ttlMs[c];
      const query = this.options.queryKeys?.hasQueries(c) === true ? this.options.queryKeys.queryHandling(c) : null;
      const window = { atMs, requests, cdnHitRatio: requests === 0 ? 0 : counts.cdnHits / requests, outdatedShare: requests === 0 ? 0 : counts.outdated / requests };
      for (const action of this.actions) {
        const adjustment = action.respond(c, verdict, window);
        if (adjustment !== null) this.adjustments.push(adjustment);
      }
      this.windows.push({ startMs: this.windowStartMs, endMs: atMs, classId: c, ...counts, ttlMs, verdict, nextTtlMs: this.ttl.ttlMs[c], query });
    }
    this.requests.fill(0);
    this.cdnHits.fill(0);
    this.outdated.fill(0);
    this.windowStartMs = atMs;
    this.options.simulation.schedule(atMs + this.options.settings.windowMs, this.windowEvent);
  }
}
