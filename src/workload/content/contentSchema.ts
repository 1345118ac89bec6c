import { z } from 'zod';
import { quantity } from '../../quantitySchema.js';
import { HEADER_PROFILES } from '../../policy/profiles.js';
import { nearest } from '../../suggest.js';
import { COUNT_EXPECTED, FRACTION_EXPECTED, SIZE_EXPECTED, parseCount, parseFraction, parseRate, parseSize, type Parsed } from '../../units.js';
import {
  AUTO_PROFILE,
  CONTENT_PRESETS,
  CONTENT_PRESET_NAMES,
  NEW_OBJECT_ENTRIES,
  classFromPreset,
  parsePathPattern,
  patternUsesExtension,
  type ContentClass,
  type ContentPresetName,
} from './contentClasses.js';
import { MAX_CONTENT_CLASSES } from './classCatalogue.js';
import { querySpecSchema } from './querySchema.js';
import { DEFAULT_SHARING, DEFAULT_SHARING_WINDOW, MAX_SHARING_WINDOW } from '../trafficModels/modelTraffic.js';
import { DEFAULT_FIDELITY, SHIPPED_TRAFFIC_CLASSES } from '../trafficModels/trafficModel.js';

/**
 * The `content.classes` section of a scenario: a list of content classes, each naming a
 * preset (contentClasses.ts; by default the preset of its own name) and overriding any of
 * its fields. Resolved to `ContentClass[]`: every default filled, every quantity in base
 * units (bytes, per second, fractions). Messages start with "expected" and say what they
 * found, as the scenario loader prints them.
 *
 * Without `classes` (see `contentSchema`) a scenario gets DEFAULT_CLASS_MIX, every preset
 * once with its default share.
 */

/** Largest total of initial objects over all classes (as the one-class catalogue's limit). */
export const MAX_CLASS_CATALOGUE_OBJECTS = 20_000_000;

const RATE_OR_ZERO_EXPECTED = 'a rate such as 50/h, 2/min, 0.5/s or 0';

/** parseRate, and 0 (in any unit) for "no churn". */
function parseRateOrZero(input: unknown): Parsed {
  if (input === 0) return { ok: true, value: 0 };
  if (typeof input === 'string' && /^(?:0+(?:\.0*)?|\.0+)\s*(?:\/\s*[a-zA-Z]+)?$/.test(input.trim())) return { ok: true, value: 0 };
  const parsed = parseRate(input);
  return parsed.ok ? parsed : { ok: false, expected: RATE_OR_ZERO_EXPECTED };
}

const size = (description: string) => quantity(parseSize, SIZE_EXPECTED, description);
const fraction = (description: string) => quantity(parseFraction, FRACTION_EXPECTED, description);
const rateOrZero = (description: string) => quantity(parseRateOrZero, RATE_OR_ZERO_EXPECTED, description);

const HEADER_PROFILE_CHOICES = [AUTO_PROFILE, ...HEADER_PROFILES.keys()] as [string, ...string[]];

const sizeOverride = z
  .strictObject({
    median: size('median object size').optional(),
    sigma: z.number().min(0).max(5).optional().meta({ description: 'sigma of the lognormal size distribution (0: every object has the median size)' }),
    min: size('smallest object size (smaller draws are raised to it)').optional(),
    max: size('largest object size (larger draws are cut to it)').optional(),
  })
  .meta({ description: 'object sizes: a lognormal clamped to [min, max]; fields left out keep the preset\'s' });

const fileTypeEntry = z
  .strictObject({
    extension: z
      .string()
      .regex(/^[A-Za-z0-9]*$/, { error: 'expected an extension of letters and digits without the dot, such as webp' })
      .meta({ description: 'file extension for {ext} in the path, without the dot; "" when the path has no {ext}' }),
    mimeType: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$/, { error: 'expected a MIME type such as image/webp' })
      .meta({ description: 'Content-Type the origin sends for this file type (spec 4.2: text/html, application/json, application/xml are not cached by default)' }),
    weight: z.number().positive().default(1).meta({ description: 'relative share of the class\'s objects with this file type' }),
  })
  .meta({ description: 'one file type of the class' });

