import type { FillKeyOf } from '../cdn/stationaryFill.js';
import type { RequestKeys } from '../workload/requests/requestKeys.js';

/**
 * The key a stationary start (src/cdn/stationaryFill.ts) stores each object under. Without
 * `traffic.clients` an object's key is its id. With it, an object read in 5 MB chunks
 * (spec 4.8) is left out (which chunks a session reads is not modelled by the fill), and the
 * others are stored under their first variant's key (spec 4.4/4.5: an object with variants is
 * filled as one of them, an approximation the simulated blocks correct).
 */
export function fillKeyOf(keys: RequestKeys | null): FillKeyOf {
  if (keys === null) return (objectId) => objectId;
  return (objectId) => (keys.isChunked(objectId) ? -1 : keys.wholeKey(objectId, 0));
}
