import { z } from 'zod';
import { quantityExpectations } from '../quantitySchema.js';
import { scenarioSchema } from '../scenario/schema.js';
import { COUNT_EXPECTED, DURATION_EXPECTED, FRACTION_EXPECTED, RATE_EXPECTED, SIZE_EXPECTED } from '../units.js';

/**
 * docs/scenario-keys.md, generated from the scenario schema itself (src/scenario/schema.ts and
 * the sections it imports), so the reference cannot lag the keys a run accepts: every key
 * path with its type, default, unit and description. `npm run docs:generate` writes it;
 * test/docs/generatedReferences.test.ts fails while the committed page differs.
 *
 * It reads zod's own definitions (`_zod.def`) rather than the JSON Schema, because the JSON
 * Schema of the written form drops the defaults of quantities (they are given after the
 * unit conversion) and knows no units.
 */

/** One row of the reference: a key path as written in a scenario file. */
export interface ScenarioKeyRow {
  readonly path: string;
  readonly type: string;
  readonly defaultValue: string;
  readonly unit: string;
  readonly description: string;
}

/** The zod 4 definition fields this walk reads; zod types `_zod.def` per schema kind. */
interface SchemaDef {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly innerType?: z.ZodType;
  readonly defaultValue?: unknown;
  readonly in?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly element?: z.ZodType;
  readonly valueType?: z.ZodType;
  readonly entries?: Record<string, string | number>;
  readonly values?: readonly unknown[];
  readonly getter?: () => z.ZodType;
}

function defOf(schema: z.ZodType): SchemaDef {
  return (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;
}

/** Wrappers that add a default or optionality but no shape of their own. */
const WRAPPERS = new Set(['optional', 'default', 'prefault', 'nullable', 'readonly', 'catch', 'nonoptional']);

/** The unit a quantity's `expected` wording stands for, and how its base-unit default reads. */
const UNITS: ReadonlyArray<{ expected: string; unit: string; format: (value: number) => string }> = [
  { expected: SIZE_EXPECTED, unit: 'size', format: formatSizeExact },
  { expected: DURATION_EXPECTED, unit: 'duration', format: formatDurationExact },
  { expected: RATE_EXPECTED, unit: 'rate', format: (perSecond) => `${formatCountExact(perSecond)}/s` },
  { expected: COUNT_EXPECTED, unit: 'count', format: formatCountExact },
  { expected: FRACTION_EXPECTED, unit: 'share', format: (share) => `${+(share * 100).toFixed(6)}%` },
];

function formatSizeExact(bytes: number): string {
  for (const [suffix, factor] of [['TB', 1e12], ['GB', 1e9], ['MB', 1e6], ['KB', 1e3]] as const) {
    if (bytes >= factor && bytes % factor === 0) return `${bytes / factor}${suffix}`;
  }
  return `${bytes}B`;
}

function formatDurationExact(ms: number): string {
  for (const [suffix, factor] of [['d', 86_400_000], ['h', 3_600_000], ['m', 60_000], ['s', 1_000]] as const) {
    if (ms >= factor && ms % factor === 0) return `${ms / factor}${suffix}`;
  }
  return `${ms}ms`;
}

function formatCountExact(count: number): string {
  for (const [suffix, factor] of [['M', 1e6], ['k', 1e3]] as const) {
    if (count >= factor && count % factor === 0) return `${count / factor}${suffix}`;
  }
  return String(count);
}

function descriptionOf(schema: z.ZodType): string | undefined {
  const description = z.globalRegistry.get(schema)?.description;
  return typeof description === 'string' ? description : undefined;
}

/**
 * The written value of a default: in the quantity's unit when it is one, a plain value as
 * written, a list of plain values as JSON. Object defaults are the schema's resolved form (not
 * what a file would say), so they are left to the rows of their keys; so is a number for a
 * key written as a string (a date, resolved to ms).
 */
function formatDefault(value: unknown, format: ((value: number) => string) | undefined, type: string): string {
  if (typeof value === 'number') return format ? format(value) : type.includes('number') ? String(value) : '';
  if (typeof value === 'string' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item !== 'object')) return JSON.stringify(value);
  return '';
}

/** Peels wrappers off a key's schema, collecting its description and default on the way. */
function unwrap(schema: z.ZodType): { core: z.ZodType; description?: string; defaultValue?: unknown; optional: boolean } {
  let core = schema;
  let description = descriptionOf(schema);
  let defaultValue: unknown;
  let optional = false;
  for (;;) {
    const def = defOf(core);
    if (WRAPPERS.has(def.type) && def.innerType) {
      if ((def.type === 'default' || def.type === 'prefault') && defaultValue === undefined) defaultValue = def.defaultValue;
      if (def.type === 'optional') optional = true;
      core = def.innerType;
    } else if (def.type === 'lazy' && def.getter) {
      core = def.getter();
    } else break;
    description ??= descriptionOf(core);
  }
  return { core, description, defaultValue, optional };
}

