import type { z } from 'zod';
import { quoteText } from './trafficRecord.js';

/** What is wrong with an entry the schema rejected: the first problem, at its field path. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], entry: unknown, index: number): string {
  const issue = issues[0];
  const path = fieldPath(index, issue.path);
  const found = describeValue(valueAt(entry, issue.path));
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length === 2 ? '' : 's'} in this entry)` : '';
  return `${path}: expected ${issue.message}, found ${found}${more}`;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `log.entries[3].response.status`, the way a reader of the file finds it. */
function fieldPath(index: number, path: readonly PropertyKey[]): string {
  let out = `log.entries[${index}]`;
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += IDENTIFIER.test(String(key)) ? `.${String(key)}` : `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

const MISSING = Symbol('missing');

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return MISSING;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function describeValue(value: unknown): string {
  if (value === MISSING) return 'nothing (the field is missing)';
  if (value === null) return 'null';
  if (typeof value === 'string') return quoteText(value);
  if (Array.isArray(value)) return value.length === 0 ? 'an empty array' : `an array of ${value.length}`;
  if (typeof value === 'object') return 'an object';
  return String(value);
}
