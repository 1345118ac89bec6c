import { describe, expect, it } from 'vitest';
import { FetchTable, LAYER_SLOTS, PendingRequests } from '../../src/cdn/inFlight.js';
import { columnsOf, type TypedArray } from '../../src/sim/columns.js';

const ROWS = 10_000;

/** A value for element `j` of row `row` of column number `c`, distinct across rows within what the column's type holds. */
function valueAt(array: TypedArray, c: number, row: number, j: number): number {
  const n = row * 8 + j + c;
  if (array instanceof Uint8Array) return n % 251;
  if (array instanceof Int16Array) return (n % 30_011) - 15_000;
  if (array instanceof Int32Array) return n * 37 - 1_000_000;
  return n * 1.5 + 0.25;
}

/**
 * Takes ROWS rows, filling every column of each row as it is taken (so early rows live through
 * every growth), then reads every one back. The columns are the typed arrays the table holds
 * (src/sim/columns.ts), read before each row: a growth replaces them.
 */
function fillAndReadBack(table: object & { take(): number }, widths: Map<string, number>): void {
  const rows: number[] = [];
  for (let i = 0; i < ROWS; i++) {
    const row = table.take();
    rows.push(row);
    columnsOf(table).forEach(([name, array], c) => {
      const width = widths.get(name) ?? 1;
      for (let j = 0; j < width; j++) array[row * width + j] = valueAt(array, c, i, j);
    });
  }
  // Ids are handed out 0, 1, 2, … while none is released.
  expect(rows[ROWS - 1]).toBe(ROWS - 1);
  columnsOf(table).forEach(([name, array], c) => {
    const width = widths.get(name) ?? 1;
    for (let i = 0; i < ROWS; i++) {
      for (let j = 0; j < width; j++) {
        if (array[rows[i] * width + j] !== valueAt(array, c, i, j)) expect({ name, row: i, j, read: array[rows[i] * width + j] }).toEqual({ name, row: i, j, read: valueAt(array, c, i, j) });
      }
    }
  });
}

/** Each column of `table` holds `rows` rows exactly (`width` elements each): none was left at an earlier size. */
function expectEveryColumnAt(table: object, rows: number, widths: Map<string, number>): void {
  for (const [name, array] of columnsOf(table)) expect({ name, length: array.length }).toEqual({ name, length: rows * (widths.get(name) ?? 1) });
}

const PENDING_WIDTHS = new Map([['servedBytes', LAYER_SLOTS]]);
const FETCH_WIDTHS = new Map<string, number>();

describe('in-flight tables: each field declared once (issue 24, DESIGN "Hot path")', () => {
  it('PendingRequests keeps every column (20) of 10,000 requests in flight through six growths (256 → 16,384 rows)', () => {
    const pending = new PendingRequests();
    expect(columnsOf(pending).length).toBe(20);
    fillAndReadBack(pending, PENDING_WIDTHS);
    expect(pending.inFlight).toBe(ROWS);
    // Hand-picked reads of the filled values: row 9,999's edge (Int32, column 9), its status (Int16,
    // column 15) and its last layer slot's bytes (Float64, column 19, element 3 of LAYER_SLOTS = 4).
    expect(pending.edge[9_999]).toBe((9_999 * 8 + 9) * 37 - 1_000_000);
    expect(pending.status[9_999]).toBe(((9_999 * 8 + 15) % 30_011) - 15_000);
    expect(pending.servedBytes[9_999 * LAYER_SLOTS + 3]).toBe((9_999 * 8 + 3 + 19) * 1.5 + 0.25);
    expectEveryColumnAt(pending, 16_384, PENDING_WIDTHS);
    expect(columnsOf(pending).length).toBe(20);
  });

  it('FetchTable keeps every column (19) of 10,000 fetches in flight through six growths, and 10,000 waiters on one fetch in order', () => {
    const fetches = new FetchTable();
    expect(columnsOf(fetches).length).toBe(19);
    fillAndReadBack(fetches, FETCH_WIDTHS);
    expect(fetches.inFlight).toBe(ROWS);
    expect(fetches.key[9_999]).toBe((9_999 * 8 + 2) * 37 - 1_000_000);
    expect(fetches.errorUntilMs[9_999]).toBe((9_999 * 8 + 18) * 1.5 + 0.25);
    expectEveryColumnAt(fetches, 16_384, FETCH_WIDTHS);
    // The waiter cells are a table of their own (1,024 rows at first): 10,000 waiters on fetch 0 grow it four times, to 16,384.
    fetches.waiterHead[0] = -1;
    for (let w = 0; w < ROWS; w++) fetches.addWaiter(0, -1 - w);
    expectEveryColumnAt(fetches['waiters'], 16_384, FETCH_WIDTHS);
    expect(columnsOf(fetches['waiters']).length).toBe(2);
    const order: number[] = [];
    for (let cell = fetches.takeWaiters(0); cell !== -1; cell = fetches.nextWaiter(cell)) order.push(-1 - fetches.waiterOf(cell));
    expect(order.length).toBe(ROWS);
    expect(order.every((w, i) => w === i)).toBe(true);
  });
});
