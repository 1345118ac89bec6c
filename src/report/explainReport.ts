import type { CacheDecision } from '../policy/decision.js';
import { DEFAULT_POLICY_OPTIONS, type Deployment } from '../policy/deployment.js';
import type { RangePlan } from '../policy/ranges.js';
import { formatReason } from '../policy/reason.js';
import { DEFAULT_COLUMNS, wrapLine } from './consoleTable.js';

/** The directives a layer obeys (canonical Cache-Control form) and the field they came from. */
export interface DirectivesInForce {
  readonly from: 'Cache-Control' | 'CDN-Cache-Control';
  readonly value: string;
}

/** What `cdnsim explain --json` prints for one layer. Keys are stable. */
export interface ExplainRecord {
  readonly layer: string;
  readonly cacheable: boolean;
  readonly ttlSeconds: number;
  readonly freshnessLifetimeSeconds: number;
  readonly freshnessSource: string | null;
  readonly initialAgeSeconds: number;
  readonly staleWhileRevalidateSeconds: number;
  readonly staleIfErrorSeconds: number;
  readonly staleIfUnreachableSeconds: number;
  readonly revalidateAlways: boolean;
  readonly neverServeStale: boolean;
  readonly immutable: boolean;
  readonly errorCaching: boolean;
  readonly key: string;
  readonly directives: DirectivesInForce;
  /** spec 4.8: the chunks a Range request needs; null without Range or without Content-Length. */
  readonly rangeChunks: RangePlan | 'invalid' | 'unsatisfiable' | null;
  readonly reasons: readonly string[];
}

export function explainRecord(decision: CacheDecision, directives: DirectivesInForce, rangeChunks: ExplainRecord['rangeChunks']): ExplainRecord {
  return {
    layer: decision.layer,
    cacheable: decision.store,
    ttlSeconds: roundSeconds(decision.ttlSeconds),
    freshnessLifetimeSeconds: decision.freshnessLifetimeSeconds,
    freshnessSource: decision.freshnessSource ?? null,
    initialAgeSeconds: roundSeconds(decision.initialAgeSeconds),
    staleWhileRevalidateSeconds: decision.staleWhileRevalidateSeconds,
    staleIfErrorSeconds: decision.staleIfErrorSeconds,
    staleIfUnreachableSeconds: decision.staleIfUnreachableSeconds,
    revalidateAlways: decision.revalidateAlways,
    neverServeStale: decision.neverServeStale,
    immutable: decision.immutable,
    errorCaching: decision.errorCaching,
    key: decision.key,
    directives,
    rangeChunks,
    reasons: decision.reasons.map(formatReason),
  };
}

/** Millisecond precision is all a simulated clock has; an infinite figure (a lifetime that never ends) stays a large finite number in JSON. */
function roundSeconds(seconds: number): number {
  if (!Number.isFinite(seconds)) return Number.MAX_SAFE_INTEGER;
  return Math.round(seconds * 1000) / 1000;
}

export interface ExplainContext {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly deployment: Deployment;
  readonly nowText: string;
  /** The directives each decision's layer obeys, in the order of the decisions. */
  readonly directives: readonly DirectivesInForce[];
  readonly rangeChunks: ExplainRecord['rangeChunks'];
}

/** The human form: the decision in a few lines, then every rule that fired with its source; folded to `columns`, each line continuing under its text. */
export function explainText(decisions: readonly CacheDecision[], context: ExplainContext, columns: number = DEFAULT_COLUMNS): string {
  const { deployment } = context;
  const kind = deployment.kind === 'full-stack' ? `full-stack (framework segment /_${deployment.framework}/)` : deployment.kind;
  const lines = [
    `${context.method} ${context.url} → ${context.status}`,
    `deployment: ${kind}${deployment.cdnEnabled ? '' : ', CDN disabled'}; now: ${context.nowText}`,
  ];
  const range = rangeLine(context.rangeChunks);
  if (range) lines.push(range);
  decisions.forEach((decision, index) => {
    const directives = context.directives[index];
    lines.push('', `${decision.layer} (${decision.layer === 'browser' ? 'private' : 'shared'} cache)`);
    lines.push(`  key:    ${decision.key}`);
    lines.push(`  obeys:  ${directives.value || '(no directives)'} [${directives.from}]`);
    lines.push(`  stored: ${storedLine(decision)}`);
    if (decision.store) {
      lines.push(`  stale:  ${staleLine(decision)}`);
      if (decision.layer !== 'browser' && !decision.errorCaching) lines.push(`  5xx:    ${errorBurstLine(decision)}`);
    }
    lines.push('  why:');
    decision.reasons.forEach((entry, number) => lines.push(`    ${String(number + 1).padStart(2)}. ${entry.rule} [${entry.source}]`));
  });
  return `${lines.flatMap((line) => wrapLine(line, columns, ' '.repeat(labelWidth(line)))).join('\n')}\n`;
}

