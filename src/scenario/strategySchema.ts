import { z } from 'zod';
import { HEADER_PROFILES } from '../policy/profiles.js';
import { nearest } from '../suggest.js';
import { DURATION_EXPECTED, parseDuration } from '../units.js';
import { queryHandlingInput } from '../policy/queryHandling.js';
import { queryHandlingSchema } from '../workload/content/querySchema.js';
import { adaptiveClassProblems, adaptiveTtlSchema, adaptiveTtlToInput, DEFAULT_ADAPTIVE_TTL } from './adaptiveSchema.js';

/**
 * The scenario's `strategies` list: the TTL strategies `cdnsim compare` runs on the
 * scenario's traffic, in order. An entry is a preset name (below) or a custom strategy: a
 * preset to start from and overrides of the origin's headers and of the cache key's query
 * handling per content class, and of what deploys do to cached content. The transformations themselves live in
 * src/experiment/strategies.ts; this module only names and checks them.
 *
 * ```yaml
 * strategies:
 *   - respect-headers
 *   - fixed:1h
 *   - name: short-html
 *     from: swr
 *     classes:
 *       html: { fields: { CDN-Cache-Control: "max-age=30" }, query: strip-tracking }
 *       "*": { remove: [Expires] }
 *     purgeOnDeploy: true
 *   - name: adaptive-from-1m
 *     from: fixed:1m
 *     adaptive: { target: 90%, maxStaleShare: 10% }
 * ```
 */

/** The named presets, each with the spec section it comes from (docs/ttl-strategies.md). */
export const STRATEGY_PRESETS = {
  'respect-headers': 'spec 4.1: the origin\'s headers as the scenario sends them',
  'framework-defaults': 'spec 4.3: every class gets the framework profile its path selects',
  guidance: 'spec 8.1: every class gets the author-guidance row that fits it',
  swr: 'spec 8.1 row 2, RFC 5861: stale-while-revalidate=86400 added to every cacheable class',
  'no-swr': 'RFC 5861: stale-while-revalidate removed from every class',
  'purge-on-deploy': 'spec 1.2 item 6: every deploy purges the classes it touches',
  'versioned-assets': 'spec 8.1 row 1: hashed asset URLs change with each deploy, nothing is purged',
  'cdn-off': 'spec 1.3: a container deployment with the CDN disabled',
  adaptive: 'spec 1.2 item 6: the origin\'s headers, and a controller that raises a class\'s CDN TTL while its hit ratio is below 90 %, within a staleness budget, and leaves its tracking parameters out of its key',
} as const;

export type StrategyPresetName = keyof typeof STRATEGY_PRESETS;
export const STRATEGY_PRESET_NAMES = Object.keys(STRATEGY_PRESETS) as StrategyPresetName[];

/** The parametrised preset `fixed:<duration>`: every cacheable response gets this TTL at the CDN layers. */
export const FIXED_PREFIX = 'fixed:';

/** A strategy preset reference, resolved: a named preset, or `fixed` with its TTL in ms. */
export type PresetReference = { kind: 'preset'; name: StrategyPresetName } | { kind: 'fixed'; ttlMs: number };

/**
 * Reads `respect-headers`, `fixed:1h`, …: the reference, or what was expected (with a
 * suggestion for a mistyped name).
 */
export function parsePresetReference(text: string): { ok: true; reference: PresetReference } | { ok: false; message: string } {
  if (text.startsWith(FIXED_PREFIX)) {
    const parsed = parseDuration(text.slice(FIXED_PREFIX.length));
    if (!parsed.ok || parsed.value <= 0) return { ok: false, message: `expected fixed:<duration> with ${DURATION_EXPECTED} above 0, found "${text}"` };
    // Whole seconds: CDN-Cache-Control's max-age is delta-seconds (RFC 9213 §2.1, RFC 9111 §1.2.2).
    if (parsed.value % 1000 !== 0) return { ok: false, message: `expected fixed:<duration> in whole seconds (max-age is in seconds), found "${text}"` };
    return { ok: true, reference: { kind: 'fixed', ttlMs: parsed.value } };
  }
  if ((STRATEGY_PRESET_NAMES as string[]).includes(text)) return { ok: true, reference: { kind: 'preset', name: text as StrategyPresetName } };
  const suggestion = nearest(text, [...STRATEGY_PRESET_NAMES, 'fixed:1h']);
  return {
    ok: false,
    message: `expected a strategy preset (${STRATEGY_PRESET_NAMES.join(', ')} or fixed:<duration> such as fixed:1h), found "${text}"${suggestion ? ` — did you mean "${suggestion}"?` : ''}`,
  };
}

const presetName = z.string({ error: 'expected a strategy preset name such as respect-headers or fixed:1h' }).superRefine((text, ctx) => {
  const parsed = parsePresetReference(text);
  if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.message });
});

const HEADER_FIELD_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const classOverride = z
  .strictObject({
    profile: z.enum([...HEADER_PROFILES.keys()] as [string, ...string[]]).optional().meta({ description: 'a named header profile replacing the class\'s headers (its fields below still apply)' }),
    fields: z
      .record(z.string().regex(HEADER_FIELD_NAME, { error: 'expected a header field name such as Cache-Control' }), z.string())
      .default({})
      .meta({ description: 'response header fields that replace the same fields, e.g. {Cache-Control: "public, max-age=600", CDN-Cache-Control: "max-age=3600"}' }),
    remove: z
      .array(z.string().regex(HEADER_FIELD_NAME, { error: 'expected a header field name such as Expires' }))
      .default([])
      .meta({ description: 'response header fields the origin stops sending' }),
    query: queryHandlingSchema
      .optional()
      .meta({ description: 'how the cache key treats the class\'s query strings (its `queries`): keep (spec 4.3.1), strip-tracking, or {ignore: [names]}' }),
  })
  .meta({ description: 'what the origin sends for one content class under this strategy, and how the CDN keys its query strings' });

