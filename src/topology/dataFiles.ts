import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UserError } from '../userError.js';

/**
 * cdnsim's own `data/` folder, found by walking up from this module to the package root
 * (the module runs from src/ under vitest and from dist/src/ when built). The simulator
 * reads only these committed files; scripts/buildPops.mjs regenerates them.
 */
export function dataFilePath(name: string): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth++) {
    const candidate = join(folder, 'data', name);
    if (existsSync(join(folder, 'package.json')) && existsSync(candidate)) return candidate;
    folder = dirname(folder);
  }
  throw new Error(`cdnsim's data file data/${name} was not found above ${dirname(fileURLToPath(import.meta.url))}; the installation is incomplete`);
}

/** Parsed JSON of a file, with the file named in the error when it is not JSON. */
export function readJsonFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UserError(`${path}: cannot read the file (${error instanceof Error ? error.message : String(error)})`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UserError(`${path}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** A path such as ['pops', 12, 'lat'] as `pops[12].lat`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const part of path) text += typeof part === 'number' ? `[${part}]` : text === '' ? String(part) : `.${String(part)}`;
  return text === '' ? '(top level)' : text;
}

/** Zod's issues as "file: key: message" lines, at most `limit` of them. */
export function describeIssues(source: string, issues: readonly { path: readonly PropertyKey[]; message: string }[], limit = 5): string {
  const lines = issues.slice(0, limit).map((issue) => `${source}: ${formatPath(issue.path)}: ${issue.message}`);
  if (issues.length > limit) lines.push(`${source}: … and ${issues.length - limit} more problems`);
  return lines.join('\n');
}