const headersEntry = z
  .strictObject({
    profile: z.enum(HEADER_PROFILE_CHOICES).default(AUTO_PROFILE).meta({
      description: 'auto: the profile the deployment kind gives this class (spec 4.3 by path, spec 8.1 for static sites, spec 8.2 for containers); or a named profile',
    }),
    fields: z
      .record(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, { error: 'expected a header field name such as Cache-Control' }), z.string())
      .default({})
      .meta({ description: 'response header fields that replace the same fields of the profile, e.g. {Cache-Control: "public, max-age=600"}' }),
  })
  .meta({ description: 'the response headers the origin sends for this class' });

const updatesOverride = z
  .strictObject({
    rate: rateOrZero('objects updated per unit of time (each update picks one of the class\'s objects uniformly)').optional(),
    newUrl: z.boolean().optional().meta({ description: 'true: an update publishes a new URL (hashed names) and the old one is never requested again; false: same URL, next version' }),
    onDeploy: fraction('share of the class\'s objects each deploy that touches the class updates (new URLs with newUrl: true, else new versions at the same URLs); left out: the deploy gives every object a new version at its same URL').optional(),
  })
  .meta({ description: 'content updates: new versions at the origin' });

const churnOverride = z
  .strictObject({
    newObjects: rateOrZero('new objects appearing per unit of time, such as 50/h').optional(),
    oneHitWonderShare: fraction('share of new objects requested exactly once').optional(),
    entry: z.enum(NEW_OBJECT_ENTRIES).optional().meta({
      description: 'top: a new object takes rank 1 and older ones move down (popularity decays with age); drawn: it replaces the object at a rank drawn from the class\'s Zipf law',
    }),
    updates: updatesOverride.optional(),
  })
  .meta({ description: 'churn: new objects over time and content updates; fields left out keep the preset\'s' });

/** One class as written in a scenario: a name, optionally a preset, and overrides. */
export const contentClassEntrySchema = z
  .strictObject({
    name: z
      .string()
      .regex(/^[A-Za-z0-9._-]+$/, { error: 'expected a class name of letters, digits, ".", "_" or "-"' })
      .meta({ description: 'class name (reports, random streams); also the preset when `preset` is left out' }),
    preset: z.string().optional().meta({ description: `preset the class starts from: ${CONTENT_PRESET_NAMES.join(', ')}` }),
    share: fraction('share of client requests for this class; the shares of all classes add up to 100% (a class alone: 100%)').optional(),
    objects: quantity(parseCount, COUNT_EXPECTED, 'objects in the class at the start of the run')
      .refine((n) => n >= 1, { error: 'expected at least 1 object' })
      .optional(),
    zipfExponent: z.number().min(0).max(5).optional().meta({ description: 'Zipf popularity exponent within the class (web traffic: about 0.64–0.83, Breslau et al. 1999)' }),
    size: sizeOverride.optional(),
    path: z.string().optional().meta({ description: 'URL path pattern; placeholders {framework} {hash} {id} {slug} {ext}, e.g. /images/{id}.{ext}' }),
    fileTypes: z.array(fileTypeEntry).min(1).max(255).optional().meta({ description: 'the file types (extension, MIME type, weight) of the class\'s objects' }),
    rendering: z.enum(['server', 'static']).optional().meta({ description: 'how a full-stack framework renders these pages (spec 4.3: server-side rendered or static)' }),
    rangeRequests: z.boolean().optional().meta({ description: 'clients fetch byte ranges, as media players do (spec 4.8)' }),
    headers: headersEntry.optional(),
    churn: churnOverride.optional(),
    queries: querySpecSchema.optional(),
    model: z
      .string()
      .min(1)
      .optional()
      .meta({
        description: `traffic model the class's requests come from, generated per PoP (docs/traffic-models.md): ${SHIPPED_TRAFFIC_CLASSES.join(', ')}, or a folder of footprint-descriptor files relative to the scenario; objects and sizes then come from the model`,
      }),
    fidelity: z.enum(['fd', 'bfd']).optional().meta({ description: `with model: the curve the stream reproduces, fd the request hit-rate curve, bfd the byte one (default ${DEFAULT_FIDELITY})` }),
    sharing: fraction(`with model: probability that a PoP's new object is one already requested at other PoPs, drawn by how often it was (default ${DEFAULT_SHARING * 100}%)`)
      .optional(),
    sharingWindow: quantity(parseCount, COUNT_EXPECTED, `with model: the class's last requests across the CDN a shared new object is drawn from (default ${DEFAULT_SHARING_WINDOW.toLocaleString('en-US')})`)
      .refine((requests) => requests >= 1 && requests <= MAX_SHARING_WINDOW, { error: `expected a window of 1 to ${MAX_SHARING_WINDOW.toLocaleString('en-US')} requests (4 bytes each in memory)` })
      .optional(),
    depthCap: size("with model: deepest byte of a PoP's LRU stack (memory); deeper reuses become new objects (default the PoP's edge capacity, or twice its demand share of its regional site's capacity when larger)")
      .refine((bytes) => bytes >= 1, { error: 'expected a depth cap of at least 1 B' })
      .optional(),
  })
  .meta({ description: 'one content class: a preset and the fields that differ from it' });