export type StrategyClassOverride = z.output<typeof classOverride>;

/** Key of `classes` that applies to every class (before a class's own entry). */
export const EVERY_CLASS = '*';

const customStrategy = z
  .strictObject({
    name: z
      .string()
      .regex(/^[A-Za-z0-9._-]+$/, { error: 'expected a strategy name of letters, digits, ".", "_" or "-"' })
      .refine((name) => !name.startsWith(FIXED_PREFIX) && !(STRATEGY_PRESET_NAMES as string[]).includes(name), { error: 'expected a name of its own, not a preset\'s' })
      .meta({ description: 'names the strategy in tables and files' }),
    description: z.string().optional(),
    from: presetName.default('respect-headers').meta({ description: 'the preset the overrides apply to (default respect-headers)' }),
    classes: z.record(z.string(), classOverride).default({}).meta({ description: 'per content class name (`objects` without content.classes; "*" for every class): header overrides' }),
    purgeOnDeploy: z.boolean({ error: 'expected true or false' }).optional().meta({ description: 'whether deploys purge the classes they touch (spec 1.2 item 6); left out: as the scenario\'s incidents say' }),
    adaptive: z
      .union([z.literal(true).transform(() => DEFAULT_ADAPTIVE_TTL), adaptiveTtlSchema], { error: 'expected true (the defaults) or the controller\'s parameters {window, target, factor, maxTtl, maxStaleShare, startTtl, minRequests, classes}' })
      .optional()
      .meta({ description: 'spec 1.2 item 6: run the adaptive TTL controller with these parameters (true: the defaults; docs/ttl-strategies.md)' }),
  })
  .meta({ description: 'a custom TTL strategy: a preset and overrides' });

export type CustomStrategy = z.output<typeof customStrategy>;
export type StrategyEntry = string | CustomStrategy;

export const strategiesSchema = z
  .array(z.union([presetName, customStrategy], { error: 'expected a strategy preset name (respect-headers, fixed:1h, …) or a mapping {name, from?, classes?, purgeOnDeploy?}' }))
  .min(1, { error: 'expected at least one strategy' })
  .superRefine((entries, ctx) => {
    const seen = new Set<string>();
    entries.forEach((entry, index) => {
      const name = strategyName(entry);
      if (seen.has(name)) ctx.addIssue({ code: 'custom', path: [index], message: `expected each strategy once, found "${name}" again` });
      seen.add(name);
    });
  })
  .meta({ description: 'TTL strategies `cdnsim compare` runs on identical traffic (presets: respect-headers, framework-defaults, guidance, fixed:<duration>, swr, no-swr, purge-on-deploy, versioned-assets, cdn-off, adaptive; or custom)' });

/** The strategies written back as scenario input (serialize.ts): a query handling and the adaptive controller's parameters in their YAML form. */
export function strategiesToInput(entries: readonly StrategyEntry[]): z.input<typeof strategiesSchema> {
  return entries.map((entry) => {
    if (typeof entry === 'string') return entry;
    const classes = Object.fromEntries(
      Object.entries(entry.classes).map(([name, { query, ...override }]) => [
        name,
        { ...structuredClone(override), ...(query === undefined ? {} : { query: queryHandlingInput(query) }) },
      ]),
    );
    const { adaptive, ...rest } = entry;
    return { ...structuredClone({ ...rest, classes: {} }), classes, ...(adaptive === undefined ? {} : { adaptive: adaptiveTtlToInput(adaptive) }) };
  });
}

export function strategyName(entry: StrategyEntry): string {
  return typeof entry === 'string' ? entry : entry.name;
}

/** Strategies compared when a scenario lists none. */
export const DEFAULT_STRATEGIES: readonly string[] = ['respect-headers', 'guidance', 'fixed:1h', 'swr'];

/**
 * Problems with the class names of custom strategies, against the scenario's classes:
 * each at its key path under `strategies`.
 */
export function strategyClassProblems(
  entries: readonly StrategyEntry[],
  classNames: readonly string[],
  classesWithQueries: readonly string[] = [],
): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  entries.forEach((entry, index) => {
    if (typeof entry === 'string') return;
    for (const [name, override] of Object.entries(entry.classes)) {
      if (override.query !== undefined && !classesWithQueries.includes(name) && (name !== EVERY_CLASS || classesWithQueries.length === 0)) {
        problems.push({
          path: [index, 'classes', name, 'query'],
          message:
            classesWithQueries.length === 0
              ? 'expected a class with query strings (`queries` under content.classes), found none in this scenario: `query` would change nothing'
              : `expected a class with query strings (${classesWithQueries.join(', ')}), found "${name}", whose requests carry none: add \`queries\` to the class or leave \`query\` out`,
        });
      }
      if (name === EVERY_CLASS || classNames.includes(name)) continue;
      const suggestion = nearest(name, classNames);
      problems.push({
        path: [index, 'classes', name],
        message: `expected a content class of this scenario (${classNames.join(', ')}) or "*", found "${name}"${suggestion ? ` — did you mean "${suggestion}"?` : ''}`,
      });
    }
    if (entry.adaptive !== undefined) {
      for (const problem of adaptiveClassProblems(entry.adaptive, classNames)) problems.push({ path: [index, 'adaptive', ...problem.path], message: problem.message });
    }
  });
  return problems;
}
