import { UserError } from '../userError.js';
import type { SizeClass } from './pops.js';

/**
 * Transfer time: how long the bytes of a response take after the first byte, reported
 * apart from the time to first byte the latency model gives. Spec 1.1 states 100 Gbit
 * uplinks with NVMe storage at major PoPs; the uplink of a minor PoP is not stated.
 */

/** Uplink per PoP size class, bits per second. */
export type UplinkBitsPerSecond = Readonly<Record<SizeClass, number>>;

/**
 * Defaults: 100 Gbit/s at major PoPs (spec 1.1); 10 Gbit/s at minor ones, an assumption
 * (a typical smaller site's port, ten times less than the stated major uplink).
 */
export const DEFAULT_UPLINK_BITS_PER_SECOND: UplinkBitsPerSecond = { major: 100e9, minor: 10e9 };

/**
 * Time to send `sizeBytes` through the slowest of the given links (bits per second), ms;
 * a request on its own, with no other traffic sharing the links.
 */
export function transferTimeMs(sizeBytes: number, ...linksBitsPerSecond: number[]): number {
  if (!(sizeBytes >= 0)) throw new UserError(`transfer time: expected a size in bytes ≥ 0, got ${sizeBytes}`);
  if (linksBitsPerSecond.length === 0) throw new UserError('transfer time: expected at least one link bandwidth');
  let slowest = Infinity;
  for (const bits of linksBitsPerSecond) {
    if (!(bits > 0)) throw new UserError(`transfer time: expected a bandwidth > 0 bits/s, got ${bits}`);
    slowest = Math.min(slowest, bits);
  }
  return ((sizeBytes * 8) / slowest) * 1000;
}

/** Time for a PoP of this class to put `sizeBytes` on its uplink, ms. */
export function popTransferTimeMs(sizeBytes: number, sizeClass: SizeClass, uplinks: UplinkBitsPerSecond = DEFAULT_UPLINK_BITS_PER_SECOND): number {
  return transferTimeMs(sizeBytes, uplinks[sizeClass]);
}

/** Share of a PoP's uplink a given egress rate uses (1 = saturated): the capacity-planning check. */
export function uplinkUtilisation(egressBitsPerSecond: number, sizeClass: SizeClass, uplinks: UplinkBitsPerSecond = DEFAULT_UPLINK_BITS_PER_SECOND): number {
  return egressBitsPerSecond / uplinks[sizeClass];
}
