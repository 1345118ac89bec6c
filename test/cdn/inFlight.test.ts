import { describe, expect, it } from 'vitest';
import { FETCH_COLUMNS, FetchTable, LAYER_SLOTS, PENDING_REQUEST_COLUMNS, PendingRequests, WAITER_COLUMNS } from '../../src/cdn/inFlight.js';
import type { ColumnSpecs, TypedArray } from '../../src/sim/columns.js';

const ROWS = 10_000;

/** A value for element `j` of row `row` of column number `c`, distinct across rows within what the column's type holds. */
function valueAt(array: TypedArray, c: number, row: number, j: number): number {
  const n = row * 8 + j + c;
  if (array instanceof Uint8Array) return n % 251;
  if (array instanceof Int16Array) return (n % 30_011) - 15_000;
  if (array instanceof Int32Array) return n * 37 - 1_000_000;
  return n * 1.5 + 0.25;
}

/** Takes ROWS rows, filling every column of each row as it is taken (so early rows live through every growth), then reads every one back. */
function fillAndReadBack(table: Record<string, unknown> & { take(): number }, spec: ColumnSpecs): void {
  const names = Object.keys(spec);
  const rows: number[] = [];
  for (let i = 0; i < ROWS; i++) {
    const row = table.take();
    rows.push(row);
    names.forEach((name, c) => {
      const array = table[name] as TypedArray;
      for (let j = 0; j < spec[name].width; j++) array[row * spec[name].width + j] = valueAt(array, c, i, j);
    });
  }
  // Ids are handed out 0, 1, 2, … while none is released.
  expect(rows[ROWS - 1]).toBe(ROWS - 1);
  names.forEach((name, c) => {
    const array = table[name] as TypedArray;
    for (let i = 0; i < ROWS; i++) {
      for (let j = 0; j < spec[name].width; j++) {
        if (array[rows[i] * spec[name].width + j] !== valueAt(array, c, i, j)) expect({ name, row: i, j, read: array[rows[i] * spec[name].width + j] }).toEqual({ name, row: i, j, read: valueAt(array, c, i, j) });
      }
    }
  });
}

/**
 * Every typed array the table holds is a column of its spec, grown to at least `rows` rows:
 * a typed-array field declared on the class outside the spec (grown by nobody) fails here.
 */
function expectEveryColumnGrown(table: object, spec: ColumnSpecs, rows: number): void {
  const held = Object.entries(table).filter(([, value]) => ArrayBuffer.isView(value));
  expect(held.map(([name]) => name).sort()).toEqual(Object.keys(spec).sort());
  for (const [name, array] of held) expect({ name, atLeast: (array as TypedArray).length >= rows * spec[name].width }).toEqual({ name, atLeast: true });
}

describe('in-flight tables: each field declared once (issue 24, DESIGN "Hot path")', () => {
  it('PendingRequests keeps every column of 10,000 requests in flight through six growths (256 → 16,384 rows)', () => {
    const pending = new PendingRequests();
    fillAndReadBack(pending as unknown as Record<string, unknown> & { take(): number }, PENDING_REQUEST_COLUMNS);
    expect(pending.inFlight).toBe(ROWS);
    // Hand-picked reads of the filled values: row 9,999's edge (Int32, column 9), its status (Int16,
    // column 15) and its last layer slot's bytes (Float64, column 19, element 3 of LAYER_SLOTS = 4).
    expect(pending.edge[9_999]).toBe((9_999 * 8 + 9) * 37 - 1_000_000);
    expect(pending.status[9_999]).toBe(((9_999 * 8 + 15) % 30_011) - 15_000);
    expect(pending.servedBytes[9_999 * LAYER_SLOTS + 3]).toBe((9_999 * 8 + 3 + 19) * 1.5 + 0.25);
    expect(pending.servedBytes.length).toBe(16_384 * LAYER_SLOTS);
  });

  it('FetchTable keeps every column of 10,000 fetches in flight through six growths, and 10,000 waiters on one fetch in order', () => {
    const fetches = new FetchTable();
    fillAndReadBack(fetches as unknown as Record<string, unknown> & { take(): number }, FETCH_COLUMNS);
    expect(fetches.inFlight).toBe(ROWS);
    expect(fetches.key[9_999]).toBe((9_999 * 8 + 2) * 37 - 1_000_000);
    expect(fetches.errorUntilMs[9_999]).toBe((9_999 * 8 + 18) * 1.5 + 0.25);
    // The waiter cells are a table of their own (1,024 rows at first): 10,000 waiters on fetch 0 grow it four times.
    fetches.waiterHead[0] = -1;
    for (let w = 0; w < ROWS; w++) fetches.addWaiter(0, -1 - w);
    const order: number[] = [];
    for (let cell = fetches.takeWaiters(0); cell !== -1; cell = fetches.nextWaiter(cell)) order.push(-1 - fetches.waiterOf(cell));
    expect(order.length).toBe(ROWS);
    expect(order.every((w, i) => w === i)).toBe(true);
  });

  it('every typed array a table holds is a declared column, grown with the others', () => {
    const pending = new PendingRequests();
    const fetches = new FetchTable();
    for (let i = 0; i < 300; i++) {
      pending.take();
      fetches.take();
    }
    expectEveryColumnGrown(pending, PENDING_REQUEST_COLUMNS, 300);
    expectEveryColumnGrown(fetches, FETCH_COLUMNS, 300);
    for (let w = 0; w < 1_100; w++) fetches.addWaiter(0, w);
    expectEveryColumnGrown(fetches['waiters'], WAITER_COLUMNS, 1_100);
  });
});
