import { compileDecision, type CompiledDecision } from '../policy/compile.js';
import { decide } from '../policy/decision.js';
import type { Deployment } from '../policy/deployment.js';
import { normaliseHeaders } from '../policy/headers.js';
import { HEADER_PROFILES, profileWithOverrides } from '../policy/profiles.js';
import { formatReason } from '../policy/reason.js';
import type { Scenario } from '../scenario/schema.js';

/**
 * The catalogue's objects are one class of content: a path without an extension under
 * /objects/, answered 200 with the scenario's header profile. The real policy engine decides
 * once what the edge does with them; the run then applies the compiled numbers per request.
 */
export const CATALOGUE_OBJECT_URL = '/objects/object';

export interface ContentCaching {
  /** The response header fields the origin sends (profile plus the scenario's own fields). */
  readonly responseHeaders: Readonly<Record<string, string>>;
  readonly deployment: Deployment;
  readonly edge: CompiledDecision;
  /** The edge decision's reasons, each with its source. */
  readonly edgeReasons: readonly string[];
  /** What the regional tier does with the same response (spec 4.9 layer 3). */
  readonly regional: CompiledDecision;
}

export function compileContentCaching(scenario: Scenario): ContentCaching {
  const profile = HEADER_PROFILES.get(scenario.content.headers.profile);
  if (!profile) throw new Error(`unknown header profile ${scenario.content.headers.profile} (the schema should have rejected it)`);
  const responseHeaders = Object.fromEntries(profileWithOverrides(profile, Object.entries(scenario.content.headers.fields)));
  const deployment: Deployment = { kind: scenario.deployment.kind, framework: scenario.deployment.framework, cdnEnabled: scenario.deployment.cdn };
  const decideAt = (layer: 'edge' | 'regional') =>
    decide({
      request: { method: 'GET', url: CATALOGUE_OBJECT_URL, headers: normaliseHeaders(undefined) },
      response: { status: 200, headers: normaliseHeaders(responseHeaders) },
      deployment,
      layer,
      nowMs: 0,
    });
  const edge = decideAt('edge');
  return {
    responseHeaders,
    deployment,
    edge: compileDecision(edge),
    edgeReasons: edge.reasons.map(formatReason),
    regional: compileDecision(decideAt('regional')),
  };
}
