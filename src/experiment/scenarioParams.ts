import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { loadScenarioFile, parseScenarioText, ScenarioError } from '../scenario/load.js';
import type { Scenario } from '../scenario/schema.js';
import { echoValue, UserError } from '../userError.js';

/**
 * Scenario key paths set from the command line (`--param edge.capacity=1GB,10GB`): the
 * value is written into the scenario file's data at the path and the whole scenario is
 * parsed again by the scenario schema, so a value means exactly what it would mean in the
 * file (units, defaults, cross-checks), and a mistake is reported with the schema's words.
 */

/** One swept key: its path as written, its segments, and the values as written. */
export interface SweepParam {
  readonly path: string;
  readonly segments: readonly (string | number)[];
  readonly values: readonly string[];
}

/** One key set to one value (as written on the command line). */
export type ParamAssignment = readonly [path: string, value: string];

/** `content.classes[2].share` and `content.classes.2.share` → ['content', 'classes', 2, 'share']. */
export function pathSegments(path: string): (string | number)[] {
  const normalised = path.replace(/\[(\d+)\]/g, '.$1');
  return normalised.split('.').map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
}

const PATH_PATTERN = /^[A-Za-z_$][\w$-]*(?:(?:\.[A-Za-z_$][\w$-]*)|(?:\.\d+)|(?:\[\d+\]))*$/;

/** Reads `--param PATH=v1,v2,…`; a malformed one is a user error saying what was expected. */
export function parseSweepParam(text: string, flag = '--param'): SweepParam {
  const equals = text.indexOf('=');
  if (equals <= 0) throw new UserError(`${flag}: expected PATH=v1,v2,… such as edge.capacity=1GB,10GB, found "${echoValue(text)}"`);
  const path = text.slice(0, equals).trim();
  if (!PATH_PATTERN.test(path)) throw new UserError(`${flag}: expected a scenario key path such as edge.capacity or content.classes[0].share, found "${echoValue(path)}"`);
  const values = text
    .slice(equals + 1)
    .split(',')
    .map((value) => value.trim());
  if (values.some((value) => value === '')) throw new UserError(`${flag} ${path}: expected comma-separated values such as 1GB,10GB, found "${echoValue(text.slice(equals + 1))}" with an empty value`);
  if (new Set(values).size !== values.length) throw new UserError(`${flag} ${path}: expected each value once, found "${echoValue(text.slice(equals + 1))}"`);
  return { path, segments: pathSegments(path), values };
}

/** A command-line value as the scenario file would hold it: `0.8` a number, `false` a boolean, `1GB` a string. */
function scalarOf(value: string): unknown {
  try {
    const parsed: unknown = parseYaml(value);
    return parsed === null || typeof parsed === 'object' ? value : parsed;
  } catch {
    return value;
  }
}

/** Reads a scenario file as plain data (YAML or JSON); the file was validated before. */
export function readScenarioData(file: string): Record<string, unknown> {
  const data: unknown = parseYaml(readFileSync(file, 'utf8'));
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new UserError(`${file}: expected a scenario mapping`);
  return data as Record<string, unknown>;
}

/** Sets `value` at `segments` in `data` (a fresh copy), creating mappings on the way; a path through a scalar or past a list's end is a user error. */
function setAt(data: Record<string, unknown>, param: { path: string; segments: readonly (string | number)[] }, value: unknown, flag: string): Record<string, unknown> {
  const copy = structuredClone(data);
  let node: unknown = copy;
  param.segments.forEach((segment, depth) => {
    const last = depth === param.segments.length - 1;
    const where = param.segments.slice(0, depth).join('.') || 'the top level';
    if (Array.isArray(node)) {
      if (typeof segment !== 'number') throw new UserError(`${flag} ${param.path}: \`${where}\` is a list; expected an index such as ${where}[0], found "${segment}"`);
      if (segment >= node.length) throw new UserError(`${flag} ${param.path}: \`${where}\` has ${node.length} entries (indexes 0–${node.length - 1}), found index ${segment}`);
    } else if (node === null || typeof node !== 'object') {
      throw new UserError(`${flag} ${param.path}: \`${where}\` is a value, not a mapping, so it has no key "${segment}"`);
    }
    const container = node as Record<string | number, unknown>;
    if (last) container[segment] = value;
    else {
      if (container[segment] === undefined || container[segment] === null) container[segment] = typeof param.segments[depth + 1] === 'number' ? [] : {};
      node = container[segment];
    }
  });
  return copy;
}

/**
 * The scenario of `file` with `assignments` applied, parsed by the scenario schema. A value
 * the schema refuses, or a key it does not know, is a user error naming the --param and the
 * schema's message (with its suggestion).
 */
export function scenarioWithParams(file: string, data: Record<string, unknown>, params: readonly SweepParam[], assignments: readonly ParamAssignment[], flag = '--param'): Scenario {
  let variant = data;
  for (const [path, value] of assignments) {
    const param = params.find((candidate) => candidate.path === path) ?? { path, segments: pathSegments(path) };
    variant = setAt(variant, param, scalarOf(value), flag);
  }
  try {
    // JSON is YAML: the loader reads it with the file's name (relative paths, default name).
    return parseScenarioText(JSON.stringify(variant), file);
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error;
    const given = assignments.map(([path, value]) => `${path}=${value}`).join(' ');
    const problems = error.problems.map((problem) => (problem.keyPath ? `\`${problem.keyPath}\`: ${problem.message}` : problem.message));
    throw new UserError(`${flag} ${given} in ${file}: ${problems.join('; ')}`);
  }
}

/**
 * Reads `--set PATH=VALUE` (`cdnsim run`, `plan`, `traffic`): one key set to one value, the whole text after the
 * first `=` (a value may hold commas); a malformed one is a user error saying what was expected.
 */
export function parseScenarioSet(text: string): ParamAssignment {
  const equals = text.indexOf('=');
  if (equals <= 0) throw new UserError(`--set: expected PATH=VALUE such as edge.capacity=10GB, found "${echoValue(text)}"`);
  const path = text.slice(0, equals).trim();
  if (!PATH_PATTERN.test(path)) throw new UserError(`--set: expected a scenario key path such as edge.capacity or content.classes[0].sharing, found "${echoValue(path)}"`);
  const value = text.slice(equals + 1).trim();
  if (value === '') throw new UserError(`--set ${path}: expected a value after "=", such as ${path}=10GB`);
  return [path, value];
}

/** Every `--set` of a command line (none: an empty list). */
export function parseScenarioSets(texts: readonly string[] | undefined): ParamAssignment[] {
  return (texts ?? []).map((text) => parseScenarioSet(text));
}

/**
 * A scenario file with `--set` assignments applied (in order; a later one for the same path
 * wins), parsed by the scenario schema as the file would be; the file as loaded when there
 * are none.
 */
export function loadScenarioWithSets(file: string, sets: readonly ParamAssignment[]): Scenario {
  if (sets.length === 0) return loadScenarioFile(file);
  // The file is checked as written first, so its own mistakes are reported against its lines.
  loadScenarioFile(file);
  return scenarioWithParams(file, readScenarioData(file), [], sets, '--set');
}
