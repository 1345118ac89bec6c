import type { QueryHandling } from '../policy/queryHandling.js';
import { frameworkProfileForPath, HEADER_PROFILES, NO_CACHE_HEADERS, profileWithOverrides } from '../policy/profiles.js';
import { DEFAULT_ADAPTIVE_TTL, type AdaptiveTtl } from '../scenario/adaptiveSchema.js';
import type { Scenario } from '../scenario/schema.js';
import {
  DEFAULT_STRATEGIES,
  EVERY_CLASS,
  STRATEGY_PRESETS,
  parsePresetReference,
  strategyName,
  type CustomStrategy,
  type PresetReference,
  type StrategyClassOverride,
  type StrategyEntry,
} from '../scenario/strategySchema.js';
import { UserError } from '../userError.js';
import { contentPreset, resolveClassHeaders, representativePath, type ContentClass } from '../workload/content/contentClasses.js';
import type { Incident } from '../workload/incidents/incidentSchema.js';
import { CATALOGUE_OBJECT_URL, compileContentCaching, scenarioDeployment } from './contentCaching.js';

/**
 * TTL strategies as scenario transformations: each one rewrites what the origin sends per
 * content class (header fields), how the CDN keys a class's query strings, what deploys do
 * to cached content, or the deployment, and
 * leaves the traffic alone. The run then compiles the rewritten scenario with the real
 * policy engine (contentCaching.ts), so the engine, not this module, decides what a layer
 * stores and for how long. Every transformation keeps the scenario's seed, classes, sizes
 * and churn rates, so strategies compared on one seed see the same requests (common random
 * numbers, src/sim/random.ts).
 */

/** A strategy by name, ready to apply. */
export interface Strategy {
  readonly name: string;
  /** What it does, with its spec section. */
  readonly description: string;
  apply(scenario: Scenario): Scenario;
}

/** spec 8.1 row 2's stale-while-revalidate window, added by `swr`. */
export const SWR_SECONDS = 86_400;

const SWR = 'stale-while-revalidate';

/** One header field, as the origin sends it. */
type Field = readonly [string, string];

// ---------------------------------------------------------------------------------------
// Header fields per class

/** The class names a strategy addresses: the content classes, or `objects` for the single-class catalogue. */
export function strategyClassNames(scenario: Scenario): string[] {
  return scenario.content.classes === undefined ? ['objects'] : scenario.content.classes.map((klass) => klass.name);
}

/** The fields the origin sends for class `index` as the scenario stands (profile with its overrides). */
function classFields(scenario: Scenario, index: number): Field[] {
  if (scenario.content.classes === undefined) {
    const profile = HEADER_PROFILES.get(scenario.content.headers.profile) ?? NO_CACHE_HEADERS;
    return profileWithOverrides(profile, Object.entries(scenario.content.headers.fields));
  }
  return resolveClassHeaders(scenario.content.classes[index], scenarioDeployment(scenario)).fields.map(([name, value]): Field => [name, value]);
}

/**
 * The scenario with class `index` sending exactly `fields`. The class keeps its profile when
 * every field of it is still sent (the rest are overrides), so reports still name it;
 * otherwise the fields are sent on their own (profile `no-cache-headers`, which has none).
 */
function withClassFields(scenario: Scenario, index: number, fields: readonly Field[], profileName?: string): Scenario {
  const current = profileName ?? (scenario.content.classes === undefined ? scenario.content.headers.profile : materialProfile(scenario, index));
  const profile = HEADER_PROFILES.get(current) ?? NO_CACHE_HEADERS;
  const sent = new Set(fields.map(([name]) => name.toLowerCase()));
  const keepsProfile = Object.keys(profile.headers).every((name) => sent.has(name.toLowerCase()));
  const headers = { profile: keepsProfile ? profile.name : NO_CACHE_HEADERS.name, fields: Object.fromEntries(fields) };
  if (scenario.content.classes === undefined) return { ...scenario, content: { ...scenario.content, headers } };
  const classes = scenario.content.classes.map((klass, i): ContentClass => (i === index ? { ...klass, headers } : klass));
  return { ...scenario, content: { ...scenario.content, classes } };
}