/** How far past its indent a line's text starts: after "stale:  " or " 4. ", where its continuation lines go. */
function labelWidth(line: string): number {
  const label = /^( *)((?:\d+\.|[a-z0-9]+:) +)/.exec(line);
  return label === null ? 2 : label[2].length;
}

function rangeLine(plan: ExplainRecord['rangeChunks']): string | undefined {
  if (plan === null) return undefined;
  if (plan === 'invalid') return 'range:  not a valid byte-range set, so it is ignored and the whole object is served [RFC 9110 §14.2]';
  if (plan === 'unsatisfiable') return 'range:  no requested range overlaps the object: 416 [RFC 9110 §14.1.1]';
  const parts = plan.ranges.map((range) => `bytes ${range.first}-${range.last} → chunk${range.firstChunk === range.lastChunk ? ` ${range.firstChunk}` : `s ${range.firstChunk}–${range.lastChunk}`}`);
  return `range:  ${parts.join(', ')}; ${plan.chunksNeeded} of ${plan.chunkCount} chunks of ${plan.chunkBytes} B [spec 4.8]`;
}

function storedLine(decision: CacheDecision): string {
  if (!decision.store) return 'no';
  if (decision.revalidateAlways) return 'yes, but revalidated with the origin before every reuse (ttl 0 s)';
  const age = decision.initialAgeSeconds > 0 ? `, ${formatDuration(decision.initialAgeSeconds)} old on arrival` : '';
  const source = decision.freshnessSource ? ` [${decision.freshnessSource}]` : '';
  if (decision.ttlSeconds <= 0) return `yes, already stale (lifetime ${formatDuration(decision.freshnessLifetimeSeconds)}${age})${source}`;
  const lifetime = decision.ttlSeconds === decision.freshnessLifetimeSeconds ? '' : ` of a ${formatDuration(decision.freshnessLifetimeSeconds)} lifetime${age}`;
  return `yes, fresh for ${formatDuration(decision.ttlSeconds)}${lifetime}${source}${decision.immutable ? ', immutable' : ''}`;
}

function staleLine(decision: CacheDecision): string {
  if (decision.neverServeStale) return 'never served stale';
  return (
    `served stale for ${formatDuration(decision.staleWhileRevalidateSeconds)} while revalidating, ` +
    `${formatDuration(decision.staleIfErrorSeconds)} in place of a 5xx, ${formatDuration(decision.staleIfUnreachableSeconds)} when the origin is unreachable`
  );
}

/**
 * spec 7.1 at a shared layer: how an error burst meets this content. The origin sees about
 * one request per key per node per 5 s either way; the client gets a stale copy only within
 * explicit permission (RFC 9111 §4.2.4).
 */
function errorBurstLine(decision: CacheDecision): string {
  const stale = decision.staleIfErrorSeconds > 0 ? `the stored copy (up to ${formatDuration(decision.staleIfErrorSeconds)} past expiry)` : 'the cached error';
  return `a 500 is held ${DEFAULT_POLICY_OPTIONS.errorCachingSeconds} s (spec 7.1: about one origin request per key per node per ${DEFAULT_POLICY_OPTIONS.errorCachingSeconds} s); meanwhile clients get ${stale}`;
}

const UNITS: readonly [number, string][] = [
  [31_536_000, 'y'],
  [86_400, 'd'],
  [3_600, 'h'],
  [60, 'min'],
];

/** "31536000 s (1 y)": seconds always, the largest whole unit alongside when it helps. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '∞ s';
  const whole = Math.round(seconds * 1000) / 1000;
  for (const [size, unit] of UNITS) {
    if (whole >= size && whole % size === 0) return `${whole} s (${whole / size} ${unit})`;
  }
  return `${whole} s`;
}
