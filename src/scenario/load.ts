import { readFileSync } from 'node:fs';
import { basename, dirname, extname } from 'node:path';
import { LineCounter, isMap, isScalar, isSeq, parseDocument, visit, type Document, type Node as YamlNode } from 'yaml';
import { z } from 'zod';
import { echoValue, UserError } from '../userError.js';
import { scenarioSchema, type Scenario } from './schema.js';
import { nearest } from '../suggest.js';
import { checkTopologyReferences, topologyNodes } from '../topology/topology.js';
import { unknownNodes } from './nodeCapacities.js';
import { topologySpecOf } from './scenarioTopology.js';
import { workBoundProblem } from './workBounds.js';
import { SHIPPED_TRAFFIC_CLASSES, descriptorFor, loadTrafficModel } from '../workload/trafficModels/trafficModel.js';

/** One problem in a scenario file, located as precisely as the file allows. */
export interface ScenarioProblem {
  file: string;
  line: number;
  column: number;
  /** Key path such as `edge.capacity` or `traffic.regions["North America"]`; empty for the whole file. */
  keyPath: string;
  message: string;
}

export class ScenarioError extends UserError {
  constructor(readonly problems: readonly ScenarioProblem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.name = 'ScenarioError';
  }
}

export function formatProblem(problem: ScenarioProblem): string {
  const where = `${problem.file}:${problem.line}:${problem.column}`;
  return problem.keyPath ? `${where}: \`${problem.keyPath}\`: ${problem.message}` : `${where}: ${problem.message}`;
}

type PathKey = string | number;

export function formatKeyPath(path: readonly PathKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(key)) text += text ? `.${key}` : key;
    else text += `[${JSON.stringify(key)}]`;
  }
  return text;
}

/**
 * Where a key's value stands in a scenario file, for a mistake found after loading (a
 * recording that is missing): the file is read again, as the mistake is rare and the file small.
 */
export function scenarioKeyLocation(file: string, path: readonly PathKey[]): { line: number; column: number } {
  const lineCounter = new LineCounter();
  const document = parseDocument(readFileSync(file, 'utf8'), { lineCounter, prettyErrors: false, uniqueKeys: true });
  const { line, col } = lineCounter.linePos(Math.max(0, valueOffset(document, path)));
  return { line, column: col };
}

/** Reads, parses and validates a scenario file (YAML or JSON); throws ScenarioError or UserError. */
export function loadScenarioFile(file: string): Scenario {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder, not a file' : code === 'EACCES' ? 'permission denied' : String((error as Error).message);
    throw new UserError(
      `cannot read scenario file '${file}': ${reason}. Check the path; the scenarios that ship with cdnsim are in scenarios/ (for example scenarios/baseline.yaml).`,
    );
  }
  return parseScenarioText(text, file);
}

/** Parses and validates scenario text; `file` names it in errors and gives the default name. */
/**
 * Largest scenario text read: a scenario is a few kilobytes of settings (a recording lives in
 * its own file), while parsing holds about 35 bytes of syntax tree per byte of text (an 80 MB
 * file took 2.8 GB and 7 s to refuse).
 */
export const MAX_SCENARIO_BYTES = 4 * 1024 * 1024;

export function parseScenarioText(text: string, file: string): Scenario {
  // Characters, not bytes: a string's length bounds its UTF-8 size from below, and is free.
  if (text.length > MAX_SCENARIO_BYTES) {
    const size = `${(Buffer.byteLength(text) / (1024 * 1024)).toFixed(1)} MiB`;
    throw new ScenarioError([
      { file, line: 1, column: 1, keyPath: '', message: `the file holds ${size}; a scenario file is at most 4 MiB of settings (a recording goes in its own file, named by content.recorded.file)` },
    ]);
  }
  try {
    return parseScenarioTextUnguarded(text, file);
  } catch (error) {
    // Deep nesting the parser accepted can still overflow a recursive step after it.
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      throw new ScenarioError([{ file, line: 1, column: 1, keyPath: '', message: 'nested too deeply to read (a scenario nests about six levels)' }]);
    }
    throw error;
  }
}

