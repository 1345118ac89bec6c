import { describe, expect, it } from 'vitest';
import { variantMaskOfPath } from '../../../src/experiment/requestVariants.js';
import { RandomStreams } from '../../../src/sim/random.js';
import { REGIONS } from '../../../src/topology/regions.js';
import { newClientRequest } from '../../../src/workload/request.js';
import { ClientTraffic } from '../../../src/workload/requests/clientTraffic.js';
import { avifVariantBytes, RequestAttributeSampler, type RequestAttributeSpec } from '../../../src/workload/requests/requestAttributes.js';
import { isAvifVariant, RequestKeys } from '../../../src/workload/requests/requestKeys.js';

const MB = 1_000_000;

/** Objects 0–2 are JPEGs, 3 a stylesheet, 4 a 50 MB JPEG read in ranges (a class with rangeRequests). */
const PATHS = ['/a.jpg', '/b.jpg', '/c.jpg', '/d.css', '/e.jpg'];
const SIZES = [100_000, 12_345, 4, 30_000, 50 * MB];
const RANGES = Uint8Array.of(0, 0, 0, 0, 1);

/** Every client AVIF-capable (avifShare 1) or none (0), all desktop, each request a new client. */
function traffic(avifShare: number, avifSizeShare = 0.1): ClientTraffic {
  const spec: RequestAttributeSpec = {
    mobileShares: REGIONS.map(() => 0),
    avifShare,
    avifSizeShare,
    queryReorderShare: 0,
    population: { groups: REGIONS.length, clientsPerGroup: 1000, revisitShare: 0, repeatShare: 0, recentObjects: 8 },
    media: { windowBytes: 4 * MB, seekProbability: 0, meanWatchShare: 0.4, minBytes: 10 * MB },
  };
  // The policy engine decides which keys have variants (spec 4.4: raster images by Accept).
  const keys = new RequestKeys({ objectSizes: SIZES, variantMaskOf: Uint8Array.from(PATHS, variantMaskOfPath), chunkedOf: RANGES });
  const sampler = new RequestAttributeSampler(spec, { objectSizes: SIZES, pick: () => 0, rangesOf: RANGES }, new RandomStreams(7), REGIONS);
  return new ClientTraffic(sampler, keys, 6400);
}

function requestFor(clients: ClientTraffic, objectId: number) {
  const request = newClientRequest();
  clients.arrive(0, 0, objectId, request);
  return { ...request };
}

describe('spec 4.4: an AVIF variant carries avifSizeShare of the image’s bytes', () => {
  it('avifVariantBytes rounds to the nearest byte, at least 1 for a non-empty image', () => {
    expect(avifVariantBytes(100_000, 0.1)).toBe(10_000);
    expect(avifVariantBytes(12_345, 0.1)).toBe(1_235); // 1234.5 → 1235
    expect(avifVariantBytes(12_344, 0.1)).toBe(1_234); // 1234.4 → 1234
    expect(avifVariantBytes(4, 0.1)).toBe(1); // 0.4 → at least 1 byte
    expect(avifVariantBytes(0, 0.1)).toBe(0);
    expect(avifVariantBytes(12_345, 1)).toBe(12_345);
  });

  it('AVIF-capable clients: a JPEG of 100,000 bytes is asked for as 10,000 (sizeBytes and objectBytes), under its avif-support key', () => {
    const clients = traffic(1);
    const request = requestFor(clients, 0);
    expect(request.sizeBytes).toBe(10_000);
    expect(request.objectBytes).toBe(10_000);
    expect(isAvifVariant(request.key % 4)).toBe(true);
    expect([1, 2].map((id) => requestFor(clients, id).objectBytes)).toEqual([1_235, 1]);
  });

  it('without AVIF support the JPEG keeps its bytes; the default share can be changed (25 %)', () => {
    expect([0, 1, 2].map((id) => requestFor(traffic(0), id).sizeBytes)).toEqual([100_000, 12_345, 4]);
    expect(requestFor(traffic(1, 0.25), 0).sizeBytes).toBe(25_000);
  });

  it('a stylesheet has no AVIF variant: 30,000 bytes whatever the Accept', () => {
    expect(requestFor(traffic(1), 3)).toMatchObject({ sizeBytes: 30_000, objectBytes: 30_000 });
  });

  it('spec 4.8: range requests are media, left alone: the 50 MB object keeps its bytes and the window is 4 MB', () => {
    const request = requestFor(traffic(1), 4);
    expect(request.firstChunk).toBeGreaterThanOrEqual(0);
    expect(request.objectBytes).toBe(50 * MB);
    expect(request.sizeBytes).toBe(4 * MB);
  });
});
