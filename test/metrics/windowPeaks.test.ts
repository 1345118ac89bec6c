import { describe, expect, it } from 'vitest';
import { WindowPeaks } from '../../src/metrics/windowPeaks.js';

describe('WindowPeaks: 1 s and 60 s peaks of requests and bytes per node (docs/capacity.md)', () => {
  it('the busiest whole second and the busiest 60 consecutive seconds, for requests and bytes alike', () => {
    const peaks = new WindowPeaks(2);
    // Node 0: 3 requests of 1,000 B in second 0, then 5 requests of 2,000 B in second 1; a request without a body (a 304) in second 2.
    for (let i = 0; i < 3; i++) peaks.record(100 + i, 0, 1, 1_000);
    for (let i = 0; i < 5; i++) peaks.record(1_000 + i, 0, 1, 2_000);
    peaks.record(2_500, 0, 1, 0);
    // Node 1: bytes recorded apart from their request (a regional site answers later than it is asked).
    peaks.record(2_600, 1, 1, 0);
    peaks.record(2_900, 1, 0, 7_000);
    const zero = peaks.figures(0);
    expect(zero).toEqual({ requests: 9, bytes: 13_000, peakRequestsPerSecond1s: 5, peakRequestsPerSecond60s: 9 / 60, peakBytesPerSecond1s: 10_000, peakBytesPerSecond60s: 13_000 / 60 });
    expect(peaks.figures(1)).toEqual({ requests: 1, bytes: 7_000, peakRequestsPerSecond1s: 1, peakRequestsPerSecond60s: 1 / 60, peakBytesPerSecond1s: 7_000, peakBytesPerSecond60s: 7_000 / 60 });
  });

  it('the 60 s window slides by whole seconds: 0 s and 59 s share one, 0 s and 60 s do not; a quiet node forgets what left it', () => {
    const peaks = new WindowPeaks(3);
    peaks.record(0, 0, 4, 400);
    peaks.record(0, 1, 4, 400);
    peaks.record(59_999, 0, 4, 400);
    peaks.record(60_000, 1, 4, 400);
    // Node 2: 1 request a second for 100 s, then 10 in one second 200 s later.
    for (let s = 0; s < 100; s++) peaks.record(60_000 + s * 1_000, 2, 1, 0);
    peaks.record(360_000, 2, 10, 0);
    expect(peaks.figures(0).peakRequestsPerSecond60s).toBe(8 / 60);
    expect(peaks.figures(1).peakRequestsPerSecond60s).toBe(4 / 60);
    expect(peaks.figures(2).peakRequestsPerSecond60s).toBe(1);
    expect(peaks.figures(2).peakRequestsPerSecond1s).toBe(10);
  });
});