/** The named profile a class's headers come from (the deployment's choice for `auto`). */
function materialProfile(scenario: Scenario, index: number): string {
  const classes = scenario.content.classes as readonly ContentClass[];
  return resolveClassHeaders(classes[index], scenarioDeployment(scenario)).profile.name;
}

/** Rewrites every class's fields with `rewrite` (which sees the class's index and current fields). */
function mapClassFields(scenario: Scenario, rewrite: (fields: Field[], index: number) => Field[]): Scenario {
  let result = scenario;
  strategyClassNames(scenario).forEach((_, index) => {
    result = withClassFields(result, index, rewrite(classFields(result, index), index));
  });
  return result;
}

/** Sets field `name` (case-insensitive) to `value`, or removes it when `value` is undefined. */
function setField(fields: readonly Field[], name: string, value: string | undefined): Field[] {
  const lower = name.toLowerCase();
  const at = fields.findIndex(([field]) => field.toLowerCase() === lower);
  if (value === undefined) return fields.filter(([field]) => field.toLowerCase() !== lower);
  if (at < 0) return [...fields, [name, value]];
  return fields.map((field, i): Field => (i === at ? [field[0], value] : field));
}

function fieldValue(fields: readonly Field[], name: string): string | undefined {
  const lower = name.toLowerCase();
  return fields.find(([field]) => field.toLowerCase() === lower)?.[1];
}

/** A directive list split at top-level commas (a quoted argument such as no-cache="a, b" stays whole). */
function splitDirectives(value: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (const char of value) {
    if (char === '"') quoted = !quoted;
    if (char === ',' && !quoted) {
      parts.push(current.trim());
      current = '';
    } else current += char;
  }
  parts.push(current.trim());
  return parts.filter((part) => part !== '');
}

const directiveName = (directive: string): string => directive.split('=')[0].trim().toLowerCase();

/** The directive list without `name`, and with `name=value` appended when `value` is given; undefined when nothing is left. */
function withDirective(value: string | undefined, name: string, argument: string | undefined): string | undefined {
  const kept = splitDirectives(value ?? '').filter((directive) => directiveName(directive) !== name);
  if (argument !== undefined) kept.push(`${name}=${argument}`);
  return kept.length === 0 ? undefined : kept.join(', ');
}

/** Which classes the CDN stores at the edge as the scenario stands (the policy engine's decision). */
function storedAtEdge(scenario: Scenario): boolean[] {
  return compileContentCaching(scenario).classes.map((klass) => klass.edge.store);
}

// ---------------------------------------------------------------------------------------
// The presets

/** spec 4.3: each class gets the framework profile its path selects (pages by rendering). */
function frameworkDefaults(scenario: Scenario): Scenario {
  const deployment = scenarioDeployment(scenario);
  let result = scenario;
  strategyClassNames(scenario).forEach((_, index) => {
    const klass = scenario.content.classes?.[index];
    const profile = klass === undefined ? frameworkProfileForPath(CATALOGUE_OBJECT_URL, deployment) : frameworkProfileForPath(representativePath(klass, deployment.framework), deployment, klass.rendering);
    result = withClassFields(result, index, Object.entries(profile.headers), profile.name);
  });
  return result;
}

/**
 * spec 8.1: the author-guidance row that fits each class: versioned assets (a `{hash}` in
 * the path, or the static-asset and font presets) row 1, HTML row 2, APIs row 3. Files
 * without versioning (images, media, downloads at stable URLs) fit no row (row 1 asks for
 * versioning), so they keep the origin's headers. The single-class catalogue is row 1.
 */
