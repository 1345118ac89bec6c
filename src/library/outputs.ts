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

function pathKeys(path: string): string[] {
  const keys: string[] = [];
  for (const match of path.matchAll(/\[([^\]]+)\]|([^.[\]]+)/g)) keys.push(match[1] ?? match[2]);
  return keys;
}
