import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdInterner } from '../../src/workload/idInterner.js';

/** Dense ids for 64-bit trace ids (issue: keys are dense integers; open addressing for arbitrary ids). */
describe('IdInterner', () => {
  it('gives 0, 1, 2 … in order of first appearance and the same id again on a repeat', () => {
    const interner = new IdInterner(4);
    expect([interner.intern(7, 0), interner.intern(3, 0), interner.intern(7, 0), interner.intern(7, 1), interner.intern(3, 0)]).toEqual([0, 1, 0, 2, 1]);
    expect(interner.size).toBe(3);
    expect(interner.find(7, 1)).toBe(2);
    expect(interner.find(8, 0)).toBe(-1);
  });

  it('keeps ids apart that differ only in the high half (u64 ids above 2^32), and the all-ones id', () => {
    const interner = new IdInterner(2);
    const ids = [0, 1, 0xffffffff].map((high) => interner.intern(0xffffffff, high >>> 0));
    expect(ids).toEqual([0, 1, 2]);
    expect(interner.intern(0, 0)).toBe(3);
  });

  it('survives many growths: 200,000 ids in a table sized for 16, every id found again', () => {
    const interner = new IdInterner(16);
    for (let i = 0; i < 200_000; i++) expect(interner.intern((i * 2654435761) >>> 0, i & 7)).toBe(i);
    for (let i = 0; i < 200_000; i += 997) expect(interner.find((i * 2654435761) >>> 0, i & 7)).toBe(i);
  });

  it('agrees with a Map of "high:low" strings on arbitrary sequences (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.constantFrom(0, 1, 0x80000000, 0xffffffff)), { maxLength: 300 }), (pairs) => {
        const interner = new IdInterner(1);
        const reference = new Map<string, number>();
        for (const [low, high] of pairs) {
          const key = `${high}:${low}`;
          if (!reference.has(key)) reference.set(key, reference.size);
          expect(interner.intern(low, high)).toBe(reference.get(key));
        }
        expect(interner.size).toBe(reference.size);
      }),
    );
  });
});

describe('IdInterner values (the replay keeps first-seen sizes there)', () => {
  it('stores the value given on first sight and returns it on every later intern, through growth', () => {
    const interner = new IdInterner(2);
    for (let i = 0; i < 5000; i++) interner.intern(i, 1, i * 10);
    for (let i = 0; i < 5000; i += 7) {
      interner.intern(i, 1, -1);
      expect(interner.value).toBe(i * 10);
    }
    interner.intern(99_999, 0, 0.5);
    expect(interner.value).toBe(0.5);
  });
});

describe('IdInterner.internBatch (the replay path)', () => {
  it('gives the same ids and values as intern, for sizes that fit a u32 and for larger or fractional ones', () => {
    const lows = new Uint32Array([5, 0xffffffff, 5, 7, 0xffffffff, 7, 9, 9]);
    const highs = new Uint32Array([0, 0xffffffff, 0, 1, 0xffffffff, 1, 0, 0]);
    const sizes = new Float64Array([100, 2 ** 40, 1, 0.5, 3, 9, 0xffffffff, 1]);
    const batch = new IdInterner(1);
    const ids = new Int32Array(8);
    const values = new Float64Array(8);
    batch.internBatch(lows, highs, sizes, 8, ids, values);
    expect([...ids]).toEqual([0, 1, 0, 2, 1, 2, 3, 3]);
    expect([...values]).toEqual([100, 2 ** 40, 100, 0.5, 2 ** 40, 0.5, 0xffffffff, 0xffffffff]);
    const single = new IdInterner(1);
    expect([...lows].map((low, i) => [single.intern(low, highs[i], sizes[i]), single.value])).toEqual([...ids].map((id, i) => [id, values[i]]));
  });
});