function parseScenarioTextUnguarded(text: string, file: string): Scenario {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number) => {
    const { line, col } = lineCounter.linePos(Math.max(0, offset));
    return { line, column: col };
  };

  if (document.errors.length > 0) {
    throw new ScenarioError(
      document.errors.map((error) => ({ file, ...at(error.pos[0]), keyPath: '', message: syntaxErrorMessage(error.code, error.message, file) })),
    );
  }
  const unresolved: ScenarioProblem[] = [];
  visit(document, {
    Alias(_key, alias) {
      if (alias.resolve(document) === undefined) {
        unresolved.push({ file, ...at(alias.range?.[0] ?? 0), keyPath: '', message: `YAML error: the alias *${alias.source} has no anchor &${alias.source} before it` });
      }
    },
  });
  if (unresolved.length > 0) throw new ScenarioError(unresolved);

  let data: unknown;
  try {
    data = document.toJS();
  } catch (error) {
    // Whatever else the YAML library cannot turn into data (aliases are checked above).
    throw new ScenarioError([{ file, line: 1, column: 1, keyPath: '', message: `${isJsonFile(file) ? 'JSON' : 'YAML'} error: ${(error as Error).message}` }]);
  }
  const contents = document.contents;
  if (data === null || data === undefined || data === '') {
    throw new ScenarioError([
      { file, line: 1, column: 1, keyPath: '', message: 'the file is empty; expected a scenario mapping with keys such as traffic, content and edge (see scenarios/baseline.yaml)' },
    ]);
  }
  if (!isMap(contents) || typeof data !== 'object' || Array.isArray(data)) {
    throw new ScenarioError([
      { file, ...at(contents?.range?.[0] ?? 0), keyPath: '', message: `expected a mapping of keys such as traffic, content and edge at the top level, found ${describe(data)}` },
    ]);
  }
  const raw = data as Record<string, unknown>;
  emptySectionsToDefaults(raw, []);
  const result = scenarioSchema.safeParse(raw);
  if (!result.success) {
    throw new ScenarioError(locateIssues(result.error.issues, document, raw, file, at));
  }
  const { $schema: _ignored, name, ...rest } = result.data;
  const scenario: Scenario = withTrafficModels({ name: name ?? nameFromFile(file), ...rest }, document, file, at);
  checkTopology(scenario, document, file, at);
  checkNodeCapacities(scenario, document, file, at);
  const bound = workBoundProblem(scenario);
  if (bound !== null) throw new ScenarioError([{ file, ...at(valueOffset(document, bound.keyPath)), keyPath: formatKeyPath(bound.keyPath), message: bound.message }]);
  return scenario;
}

/**
 * The classes' traffic models read now (docs/traffic-models.md), so `validate` finds what a
 * run would, at the class's `model` key: an unknown class name (with the shipped ones), a
 * folder that is not there, a file not in the format (its file and line). A folder is kept
 * absolute, resolved from the scenario file's folder.
 */
function withTrafficModels(scenario: Scenario, document: Document, file: string, at: (offset: number) => { line: number; column: number }): Scenario {
  const classes = scenario.content.classes;
  if (classes === undefined || classes.every((klass) => klass.traffic === undefined)) return scenario;
  const problems: ScenarioProblem[] = [];
  const resolved = classes.map((klass, i) => {
    const traffic = klass.traffic;
    if (traffic === undefined) return klass;
    const keyPath: PathKey[] = ['content', 'classes', i, 'model'];
    try {
      const model = loadTrafficModel(traffic.folder ?? traffic.model, dirname(file));
      descriptorFor(model, traffic.fidelity);
      const shipped = (SHIPPED_TRAFFIC_CLASSES as readonly string[]).includes(traffic.model);
      return shipped ? klass : { ...klass, traffic: { ...traffic, folder: model.folder } };
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      // An error that names its key within the class (the fidelity a model cannot give) is located there; any other at `model`.
      const path: PathKey[] = error.keyPath === undefined ? keyPath : ['content', 'classes', i, ...error.keyPath];
      problems.push({ file, ...at(valueOffset(document, path)), keyPath: formatKeyPath(path), message: error.message });
      return klass;
    }
  });
  if (problems.length > 0) throw new ScenarioError(problems);
  if (scenario.traffic.clients !== undefined) {
    const i = classes.findIndex((klass) => klass.traffic !== undefined);
    const path: PathKey[] = ['content', 'classes', i, 'model'];
    throw new ScenarioError([
      { file, ...at(valueOffset(document, path)), keyPath: formatKeyPath(path), message: 'expected no traffic.clients with a model class: a model gives whole-object requests per PoP, without browsers or variants (docs/traffic-models.md)' },
    ]);
  }
  return { ...scenario, content: { ...scenario.content, classes: resolved } };
}

/**
 * A PoP-model topology's references (PoP codes, regional sites, origins, a selection that
 * leaves no PoP) resolved now, so `validate` finds what a run would, at its key.
 */