export type ContentClassInput = z.input<typeof contentClassEntrySchema>;
type ContentClassEntry = z.output<typeof contentClassEntrySchema>;

type Issue = { path: (string | number)[]; message: string };

const percent = (share: number): string => `${+(share * 100).toFixed(4)}%`;
const quoted = (names: readonly string[]): string => names.map((name) => `"${name}"`).join(', ');

function isPresetName(name: string): name is ContentPresetName {
  return CONTENT_PRESETS.has(name as ContentPresetName);
}

/** The preset a model class starts from when it names none: its URL paths and headers (docs/traffic-models.md). */
const MODEL_PRESETS: Readonly<Record<string, ContentPresetName>> = { 'eu-2': 'image', 'eu-3': 'image', 'tc-0': 'download', v: 'media' };

/** What a model class may not set, since its model gives it. */
const MODEL_GIVES = ['objects', 'zipfExponent', 'size', 'churn'] as const;

/** A class entry laid over its preset, or the problems that stop it. */
function resolveEntry(entry: ContentClassEntry, at: number, issues: Issue[]): ContentClass | undefined {
  const model = entry.model;
  if (model === undefined) {
    for (const key of ['fidelity', 'sharing', 'sharingWindow', 'depthCap'] as const) {
      if (entry[key] !== undefined) issues.push({ path: [at, key], message: `expected ${key} only with a model (content.classes[${at}].model), found none` });
    }
  } else {
    for (const key of MODEL_GIVES) {
      if (entry[key] !== undefined) issues.push({ path: [at, key], message: `expected no ${key} in a class with a model: its objects, popularity and sizes come from the model '${model}'` });
    }
  }
  const presetName = entry.preset ?? (model !== undefined && !isPresetName(entry.name) ? (MODEL_PRESETS[model] ?? 'download') : entry.name);
  if (!isPresetName(presetName)) {
    const suggestion = nearest(presetName, CONTENT_PRESET_NAMES);
    const hint = suggestion ? ` — did you mean "${suggestion}"?` : '';
    issues.push(
      entry.preset === undefined
        ? { path: [at, 'name'], message: `expected a \`preset\` (one of ${quoted(CONTENT_PRESET_NAMES)}) for class "${entry.name}", found none, and its name is no preset${hint}` }
        : { path: [at, 'preset'], message: `expected a preset among ${quoted(CONTENT_PRESET_NAMES)}, found "${entry.preset}"${hint}` },
    );
    return undefined;
  }
  const base = classFromPreset(entry.name, presetName);
  const errorsBefore = issues.length;

  const size = { ...base.size, ...definedFields(entry.size ?? {}) };
  if (size.min > size.max) issues.push({ path: [at, 'size', 'min'], message: `expected min (${size.min} B) not above max (${size.max} B)` });
  else if (size.median < size.min || size.median > size.max) {
    issues.push({ path: [at, 'size', 'median'], message: `expected a median between min (${size.min} B) and max (${size.max} B), found ${size.median} B` });
  }

  const path = entry.path ?? base.path;
  const fileTypes = entry.fileTypes ?? base.fileTypes;
  const parsed = parsePathPattern(path);
  if (!parsed.ok) issues.push({ path: [at, 'path'], message: `expected ${parsed.expected}, found "${path}"` });
  else if (patternUsesExtension(path)) {
    const bare = fileTypes.findIndex((type) => type.extension === '');
    if (bare >= 0) issues.push({ path: [at, 'fileTypes', bare, 'extension'], message: `expected an extension, since the path "${path}" has {ext}, found ""` });
  } else if (fileTypes.length > 1) {
    issues.push({ path: [at, 'path'], message: `expected {ext} in the path, since the class has ${fileTypes.length} file types, found "${path}"` });
  }
  if (issues.length > errorsBefore) return undefined;

  const churn = entry.churn ?? {};
  const updates = churn.updates ?? {};
  const onDeployShare = updates.onDeploy ?? base.churn.updates.onDeployShare;
  return {
    ...base,
    share: entry.share ?? base.share,
    objects: entry.objects ?? base.objects,
    zipfExponent: entry.zipfExponent ?? base.zipfExponent,
    size,
    path,
    fileTypes,
    rendering: entry.rendering ?? base.rendering,
    rangeRequests: entry.rangeRequests ?? base.rangeRequests,
    headers: entry.headers ?? base.headers,
    churn: {
      newObjectsPerSecond: churn.newObjects ?? base.churn.newObjectsPerSecond,
      oneHitWonderShare: churn.oneHitWonderShare ?? base.churn.oneHitWonderShare,
      entry: churn.entry ?? base.churn.entry,
      updates: {
        perSecond: updates.rate ?? base.churn.updates.perSecond,
        newUrl: updates.newUrl ?? base.churn.updates.newUrl,
        ...(onDeployShare === undefined ? {} : { onDeployShare }),
      },
    },
    ...(entry.queries === undefined ? {} : { queries: entry.queries }),
    ...(model === undefined
      ? {}
      : {
          // One ranked id (the catalogue's rule); the model's objects take the ids reserved after it.
          objects: 1,
          churn: { newObjectsPerSecond: 0, oneHitWonderShare: 0, entry: base.churn.entry, updates: { perSecond: 0, newUrl: false } },
          traffic: {
            model,
            fidelity: entry.fidelity ?? DEFAULT_FIDELITY,
            sharing: entry.sharing ?? DEFAULT_SHARING,
            sharingWindow: entry.sharingWindow ?? DEFAULT_SHARING_WINDOW,
            ...(entry.depthCap === undefined ? {} : { depthCapBytes: entry.depthCap }),
          },
        }),
  };
}

