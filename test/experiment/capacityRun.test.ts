import { describe, expect, it } from 'vitest';
import { loadScenarioRecording } from '../../src/experiment/recordedCaching.js';
import { runScenario } from '../../src/experiment/runScenario.js';
import { buildSummary, type Summary } from '../../src/report/summary.js';
import { parseScenarioText } from '../../src/scenario/load.js';

/**
 * summary.json `capacity` on a replayed access log whose load is known second by second
 * (test/fixtures/capacity/peaks.log), one edge, no jitter, no warm-up:
 * second 0: 10 new static chunks of 100,000 B; second 1: 20 new ones and the 10 of second 0
 * again (edge hits); second 100: one new chunk. Static chunks are stored a year (spec 4.2),
 * so the origin gets each new chunk once: 31 requests, 3,100,000 B, over 101 measured whole
 * seconds (seconds 0 to 100: the last chunk's fetch reaches the origin at 100.05 s).
 */
const SCENARIO = 'test/fixtures/capacity/scenario.yaml';
const TEXT = `
name: peaks
run: { requests: 1000, warmup: 0 }
deployment: { kind: full-stack, framework: next }
topology: { model: regions, edgeSites: single, jitter: 0, originLatency: 100ms }
content:
  recorded: { file: peaks.log, use: replay }
`;

async function summary(extra = ''): Promise<Summary> {
  const scenario = parseScenarioText(TEXT + extra, SCENARIO);
  if (!scenario.content.recorded) throw new Error('expected content.recorded');
  const recording = await loadScenarioRecording(scenario.content.recorded, SCENARIO);
  return buildSummary(runScenario(scenario, { recording }));
}

describe('capacity figures on a hand-timed load (docs/capacity.md)', () => {
  it('the origin: mean and peak requests per second and Gbit/s of body bytes, every cause counted as cdn.origin counts it', async () => {
    const s = await summary();
    expect(s.cdn.origin.requests).toBe(31);
    expect(s.capacity?.measuredSeconds).toBe(101);
    expect(s.capacity?.origin).toEqual({
      // 31 requests / 101 s = 0.3069307; 3,100,000 B × 8 / 101 s = 245,545 bit/s.
      meanRequestsPerSecond: 0.306931,
      // Second 1's 20 misses (each reaches the origin 50 ms later, still in second 1).
      peakRequestsPerSecond1s: 20,
      // Seconds 0–59 hold 30 of them; second 100 is in no window with them.
      peakRequestsPerSecond60s: 0.5,
      meanGbps: 0.000246,
      // 20 × 100,000 B × 8 = 16 Mbit in one second; 30 × 100,000 B × 8 / 60 s = 0.4 Mbit/s.
      peakGbps1s: 0.016,
      peakGbps60s: 0.0004,
    });
  });

  it('the PoP: its 1 s and 60 s egress peaks, peak requests per second and stored bytes, each naming the PoP', async () => {
    const s = await summary();
    expect(s.capacity?.pops).toEqual({
      withTraffic: 1,
      // 30 responses of 100,000 B in second 1 (10 hits, 20 misses back 100 ms + the origin's service time later): 24 Mbit/s.
      maxPeakGbps1s: 0.024,
      maxPeakGbps1sPop: 'global',
      // 40 responses in the first minute: 32 Mbit / 60 s.
      maxPeakGbps60s: 0.000533,
      maxPeakGbps60sPop: 'global',
      maxPeakRequestsPerSecond: 30,
      maxPeakRequestsPerSecondPop: 'global',
      // Every chunk stays: 31 × 100,000 B.
      maxStoredBytes: 3_100_000,
      maxStoredBytesPop: 'global',
    });
    // The regions model has no uplinks (no shares) and no regional tier.
    expect(s.capacity?.regionals).toBeUndefined();
    expect(s.checks.failed).toEqual([]);
  });

  it('expect: holds a run to capacity figures by their path: the origin\'s 20 requests in one second are outside a 10/s bound, its 0.016 Gbit/s within 0.02', async () => {
    const s = await summary(`expect:
  capacity.origin.peakRequestsPerSecond1s: { max: 10/s }
  capacity.origin.peakGbps1s: { max: 0.02 }
  capacity.pops.maxUplinkShare1s: { max: 80% }
`);
    const rows = Object.fromEntries(s.stated.map((row) => [row.id, row]));
    expect(rows['capacity.origin.peakRequestsPerSecond1s']).toMatchObject({ simulated: 20, unit: 'perSecond', verdict: 'outside', stated: 'at most 10/s (scenario expect)' });
    expect(rows['capacity.origin.peakGbps1s']).toMatchObject({ simulated: 0.016, unit: 'gbps', verdict: 'within' });
    // The regions model has no uplinks: the figure is absent, the row says why.
    expect(rows['capacity.pops.maxUplinkShare1s']).toMatchObject({ simulated: null, verdict: 'not-applicable' });
    // Rows appear only when expect names them.
    expect((await summary()).stated.some((row) => row.id.startsWith('capacity.'))).toBe(false);
  });

  it('expect: a capacity bound in the wrong unit is a scenario error at its key', () => {
    expect(() => parseScenarioText(`${TEXT}expect:\n  capacity.origin.peakGbps1s: { max: fast }\n`, SCENARIO)).toThrow(/capacity\.origin\.peakGbps1s.*expected Gbit\/s as a number/s);
  });
});
