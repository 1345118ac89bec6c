import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/experiment/runScenario.js';
import { buildSummary } from '../../src/report/summary.js';
import { parseScenarioText } from '../../src/scenario/load.js';

const NO_MOBILE = '{ North America: 0%, Europe: 0%, Asia-Pacific: 0%, Latin America: 0%, Africa: 0% }';
/** 200 JPEGs of exactly 100,000 bytes, no churn. */
const IMAGES = "    - { name: image, share: 100%, objects: 200, size: { median: 100KB, sigma: 0 }, fileTypes: [{ extension: jpg, mimeType: image/jpeg }], churn: { newObjects: 0/s, updates: { rate: 0/s } } }";

const scenarioText = (clients: string, topology = '{ model: regions, edgeSites: single }') => `
seed: 3
run: { requests: 20000, warmup: 0 }
deployment: { kind: full-stack, framework: next }
topology: ${topology}
edge: { capacity: 100GB }
traffic:
  rate: 1000/s
  clients: ${clients}
content:
  classes:
${IMAGES}
`;
const runText = (text: string) => runScenario(parseScenarioText(text, 'avif.yaml'));

describe('spec 4.4 through a run: AVIF images carry traffic.clients.avifSizeShare of the JPEG bytes (default 10 %)', () => {
  it('all clients AVIF-capable move 10 % of the bytes of none: 20,000 requests × 10,000 vs × 100,000 bytes; the edge stores 200 × 10,000 bytes', () => {
    const avif = runText(scenarioText(`{ avifShare: 100%, revisitShare: 0%, mobileShare: ${NO_MOBILE} }`));
    const jpeg = runText(scenarioText(`{ avifShare: 0%, revisitShare: 0%, mobileShare: ${NO_MOBILE} }`));
    expect(jpeg.edges[0].bytes).toBe(20_000 * 100_000);
    expect(avif.edges[0].bytes).toBe(20_000 * 10_000);
    expect(jpeg.edges[0].storedBytes).toBe(200 * 100_000);
    expect(avif.edges[0].storedBytes).toBe(200 * 10_000);
    // The same keys miss and hit either way: only the bodies shrink.
    expect(avif.edges[0].hits).toBe(jpeg.edges[0].hits);
  });

  it('avifSizeShare: 50% → half the bytes', () => {
    const half = runText(scenarioText(`{ avifShare: 100%, avifSizeShare: 50%, revisitShare: 0%, mobileShare: ${NO_MOBILE} }`));
    expect(half.edges[0].bytes).toBe(20_000 * 50_000);
  });

  it('on the PoP map the smaller AVIF bodies take less uplink time (median transfer)', () => {
    const topology = '{ model: pops }';
    const avif = buildSummary(runText(scenarioText(`{ avifShare: 100%, revisitShare: 0% }`, topology)));
    const jpeg = buildSummary(runText(scenarioText(`{ avifShare: 0%, revisitShare: 0% }`, topology)));
    expect(avif.transferMs?.p50).toBeGreaterThan(0);
    // Transfer time is bytes × ms per byte of the PoP's uplink: the same draws, a tenth of the bytes.
    expect(avif.transferMs!.p50 / jpeg.transferMs!.p50).toBeCloseTo(0.1, 1);
  });
});
