import { CompiledDecisionTable, type CompiledDecision } from '../policy/compile.js';
import { decide } from '../policy/decision.js';
import type { Deployment } from '../policy/deployment.js';
import { normaliseHeaders, type HeaderInput } from '../policy/headers.js';
import { HEADER_PROFILES, profileWithOverrides, type HeaderProfile } from '../policy/profiles.js';
import { formatReason } from '../policy/reason.js';
import type { Scenario } from '../scenario/schema.js';
import type { Incident } from '../workload/incidents/incidentSchema.js';
import { representativePath, resolveClassHeaders, type ContentClass } from '../workload/content/contentClasses.js';

/**
 * Without content classes the catalogue's objects are one class of content: a path without
 * an extension under /objects/, answered 200 with the scenario's header profile.
 */
export const CATALOGUE_OBJECT_URL = '/objects/object';

/** What the policy engine decided for one class of content, for reports. */
export interface ClassCaching {
  readonly name: string;
  /** The URL the decision was taken for (its path decides extension rules, spec 4.2). */
  readonly url: string;
  /** The response header fields the origin sends for the class. */
  readonly responseHeaders: Readonly<Record<string, string>>;
  /** Why these headers (the deployment kind's rule, spec 1.3, or the scenario's profile). */
  readonly headerSource: string;
  readonly edge: CompiledDecision;
  readonly regional: CompiledDecision;
  /** The edge decision's reasons, each with its source. */
  readonly edgeReasons: readonly string[];
}

/**
 * The real policy engine, run once per class and layer before the run; the flows then read
 * the compiled numbers per request (DESIGN.md, "Hot path").
 */
export interface ContentCaching {
  readonly deployment: Deployment;
  readonly table: CompiledDecisionTable;
  /** One per class, in class-id order. */
  readonly classes: readonly ClassCaching[];
}

/** The scenario's deployment as the policy engine takes it (spec 1.3). */
export function scenarioDeployment(scenario: Scenario): Deployment {
  return { kind: scenario.deployment.kind, framework: scenario.deployment.framework, cdnEnabled: scenario.deployment.cdn };
}

export function compileContentCaching(scenario: Scenario): ContentCaching {
  const deployment = scenarioDeployment(scenario);
  const table = new CompiledDecisionTable(deployment);
  const sources = scenario.content.classes === undefined ? [singleClassSource(scenario)] : scenario.content.classes.map((klass) => classSource(klass, deployment));
  const classes = sources.map((source) => addClassCaching(table, deployment, source, 200, source.responseHeaders));
  return { deployment, table, classes };
}

/** What a class is reported as: its name, URL, the header fields shown and where they came from. */
export type ClassSource = Pick<ClassCaching, 'name' | 'url' | 'responseHeaders' | 'headerSource'>;

/**
 * Compiles one class into `table` (its id is the next one) from the response the origin
 * sends, `status` with `headers`, and keeps the edge decision's reasons for reports.
 */
export function addClassCaching(table: CompiledDecisionTable, deployment: Deployment, source: ClassSource, status: number, headers: HeaderInput): ClassCaching {
  const id = table.add({ url: source.url, status, headers });
  const edgeDecision = decide({
    request: { method: 'GET', url: source.url, headers: normaliseHeaders(undefined) },
    response: { status, headers: normaliseHeaders(headers) },
    deployment,
    layer: 'edge',
    nowMs: 0,
  });
  return { ...source, edge: table.get(id, 'edge'), regional: table.get(id, 'regional'), edgeReasons: edgeDecision.reasons.map(formatReason) };
}

function singleClassSource(scenario: Scenario): ClassSource {
  const profile = HEADER_PROFILES.get(scenario.content.headers.profile);
  if (!profile) throw new Error(`unknown header profile ${scenario.content.headers.profile} (the schema should have rejected it)`);
  return {
    name: 'objects',
    url: CATALOGUE_OBJECT_URL,
    responseHeaders: Object.fromEntries(profileWithOverrides(profile, Object.entries(scenario.content.headers.fields))),
    headerSource: headerSourceText(`profile ${scenario.content.headers.profile}`, profile, scenario.content.headers.fields),
  };
}

/**
 * Where a class's headers come from, for reports: the rule or profile, and the fields the
 * scenario changed in it (a profile with its Cache-Control replaced is no longer that
 * profile). Fields equal to the profile's own, as a strategy naming a profile writes them, are not named.
 */
function headerSourceText(source: string, profile: HeaderProfile, fields: Readonly<Record<string, string>>): string {
  const profileValue = (name: string) => Object.entries(profile.headers).find(([field]) => field.toLowerCase() === name.toLowerCase())?.[1];
  const changed = Object.entries(fields).flatMap(([name, value]) => (profileValue(name) === value ? [] : [name]));
  return changed.length === 0 ? source : `${source}; ${changed.join(', ')} set by headers.fields`;
}

/** A class's headers by the deployment kind's rule (spec 1.3), with the Content-Type of its first file type (spec 4.2 decides by MIME type). */
function classSource(klass: ContentClass, deployment: Deployment): ClassSource {
  const headers = resolveClassHeaders(klass, deployment);
  const fields = Object.fromEntries(headers.fields);
  const contentType = klass.fileTypes[0]?.mimeType;
  const hasContentType = Object.keys(fields).some((name) => name.toLowerCase() === 'content-type');
  return {
    name: klass.name,
    url: representativePath(klass, deployment.framework),
    responseHeaders: contentType === undefined || hasContentType ? fields : { ...fields, 'Content-Type': contentType },
    headerSource: headerSourceText(`${headers.source} (profile ${headers.profile.name})`, headers.profile, klass.headers.fields),
  };
}

/**
 * The origin's error responses as the policy engine decides them at each layer (spec 7.1: a
 * 500 without explicit freshness is cached for 5 s), one class per status an error burst
 * sends, compiled into the content's table. Index: status − 500; −1 for a status no burst sends.
 */
export function compileErrorClasses(caching: ContentCaching, incidents: readonly Incident[]): Int32Array {
  const classOf = new Int32Array(100).fill(-1);
  for (const incident of incidents) {
    if (incident.kind !== 'error-burst' || classOf[incident.status - 500] >= 0) continue;
    classOf[incident.status - 500] = caching.table.add({ url: CATALOGUE_OBJECT_URL, status: incident.status, headers: {} });
  }
  return classOf;
}