function checkTopology(scenario: Scenario, document: Document, file: string, at: (offset: number) => { line: number; column: number }): void {
  if (scenario.topology.model !== 'pops') return;
  try {
    checkTopologyReferences(topologySpecOf(scenario.topology, scenario.traffic.regions));
  } catch (error) {
    if (!(error instanceof UserError) || error.keyPath === undefined) throw error;
    const path: PathKey[] = ['topology', ...error.keyPath];
    // The topology module names the field itself ("pops.count: …"); the located form says it once.
    const message = error.message.replace(/^[\w.[\]]+: /, '');
    throw new ScenarioError([{ file, ...at(valueOffset(document, path)), keyPath: formatKeyPath(path), message }]);
  }
}

/**
 * `edge.capacityByPop` and `regional.capacityBySite` name nodes of this topology (docs/plan.md):
 * an unknown code is refused at its key, with the nearest code; the regions model has no PoPs.
 */
function checkNodeCapacities(scenario: Scenario, document: Document, file: string, at: (offset: number) => { line: number; column: number }): void {
  const byPop = scenario.edge.capacityByPop;
  const bySite = scenario.regional.capacityBySite;
  if (byPop === undefined && bySite === undefined) return;
  const problems: ScenarioProblem[] = [];
  const located = (path: PathKey[], message: string) => problems.push({ file, ...at(valueOffset(document, path)), keyPath: formatKeyPath(path), message });
  if (scenario.topology.model !== 'pops') {
    if (byPop !== undefined) located(['edge', 'capacityByPop'], 'expected no capacityByPop under topology model: regions (its edges are regions, not PoPs); use edge.capacityByRegion');
    if (bySite !== undefined) located(['regional', 'capacityBySite'], 'expected no capacityBySite under topology model: regions (it has no regional tier)');
  } else {
    const { pops, regionalTier } = topologyNodes(topologySpecOf(scenario.topology, scenario.traffic.regions));
    for (const unknown of unknownNodes(byPop, pops, 'PoP')) located(['edge', 'capacityByPop', unknown.code], unknown.message);
    if (bySite !== undefined && regionalTier.length === 0) located(['regional', 'capacityBySite'], 'expected no capacityBySite with topology.regionalTier.enabled: false (there is no regional site to size)');
    else for (const unknown of unknownNodes(bySite, regionalTier, 'regional site')) located(['regional', 'capacityBySite', unknown.code], unknown.message);
  }
  if (problems.length > 0) throw new ScenarioError(problems);
}

/** The YAML library's words, except where they give advice meant for programmers. */
function syntaxErrorMessage(code: string, message: string, file: string): string {
  const kind = isJsonFile(file) ? 'JSON' : 'YAML';
  if (code === 'MULTIPLE_DOCS') return `${kind} error: a scenario file holds one document, and a second one starts here; remove the \`---\` line, or put each scenario in a file of its own`;
  if (/call stack/i.test(message)) return `${kind} error: nested too deeply to read (a scenario nests about six levels)`;
  return `${kind} syntax error: ${echoValue(message, 300)}`;
}

/**
 * A section written with nothing under it (`edge:` with every key commented out) is YAML
 * null; it means "the defaults", as an absent section does.
 */
function emptySectionsToDefaults(object: Record<string, unknown>, path: PathKey[]): void {
  for (const [key, value] of Object.entries(object)) {
    const childPath = [...path, key];
    if (value === null && knownKeys(childPath).length > 0) object[key] = {};
    else if (value !== null && typeof value === 'object' && !Array.isArray(value)) emptySectionsToDefaults(value as Record<string, unknown>, childPath);
  }
}

function isJsonFile(file: string): boolean {
  return extname(file).toLowerCase() === '.json';
}

function nameFromFile(file: string): string {
  const base = basename(file, extname(file)).replace(/[^A-Za-z0-9._-]+/g, '-');
  return base || 'scenario';
}

/** Sections of earlier scenario files that moved, and where they went. */
const MOVED_SECTIONS: Readonly<Record<string, string>> = {
  latency:
    'unknown key: the per-region edge latencies moved to `topology` with `model: regions` (`topology: { model: regions, clientToEdge: {…}, jitter: 0.35 }`); ' +
    'the default model, pops, takes its latency parameters from `topology.latency` (docs/topology.md)',
  origin:
    'unknown key: the fixed origin latency moved to `topology.originLatency` with `model: regions`; ' +
    'the default model, pops, places origins with `topology.origins` and draws their service time from `topology.latency.originService`',
};