function guidance(scenario: Scenario): Scenario {
  let result = scenario;
  strategyClassNames(scenario).forEach((_, index) => {
    const klass = scenario.content.classes?.[index];
    const row = klass === undefined ? 'guidance-static-assets' : guidanceRow(klass);
    const profile = row === undefined ? undefined : HEADER_PROFILES.get(row);
    if (profile !== undefined) result = withClassFields(result, index, Object.entries(profile.headers), profile.name);
  });
  return result;
}

function guidanceRow(klass: ContentClass): string | undefined {
  if (isVersioned(klass)) return 'guidance-static-assets';
  const row = contentPreset(klass.preset).staticProfile;
  return row.startsWith('guidance-') ? row : undefined;
}

/** A class whose URLs carry a content hash: a new version is a new URL (spec 8.1 row 1). */
function isVersioned(klass: ContentClass): boolean {
  return klass.path.includes('{hash}');
}

/**
 * `fixed:<ttl>`: every response the CDN stores gets `CDN-Cache-Control: max-age=<ttl>`, which
 * CDN caches obey instead of Cache-Control (RFC 9213 §2.1) and browsers ignore; responses the
 * CDN does not store (no-store, private, …) stay as they are.
 */
function fixedTtl(scenario: Scenario, ttlMs: number): Scenario {
  const stored = storedAtEdge(scenario);
  return mapClassFields(scenario, (fields, index) => (stored[index] ? setField(fields, 'CDN-Cache-Control', `max-age=${ttlMs / 1000}`) : fields));
}

/** `swr`: stale-while-revalidate=86400 on every class the CDN stores, in CDN-Cache-Control too when it is sent (RFC 5861 §3). */
function addSwr(scenario: Scenario): Scenario {
  const stored = storedAtEdge(scenario);
  return mapClassFields(scenario, (fields, index) => {
    if (!stored[index]) return fields;
    let result = setField(fields, 'Cache-Control', withDirective(fieldValue(fields, 'Cache-Control'), SWR, String(SWR_SECONDS)));
    const cdn = fieldValue(fields, 'CDN-Cache-Control');
    if (cdn !== undefined) result = setField(result, 'CDN-Cache-Control', withDirective(cdn, SWR, String(SWR_SECONDS)));
    return result;
  });
}

/** `no-swr`: no stale-while-revalidate anywhere; a stale copy is revalidated before it is served. */
function removeSwr(scenario: Scenario): Scenario {
  return mapClassFields(scenario, (fields) => {
    let result = fields;
    for (const name of ['Cache-Control', 'CDN-Cache-Control']) {
      const value = fieldValue(result, name);
      if (value !== undefined) result = setField(result, name, withDirective(value, SWR, undefined));
    }
    return result;
  });
}

function withDeploys(scenario: Scenario, rewrite: (deploy: Extract<Incident, { kind: 'deploy' }>) => Incident | undefined): Scenario {
  const incidents = scenario.incidents.flatMap((incident) => {
    if (incident.kind !== 'deploy') return [incident];
    const rewritten = rewrite(incident);
    return rewritten === undefined ? [] : [rewritten];
  });
  return { ...scenario, incidents };
}

/** spec 1.2 item 6: every deploy purges what it touches. */
function purgeOnDeploy(scenario: Scenario, purge = true): Scenario {
  return withDeploys(scenario, (deploy) => ({ ...deploy, purge }));
}

/**
 * Versioned assets (spec 8.1 row 1): classes with a `{hash}` in their paths publish every
 * new version at a new URL. A deploy that touches such a class gives the objects it changes
 * new URLs (its `updates.onDeploy` share, every object when the class has none): cold keys
 * that nobody has cached, fetched from the origin on their first requests, while the old
 * URLs are no longer referenced and their cached copies never become outdated. Their
 * same-URL updates become new URLs too, and nothing is purged; the other classes (pages,
 * APIs) keep serving what they hold until it expires (spec 4.7).
 */
