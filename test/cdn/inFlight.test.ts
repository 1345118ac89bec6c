import { describe, expect, it } from 'vitest';
import * as inFlight from '../../src/cdn/inFlight.js';
import { FETCH_DOUBLES, FETCH_WORDS, FetchTable, LAYER_SLOTS, NO_WAITER, PENDING_DOUBLES, PENDING_WORDS, PendingRequests } from '../../src/cdn/inFlight.js';

const ROWS = 10_000;

/** The exported field offsets of one record kind (`P_` or `F_`): [name, offset] in declaration order. */
function fieldsOf(prefix: string): [string, number][] {
  return Object.entries(inFlight).filter((entry): entry is [string, number] => entry[0].startsWith(prefix) && typeof entry[1] === 'number');
}

/** A row's fields: doubles (times and byte counts, offsets in `numbers`) and 32-bit words (offsets in `words`). */
const PENDING_DOUBLE_FIELDS = fieldsOf('P_').filter(([name]) => name.endsWith('_MS') || ['P_SEQ', 'P_SIZE_BYTES', 'P_RANGE_START'].includes(name));
const PENDING_WORD_FIELDS = fieldsOf('P_').filter(([name]) => !PENDING_DOUBLE_FIELDS.some(([double]) => double === name));
const FETCH_DOUBLE_FIELDS = fieldsOf('F_').filter(([name]) => name.endsWith('_MS') || name === 'F_BYTES');
const FETCH_WORD_FIELDS = fieldsOf('F_').filter(([name]) => !FETCH_DOUBLE_FIELDS.some(([double]) => double === name));

const doubleAt = (row: number, field: number): number => (row * 32 + field) * 1.5 + 0.25;
const wordAt = (row: number, field: number): number => (row * 32 + field) * 37 - 1_000_000;

interface RowTableLike {
  take(): number;
  numbers: Float64Array;
  words: Int32Array;
}

/**
 * Takes ROWS rows, writing every field of each as it is taken (so early rows live through
 * every growth: 256 → 16,384 rows, six doublings), then reads every one back. The arrays are
 * read again before each row: a growth replaces them.
 */
function fillAndReadBack(table: RowTableLike, doubles: number, doubleFields: [string, number][], wordFields: [string, number][]): void {
  for (let row = 0; row < ROWS; row++) {
    // Ids are handed out 0, 1, 2, … while none is released.
    expect(table.take()).toBe(row);
    for (const [, field] of doubleFields) table.numbers[row * doubles + field] = doubleAt(row, field);
    for (const [, field] of wordFields) table.words[row * 2 * doubles + field] = wordAt(row, field);
  }
  for (let row = 0; row < ROWS; row++) {
    for (const [name, field] of doubleFields) if (table.numbers[row * doubles + field] !== doubleAt(row, field)) expect({ name, row, read: table.numbers[row * doubles + field] }).toEqual({ name, row, read: doubleAt(row, field) });
    for (const [name, field] of wordFields) if (table.words[row * 2 * doubles + field] !== wordAt(row, field)) expect({ name, row, read: table.words[row * 2 * doubles + field] }).toEqual({ name, row, read: wordAt(row, field) });
  }
  expect(table.numbers.length).toBe(16_384 * doubles);
  // One buffer: the words are the doubles' bytes, so no field can be left at an earlier size (issue 24).
  expect(table.words.buffer).toBe(table.numbers.buffer);
}

/** No two fields share a place in the row, and every field lies inside it. */
function expectDisjoint(doubles: number, doubleFields: [string, number][], wordFields: [string, number][]): void {
  const taken = new Map<number, string>();
  const claim = (word: number, name: string): void => {
    expect({ name, word, inside: word >= 0 && word < 2 * doubles }).toEqual({ name, word, inside: true });
    expect({ word, by: taken.get(word) ?? name }).toEqual({ word, by: name });
    taken.set(word, name);
  };
  for (const [name, field] of doubleFields) {
    claim(2 * field, name);
    claim(2 * field + 1, name);
  }
  for (const [name, field] of wordFields) claim(field, name);
}

