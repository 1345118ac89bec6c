import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InFlightIndex } from '../../src/cdn/inFlightIndex.js';

describe('InFlightIndex: the coalescing lookup (spec 4.9 requests in flight)', () => {
  it('answers as a Map keyed by (node, key) under any sequence of set, get and deleteIf, through growth and backward-shift deletion', () => {
    const op = fc.record({ kind: fc.constantFrom('set', 'delete', 'get'), node: fc.integer({ min: 0, max: 5 }), key: fc.integer({ min: 0, max: 3_000 }), fetch: fc.integer({ min: 0, max: 9 }) });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 3_000 }), (ops) => {
        const index = new InFlightIndex();
        const reference = new Map<string, number>();
        for (const { kind, node, key, fetch } of ops) {
          const name = `${node}/${key}`;
          if (kind === 'set') {
            index.set(node, key, fetch);
            reference.set(name, fetch);
          } else if (kind === 'delete') {
            index.deleteIf(node, key, fetch);
            if (reference.get(name) === fetch) reference.delete(name);
          }
          expect(index.get(node, key)).toBe(reference.get(name) ?? -1);
        }
        expect(index.size).toBe(reference.size);
        for (const [name, fetch] of reference) {
          const [node, key] = name.split('/').map(Number);
          expect(index.get(node, key)).toBe(fetch);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('deleteIf leaves a newer fetch for the same key in place', () => {
    const index = new InFlightIndex();
    index.set(3, 42, 7);
    index.set(3, 42, 8);
    index.deleteIf(3, 42, 7);
    expect(index.get(3, 42)).toBe(8);
    index.deleteIf(3, 42, 8);
    expect(index.get(3, 42)).toBe(-1);
  });
});