function definedFields<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** Problems of the list as a whole: duplicate names, shares that do not add up to 100 %, too many objects. */
function listIssues(classes: readonly ContentClass[], entries: readonly ContentClassEntry[]): Issue[] {
  const issues: Issue[] = [];
  const seen = new Map<string, number>();
  entries.forEach((entry, i) => {
    const first = seen.get(entry.name);
    if (first === undefined) seen.set(entry.name, i);
    else issues.push({ path: [i, 'name'], message: `expected unique class names, found "${entry.name}" again (first at class ${first + 1})` });
  });
  const total = classes.reduce((sum, klass) => sum + klass.share, 0);
  if (Math.abs(total - 1) > 1e-6) {
    const terms = classes.map((klass) => `${klass.name} ${percent(klass.share)}`).join(' + ');
    issues.push({ path: [], message: `expected class shares that add up to 100%, found ${terms} = ${percent(total)}` });
  }
  const objects = classes.reduce((sum, klass) => sum + klass.objects, 0);
  if (objects > MAX_CLASS_CATALOGUE_OBJECTS) {
    issues.push({ path: [], message: `expected at most ${MAX_CLASS_CATALOGUE_OBJECTS} objects over all classes, found ${objects}` });
  }
  return issues;
}

/** `content.classes`: the class list, resolved over the presets. */
export const contentClassesSchema = z
  .array(contentClassEntrySchema)
  .min(1)
  .max(MAX_CONTENT_CLASSES)
  .transform((entries, ctx): ContentClass[] => {
    const issues: Issue[] = [];
    const classes: ContentClass[] = [];
    entries.forEach((entry, i) => {
      const resolved = resolveEntry(entry, i, issues);
      // A class alone gets every request: its preset's share is meant for a mix.
      if (resolved) classes.push(entries.length === 1 && entry.share === undefined ? { ...resolved, share: 1 } : resolved);
    });
    // A list total is only meaningful once every class resolved.
    if (issues.length === 0) issues.push(...listIssues(classes, entries));
    for (const issue of issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    return issues.length > 0 ? z.NEVER : classes;
  })
  .meta({ description: `content classes, each from a preset (${CONTENT_PRESET_NAMES.join(', ')}) with overrides; shares add up to 100%` });
