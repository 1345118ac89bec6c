import type { Argv } from 'yargs';
import { COMMAND_LINES } from '../commandLines.js';
import { decide, type CacheDecision } from '../../policy/decision.js';
import { CACHE_LAYERS, DEPLOYMENT_KINDS, type CacheLayer, type Deployment, type DeploymentKind } from '../../policy/deployment.js';
import { normaliseHeaders } from '../../policy/headers.js';
import { formatHttpDate, parseHttpDate } from '../../policy/httpDate.js';
import { frameworkProfileForPath, HEADER_PROFILES, profileWithOverrides, type HeaderProfile, type PageRendering } from '../../policy/profiles.js';
import { planRange } from '../../policy/ranges.js';
import { directivesInForce } from '../../policy/responseFacts.js';
import { explainRecord, explainText } from '../../report/explainReport.js';
import { nearest } from '../../suggest.js';
import { UserError } from '../../userError.js';
import { terminalColumns } from '../terminalColumns.js';

interface ExplainArgs {
  url: string;
  deployment: DeploymentKind;
  framework: string;
  cdn: boolean;
  layer: CacheLayer | 'all';
  status: number;
  method: string;
  /** Absent when not given: a default of [] would show as `[default: []]` in the help. */
  reqHeader?: string[];
  resHeader?: string[];
  profile?: string;
  pageRendering: PageRendering;
  now?: string;
  json: boolean;
}

export function explainCommand(yargs: Argv): Argv {
  return yargs.command<ExplainArgs>(
    COMMAND_LINES.explain.command,
    COMMAND_LINES.explain.describe,
    (command) =>
      command
        .option('url', { type: 'string', demandOption: 'name the request, e.g. --url /_next/static/app.js', describe: 'request URL, absolute or /path?query' })
        .option('deployment', { choices: DEPLOYMENT_KINDS, default: 'full-stack' as DeploymentKind, describe: 'deployment kind (spec 1.3)' })
        .option('framework', { type: 'string', default: 'next', describe: "framework path segment without the underscore (spec 4.3: /_<framework>/static/*)" })
        .option('cdn', { type: 'boolean', default: true, describe: 'CDN enabled; --no-cdn disables it, which only a container deployment allows (spec 1.3)' })
        .option('layer', { choices: [...CACHE_LAYERS, 'all'] as const, default: 'edge' as const, describe: 'which cache decides (spec 4.9); all = browser, edge and regional' })
        .option('status', { type: 'number', default: 200, describe: 'response status' })
        .option('method', { type: 'string', default: 'GET', describe: 'request method' })
        .option('req-header', { type: 'string', array: true, describe: "request header, 'Name: value' (repeatable)" })
        .option('res-header', { type: 'string', array: true, describe: "response header, 'Name: value' (repeatable); replaces the same header of --profile" })
        .option('profile', {
          type: 'string',
          describe: `response headers from a named profile (${[...HEADER_PROFILES.keys()].join(', ')}), or 'framework': the spec 4.3 profile a framework origin sends for the URL's path`,
        })
        .option('page-rendering', { choices: ['server', 'static'] as const, default: 'server' as PageRendering, describe: "with --profile framework: pages are server-rendered or static (spec 4.3)" })
        .option('now', { type: 'string', describe: "the response's arrival time, an HTTP-date or ISO 8601 (default: its Date header, else the current time)" })
        .option('json', { type: 'boolean', default: false, describe: 'print the decision as JSON (an array with --layer all)' })
        .example("$0 explain --url /_next/static/chunks/app.js --res-header 'Cache-Control: public, max-age=31536000, immutable'", 'a versioned asset at the edge')
        .example('$0 explain --url /about --profile framework-static-pages --layer all', 'a static page at every layer') as unknown as Argv<ExplainArgs>,
    (args) => executeExplain(args),
  );
}

