import { describe, expect, it } from 'vitest';
import { DEFAULT_UPLINK_BITS_PER_SECOND, popTransferTimeMs, transferTimeMs, uplinkUtilisation } from '../../src/topology/bandwidth.js';

describe('transfer time from size and bandwidth (reported apart from time to first byte)', () => {
  it('spec 1.1: a major PoP has a 100 Gbit/s uplink; a 5 MB chunk takes 0.4 ms on it, 4 ms on a minor 10 Gbit/s one', () => {
    expect(DEFAULT_UPLINK_BITS_PER_SECOND.major).toBe(100e9);
    expect(popTransferTimeMs(5_000_000, 'major')).toBeCloseTo(0.4, 12);
    expect(popTransferTimeMs(5_000_000, 'minor')).toBeCloseTo(4, 12);
  });

  it('the slowest link sets the pace', () => {
    expect(transferTimeMs(1_000_000, 100e9, 50e6)).toBeCloseTo(160, 9);
    expect(transferTimeMs(0, 1e9)).toBe(0);
  });

  it('uplink utilisation is egress over the uplink', () => {
    expect(uplinkUtilisation(25e9, 'major')).toBeCloseTo(0.25, 12);
  });

  it('rejects nonsense', () => {
    expect(() => transferTimeMs(-1, 1e9)).toThrow(/expected a size in bytes ≥ 0/);
    expect(() => transferTimeMs(1, 0)).toThrow(/expected a bandwidth > 0/);
    expect(() => transferTimeMs(1)).toThrow(/at least one link/);
  });
});
