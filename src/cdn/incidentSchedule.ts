import type { Simulation } from '../sim/simulation.js';
import { formatSimTime, lastAtOrBefore } from '../workload/incidents/simTime.js';
import type { DeployIncident, ErrorBurstIncident, Incident, SlowdownIncident } from '../workload/incidents/incidentSchema.js';

/**
 * Incidents as the CDN flow consumes them, two ways:
 * - events: `schedule(simulation, sink)` calls the sink at each incident's start (and a
 *   window's end), so the flow can act once (purge caches on a deploy, spec 1.2 item 6;
 *   mark availability windows);
 * - state: `conditions.at(t)` answers what the origin is like at simulated time t on the
 *   request path (reachable? error status and share? service-time factor? content epoch?),
 *   from breakpoints precomputed into typed arrays, with a cursor: O(1) amortised for
 *   non-decreasing t, O(log n) after a step back, no allocation.
 *
 * Semantics (see the scenario's section, src/workload/incidents/incidentSchema.ts): windows
 * are [start, end) — at t = start the incident is on, at t = end it is off; a deploy counts
 * from its `at` on. Outages overlap as a union, slowdown factors multiply, error bursts do not
 * overlap. At equal times the sink sees ends before starts (a window that ends as the next
 * begins hands over cleanly), then incidents in list order.
 *
 * It lives beside the origin (src/cdn, docs/architecture.md) because it is the origin's
 * timeline; the scenario-facing schema and repeats stay in src/workload/incidents.
 */

export const INCIDENT_START = 0;
export const INCIDENT_END = 1;
/** INCIDENT_START (0) or INCIDENT_END (1); a deploy is instantaneous and only starts. */
export type IncidentPhase = typeof INCIDENT_START | typeof INCIDENT_END;
/** Called at the simulated time of a phase; `incident` indexes the resolved list. */
export type IncidentSink = (incident: number, phase: IncidentPhase) => void;

export function incidentPhaseName(phase: IncidentPhase): 'start' | 'end' {
  return phase === INCIDENT_START ? 'start' : 'end';
}

/** The origin at one moment. One record is reused by every query: read it, do not keep it. */
export interface OriginConditions {
  /** false during an outage: connections are refused (spec 4.7: serve the last good version). */
  reachable: boolean;
  /** Status of error responses during an error burst (500–599); 0 outside bursts. */
  errorStatus: number;
  /** Share of origin responses that are errorStatus; 0 outside bursts. */
  errorShare: number;
  /** Origin service time × this; 1 without a slowdown, the product of overlapping ones. */
  serviceTimeFactor: number;
  /** Deploys at or before t (any class): the origin's content version counter. */
  contentEpoch: number;
}

/** Per-class questions use a slot: one per class name a deploy lists, plus one for every other class. */
export class OriginConditionsTimeline {
  /** Content class names some deploy lists, sorted; slot i is classNames[i]. */
  readonly classNames: readonly string[];
  /** Slot of the classes no deploy names (only deploys of everything touch them). */
  readonly otherClassSlot: number;
  /** Start of each segment of constant conditions; segment 0 starts at −∞. */
  private readonly starts: Float64Array;
  private readonly reachable: Uint8Array;
  private readonly errorStatus: Int16Array;
  private readonly errorShare: Float64Array;
  private readonly serviceTimeFactor: Float64Array;
  private readonly contentEpoch: Int32Array;
  /** segments × class slots: deploys touching the class so far. */
  private readonly classEpoch: Int32Array;
  private readonly slots: number;
  /** Per class slot: the times of the deploys that purge it, ascending. */
  private readonly purgeTimesBySlot: readonly Float64Array[];
  private cursor = 0;
  private filled = -1;
  private readonly current: OriginConditions = { reachable: true, errorStatus: 0, errorShare: 0, serviceTimeFactor: 1, contentEpoch: 0 };

  constructor(incidents: readonly Incident[]) {
    const names = new Set<string>();
    const times: number[] = [];
    for (const incident of incidents) {
      if (incident.kind === 'deploy') {
        times.push(incident.atMs);
        for (const name of incident.classes) names.add(name);
      } else times.push(incident.startMs, incident.endMs);
    }
    this.classNames = [...names].sort();
    this.otherClassSlot = this.classNames.length;
    this.slots = this.classNames.length + 1;
    const breakpoints = [...new Set(times)].sort((a, b) => a - b);
    const segments = breakpoints.length + 1;
    this.starts = Float64Array.from([-Infinity, ...breakpoints]);
    this.reachable = new Uint8Array(segments);
    this.errorStatus = new Int16Array(segments);
    this.errorShare = new Float64Array(segments);
    this.serviceTimeFactor = new Float64Array(segments);
    this.contentEpoch = new Int32Array(segments);
    this.classEpoch = new Int32Array(segments * this.slots);
    this.fillSegments(incidents);
    this.purgeTimesBySlot = Array.from({ length: this.slots }, (_, slot) =>
      Float64Array.from(
        incidents.flatMap((incident) =>
          incident.kind === 'deploy' && incident.purge && this.touches(incident, slot) ? [incident.atMs] : [],
        ),
      ).sort(),
    );
  }

