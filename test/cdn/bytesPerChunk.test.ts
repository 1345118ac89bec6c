import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkShareOfRange } from '../../src/cdn/layeredFlow.js';
import { CHUNK_SIZE_BYTES } from '../../src/policy/ranges.js';
import { flowHarness } from './flowHarness.js';

/**
 * Byte figures per chunk (spec 4.8, docs/byte-figures.md): a range's client bytes are
 * credited chunk by chunk to the layer that served each chunk, and each layer's fetched
 * bytes (whole chunks) are counted apart from what clients read.
 */
const MB = 1_000_000;
const LONG = { 'cache-control': 'public, max-age=3600' };
/** A 4 MB player window k: bytes 4k MB .. 4(k+1) MB − 1, and the 5 MB chunks it touches. */
const windowOf = (k: number, objectBytes: number, timeMs: number, region = 0) => {
  const rangeStart = 4 * MB * k;
  const sizeBytes = Math.min(4 * MB, objectBytes - rangeStart);
  const firstChunk = Math.floor(rangeStart / CHUNK_SIZE_BYTES);
  const lastChunk = Math.floor((rangeStart + sizeBytes - 1) / CHUNK_SIZE_BYTES);
  return { timeMs, region, objectBytes, rangeStart, sizeBytes, firstChunk, pieces: lastChunk - firstChunk + 1 };
};

describe('chunkShareOfRange (spec 4.8)', () => {
  it('spec 4.8: a 4 MB window from byte 4 MB takes 1 MB of chunk 0 and 3 MB of chunk 1', () => {
    expect(chunkShareOfRange(4 * MB, 4 * MB, 0)).toBe(1 * MB);
    expect(chunkShareOfRange(4 * MB, 4 * MB, 1)).toBe(3 * MB);
    expect(chunkShareOfRange(12 * MB, 4 * MB, 0)).toBe(3 * MB);
    expect(chunkShareOfRange(12 * MB, 4 * MB, 1)).toBe(1 * MB);
    expect(chunkShareOfRange(16 * MB, 4 * MB, 0)).toBe(4 * MB);
  });

  it('spec 4.8: for any range, the shares of the chunks it touches add up to its length and each is within one chunk', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 400 * MB }), fc.integer({ min: 1, max: 60 * MB }), (rangeStart, rangeBytes) => {
        const pieces = Math.floor((rangeStart + rangeBytes - 1) / CHUNK_SIZE_BYTES) - Math.floor(rangeStart / CHUNK_SIZE_BYTES) + 1;
        let total = 0;
        for (let piece = 0; piece < pieces; piece++) {
          const share = chunkShareOfRange(rangeStart, rangeBytes, piece);
          expect(share).toBeGreaterThan(0);
          expect(share).toBeLessThanOrEqual(CHUNK_SIZE_BYTES);
          total += share;
        }
        expect(total).toBe(rangeBytes);
        expect(chunkShareOfRange(rangeStart, rangeBytes, pieces)).toBe(0);
      }),
    );
  });
});