function executeExplain(args: ExplainArgs): void {
  const deployment = deploymentOf(args);
  const status = args.status;
  if (!Number.isInteger(status) || status < 100 || status > 599) throw new UserError(`--status: expected an HTTP status from 100 to 599, got ${String(status)}`);
  const method = args.method.toUpperCase();
  if (!/^[!#$%&'*+.^_`|~0-9A-Z-]+$/.test(method)) throw new UserError(`--method: expected a method token such as GET or POST, got '${args.method}'`);
  const url = checkedUrl(args.url);
  const requestHeaders = normaliseHeaders((args.reqHeader ?? []).map((text) => parseHeaderArgument('--req-header', text)));
  const responseHeaders = normaliseHeaders(responsePairs(args, url, deployment));
  const nowMs = resolveNow(args.now, responseHeaders.get('date'));
  const layers = args.layer === 'all' ? CACHE_LAYERS : [args.layer];
  const decisions: CacheDecision[] = layers.map((layer) =>
    decide({ request: { method, url, headers: requestHeaders }, response: { status, headers: responseHeaders }, deployment, layer, nowMs }),
  );
  const response = { status, headers: responseHeaders };
  const directives = layers.map((layer) => directivesInForce(response, layer, nowMs));
  const rangeChunks = rangePlanOf(requestHeaders.get('range'), responseHeaders.get('content-length'));
  if (args.json) {
    const records = decisions.map((decision, index) => explainRecord(decision, directives[index], rangeChunks));
    process.stdout.write(`${JSON.stringify(args.layer === 'all' ? records : records[0], null, 2)}\n`);
    return;
  }
  process.stdout.write(explainText(decisions, { method, url, status, deployment, nowText: formatHttpDate(nowMs), directives, rangeChunks }, terminalColumns()));
}

/** spec 4.8: with a Range request and the object's size (Content-Length), which chunks it needs. */
function rangePlanOf(range: string | undefined, contentLength: string | undefined): ReturnType<typeof planRange> | null {
  if (range === undefined || contentLength === undefined) return null;
  const objectSize = /^\d+$/.test(contentLength.trim()) ? Number(contentLength) : NaN;
  if (!Number.isSafeInteger(objectSize)) throw new UserError(`--res-header Content-Length: expected a whole number of bytes, got '${contentLength}'`);
  return planRange(range, objectSize);
}

function deploymentOf(args: ExplainArgs): Deployment {
  if (!args.cdn && args.deployment !== 'container') {
    throw new UserError(`--no-cdn: only a container deployment can run without the CDN (spec 1.3); add --deployment container`);
  }
  if (!/^[A-Za-z0-9._-]+$/.test(args.framework)) throw new UserError(`--framework: expected a path segment such as next or nuxt, got '${args.framework}'`);
  return { kind: args.deployment, framework: args.framework, cdnEnabled: args.cdn };
}

function checkedUrl(text: string): string {
  if (text.startsWith('/')) return text;
  try {
    const parsed = new URL(text);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return text;
  } catch {
    // Reported below.
  }
  throw new UserError(`--url: expected an absolute http(s) URL or a path starting with '/', got '${text}' (for example --url /images/hero.jpg?w=800)`);
}

/** 'Name: value' → [name, value]; the name must be a field-name token (RFC 9110 §5.1). */
export function parseHeaderArgument(flag: string, text: string): [string, string] {
  const colon = text.indexOf(':');
  const name = colon < 0 ? '' : text.slice(0, colon).trim();
  if (colon < 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
    throw new UserError(`${flag}: expected 'Name: value', got '${text}' (for example ${flag} 'Cache-Control: max-age=60')`);
  }
  return [name, text.slice(colon + 1).trim()];
}

function responsePairs(args: ExplainArgs, url: string, deployment: Deployment): [string, string][] {
  const given = (args.resHeader ?? []).map((text) => parseHeaderArgument('--res-header', text));
  if (args.profile === undefined) return given;
  return profileWithOverrides(profileNamed(args.profile, url, deployment, args.pageRendering), given);
}

function profileNamed(name: string, url: string, deployment: Deployment, rendering: PageRendering): HeaderProfile {
  if (name === 'framework') return frameworkProfileForPath(new URL(url, 'http://cdnsim.invalid').pathname, deployment, rendering);
  const profile = HEADER_PROFILES.get(name);
  if (profile) return profile;
  const names = [...HEADER_PROFILES.keys(), 'framework'];
  const guess = nearest(name, names);
  throw new UserError(`--profile: no header profile named '${name}'${guess ? `; did you mean '${guess}'?` : ''} Known profiles: ${names.join(', ')}`);
}

function resolveNow(text: string | undefined, dateHeader: string | undefined): number {
  if (text === undefined) {
    const fromDate = dateHeader === undefined ? undefined : parseHttpDate(dateHeader, Date.now());
    return fromDate ?? Date.now();
  }
  const parsed = parseHttpDate(text, Date.now()) ?? (/^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : NaN);
  // Date.parse rolls an impossible day over (2026-02-30 → 2 March); a typo must not move the clock.
  const isoDay = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (isoDay !== null && Number.isFinite(parsed)) {
    const [year, month, day] = isoDay.slice(1).map(Number);
    const check = new Date(Date.UTC(year, month - 1, day));
    if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
      throw new UserError(`--now: ${isoDay[0]} is not a day of the calendar (month ${month} has no day ${day}); give a real date such as 2026-02-28T12:00:00Z`);
    }
  }
  if (!Number.isFinite(parsed)) {
    throw new UserError(`--now: expected an HTTP-date such as 'Sat, 21 Nov 2026 12:00:00 GMT' or ISO 8601 such as 2026-11-21T12:00:00Z, got '${text}'`);
  }
  return parsed;
}