function versionedAssets(scenario: Scenario): Scenario {
  const classes = scenario.content.classes;
  if (classes === undefined) return purgeOnDeploy(scenario, false);
  const unpurged = purgeOnDeploy(scenario, false);
  const rehashed = classes.map((klass): ContentClass => {
    if (!isVersioned(klass)) return klass;
    const updates = { ...klass.churn.updates, newUrl: true, onDeployShare: klass.churn.updates.onDeployShare ?? 1 };
    return { ...klass, churn: { ...klass.churn, updates } };
  });
  return { ...unpurged, content: { ...unpurged.content, classes: rehashed } };
}

/**
 * spec 1.3: a container deployment with the CDN disabled. The origin keeps sending the
 * headers it sent (browsers still cache by them); no CDN layer stores anything.
 */
function cdnOff(scenario: Scenario): Scenario {
  const kept = mapClassFields(scenario, (fields) => fields);
  return { ...kept, deployment: { ...kept.deployment, kind: 'container', cdn: false } };
}

/**
 * spec 1.2 item 6: the adaptive TTL controller runs on the scenario's clock with these
 * parameters (src/cdn/adaptiveController.ts); the origin's headers stay as they are.
 */
function withAdaptiveTtl(scenario: Scenario, adaptiveTtl: AdaptiveTtl): Scenario {
  return { ...scenario, cdn: { ...scenario.cdn, adaptiveTtl } };
}

function applyPreset(scenario: Scenario, reference: PresetReference): Scenario {
  if (reference.kind === 'fixed') return fixedTtl(scenario, reference.ttlMs);
  switch (reference.name) {
    case 'respect-headers':
      return scenario;
    case 'framework-defaults':
      return frameworkDefaults(scenario);
    case 'guidance':
      return guidance(scenario);
    case 'swr':
      return addSwr(scenario);
    case 'no-swr':
      return removeSwr(scenario);
    case 'purge-on-deploy':
      return purgeOnDeploy(scenario);
    case 'versioned-assets':
      return versionedAssets(scenario);
    case 'cdn-off':
      return cdnOff(scenario);
    case 'adaptive':
      return withAdaptiveTtl(scenario, DEFAULT_ADAPTIVE_TTL);
  }
}

/** A custom strategy: its preset, then purge behaviour, then the overrides for every class ("*") and for each named class. */
function applyCustom(scenario: Scenario, strategy: CustomStrategy): Scenario {
  let result = applyPreset(scenario, presetReference(strategy.from));
  if (strategy.purgeOnDeploy !== undefined) result = purgeOnDeploy(result, strategy.purgeOnDeploy);
  if (strategy.adaptive !== undefined) result = withAdaptiveTtl(result, strategy.adaptive);
  const names = strategyClassNames(result);
  const every = strategy.classes[EVERY_CLASS];
  names.forEach((name, index) => {
    for (const override of [every, strategy.classes[name]]) {
      if (override !== undefined) result = applyClassOverride(result, index, override);
    }
  });
  return result;
}

function applyClassOverride(scenario: Scenario, index: number, override: StrategyClassOverride): Scenario {
  const keyed = override.query === undefined ? scenario : withQueryHandling(scenario, index, override.query);
  // A query-only override leaves the headers exactly as they were.
  if (override.query !== undefined && override.profile === undefined && Object.keys(override.fields).length === 0 && override.remove.length === 0) return keyed;
  return withHeaderOverride(keyed, index, override);
}

/** The scenario with class `index`'s query strings keyed under `handling`; a class without `queries` has none to key. */
function withQueryHandling(scenario: Scenario, index: number, handling: QueryHandling): Scenario {
  const classes = scenario.content.classes;
  const queries = classes?.[index].queries;
  if (classes === undefined || queries === undefined) return scenario;
  const rekeyed = classes.map((klass, i): ContentClass => (i === index ? { ...klass, queries: { ...queries, handling } } : klass));
  return { ...scenario, content: { ...scenario.content, classes: rekeyed } };
}

