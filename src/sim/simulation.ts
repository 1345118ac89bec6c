import { EventHeap } from './eventHeap.js';
import { EventQueue } from './eventQueue.js';
import type { SimMs } from './ids.js';

/** Handles one event; the two arguments are whatever the scheduler passed. */
export type EventHandler = (arg0: number, arg1: number) => void;

export interface RunLimits {
  /** Simulated horizon in ms: events later than this are left in the queue. */
  untilMs?: number;
  /** Process at most this many events in this call (lets a caller report progress). */
  maxEvents?: number;
}

export type RunOutcome = 'horizon' | 'empty' | 'stopped' | 'event-budget';

export interface EventKindOptions {
  /**
   * The kind's events are the next arrivals of a few sources, each scheduled when its last
   * one is handled (a workload's arrival processes, one pending event each). They wait in a
   * small heap of their own (EventHeap): a third of all events, each due before every
   * request in flight, where five of them cost a few comparisons (`npm run bench
   * kernel.arrivals` measures both ways). The order of events is the same either way (see run).
   */
  arrivals?: boolean;
}

/**
 * The discrete-event kernel: a simulated clock in milliseconds and an event loop.
 * It knows nothing of CDNs: components register event kinds with handlers, schedule
 * events, and may stop the run (for example after a request count).
 */
export class Simulation {
  /**
   * Where a caller of scheduleParked writes the event's time (index 0); both queues read it
   * from here. Written and read within one call: no other state lives in it.
   */
  readonly parkedAtMs = new Float64Array(1);
  /** Every other event: a calendar queue (eventQueue.ts), thousands deep in the flow. */
  private readonly queue: EventQueue;
  /** Events of the kinds defined with `arrivals`: a few at a time. */
  private readonly arrivals = new EventHeap(16, this.parkedAtMs);
  /** Per kind: 1 when its events go to `arrivals`. */
  private readonly arrivalKinds: number[] = [];
  /** Both queues take sequence numbers from this one counter, so ties in time keep the scheduling order across them. */
  private nextSeq = 0;
  private readonly handlers: EventHandler[] = [];
  private readonly kindNames: string[] = [];
  private stopRequested = false;
  /** After closeArrivals: arrival kinds' events are dropped. */
  private arrivalsClosed = false;
  private clockMs = 0;
  private processed = 0;

  constructor(initialQueueCapacity = 1024) {
    this.queue = new EventQueue(initialQueueCapacity, this.parkedAtMs);
  }

  /** Current simulated time in ms: the clock's reading, branded as such (src/sim/ids.ts). */
  get nowMs(): SimMs {
    return this.clockMs as SimMs;
  }

  /** Events processed since the simulation was created. */
  get eventsProcessed(): number {
    return this.processed;
  }

  get pendingEvents(): number {
    return this.queue.size + this.arrivals.size;
  }

  /** Registers an event kind and returns its id for `schedule`. */
  defineEvent(name: string, handler: EventHandler, options: EventKindOptions = {}): number {
    if (this.kindNames.includes(name)) throw new Error(`event kind '${name}' is defined twice`);
    this.kindNames.push(name);
    this.handlers.push(handler);
    this.arrivalKinds.push(options.arrivals === true ? 1 : 0);
    return this.handlers.length - 1;
  }

  /** Schedules an event at an absolute simulated time (never in the past). */
  schedule(atMs: number, kind: number, arg0 = 0, arg1 = 0): void {
    this.parkedAtMs[0] = atMs;
    this.scheduleParked(kind, arg0, arg1);
  }

  /**
   * schedule() with the event's time written into `parkedAtMs[0]` just before, for callers once
   * per request (issue 27): a time passed as an argument to a call the optimiser does not inline
   * (`schedule` is rarely inlined: the queues' pushes inlined into it exceed the budget) is a
   * newly allocated heap number, about three a request. Written into the typed array it is not
   * one, and the queues read it from there (their pushParked): no call below passes it either.
   * The event order is the same as schedule's.
   */
  scheduleParked(kind: number, arg0 = 0, arg1 = 0): void {
    const atMs = this.parkedAtMs[0];
    // NaN, ±Infinity and times before the clock all fail the second test.
    if (!(kind >= 0 && kind < this.handlers.length) || !(atMs >= this.clockMs && atMs < Infinity)) this.refuse(atMs, kind);
    if (this.arrivalKinds[kind] === 1) {
      if (!this.arrivalsClosed) this.arrivals.pushParked(this.nextSeq++, kind, arg0, arg1);
    } else this.queue.pushParked(this.nextSeq++, kind, arg0, arg1);
  }

  /** Throws the error schedule(atMs, kind) stands for. */
  private refuse(atMs: number, kind: number): never {
    if (!(kind >= 0 && kind < this.handlers.length)) throw new RangeError(`unknown event kind ${kind}`);
    if (!Number.isFinite(atMs)) throw new RangeError(`cannot schedule '${this.kindNames[kind]}' at ${atMs} ms: the time must be finite`);
    throw new RangeError(`cannot schedule '${this.kindNames[kind]}' at ${atMs} ms: the clock is at ${this.clockMs} ms`);
  }

  /**
   * Drops the pending arrivals and every one scheduled from now on: the run takes no new
   * requests, and the clock runs on only for the events already in flight. Without it, the
   * arrival processes went on drawing (and the run discarding) requests until the last one
   * in flight was back: 10⁸ events at 10⁹ requests/s.
   */
  closeArrivals(): void {
    this.arrivalsClosed = true;
    this.arrivals.clear();
  }

  scheduleAfter(delayMs: number, kind: number, arg0 = 0, arg1 = 0): void {
    this.schedule(this.clockMs + delayMs, kind, arg0, arg1);
  }

  /** Makes the current run() return after the event being handled. */
  stop(): void {
    this.stopRequested = true;
  }

  /**
   * Processes events in (time, scheduling order) until the horizon, an empty queue,
   * stop(), or the event budget. When the horizon is reached (or the queue runs dry before
   * a finite horizon) the clock moves to the horizon; it never moves backwards. The next
   * event is the earlier head of the two queues by (time, sequence number): exactly the one
   * a single queue of all events would give.
   */
  run(limits: RunLimits = {}): RunOutcome {
    const untilMs = limits.untilMs ?? Infinity;
    const budget = limits.maxEvents ?? Infinity;
    const main = this.queue;
    const arrivals = this.arrivals;
    const handlers = this.handlers;
    this.stopRequested = false;
    let handled = 0;
    for (;;) {
      if (handled >= budget) return 'event-budget';
      const mainTime = main.peekTime();
      const arrivalTime = arrivals.peekTime();
      const fromArrivals = arrivalTime < mainTime || (arrivalTime === mainTime && arrivals.peekSeq() < main.peekSeq());
      const next = fromArrivals ? arrivalTime : mainTime;
      if (next > untilMs) {
        if (untilMs > this.clockMs) this.clockMs = untilMs;
        return 'horizon';
      }
      if (next === Infinity) return 'empty';
      // Each queue in a branch of its own: the two are different classes, and one call site
      // serving both would be polymorphic.
      if (fromArrivals) {
        arrivals.pop();
        this.clockMs = next;
        handlers[arrivals.poppedKind](arrivals.poppedArg0, arrivals.poppedArg1);
      } else {
        main.pop();
        this.clockMs = next;
        handlers[main.poppedKind](main.poppedArg0, main.poppedArg1);
      }
      handled++;
      this.processed++;
      if (this.stopRequested) return 'stopped';
    }
  }
}
