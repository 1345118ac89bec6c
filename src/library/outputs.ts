import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsv } from '../report/csvRead.js';

/**
 * Reading a command's output folder for the library: JSON documents and CSV files, and
 * typed access into them that fails with the path it looked for, so a renamed key shows
 * as a message naming it rather than as `undefined` in a published table.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function readJson(folder: string, file: string): Json {
  return JSON.parse(readFileSync(join(folder, file), 'utf8')) as Json;
}

export function readCsv(folder: string, file: string): Record<string, string>[] {
  return parseCsv(readFileSync(join(folder, file), 'utf8'), file).records;
}

/** The value at a dotted path (`cdn.origin.requests`; `[key]` segments for keys with dots or spaces). */
export function at(value: Json, path: string): Json {
  let current: Json = value;
  for (const key of pathKeys(path)) {
    if (current === null || typeof current !== 'object') throw new Error(`library: no \`${path}\` in the output (stopped at \`${key}\`)`);
    const next: Json | undefined = Array.isArray(current) ? current[Number(key)] : current[key];
    if (next === undefined) throw new Error(`library: no \`${path}\` in the output (no \`${key}\`)`);
    current = next;
  }
  return current;
}

/** The number at a dotted path. */
export function num(value: Json, path: string): number {
  const found = at(value, path);
  if (typeof found !== 'number') throw new Error(`library: expected a number at \`${path}\`, found ${JSON.stringify(found)}`);
  return found;
}

/** The array at a dotted path. */
export function list(value: Json, path: string): Json[] {
  const found = at(value, path);
  if (!Array.isArray(found)) throw new Error(`library: expected a list at \`${path}\`, found ${typeof found}`);
  return found;
}

/** A CSV cell as a number (an empty cell is not applicable: null). */
export function cell(record: Record<string, string>, column: string): number | null {
  const text = record[column];
  if (text === undefined) throw new Error(`library: no column \`${column}\``);
  return text === '' ? null : Number(text);
}

/** A ratio as the pages publish it: to six decimals, the precision of the commands' own outputs, so a fresh run's figures compare exactly. */
export function roundFigure(x: number): number {
  return Number(x.toFixed(6));
}

/** Two fractions (a hit-ratio target, a sharing) read back from JSON are the same one: equal within 1e-9. */
export function sameFraction(a: number, b: number): boolean {
  return Math.abs(a - b) < 1e-9;
}

/** A point of a node's hit-ratio curve: its request hit ratio at a grid capacity. */
export interface CurvePoint {
  readonly capacity: number;
  readonly hitRatio: number;
}

/**
 * One node's curve from a run's curves.csv rows (docs/curves.md: `all` for the layer's
 * aggregate), by capacity, smallest first; an error naming `reader` when the file has none.
 */
export function curveOf(rows: readonly Record<string, string>[], layer: 'edge' | 'regional', node: string, reader: string): CurvePoint[] {
  const found = rows
    .filter((row) => row.layer === layer && row.node === node)
    .map((row) => ({ capacity: cell(row, 'capacityBytes') ?? 0, hitRatio: cell(row, 'hitRatio') ?? 0 }))
    .sort((a, b) => a.capacity - b.capacity);
  if (found.length === 0) throw new Error(`${reader}: curves.csv has no ${layer} rows for ${node}`);
  return found;
}

function pathKeys(path: string): string[] {
  const keys: string[] = [];
  for (const match of path.matchAll(/\[([^\]]+)\]|([^.[\]]+)/g)) keys.push(match[1] ?? match[2]);
  return keys;
}