function withHeaderOverride(scenario: Scenario, index: number, override: StrategyClassOverride): Scenario {
  const profile = override.profile === undefined ? undefined : HEADER_PROFILES.get(override.profile);
  let fields = profile === undefined ? classFields(scenario, index) : Object.entries(profile.headers).map(([name, value]): Field => [name, value]);
  for (const [name, value] of Object.entries(override.fields)) fields = setField(fields, name, value);
  for (const name of override.remove) fields = setField(fields, name, undefined);
  return withClassFields(scenario, index, fields, profile?.name);
}

function presetReference(text: string): PresetReference {
  const parsed = parsePresetReference(text);
  // The schema checked every name; a failure here is a caller that skipped it.
  if (!parsed.ok) throw new UserError(parsed.message);
  return parsed.reference;
}

/** A strategy entry of a scenario (or a preset named on the command line) as a Strategy. */
export function resolveStrategy(entry: StrategyEntry): Strategy {
  if (typeof entry === 'string') {
    const reference = presetReference(entry);
    return { name: entry, description: presetDescription(reference), apply: (scenario) => applyPreset(scenario, reference) };
  }
  return {
    name: entry.name,
    description: entry.description ?? `custom, from ${entry.from}`,
    apply: (scenario) => applyCustom(scenario, entry),
  };
}

function presetDescription(reference: PresetReference): string {
  if (reference.kind === 'fixed') return `RFC 9213: CDN-Cache-Control max-age=${reference.ttlMs / 1000} on every response the CDN stores`;
  return STRATEGY_PRESETS[reference.name];
}


/**
 * The strategies `compare` runs: the names given on the command line (each a preset or a
 * custom strategy of the scenario), else the scenario's `strategies`, else DEFAULT_STRATEGIES.
 * An unknown name is a user error naming the choices, before any run starts.
 */
export function selectStrategies(scenario: Scenario, names: readonly string[] | undefined, flag = '--strategies'): Strategy[] {
  const listed = scenario.strategies ?? [];
  if (names === undefined) return (scenario.strategies ?? DEFAULT_STRATEGIES).map(resolveStrategy);
  const seen = new Set<string>();
  return names.map((name) => {
    if (seen.has(name)) throw new UserError(`${flag}: "${name}" is given twice; name each strategy once`);
    seen.add(name);
    const custom = listed.find((entry) => typeof entry !== 'string' && entry.name === name);
    if (custom !== undefined) return resolveStrategy(custom);
    const parsed = parsePresetReference(name);
    if (!parsed.ok) {
      const customs = listed.filter((entry) => typeof entry !== 'string').map(strategyName);
      throw new UserError(`${flag}: ${parsed.message}${customs.length > 0 ? `; the scenario's own strategies are ${customs.join(', ')}` : ''}`);
    }
    return resolveStrategy(name);
  });
}

/** The scenario under one strategy named as `--strategy`/`--strategies` take it (a preset or the scenario's own). */
export function withStrategy(scenario: Scenario, name: string): Scenario {
  return selectStrategies(scenario, [name])[0].apply(scenario);
}

/** content.recorded takes its headers from the recording: strategies that rewrite class headers do not apply to it. */
export function checkStrategiesApply(scenario: Scenario, strategies: readonly Strategy[], file: string): void {
  if (scenario.content.recorded === undefined) return;
  const headerless = new Set(['respect-headers', 'purge-on-deploy', 'cdn-off', 'adaptive']);
  const refused = strategies.filter((strategy) => !headerless.has(strategy.name)).map((strategy) => strategy.name);
  if (refused.length > 0) {
    throw new UserError(
      `${file}: strategies ${refused.join(', ')} rewrite the headers of content classes, and content.recorded sends the recording's own headers; ` +
        'compare respect-headers, purge-on-deploy, cdn-off and adaptive on it, or describe the site with content.classes',
    );
  }
}
