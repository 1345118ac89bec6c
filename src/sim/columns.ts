/**
 * Tables of typed arrays, one array per field ("column"), each field declared once
 * (issue 24: a field listed in a declaration but forgotten in the table's growth worked
 * below 256 rows and silently dropped writes above). A table's spec names its columns; the
 * table's fields and its growth are both derived from that one list. Access stays a plain
 * property read of a typed array (`fetches.key[f]`), monomorphic on the hot path: the
 * columns are set in the spec's order in the constructor, so every table of one kind has
 * one shape, and growing replaces each array in place of the last.
 */

export type TypedArray = Float64Array | Int32Array | Int16Array | Uint8Array;

/** A typed array whose elements the type checker reads and writes as `T` (a branded id of src/sim/ids.ts); at run time the array itself. */
export type ColumnArray<A extends TypedArray, T extends number> = A & { [row: number]: T };

/** One column: how to make its array, and how many elements each row holds. */
export interface ColumnSpec<A extends TypedArray = TypedArray> {
  readonly make: (length: number) => A;
  /** Elements per row: 1, or a fixed group per row (a request's bytes per layer). */
  readonly width: number;
}

export type ColumnSpecs = Readonly<Record<string, ColumnSpec>>;

/** The fields a spec gives a table: one typed array per column. */
export type Columns<S extends ColumnSpecs> = { -readonly [K in keyof S]: S[K] extends ColumnSpec<infer A> ? A : never };

/** A column of doubles, int32s, int16s or bytes; `T` brands its elements (e.g. `column<KeyId>(Int32Array)`). */
export function column<T extends number = number>(kind: Float64ArrayConstructor, width?: number): ColumnSpec<ColumnArray<Float64Array, T>>;
export function column<T extends number = number>(kind: Int32ArrayConstructor, width?: number): ColumnSpec<ColumnArray<Int32Array, T>>;
export function column<T extends number = number>(kind: Int16ArrayConstructor, width?: number): ColumnSpec<ColumnArray<Int16Array, T>>;
export function column<T extends number = number>(kind: Uint8ArrayConstructor, width?: number): ColumnSpec<ColumnArray<Uint8Array, T>>;
export function column(kind: new (length: number) => TypedArray, width = 1): ColumnSpec {
  if (!(Number.isInteger(width) && width >= 1)) throw new RangeError(`a column's width is a whole number ≥ 1, got ${width}`);
  return { make: (length) => new kind(length), width };
}

/** Gives `table` every column of `spec`, `rows` rows each (zeros), in the spec's order. */
export function addColumns<S extends ColumnSpecs>(table: Columns<S>, spec: S, rows: number): void {
  const fields = table as Record<string, TypedArray>;
  for (const name of Object.keys(spec)) fields[name] = spec[name].make(rows * spec[name].width);
}

/** Regrows every column of `spec` on `table` to `rows` rows, keeping the rows it had. */
export function growColumns<S extends ColumnSpecs>(table: Columns<S>, spec: S, rows: number): void {
  const fields = table as Record<string, TypedArray>;
  for (const name of Object.keys(spec)) {
    const next = spec[name].make(rows * spec[name].width);
    next.set(fields[name]);
    fields[name] = next;
  }
}

/** A table made of `spec`'s columns alone (for a class that keeps its columns private). */
export function newColumns<S extends ColumnSpecs>(spec: S, rows: number): Columns<S> {
  const table = {} as Columns<S>;
  addColumns(table, spec, rows);
  return table;
}
