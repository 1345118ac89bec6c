import { EventQueue } from './eventQueue.js';

/** Handles one event; the two arguments are whatever the scheduler passed. */
export type EventHandler = (arg0: number, arg1: number) => void;

export interface RunLimits {
  /** Simulated horizon in ms: events later than this are left in the queue. */
  untilMs?: number;
  /** Process at most this many events in this call (lets a caller report progress). */
  maxEvents?: number;
}

export type RunOutcome = 'horizon' | 'empty' | 'stopped' | 'event-budget';

/**
 * The discrete-event kernel: a simulated clock in milliseconds and an event loop.
 * It knows nothing of CDNs: components register event kinds with handlers, schedule
 * events, and may stop the run (for example after a request count).
 */
export class Simulation {
  private readonly queue: EventQueue;
  private readonly handlers: EventHandler[] = [];
  private readonly kindNames: string[] = [];
  private stopRequested = false;
  private clockMs = 0;
  private processed = 0;

  constructor(initialQueueCapacity = 1024) {
    this.queue = new EventQueue(initialQueueCapacity);
  }

  /** Current simulated time in ms. */
  get nowMs(): number {
    return this.clockMs;
  }

  /** Events processed since the simulation was created. */
  get eventsProcessed(): number {
    return this.processed;
  }

  get pendingEvents(): number {
    return this.queue.size;
  }

  /** Registers an event kind and returns its id for `schedule`. */
  defineEvent(name: string, handler: EventHandler): number {
    if (this.kindNames.includes(name)) throw new Error(`event kind '${name}' is defined twice`);
    this.kindNames.push(name);
    this.handlers.push(handler);
    return this.handlers.length - 1;
  }

  /** Schedules an event at an absolute simulated time (never in the past). */
  schedule(atMs: number, kind: number, arg0 = 0, arg1 = 0): void {
    if (!(kind >= 0 && kind < this.handlers.length)) throw new RangeError(`unknown event kind ${kind}`);
    if (!Number.isFinite(atMs)) throw new RangeError(`cannot schedule '${this.kindNames[kind]}' at ${atMs} ms: the time must be finite`);
    if (atMs < this.clockMs) {
      throw new RangeError(`cannot schedule '${this.kindNames[kind]}' at ${atMs} ms: the clock is at ${this.clockMs} ms`);
    }
    this.queue.push(atMs, kind, arg0, arg1);
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
   * a finite horizon) the clock moves to the horizon; it never moves backwards.
   */
  run(limits: RunLimits = {}): RunOutcome {
    const untilMs = limits.untilMs ?? Infinity;
    const budget = limits.maxEvents ?? Infinity;
    const queue = this.queue;
    const handlers = this.handlers;
    this.stopRequested = false;
    let handled = 0;
    for (;;) {
      if (handled >= budget) return 'event-budget';
      const next = queue.peekTime();
      if (next > untilMs) {
        if (untilMs > this.clockMs) this.clockMs = untilMs;
        return 'horizon';
      }
      if (next === Infinity) return 'empty';
      queue.pop();
      this.clockMs = queue.poppedTime;
      handlers[queue.poppedKind](queue.poppedArg0, queue.poppedArg1);
      handled++;
      this.processed++;
      if (this.stopRequested) return 'stopped';
    }
  }
}
