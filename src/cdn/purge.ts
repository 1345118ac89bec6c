import type { OriginModel } from './origin.js';

/**
 * Purges by version (spec 1.2 item 6). A deploy with purge at time D reaches every node
 * `purgeDelayMs` later; from then on the node drops every copy whose content the origin
 * read before D (its version predates the deploy), whenever that copy shows up: one it
 * holds, found on lookup, and one still on its way (a slow origin fetch answered before D,
 * or a copy a regional site served before the purge reached it), which is not stored when
 * it arrives. A copy the origin read at or after D (the new version) is kept, even when it
 * was fetched before the purge reached the node. Each copy carries the moment the origin
 * read its version (`versionAtMs`: when the request reached the origin), so the rule is
 * one comparison with no per-request allocation.
 */

/**
 * The deploy time of the latest purge of class `classId` that has reached the nodes by
 * `nowMs` (−∞: none yet); a copy the origin read before it is purged (`purgedByVersion`).
 */
export function purgeReachedDeployMs(origin: OriginModel, classId: number, nowMs: number, purgeDelayMs: number): number {
  return origin.purges ? origin.purgedAtMs(classId, nowMs - purgeDelayMs) : -Infinity;
}

/** Whether a copy whose version the origin read at `versionAtMs` is gone once the purge of the deploy at `purgeDeployMs` has reached the node. */
export function purgedByVersion(versionAtMs: number, purgeDeployMs: number): boolean {
  return versionAtMs < purgeDeployMs;
}
