import { describe, expect, it } from 'vitest';
import { measuredWholeSeconds, WindowPeaks } from '../../src/metrics/windowPeaks.js';

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
    // 3 measured seconds, shorter than 60: the 60 s peak is the mean over them (not 9/60, below the mean of 3/s).
    const zero = peaks.figures(0, 3);
    expect(zero).toEqual({ requests: 9, bytes: 13_000, peakRequestsPerSecond1s: 5, peakRequestsPerSecond60s: 3, peakBytesPerSecond1s: 10_000, peakBytesPerSecond60s: 13_000 / 3 });
    expect(peaks.figures(1, 3)).toEqual({ requests: 1, bytes: 7_000, peakRequestsPerSecond1s: 1, peakRequestsPerSecond60s: 1 / 3, peakBytesPerSecond1s: 7_000, peakBytesPerSecond60s: 7_000 / 3 });
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
    // 361 measured seconds: every node's busiest minute is above its mean (12/361, 8/361, 110/361).
    expect(peaks.figures(0, 361).peakRequestsPerSecond60s).toBe(8 / 60);
    expect(peaks.figures(1, 361).peakRequestsPerSecond60s).toBe(4 / 60);
    expect(peaks.figures(2, 361).peakRequestsPerSecond60s).toBe(1);
    expect(peaks.figures(2, 361).peakRequestsPerSecond1s).toBe(10);
  });

  it('seconds count from the measured time\'s start: 3 origin requests in the 0.99 s after a warm-up ending at 60.02 s are one second of 3, not 2 and 1 on the clock', () => {
    const peaks = new WindowPeaks(1);
    peaks.startMeasuring(60_020);
    for (const atMs of [60_100, 60_900, 61_005]) peaks.record(atMs, 0, 1, 15_000);
    const seconds = measuredWholeSeconds(60_020, 61_010);
    expect(seconds).toBe(1);
    // mean 3 / 1 s = 3 = the 60 s peak = the 1 s peak (before: mean 3 / 0.99 s = 3.03/s against a 1 s peak of 2).
    expect(peaks.figures(0, seconds)).toEqual({ requests: 3, bytes: 45_000, peakRequestsPerSecond1s: 3, peakRequestsPerSecond60s: 3, peakBytesPerSecond1s: 45_000, peakBytesPerSecond60s: 45_000 });
  });

  it('load at both ends of 90 s: the busiest minute holds 1 request (1/60 s), below the mean 2/90; the 60 s peak is then the mean, so mean ≤ 60 s peak ≤ 1 s peak', () => {
    const peaks = new WindowPeaks(1);
    peaks.record(0, 0, 1, 0);
    peaks.record(89_500, 0, 1, 0);
    const seconds = measuredWholeSeconds(0, 89_600);
    expect(seconds).toBe(90);
    expect(peaks.figures(0, seconds).peakRequestsPerSecond60s).toBe(2 / 90);
  });

  it('measured whole seconds: every second the measured time touches, from its start, at least 1', () => {
    expect(measuredWholeSeconds(0, 0)).toBe(1);
    expect(measuredWholeSeconds(500, 1_499)).toBe(1);
    // An event at exactly 1 s after the start opens the second second.
    expect(measuredWholeSeconds(500, 1_500)).toBe(2);
    expect(measuredWholeSeconds(60_020, 120_019)).toBe(60);
  });
});