/** The shape a value takes as written: an object, a list, a quantity, or a plain type. */
function typeName(schema: z.ZodType): string {
  const { core } = unwrap(schema);
  const def = defOf(core);
  if (quantityExpectations.get(core)) return 'quantity';
  switch (def.type) {
    case 'pipe':
      return def.in ? typeName(def.in) : 'value';
    case 'object':
      return 'object';
    case 'record':
      return 'map';
    case 'array':
      return def.element ? `list of ${typeName(def.element)}` : 'list';
    case 'enum':
      return `one of ${Object.values(def.entries ?? {}).map((value) => `\`${value}\``).join(', ')}`;
    case 'literal':
      return (def.values ?? []).map((value) => `\`${JSON.stringify(value)}\``).join(' or ');
    case 'union':
      return [...new Set((def.options ?? []).map(typeName))].join(' or ');
    default:
      return def.type;
  }
}

/** The literal `kind` that names one option of a discriminated union (incidents), if any. */
function kindOf(objectSchema: z.ZodType): string | undefined {
  const shape = defOf(objectSchema).shape;
  const kind = shape?.kind ? defOf(unwrap(shape.kind).core) : undefined;
  return kind?.type === 'literal' && kind.values?.length === 1 ? String(kind.values[0]) : undefined;
}

/** Every object a value may be written as (through pipes, unions and lists), with the path suffix for it. */
function objectsWithin(schema: z.ZodType, suffix: string): Array<{ object: z.ZodType; suffix: string }> {
  const { core } = unwrap(schema);
  const def = defOf(core);
  if (quantityExpectations.get(core)) return [];
  switch (def.type) {
    case 'object':
      return [{ object: core, suffix }];
    case 'pipe':
      return def.in ? objectsWithin(def.in, suffix) : [];
    case 'array':
      return def.element ? objectsWithin(def.element, `${suffix}[]`) : [];
    case 'record':
      return def.valueType ? objectsWithin(def.valueType, `${suffix}.<name>`) : [];
    case 'union': {
      const found = (def.options ?? []).flatMap((option) => objectsWithin(option, suffix));
      return found.map((entry) => {
        const kind = found.length > 1 ? kindOf(entry.object) : undefined;
        return kind ? { object: entry.object, suffix: `${entry.suffix}(kind: ${kind})` } : entry;
      });
    }
    default:
      return [];
  }
}

function rowsOf(objectSchema: z.ZodType, prefix: string, rows: ScenarioKeyRow[]): void {
  const shape = defOf(objectSchema).shape ?? {};
  for (const [key, value] of Object.entries(shape)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    const { core, description, defaultValue } = unwrap(value);
    const expected = quantityExpectations.get(core)?.expected;
    const unit = expected === undefined ? undefined : UNITS.find((entry) => entry.expected === expected);
    const type = typeName(value);
    rows.push({
      path,
      type,
      defaultValue: formatDefault(defaultValue, unit?.format, type),
      unit: expected === undefined ? '' : (unit?.unit ?? expected.replace(/^an? /, '')),
      description: description ?? '',
    });
    for (const inner of objectsWithin(value, '')) rowsOf(inner.object, `${path}${inner.suffix}`, rows);
  }
}

/** Every key of a scenario file, in the schema's order, nested keys after their parent. */
export function scenarioKeyRows(): ScenarioKeyRow[] {
  const rows: ScenarioKeyRow[] = [];
  for (const top of objectsWithin(scenarioSchema, '')) rowsOf(top.object, '', rows);
  return rows;
}

function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
}

/** docs/scenario-keys.md as `npm run docs:generate` writes it. */
export function scenarioKeysPage(): string {
  const rows = scenarioKeyRows();
  const lines = [
    '# Scenario keys',
    '',
    '<!-- Generated by `npm run docs:generate` from the scenario schema (src/scenario/schema.ts); do not edit by hand:',
    '     test/docs/generatedReferences.test.ts fails while this page differs from the schema. -->',
    '',
    'Every key a scenario file (YAML or JSON) accepts, generated from the schema `cdnsim validate` and',
    '`cdnsim run` read, so it cannot lag them. Every key is optional; an unknown key is an error that',
    'suggests the nearest one. A default is given in the key\'s unit; an empty default means the key is',
    'absent unless set (its description says what happens then). Quantities are written with units',
    '(`5MB`, `250ms`, `20k/s`, `35%`) or as plain numbers in the base unit (bytes, per second, a',
    'fraction); a duration needs its unit. `list of object` keys continue with `[]` rows, maps with',
    '`<name>` rows, and the incident kinds with `(kind: …)` rows. What the keys mean together, with',
    'examples: [scenarios.md](scenarios.md). The JSON Schema for editors: `cdnsim schema`',
    '(schemas/scenario.schema.json).',
    '',
    `${rows.length} keys.`,
    '',
    '| key | type | default | unit | description |',
    '|---|---|---|---|---|',
    ...rows.map((row) => `| \`${cell(row.path)}\` | ${cell(row.type)} | ${row.defaultValue === '' ? '' : `\`${cell(row.defaultValue)}\``} | ${cell(row.unit)} | ${cell(row.description)} |`),
    '',
  ];
  return lines.join('\n');
}
