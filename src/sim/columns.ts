/**
 * Tables of typed arrays, one array per field ("column"), each field declared once (issue 24:
 * a field declared on a table but forgotten in its growth worked below 256 rows and silently
 * dropped writes above). A table declares its columns as ordinary class fields, made by
 * `column`; `growColumns` regrows every typed array the table holds, found on the table
 * itself, so there is no second list to keep in step. Declared fields stay in-object
 * properties of one shape, read as `fetches.key[f]` monomorphically on the hot path.
 *
 * The rule this asks of a table: every typed array it holds as an own field is a column,
 * `width` elements per row (keep other arrays, such as a free list, in another object).
 */

export type TypedArray = Float64Array | Int32Array | Int16Array | Uint8Array;

/** A typed array whose elements the type checker reads and writes as `T` (a branded id of src/sim/ids.ts); at run time the array itself. */
export type ColumnArray<A extends TypedArray, T extends number> = A & { [row: number]: T };

/** A column of `rows` rows of `width` doubles, int32s, int16s or bytes (zeros); `T` brands its elements (`column<KeyId>(Int32Array, 256)`). */
export function column<T extends number = number>(kind: Float64ArrayConstructor, rows: number, width?: number): ColumnArray<Float64Array, T>;
export function column<T extends number = number>(kind: Int32ArrayConstructor, rows: number, width?: number): ColumnArray<Int32Array, T>;
export function column<T extends number = number>(kind: Int16ArrayConstructor, rows: number, width?: number): ColumnArray<Int16Array, T>;
export function column<T extends number = number>(kind: Uint8ArrayConstructor, rows: number, width?: number): ColumnArray<Uint8Array, T>;
export function column(kind: new (length: number) => TypedArray, rows: number, width = 1): TypedArray {
  if (!(Number.isInteger(width) && width >= 1)) throw new RangeError(`a column's width is a whole number ≥ 1, got ${width}`);
  return new kind(rows * width);
}

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