function locateIssues(
  issues: readonly z.core.$ZodIssue[],
  document: Document,
  raw: unknown,
  file: string,
  at: (offset: number) => { line: number; column: number },
): ScenarioProblem[] {
  // A mistyped key also leaves its object incomplete (a region share total of 0 %, say);
  // the unknown key is the real mistake, so the follow-on issue at the same path is dropped.
  const unknownKeyPaths = new Set(issues.filter((issue) => issue.code === 'unrecognized_keys').map((issue) => issue.path.join('\u0000')));
  const problems: ScenarioProblem[] = [];
  for (const issue of issues) {
    const path = issue.path as PathKey[];
    if (issue.code === 'custom' && unknownKeyPaths.has(path.join('\u0000'))) continue;
    if (issue.code === 'unrecognized_keys') {
      const known = knownKeys(path);
      for (const key of issue.keys) {
        const moved = path.length === 0 && Object.hasOwn(MOVED_SECTIONS, key) ? MOVED_SECTIONS[key] : undefined;
        if (moved) {
          problems.push({ file, ...at(keyOffset(document, path, key)), keyPath: key, message: moved });
          continue;
        }
        const suggestion = nearest(key, known);
        problems.push({
          file,
          ...at(keyOffset(document, path, key)),
          keyPath: formatKeyPath([...path, key]),
          message: suggestion
            ? `unknown key — did you mean \`${suggestion}\`?`
            : `unknown key; expected one of ${known.map((k) => `\`${k}\``).join(', ')}`,
        });
      }
      continue;
    }
    if (issue.code === 'invalid_key') {
      // A record key that fails its own check (a header field name, say): point at the key.
      const key = path[path.length - 1];
      const inner = issue.issues[0]?.message ?? issue.message;
      problems.push({ file, ...at(keyOffset(document, path.slice(0, -1), String(key))), keyPath: formatKeyPath(path), message: `${inner}, found ${describe(String(key))}` });
      continue;
    }
    const value = valueAt(raw, path);
    problems.push({ file, ...at(valueOffset(document, path)), keyPath: formatKeyPath(path), message: describeIssue(issue, value, path) });
  }
  problems.sort((a, b) => a.line - b.line || a.column - b.column);
  // One mistake can fail two checks with the same words (an integer beyond 2^53 is both
  // "not safe" and "too big"); say it once.
  return problems.filter((problem, i) => i === 0 || formatProblem(problem) !== formatProblem(problems[i - 1]));
}

function describeIssue(issue: z.core.$ZodIssue, value: unknown, path: readonly PathKey[]): string {
  const found = value === undefined ? 'nothing' : describe(value);
  switch (issue.code) {
    case 'invalid_type': {
      if (value === undefined) return `missing; expected ${expectedType(issue.expected, path)}`;
      return `expected ${expectedType(issue.expected, path)}, found ${found}`;
    }
    case 'too_small': {
      const bound = Number(issue.minimum);
      if (issue.origin === 'array' || issue.origin === 'string') return `expected ${sizeWords(issue.origin as 'array' | 'string', issue.exact ? 'exactly' : 'at least', bound)}, found ${foundSize(value)}`;
      return `expected a number ${issue.inclusive ? '≥' : '>'} ${bound}, found ${found}`;
    }
    case 'too_big': {
      const bound = Number(issue.maximum);
      if (issue.origin === 'array' || issue.origin === 'string') return `expected ${sizeWords(issue.origin as 'array' | 'string', issue.exact ? 'exactly' : 'at most', bound)}, found ${foundSize(value)}`;
      return `expected a number ${issue.inclusive ? '≤' : '<'} ${bound}, found ${found}`;
    }
    case 'invalid_value': {
      const options = issue.values.map((v) => JSON.stringify(v));
      const suggestion = typeof value === 'string' ? nearest(value, issue.values.map(String)) : undefined;
      return `expected one of ${options.join(', ')}, found ${found}${suggestion ? ` — did you mean "${suggestion}"?` : ''}`;
    }
    default: {
      // Our own messages ("expected a size such as …") and zod's format checks.
      const message = issue.message.startsWith('expected') ? issue.message : `expected ${issue.message.replace(/^Invalid input: /, '')}`;
      // Messages about a whole mapping say what they found themselves ("a total of 80 %").
      return /\bfound\b/.test(message) ? message : `${message}, found ${found}`;
    }
  }
}

function sizeWords(origin: 'array' | 'string', how: string, bound: number): string {
  return origin === 'array' ? `a list of ${how} ${bound} item${bound === 1 ? '' : 's'}` : `${how} ${bound} character${bound === 1 ? '' : 's'}`;
}

function foundSize(value: unknown): string {
  if (Array.isArray(value)) return `a list of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (typeof value === 'string') return `${value.length} character${value.length === 1 ? '' : 's'}`;
  return describe(value);
}

function expectedType(expected: string, path: readonly PathKey[]): string {
  if (expected === 'object') {
    const keys = knownKeys(path);
    return keys.length > 0 ? `a mapping with keys such as ${keys.slice(0, 4).join(', ')}` : 'a mapping';
  }
  if (expected === 'int') return 'a whole number';
  if (expected === 'number') return 'a number';
  if (expected === 'string') return 'a string';
  if (expected === 'boolean') return 'true or false';
  if (expected === 'array') return 'a list';
  return expected;
}

/** A short description of a value as the user wrote it. */
export function describe(value: unknown): string {
  if (value === null) return 'nothing (null)';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return JSON.stringify(echoValue(value));
  return echoValue(String(value));
}

function valueAt(raw: unknown, path: readonly PathKey[]): unknown {
  let current: unknown = raw;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key as string];
  }
  return current;
}

/**
 * Where to point for a problem at `path`: a scalar value itself; a mapping or list by its
 * key (`regions:`), since a block collection starts at its first child; for a missing
 * key, its deepest existing ancestor.
 */
function valueOffset(document: Document, path: readonly PathKey[]): number {
  const node = path.length === 0 ? document.contents : document.getIn(path, true);
  if (path.length > 0 && (isMap(node) || isSeq(node))) {
    const parent = path.length === 1 ? document.contents : document.getIn(path.slice(0, -1), true);
    if (isMap(parent)) {
      const pair = parent.items.find((item) => isScalar(item.key) && item.key.value === path[path.length - 1]);
      if (pair && isScalar(pair.key) && pair.key.range) return pair.key.range[0];
    }
  }
  for (let depth = path.length; depth >= 0; depth--) {
    const node = depth === 0 ? document.contents : (document.getIn(path.slice(0, depth), true) as YamlNode | undefined);
    if (node && typeof node === 'object' && 'range' in node && node.range) {
      if (depth < path.length && isMap(node)) {
        const missingKey = path[depth];
        const pair = node.items.find((item) => isScalar(item.key) && item.key.value === missingKey);
        if (pair && isScalar(pair.key) && pair.key.range) return pair.key.range[0];
      }
      return node.range[0];
    }
  }
  return 0;
}

function keyOffset(document: Document, path: readonly PathKey[], key: string): number {
  const parent = path.length === 0 ? document.contents : document.getIn(path, true);
  if (isMap(parent)) {
    const pair = parent.items.find((item) => isScalar(item.key) && String(item.key.value) === key);
    if (pair && isScalar(pair.key) && pair.key.range) return pair.key.range[0];
  }
  return valueOffset(document, path);
}

/** The keys the schema allows at a path of nested objects. */
export function knownKeys(path: readonly PathKey[]): string[] {
  let schemas: z.ZodType[] = [scenarioSchema];
  for (const key of path) {
    schemas = schemas.flatMap((schema) => childSchemas(schema, key));
    if (schemas.length === 0) return [];
  }
  const keys = schemas.flatMap((schema) => objectOptions(schema).flatMap((object) => Object.keys(object.shape)));
  return [...new Set(keys)].filter((key) => key !== '$schema');
}

/** The schemas a key (or list index) of a value of `schema` is checked against. */
function childSchemas(schema: z.ZodType, key: PathKey): z.ZodType[] {
  const unwrapped = unwrapSchema(schema);
  if (typeof key === 'number') return unwrapped instanceof z.ZodArray ? [unwrapped.element as z.ZodType] : [];
  return objectOptions(schema).flatMap((object) => {
    const child = (object.shape as Record<string, z.ZodType | undefined>)[key];
    return child ? [child] : [];
  });
}

/** The object schemas a value may match: the object itself, or the object options of a union (`diurnal: off | {…}`). */
function objectOptions(schema: z.ZodType): z.ZodObject[] {
  const unwrapped = unwrapSchema(schema);
  if (unwrapped instanceof z.ZodObject) return [unwrapped];
  if (unwrapped instanceof z.ZodUnion) return (unwrapped.options as z.ZodType[]).flatMap(objectOptions);
  return [];
}

function unwrapSchema(schema: z.ZodType | undefined): z.ZodType | undefined {
  let current = schema;
  for (let guard = 0; guard < 16 && current; guard++) {
    if (current instanceof z.ZodDefault || current instanceof z.ZodPrefault || current instanceof z.ZodOptional || current instanceof z.ZodNullable) {
      current = current.unwrap() as z.ZodType;
    } else if (current instanceof z.ZodPipe) {
      current = current.in as z.ZodType;
    } else {
      return current;
    }
  }
  return current;
}
