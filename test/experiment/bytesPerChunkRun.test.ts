import { beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../../src/experiment/runScenario.js';
import { layersCsv } from '../../src/report/runCsvFiles.js';
import { buildSummary } from '../../src/report/summary.js';
import { summaryText } from '../../src/report/summaryText.js';
import { parseScenarioText } from '../../src/scenario/load.js';

/**
 * One 20 MB title (4 chunks of 5 MB, spec 4.8) behind a single edge, watched to the end in
 * 4 MB windows without seeks: every session reads windows 0..4 in order. However sessions
 * interleave, each chunk is fetched once (the edge holds the whole title, for a day) by the
 * first window to touch it, and that window reads from the origin only its share of that
 * chunk: window 0 4 MB of chunk 0, window 1 3 MB of chunk 1 (its 1 MB of chunk 0 is
 * stored), window 2 2 MB of chunk 2, window 3 1 MB of chunk 3. So of the 50 windows × 4 MB =
 * 200 MB clients ask for, 10 MB pass through from the origin and 190 MB come from the edge's
 * stored chunks (95 %), while the edge fetched, and the origin sent, 4 × 5 MB = 20 MB
 * (origin byte offload 1 − 20/200 = 90 %). Crediting each window wholly to its deepest layer
 * made windows 0..3 origin bytes: 16 MB, an edge byte hit ratio of 92 %.
 */
const TITLE = `
name: bytes-per-chunk
seed: 1
run: { requests: 50, warmup: 0 }
traffic:
  rate: 2/min
  clients: { perRegion: 1000, media: { windowBytes: 4MB, seekProbability: 0, meanWatchShare: 100% } }
content:
  classes:
    - { name: media, share: 100%, objects: 1, size: { median: 20MB, sigma: 0 }, headers: { fields: { Cache-Control: "public, max-age=86400" } } }
edge: { capacity: 1GB }
topology: { model: regions, edgeSites: single }
`;

describe('byte figures per chunk in a run (spec 4.8, docs/byte-figures.md)', () => {
  let summary: ReturnType<typeof buildSummary>;
  beforeAll(() => {
    summary = buildSummary(runScenario(parseScenarioText(TITLE, 'scenarios/test.yaml')));
  });

  it('spec 4.8: a title watched in 4 MB windows: 190 MB of 200 MB from the edge\'s stored chunks, 10 MB through from the origin', () => {
    expect(summary.requests).toBe(50);
    // Nothing waited on a fetch in flight, the case the hand count above assumes.
    expect(summary.cdn.coalescedRequests.edge).toBe(0);
    expect(summary.bytesByLayer).toEqual({ browser: 0, edge: 190_000_000, origin: 10_000_000 });
    expect(summary.byteHitRatio.edge).toBe(0.95);
    expect(summary.byteHitRatio.cdn).toBe(0.95);
    // Request hit ratio is per request: the four windows that fetched a chunk are origin requests.
    expect(summary.requestsByLayer).toEqual({ browser: 0, edge: 46, origin: 4 });
  });

  it('spec 4.8: the edge fetched whole chunks, 20 MB, what the origin sent: origin byte offload 1 − 20/200', () => {
    expect(summary.cdn.layers.edge.fetchedBytes).toBe(20_000_000);
    expect(summary.cdn.origin.bytes).toBe(20_000_000);
    expect(summary.originByteOffload).toBe(0.9);
  });

  it('the bytes clients asked for are the sum of the bytes each layer served, in layers.csv as in summary.json', () => {
    const rows = layersCsv(summary).trim().split('\n').map((line) => line.split(','));
    const column = rows[0].indexOf('bytes_served');
    const fetched = rows[0].indexOf('bytes_fetched');
    expect(rows.slice(1).map((row) => [row[0], row[column], row[fetched]])).toEqual([
      ['browser', '0', ''],
      ['edge', '190000000', '20000000'],
      ['origin', '10000000', ''],
    ]);
    expect(summaryText(summary)).toContain('bytes: clients asked for 200 MB, the origin sent 20.0 MB · origin byte offload 90.00 %');
  });
});