  /**
   * The times of the deploys that purge the class (slot), ascending; empty when none does.
   * For questions at times apart from the request path's (a purge that takes a while to
   * propagate), without moving the cursor.
   */
  purgeTimes(slot: number): Float64Array {
    return this.purgeTimesBySlot[slot];
  }

  /** Segments of constant conditions (breakpoints + 1). */
  get segmentCount(): number {
    return this.starts.length;
  }

  /** The origin at simulated time `timeMs` (a reused record). */
  at(timeMs: number): OriginConditions {
    const segment = this.seek(timeMs);
    if (segment !== this.filled) {
      const current = this.current;
      current.reachable = this.reachable[segment] === 1;
      current.errorStatus = this.errorStatus[segment];
      current.errorShare = this.errorShare[segment];
      current.serviceTimeFactor = this.serviceTimeFactor[segment];
      current.contentEpoch = this.contentEpoch[segment];
      this.filled = segment;
    }
    return this.current;
  }

  /** The slot for per-class queries: the class's own when a deploy lists it, else otherClassSlot. */
  classSlot(className: string): number {
    const slot = this.classNames.indexOf(className);
    return slot === -1 ? this.otherClassSlot : slot;
  }

  /** Deploys touching the class (slot) at or before `timeMs`: the class's content version. */
  classEpochAt(timeMs: number, slot: number): number {
    return this.classEpoch[this.seek(timeMs) * this.slots + slot];
  }

  /**
   * Time of the latest purging deploy touching the class (slot) at or before `timeMs`; −∞
   * when none. An entry of that class stored before it has been purged (lazy purging).
   */
  lastPurgeAtMs(timeMs: number, slot: number): number {
    // A search, not the cursor, which stays where the request path left it; a repeated deploy
    // (every: 10m over a day) gives hundreds of purge times, so no scan from the end either.
    const times = this.purgeTimesBySlot[slot];
    if (times.length === 0 || !(timeMs >= times[0])) return -Infinity;
    return times[lastAtOrBefore(times, timeMs, 0, times.length - 1)];
  }

  /** Whether a deploy gives the class (slot) a new version: it names the class, or names none (everything). */
  private touches(deploy: DeployIncident, slot: number): boolean {
    return deploy.classes.length === 0 || (slot < this.classNames.length && deploy.classes.includes(this.classNames[slot]));
  }

  /** Index of the segment holding `timeMs`: the cursor moves forward, or searches after a step back. */
  private seek(timeMs: number): number {
    const starts = this.starts;
    let segment = this.cursor;
    if (timeMs < starts[segment]) {
      segment = lastAtOrBefore(starts, timeMs, 0, segment - 1); // starts[0] = −∞ ≤ timeMs
    } else {
      const last = starts.length - 1;
      while (segment < last && starts[segment + 1] <= timeMs) segment++;
    }
    this.cursor = segment;
    return segment;
  }

