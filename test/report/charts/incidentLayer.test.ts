import { describe, expect, it } from 'vitest';
import { incidentLayers } from '../../../src/report/charts/incidentLayer.js';
import type { IncidentRow } from '../../../src/report/summary.js';

const row = (name: string | undefined, fromSeconds: number, series?: { entry: number; occurrence: number }): IncidentRow => ({
  kind: 'deploy',
  ...(name === undefined ? {} : { name }),
  ...(series ?? {}),
  fromSeconds,
  toSeconds: fromSeconds + 60,
  requests: 0,
  errors: 0,
  availability: 1,
  staleServed: 0,
  originRequests: 0,
  originRequestsBefore: 0,
  label: `${name}: deploy of every class`,
});

describe('incident bands on the time-series charts (spec 1.2 item 6: deploys)', () => {
  it('a deploy every 10m: six bands, one label on the first naming the interval; a single deploy keeps its own label', () => {
    const rows = [...[1, 2, 3, 4, 5, 6].map((k) => row(`release #${k}`, 300 + (k - 1) * 600, { entry: 0, occurrence: k })), row(undefined, 100)];
    const [bands, labels] = incidentLayers(rows) as { data: { values: { label: string; from: number }[] } }[];
    expect(bands.data.values.map((value) => value.from)).toEqual([300, 900, 1500, 2100, 2700, 3300, 100]);
    expect(labels.data.values.map((value) => [value.label, value.from])).toEqual([
      ['release, every 10m', 300],
      ['deploy', 100],
    ]);
  });
});
