import { describe, expect, it } from 'vitest';
import { RequestKeys, VARIANT_DEVICE, VARIANT_IMAGE_FORMAT } from '../../../src/workload/requests/requestKeys.js';
import { variantMaskOfPath } from '../../../src/experiment/requestVariants.js';

const MB = 1_000_000;

describe('RequestKeys: the key id layout (DESIGN "key id")', () => {
  it('without variants or chunks the key of an object is its id', () => {
    const keys = new RequestKeys({ objectSizes: [10, 20, 30], variantMaskOf: null, chunkedOf: null });
    expect(keys.keyCount).toBe(3);
    expect([0, 1, 2].map((id) => keys.wholeKey(id, keys.variantCode(id, 1, 1)))).toEqual([0, 1, 2]);
  });

  it('spec 4.4/4.5: an image has four variant keys (AVIF × device), a CSS file two (device), a script one', () => {
    const masks = Uint8Array.of(VARIANT_IMAGE_FORMAT | VARIANT_DEVICE, VARIANT_DEVICE, 0);
    const keys = new RequestKeys({ objectSizes: [1, 1, 1], variantMaskOf: masks, chunkedOf: null });
    expect(keys.keyCount).toBe(12);
    const variantsOf = (id: number) => new Set([0, 1].flatMap((avif) => [0, 1].map((mobile) => keys.wholeKey(id, keys.variantCode(id, avif, mobile)))));
    expect([...variantsOf(0)].sort((a, b) => a - b)).toEqual([0, 1, 2, 3]);
    expect([...variantsOf(1)].sort((a, b) => a - b)).toEqual([4, 6]);
    expect([...variantsOf(2)]).toEqual([8]);
  });

  it('spec 4.8: a chunked object gets one key per 5 MB chunk after the whole-object keys, consecutive', () => {
    // 12 MB → chunks of 5, 5 and 2 MB; 4 MB object not chunked.
    const keys = new RequestKeys({ objectSizes: [12 * MB, 4 * MB, 10 * MB], variantMaskOf: null, chunkedOf: Uint8Array.of(1, 0, 1) });
    expect(keys.keyCount).toBe(3 + 3 + 2);
    expect([0, 1, 2].map((chunk) => keys.chunkKey(0, 0, chunk))).toEqual([3, 4, 5]);
    expect(keys.isChunked(1)).toBe(false);
    expect([0, 1].map((chunk) => keys.chunkKey(2, 0, chunk))).toEqual([6, 7]);
  });

  it('refuses a key space past 2^31 − 1 ids with the fix', () => {
    const sizes = new Float64Array(2).fill(8e15);
    expect(() => new RequestKeys({ objectSizes: sizes, variantMaskOf: null, chunkedOf: Uint8Array.of(1, 1) })).toThrow(/more than the 2147483647 a cache store takes; use fewer or smaller media objects/);
  });
});

describe('variantMaskOfPath: what the policy engine keys by (spec 4.4, 4.5)', () => {
  it.each([
    ['/images/1.jpg', VARIANT_IMAGE_FORMAT | VARIANT_DEVICE],
    ['/images/1.webp', VARIANT_IMAGE_FORMAT | VARIANT_DEVICE],
    ['/_next/static/css/a.css', VARIANT_DEVICE],
    ['/_next/static/chunks/a.js', 0],
    ['/icons/logo.svg', 0],
    ['/videos/1.mp4', 0],
    ['/objects/object', 0],
  ])('%s → mask %i', (path, mask) => {
    expect(variantMaskOfPath(path)).toBe(mask);
  });
});
