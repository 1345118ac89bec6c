import type { RandomStream } from '../sim/random.js';
import type { Simulation } from '../sim/simulation.js';
import type { OriginConditionsTimeline } from './incidentSchedule.js';

/** How the origin answered one request (the status travels down the layers). */
export const ORIGIN_REFUSED = 0;
export const STATUS_OK = 200;

/**
 * The origin server (spec 4.9 layer 4): it holds the current version of every object and
 * answers as the incident schedule says it is at that moment (spec 4.7, 7.1):
 * - an outage refuses the connection (status ORIGIN_REFUSED, known after one round trip);
 * - an error burst answers a share of requests with its 5xx status;
 * - a slowdown multiplies its service time;
 * - otherwise 200 with the current version (a 304 when the requester already holds it:
 *   the flow compares versions, RFC 9111 §4.3.2).
 *
 * A content version is the object's own same-URL updates (content churn) plus the deploys
 * that touched its class so far (incidents). Versions only grow.
 */
export class OriginModel {
  /** Per object: when its version last changed by an update (−∞: never). */
  private readonly updatedAtMs: Float64Array;
  /** Per class: when a deploy last gave it a new version (−∞: never). */
  private readonly deployedAtMs: Float64Array;
  /** The last answer's service time, ms (slowdown included). */
  serviceMs = 0;
  /** Whether any deploy purges (else no entry is ever purged, and the flow need not ask). */
  readonly purges: boolean;
  /**
   * Whether a version can ever change (content churn's same-URL updates, or deploys): else
   * every object keeps version 0 and no copy is ever outdated, and the flow need not ask.
   */
  readonly versionsChange: boolean;
  /** Whether the origin can answer other than 200 (an outage or an error burst, spec 4.7, 7.1): else no error is ever held (spec 7.1), and the flow need not track one. */
  readonly mayFail: boolean;
  /** Per class: 1 when deploys version its objects one by one (content churn), not the class as a whole. */
  private readonly versionedByObject: Uint8Array;

  constructor(
    private readonly conditions: OriginConditionsTimeline | null,
    /** Per class id: its slot in the incident timeline (deploys name classes). */
    private readonly classSlot: Int32Array,
    /** Per object: same-URL updates so far (content churn), or null without churn. */
    private readonly objectUpdates: Uint32Array | null,
    objectCount: number,
    private readonly errorStream: RandomStream,
    private readonly serviceMsOf: () => number,
  ) {
    this.updatedAtMs = new Float64Array(objectCount).fill(-Infinity);
    this.deployedAtMs = new Float64Array(classSlot.length).fill(-Infinity);
    this.versionedByObject = new Uint8Array(classSlot.length);
    this.purges = conditions !== null && classSlot.some((slot) => conditions.purgeTimes(slot).length > 0);
    this.versionsChange = conditions !== null || objectUpdates !== null;
    this.mayFail = conditions !== null;
  }

  /** The churn hook: object `objectId` was updated in place at `nowMs`. */
  noteUpdate(objectId: number, nowMs: number): void {
    if (objectId < this.updatedAtMs.length) this.updatedAtMs[objectId] = nowMs;
  }

  /** The incident hook: a deploy at `nowMs` gave every class in `classIds` a new version. */
  noteDeploy(classIds: readonly number[], nowMs: number): void {
    for (const c of classIds) this.deployedAtMs[c] = nowMs;
  }

  /**
   * Deploys give the objects of class `classId` new versions one by one (churn's
   * `updates.onDeploy`: noteUpdate, or new URLs), so the deploys' whole-class version no
   * longer applies to it.
   */
  versionObjectsOnDeploy(classId: number): void {
    this.versionedByObject[classId] = 1;
  }

  /** The origin's current version of an object of class `classId` at `nowMs`. */
  versionAt(objectId: number, classId: number, nowMs: number): number {
    const updates = this.objectUpdates === null || objectId >= this.objectUpdates.length ? 0 : this.objectUpdates[objectId];
    return updates + (this.conditions === null || this.versionedByObject[classId] === 1 ? 0 : this.conditions.classEpochAt(nowMs, this.classSlot[classId]));
  }

  /** When the origin's current version of the object appeared (−∞ if it never changed): how long an older copy has been outdated, at least. */
  changedAtMs(objectId: number, classId: number): number {
    const updated = objectId < this.updatedAtMs.length ? this.updatedAtMs[objectId] : -Infinity;
    return Math.max(updated, this.deployedAtMs[classId]);
  }

  /**
   * The status of the answer to a request reaching the origin now (the clock's reading):
   * ORIGIN_REFUSED, an error status, or STATUS_OK; sets `serviceMs` (0 for a refused
   * connection). It reads the clock rather than take the time (issue 27: the flow's call of it
   * is not inlined, and a double passed to it was a new heap number per origin request).
   */
  answer(clock: Pick<Simulation, 'nowMs'>): number {
    const nowMs = clock.nowMs;
    const status = this.statusAt(nowMs);
    const now = this.conditions?.at(nowMs);
    this.serviceMs = status === ORIGIN_REFUSED ? 0 : this.serviceMsOf() * (now === undefined ? 1 : now.serviceTimeFactor);
    return status;
  }

  /** The status alone, with no service time drawn: what the cache-only warm-up (src/cdn/cacheWarmer.ts) asks. */
  statusAt(nowMs: number): number {
    const now = this.conditions?.at(nowMs);
    if (now === undefined) return STATUS_OK;
    if (!now.reachable) return ORIGIN_REFUSED;
    if (now.errorShare > 0 && (now.errorShare >= 1 || this.errorStream.next() < now.errorShare)) return now.errorStatus;
    return STATUS_OK;
  }

  /** The latest purge of class `classId` at or before `timeMs` (−∞: none). */
  purgedAtMs(classId: number, timeMs: number): number {
    return this.conditions === null ? -Infinity : this.conditions.lastPurgeAtMs(timeMs, this.classSlot[classId]);
  }
}