describe('in-flight records as rows (issue 27: one or two cache lines a record; issue 24: nothing left behind by a growth)', () => {
  it('a pending request is 16 doubles (128 bytes); its 19 fields (7 doubles, 12 words) do not overlap', () => {
    expect([PENDING_DOUBLES, PENDING_WORDS]).toEqual([16, 32]);
    expect([PENDING_DOUBLE_FIELDS.length, PENDING_WORD_FIELDS.length]).toEqual([7, 12]);
    expectDisjoint(PENDING_DOUBLES, PENDING_DOUBLE_FIELDS, PENDING_WORD_FIELDS);
  });

  it('a fetch is 16 doubles (128 bytes); its 18 exported fields (6 doubles, 12 words) and its waiter words (19, 25) do not overlap', () => {
    expect([FETCH_DOUBLES, FETCH_WORDS]).toEqual([16, 32]);
    expect([FETCH_DOUBLE_FIELDS.length, FETCH_WORD_FIELDS.length]).toEqual([6, 12]);
    expectDisjoint(FETCH_DOUBLES, FETCH_DOUBLE_FIELDS, [...FETCH_WORD_FIELDS, ['waiterHead', 19], ['firstWaiter', 25]]);
  });

  it('PendingRequests keeps every field of 10,000 requests in flight through six growths (256 → 16,384 rows), and their bytes per layer', () => {
    const pending = new PendingRequests();
    fillAndReadBack(
      {
        take: () => {
          const r = pending.take();
          for (let l = 0; l < LAYER_SLOTS; l++) pending.servedBytes[r * LAYER_SLOTS + l] = r * 8 + l + 0.5;
          return r;
        },
        get numbers() {
          return pending.numbers;
        },
        get words() {
          return pending.words;
        },
      },
      PENDING_DOUBLES,
      PENDING_DOUBLE_FIELDS,
      PENDING_WORD_FIELDS,
    );
    expect(pending.inFlight).toBe(ROWS);
    // Hand-picked reads: row 9,999's edge (word 16) through its reader, its send time (double 0), its last layer slot's bytes.
    expect(pending.edgeOf(9_999)).toBe((9_999 * 32 + 16) * 37 - 1_000_000);
    expect(pending.numbers[9_999 * 16 + inFlight.P_SEND_MS]).toBe(9_999 * 32 * 1.5 + 0.25);
    expect(pending.servedBytes[9_999 * LAYER_SLOTS + 3]).toBe(9_999 * 8 + 3 + 0.5);
    expect(pending.servedBytes.length).toBe(16_384 * LAYER_SLOTS);
  });

  it('FetchTable keeps every field of 10,000 fetches in flight through six growths, and 10,000 waiters on one fetch in order', () => {
    const fetches = new FetchTable();
    fillAndReadBack(fetches, FETCH_DOUBLES, FETCH_DOUBLE_FIELDS, FETCH_WORD_FIELDS);
    expect(fetches.inFlight).toBe(ROWS);
    expect(fetches.keyOf(9_999)).toBe((9_999 * 32 + 12) * 37 - 1_000_000);
    expect(fetches.numbers[9_999 * 16 + inFlight.F_ERROR_UNTIL_MS]).toBe((9_999 * 32 + 5) * 1.5 + 0.25);
    // The first waiter sits in the row; the later ones are cells, a table of their own (1,024 at first):
    // 10,000 waiters on a new fetch put 9,999 in cells, which grow it four times, to 16,384.
    const f = fetches.take();
    expect([fetches.firstWaiterOf(f), fetches.firstWaiterCell(f)]).toEqual([NO_WAITER, -1]);
    for (let w = 0; w < ROWS; w++) fetches.addWaiter(f, -1 - w);
    expect(fetches.firstWaiterOf(f)).toBe(-1);
    expect(fetches['waiters'].cells.length).toBe(2 * 16_384);
    expect(fetches['waiterIds'].live).toBe(ROWS - 1);
    const order: number[] = [-1 - fetches.firstWaiterOf(f)];
    for (let cell = fetches.takeWaiters(f); cell !== -1; cell = fetches.nextWaiter(cell)) order.push(-1 - fetches.waiterOf(cell));
    expect(order.length).toBe(ROWS);
    expect(order.every((w, i) => w === i)).toBe(true);
    expect(fetches['waiterIds'].live).toBe(0);
    // A fetch with one waiter (the common case) takes no cell.
    const g = fetches.take();
    fetches.addWaiter(g, 7);
    expect([fetches.firstWaiterOf(g), fetches.takeWaiters(g), fetches['waiterIds'].live]).toEqual([7, -1, 0]);
    // Row 9,999 kept its fields through the waiter table's growth.
    expect(fetches.keyOf(9_999)).toBe((9_999 * 32 + 12) * 37 - 1_000_000);
  });
});