  /**
   * Every segment's conditions in one sweep over the breakpoints: incidents enter at their
   * start (a deploy at its `at`) and leave at their end, so a segment costs its own events
   * and the slowdowns on in it, not the whole list (a repeated deploy makes a thousand
   * incidents; filling each segment from the list was quadratic, seconds per run). The
   * active slowdowns are kept in list order and multiplied in it, as the factors of one
   * segment always were.
   */
  private fillSegments(incidents: readonly Incident[]): void {
    const startOf = (i: number): number => {
      const incident = incidents[i];
      return incident.kind === 'deploy' ? incident.atMs : incident.startMs;
    };
    const indices = incidents.map((_, i) => i);
    const enters = [...indices].sort((a, b) => startOf(a) - startOf(b) || a - b);
    const leaves = indices.filter((i) => incidents[i].kind !== 'deploy').sort((a, b) => (incidents[a] as { endMs: number }).endMs - (incidents[b] as { endMs: number }).endMs || a - b);
    let entered = 0;
    let left = 0;
    let outages = 0;
    let epoch = 0;
    const classEpoch = new Int32Array(this.slots);
    /** Active slowdowns and error bursts, by list index, ascending. */
    const slowdowns: number[] = [];
    const bursts: number[] = [];
    const insert = (list: number[], index: number): void => {
      let at = list.length;
      while (at > 0 && list[at - 1] > index) at--;
      list.splice(at, 0, index);
    };
    const remove = (list: number[], index: number): void => {
      list.splice(list.indexOf(index), 1);
    };
    for (let segment = 0; segment < this.starts.length; segment++) {
      const t = this.starts[segment];
      for (; entered < enters.length && startOf(enters[entered]) <= t; entered++) {
        const index = enters[entered];
        const incident = incidents[index];
        if (incident.kind === 'deploy') {
          epoch++;
          for (let slot = 0; slot < this.slots; slot++) if (this.touches(incident, slot)) classEpoch[slot]++;
        } else if (incident.kind === 'outage') outages++;
        else if (incident.kind === 'slowdown') insert(slowdowns, index);
        else insert(bursts, index);
      }
      for (; left < leaves.length && (incidents[leaves[left]] as { endMs: number }).endMs <= t; left++) {
        const index = leaves[left];
        const incident = incidents[index];
        if (incident.kind === 'outage') outages--;
        else if (incident.kind === 'slowdown') remove(slowdowns, index);
        else remove(bursts, index);
      }
      if (bursts.length > 1) {
        throw new RangeError(`error bursts ${bursts[0]} and ${bursts[1]} overlap at ${formatSimTime(t)}; the incident schema rejects this, so build the timeline from a parsed list`);
      }
      let factor = 1;
      for (const index of slowdowns) factor *= (incidents[index] as SlowdownIncident).factor;
      const burst = bursts.length === 0 ? undefined : (incidents[bursts[0]] as ErrorBurstIncident);
      this.reachable[segment] = outages === 0 ? 1 : 0;
      this.errorStatus[segment] = burst?.status ?? 0;
      this.errorShare[segment] = burst?.share ?? 0;
      this.serviceTimeFactor[segment] = factor;
      this.contentEpoch[segment] = epoch;
      this.classEpoch.set(classEpoch, segment * this.slots);
    }
  }
}

/** The incidents of a run: their events for the simulation and the origin's conditions over time. */
export class IncidentSchedule {
  readonly conditions: OriginConditionsTimeline;
  /** Events in firing order: time, incident index, phase. */
  private readonly eventTimes: Float64Array;
  private readonly eventIncidents: Int32Array;
  private readonly eventPhases: Uint8Array;

  constructor(readonly incidents: readonly Incident[]) {
    this.conditions = new OriginConditionsTimeline(incidents);
    const events: { time: number; incident: number; phase: IncidentPhase }[] = [];
    incidents.forEach((incident, index) => {
      if (incident.kind === 'deploy') events.push({ time: incident.atMs, incident: index, phase: INCIDENT_START });
      else {
        events.push({ time: incident.startMs, incident: index, phase: INCIDENT_START });
        events.push({ time: incident.endMs, incident: index, phase: INCIDENT_END });
      }
    });
    // Equal times: ends first (INCIDENT_END sorts before INCIDENT_START), then list order.
    events.sort((a, b) => a.time - b.time || b.phase - a.phase || a.incident - b.incident);
    this.eventTimes = Float64Array.from(events, (event) => event.time);
    this.eventIncidents = Int32Array.from(events, (event) => event.incident);
    this.eventPhases = Uint8Array.from(events, (event) => event.phase);
  }

  /** Number of events schedule() puts on the queue. */
  get eventCount(): number {
    return this.eventTimes.length;
  }

  /**
   * Defines the `incidents.phase` event on `simulation` and schedules every incident's start
   * (and end) at its time, so `sink` is called then. Call once, before the clock passes the
   * first incident; events after the run's horizon simply never fire.
   */
  schedule(simulation: Simulation, sink: IncidentSink): void {
    if (this.eventTimes.length > 0 && this.eventTimes[0] < simulation.nowMs) {
      const incident = this.eventIncidents[0];
      throw new RangeError(
        `incident ${incident} (${this.incidents[incident].kind}) is at ${formatSimTime(this.eventTimes[0])}, but the simulation clock is already at ${formatSimTime(simulation.nowMs)}; schedule incidents before running`,
      );
    }
    const kind = simulation.defineEvent('incidents.phase', (incident, phase) => sink(incident, phase as IncidentPhase));
    for (let i = 0; i < this.eventTimes.length; i++) simulation.schedule(this.eventTimes[i], kind, this.eventIncidents[i], this.eventPhases[i]);
  }
}
