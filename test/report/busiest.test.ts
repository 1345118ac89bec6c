import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { busiestOrder, popsCapacity } from '../../src/report/capacityFigures.js';
import { POP_COLUMNS } from '../../src/report/charts/chartInputs.js';
import type { PopRow } from '../../src/report/charts/chartInputs.js';
import { popCapacityChart } from '../../src/report/charts/popCapacityChart.js';
import { typedRows } from '../../src/report/csvRead.js';
import { popsCsv } from '../../src/report/runCsvFiles.js';
import { CAPACITY_ROWS, type Summary } from '../../src/report/summary.js';
import { summaryText } from '../../src/report/summaryText.js';

/** The golden run (test/golden/small.yaml): 8 PoPs with traffic, minor (10 Gbit/s) and major (100 Gbit/s) uplinks. */
const golden = (): Summary => JSON.parse(readFileSync(resolve(import.meta.dirname, '../golden/small.summary.json'), 'utf8')) as Summary;

describe('one meaning of "busiest" (docs/capacity.md): by share of uplink at the 1 s peak, egress beside it', () => {
  it('summary.json capacity.busiest, the terminal table, the pop-capacity chart and capacity.pops.maxUplinkShare1sPop name the same PoPs in the same order', () => {
    const summary = golden();
    const fromSummary = (summary.capacity?.busiest ?? []).map((pop) => pop.name);
    expect(fromSummary).toHaveLength(CAPACITY_ROWS);
    // The terminal: the rows of the busiest-PoPs table, each starting with the PoP code.
    const text = summaryText(summary).split('\n');
    const head = text.findIndex((line) => line.startsWith('busiest PoPs'));
    const fromTerminal = text.slice(head + 1, head + 1 + CAPACITY_ROWS).map((line) => line.split(' ')[0]);
    // The chart, from pops.csv as the run folder writes it.
    const rows = typedRows<PopRow>(popsCsv(summary), 'pops.csv', POP_COLUMNS);
    const spec = popCapacityChart(rows, CAPACITY_ROWS) as unknown as { data: { values: { pop: string }[] } };
    const fromChart = spec.data.values.map((row) => row.pop);
    expect(fromTerminal).toEqual(fromSummary);
    expect(fromChart).toEqual(fromSummary);
    expect(summary.capacity?.pops?.maxUplinkShare1sPop).toBe(fromSummary[0]);
    expect(summary.capacity?.pops?.maxUplinkShare1s).toBe(summary.capacity?.busiest[0].uplinkShare1s);
  });

  it('a 10 Gbit/s PoP at 2 Gbit/s is busier than a 100 Gbit/s one at 15 Gbit/s; equal shares go by name; without uplinks, by egress', () => {
    const rows = [
      { name: 'IAD', uplinkGbitPerSecond: 100, peakEgressGbitPerSecond1s: 15 },
      { name: 'LOS', uplinkGbitPerSecond: 10, peakEgressGbitPerSecond1s: 2 },
      { name: 'ACC', uplinkGbitPerSecond: 10, peakEgressGbitPerSecond1s: 1.5 },
      { name: 'AMS', uplinkGbitPerSecond: 100, peakEgressGbitPerSecond1s: 15 },
    ];
    // LOS at 20 %; ACC (1.5 of 10), AMS and IAD (15 of 100) all at 15 %, by name.
    expect(busiestOrder(rows).map((row) => row.name)).toEqual(['LOS', 'ACC', 'AMS', 'IAD']);
    expect(busiestOrder([{ name: 'b', peakEgressGbitPerSecond1s: 1 }, { name: 'a', peakEgressGbitPerSecond1s: 3 }]).map((row) => row.name)).toEqual(['a', 'b']);
  });

  it('capacity.pops: each maximum with its PoP; p95 of the 60 s shares by nearest rank over the PoPs with traffic; stored bytes over every PoP', () => {
    // 20 PoPs with traffic at 60 s shares 0.01, 0.02, …, 0.20 of a 10 Gbit/s uplink; one idle PoP that stored the most during warm-up.
    const edges = Array.from({ length: 20 }, (_, i) => ({
      name: `P${String(i).padStart(2, '0')}`,
      requests: 100,
      uplinkGbitPerSecond: 10,
      peakEgressGbitPerSecond1s: i === 3 ? 9 : 0.5 * (i + 1),
      peakEgressGbitPerSecond60s: 0.1 * (i + 1),
      peakRequestsPerSecond: i === 7 ? 900 : 10,
      storedBytesPeak: 1_000 * i,
    }));
    edges.push({ name: 'IDLE', requests: 0, uplinkGbitPerSecond: 10, peakEgressGbitPerSecond1s: 0, peakEgressGbitPerSecond60s: 0, peakRequestsPerSecond: 0, storedBytesPeak: 50_000 });
    expect(popsCapacity(edges)).toEqual({
      withTraffic: 20,
      // P19 peaks at 10 Gbit/s = its whole uplink; P03's 9 Gbit/s is second.
      maxUplinkShare1s: 1,
      maxUplinkShare1sPop: 'P19',
      maxUplinkShare60s: 0.2,
      maxUplinkShare60sPop: 'P19',
      // Nearest rank: the ⌈0.95 × 20⌉ = 19th smallest of 0.01 … 0.20.
      p95UplinkShare60s: 0.19,
      maxPeakGbps1s: 10,
      maxPeakGbps1sPop: 'P19',
      maxPeakGbps60s: 2,
      maxPeakGbps60sPop: 'P19',
      maxPeakRequestsPerSecond: 900,
      maxPeakRequestsPerSecondPop: 'P07',
      maxStoredBytes: 50_000,
      maxStoredBytesPop: 'IDLE',
    });
  });
});