describe('LayeredFlow: client bytes per chunk and fetched bytes (spec 4.8)', () => {
  it('spec 4.8: one edge, a 20 MB object in 4 chunks, windows 0, 1, 3, 2: each chunk\'s share of a window is credited to the layer that served it', () => {
    // Layers without a tier: edge 0, origin 1.
    const { run, flow } = flowHarness({ headers: LONG, tiered: false });
    const OBJECT = 20 * MB;
    const done = run([windowOf(0, OBJECT, 0), windowOf(1, OBJECT, 1_000), windowOf(3, OBJECT, 2_000), windowOf(2, OBJECT, 3_000)]);
    const served = done.map((request) => [request.servedBytes[0], request.servedBytes[1]]);
    // Window 0: chunk 0 from the origin. Window 1: 1 MB of the stored chunk 0, 3 MB of chunk 1
    // from the origin. Window 3: 3 MB of chunk 2 and 1 MB of chunk 3, both from the origin.
    // Window 2: 2 MB of chunk 1 and 2 MB of chunk 2, both stored by then.
    expect(served).toEqual([
      [0, 4 * MB],
      [1 * MB, 3 * MB],
      [0, 4 * MB],
      [4 * MB, 0],
    ]);
    // The request-level layer stays the deepest one (request hit ratios are unchanged).
    expect(done.map((request) => request.layer)).toEqual([1, 1, 1, 0]);
    // Each chunk fetched once, whole: 4 × 5 MB received by the edge, sent by the origin, for
    // the 16 MB clients asked for (origin byte offload 1 − 20/16 = −25 %).
    expect(flow.layerActivity[0].fetchedBytes).toBe(20 * MB);
    expect(flow.originActivity.bytes).toBe(20 * MB);
    expect(flow.layerActivity[0].answeredFetchBytes).toBe(0);
  });

  it('spec 4.8, 4.9: through the regional tier, a window can be served by three layers at once; each layer fetched what the one above sent it', () => {
    // Layers with a tier: edge 0, regional 1, origin 2. Regions 0 and 1 are two PoPs sharing the regional site.
    const { run, flow } = flowHarness({ headers: LONG, edges: 2 });
    const OBJECT = 20 * MB;
    const done = run([windowOf(0, OBJECT, 0, 0), windowOf(1, OBJECT, 1_000, 1), windowOf(1, OBJECT, 2_000, 0)]);
    expect(done.map((request) => Array.from(request.servedBytes.subarray(0, 3)))).toEqual([
      [0, 0, 4 * MB], // PoP 0, window 0: chunk 0 from the origin
      [0, 1 * MB, 3 * MB], // PoP 1, window 1: chunk 0 held by the regional site, chunk 1 from the origin
      [1 * MB, 3 * MB, 0], // PoP 0, window 1: chunk 0 its own, chunk 1 from the regional site
    ]);
    // PoP 0 fetched chunks 0 and 1, PoP 1 chunks 0 and 1: 20 MB, all sent by the regional site,
    // which fetched chunks 0 and 1 once: 10 MB, what the origin sent.
    expect(flow.layerActivity[0].fetchedBytes).toBe(20 * MB);
    expect(flow.layerActivity[1].answeredFetchBytes).toBe(20 * MB);
    expect(flow.layerActivity[1].fetchedBytes).toBe(10 * MB);
    expect(flow.originActivity.bytes).toBe(10 * MB);
  });

  it('for any sequence of windows over two PoPs and a regional site: served bytes add up to each request\'s bytes, and fetched bytes equal what the layer above sent', () => {
    const OBJECT = 37 * MB; // 8 chunks, the last 2 MB; 10 windows, the last 1 MB
    const request = fc.record({ window: fc.integer({ min: 0, max: 9 }), gapMs: fc.integer({ min: 0, max: 400 }), region: fc.integer({ min: 0, max: 1 }) });
    fc.assert(
      fc.property(fc.array(request, { minLength: 1, maxLength: 30 }), fc.boolean(), (requests, coalescing) => {
        const { run, flow } = flowHarness({ headers: LONG, edges: 2, coalescing });
        let timeMs = 0;
        const sent = requests.map((r) => windowOf(r.window, OBJECT, (timeMs += r.gapMs), r.region));
        const done = run(sent);
        done.forEach((completed, i) => {
          expect(completed.servedBytes[0] + completed.servedBytes[1] + completed.servedBytes[2]).toBe(sent[i].sizeBytes);
        });
        expect(flow.layerActivity[0].fetchedBytes).toBe(flow.layerActivity[1].answeredFetchBytes);
        expect(flow.layerActivity[1].fetchedBytes).toBe(flow.originActivity.bytes);
      }),
      { numRuns: 60 },
    );
  });
});
