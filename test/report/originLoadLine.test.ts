import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Summary } from '../../src/report/summary.js';
import { summaryText } from '../../src/report/summaryText.js';

/** The golden run's summary: 1,043 origin requests over 21 whole seconds measured, 68 in its busiest second. */
const golden = JSON.parse(readFileSync('test/golden/small.summary.json', 'utf8')) as Summary;
/** The two lines of the origin's load, requests then bytes (issue 26: each fits 100 columns). */
const loadLine = (summary: Summary): string[] => summaryText(summary).split('\n').filter((line) => line.startsWith('origin load:') || line.startsWith('origin egress:'));

describe('the terminal gives the origin load as a rate with its peaks (issue 25: an origin is sized by its peak)', () => {
  it('1,043 requests over 21 whole seconds: 49.7/s mean, 68 in the busiest second; no 60 s peak in a run measured for under a minute', () => {
    expect(loadLine(golden)).toEqual(['origin load: 49.7 requests/s mean, peak 68 in 1 s', 'origin egress: 0.010 Gbit/s mean, peak 0.024 over 1 s']);
  });

  it('a run measured for a minute or more shows the 60 s peak too', () => {
    const capacity = golden.capacity!;
    const longer = { ...golden, capacity: { ...capacity, measuredSeconds: 600, origin: { ...capacity.origin!, peakRequestsPerSecond60s: 61.25, peakGbps60s: 0.0175 } } };
    expect(loadLine(longer)).toEqual(['origin load: 49.7 requests/s mean, peak 68 in 1 s, 61.3/s over 60 s', 'origin egress: 0.010 Gbit/s mean, peak 0.024 over 1 s, 0.018 over 60 s']);
  });
});
