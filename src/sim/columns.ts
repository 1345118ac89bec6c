/**
 * Tables of typed arrays, one array per field ("column"), each field declared once (issue 24:
 * a field declared on a table but forgotten in its growth worked below 256 rows and silently
 * dropped writes above). A table declares its columns as ordinary class fields;
 * `growColumns` regrows every typed array the table holds, found on the table itself, so
 * there is no second list to keep in step (the policy's compiled table; the flow's in-flight
 * records are rows of one buffer instead, src/cdn/inFlight.ts).
 *
 * The rule this asks of a table: every typed array it holds as an own field is a column,
 * `width` elements per row (keep other arrays, such as a free list, in another object).
 */

export type TypedArray = Float64Array | Int32Array | Int16Array | Uint8Array;

/** The typed arrays `table` holds as own fields: its columns, in declaration order. */
export function columnsOf(table: object): [name: string, array: TypedArray][] {
  return Object.entries(table).filter((entry): entry is [string, TypedArray] => ArrayBuffer.isView(entry[1]) && !(entry[1] instanceof DataView));
}

/**
 * Regrows every column of `table` from `fromRows` to `toRows` rows, keeping the rows it had
 * (a column's width is its length / fromRows). Runs only when a table doubles, not per row.
 */
export function growColumns(table: object, fromRows: number, toRows: number): void {
  const fields = table as Record<string, TypedArray>;
  for (const [name, array] of columnsOf(table)) {
    const next = new (array.constructor as new (length: number) => TypedArray)((array.length / fromRows) * toRows);
    next.set(array);
    fields[name] = next;
  }
}
