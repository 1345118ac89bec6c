import {
  REVALIDATING_LAYERS,
  SERVING_LAYERS,
  type EntryReplay,
  type EntryVisit,
  type HarReplayResult,
  type LayerVerdict,
} from '../experiment/harReplay.js';
import type { Deployment } from '../policy/deployment.js';
import { formatBytes } from '../units.js';
import { DEFAULT_COLUMNS, formatTable, formatTableWithin, widestLine, wrapText, type Align } from './consoleTable.js';
import type { SkippedTraffic, SkipReason } from '../recorded/realTraffic/trafficRecord.js';

/** The reasons a HAR reader skips entries for (access-log reasons left out). */
const HAR_SKIP_REASONS: readonly SkipReason[] = ['non-http-url', 'no-response', 'bad-entry'];

/** What `cdnsim har --json` prints. Keys are stable; the same input gives the same bytes. */
export interface HarReportDocument {
  readonly file: string;
  readonly deployment: Deployment;
  /** The first request's recorded start, ISO 8601. */
  readonly recordedAt: string;
  readonly pageHost: string;
  readonly visits: HarReplayResult['visits'];
  readonly entries: readonly {
    readonly entry: number;
    readonly url: string;
    readonly method: string;
    readonly status: number;
    readonly bodyBytes: number;
    readonly visits: readonly EntryVisit[];
    readonly edge: LayerVerdict;
    readonly browser: LayerVerdict;
  }[];
  readonly skipped: {
    /** Entries the reader passed over, by reason. */
    readonly entries: number;
    readonly byReason: Readonly<Partial<Record<SkipReason, number>>>;
    readonly examples: readonly { readonly entry: number | null; readonly reason: SkipReason; readonly detail: string }[];
    /** Recorded 304s: the recording browser's revalidations, not used as origin responses. */
    readonly notModifiedResponses: number;
    /** URLs the HAR holds only as 304s: the origin answers them with a 200 built from the 304. */
    readonly builtFromNotModified: HarReplayResult['standIns'];
  };
}

export function harReportDocument(file: string, result: HarReplayResult, skipped: SkippedTraffic): HarReportDocument {
  const byReason: Partial<Record<SkipReason, number>> = {};
  for (const reason of HAR_SKIP_REASONS) byReason[reason] = skipped.byReason[reason];
  return {
    file,
    deployment: { kind: result.deployment.kind, framework: result.deployment.framework, cdnEnabled: result.deployment.cdnEnabled },
    recordedAt: new Date(result.recordedStartMs).toISOString(),
    pageHost: result.pageHost,
    visits: result.visits,
    entries: result.entries.map((entry) => ({
      entry: entry.entry,
      url: entry.url,
      method: entry.method,
      status: entry.status,
      bodyBytes: entry.bodyBytes,
      visits: entry.visits,
      edge: entry.edge,
      browser: entry.browser,
    })),
    skipped: {
      entries: skipped.total,
      byReason,
      examples: skipped.examples.map((example) => ({ entry: example.source.entry ?? null, reason: example.reason, detail: example.detail })),
      notModifiedResponses: result.recordedNotModified,
      builtFromNotModified: result.standIns,
    },
  };
}

export function harReportJson(document: HarReportDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

// ---------------------------------------------------------------------------------------
// The human form

/** The replay for the terminal, in `columns` (issue 26): the why of each entry is listed under the table, once per rule. */
export function harReportText(document: HarReportDocument, columns: number = DEFAULT_COLUMNS): string {
  const lines: string[] = [];
  const hosts = new Set(document.entries.map((entry) => new URL(entry.url).host));
  const visitCount = document.visits.length;
  lines.push(`${document.file}: ${document.entries.length} requests to ${plural(hosts.size, 'host')} (page: ${document.pageHost}), recorded ${document.recordedAt}`);
  lines.push(`deployment: ${deploymentText(document.deployment)}; browser → edge → regional → origin (spec 4.9)`);
  lines.push(visitsText(document));
  lines.push('');
  lines.push(visitTable(document, columns));
  lines.push('');
  lines.push(`served by, per visit ("(304 origin)": the cache's copy, after the origin answered 304 Not Modified; "(stale)": served stale)`);
  lines.push(entryTable(document, visitCount, columns));
  lines.push(...whySection(document));
  lines.push(...notStoredSection(document));
  lines.push(...alwaysRevalidatedSection(document));
  lines.push(...skippedSection(document));
  return `${wrapText(lines.join('\n'), columns, '    ')}\n`;
}

function deploymentText(deployment: Deployment): string {
  const kind = deployment.kind === 'full-stack' ? `full-stack (framework segment /_${deployment.framework}/)` : deployment.kind;
  return `${kind}${deployment.cdnEnabled ? '' : ', CDN disabled'}`;
}

function visitsText(document: HarReportDocument): string {
  const visits = document.visits;
  if (visits.length === 1) return 'visits: 1';
  const interval = visits[1].startMs;
  const clients = visits[1].newClient ? 'each by a new client (empty browser cache, warm CDN)' : 'by the same client';
  return `visits: ${visits.length}, ${durationText(interval / 1000)} apart, ${clients}`;
}

function visitTable(document: HarReportDocument, columns: number): string {
  const header = ['visit', 'start', 'requests', ...SERVING_LAYERS, '304 from edge/regional/origin', 'origin requests', 'origin bytes', 'client bytes'];
  const rows = document.visits.map((visit, index) => [
    String(index + 1),
    visit.startMs === 0 ? '0 s' : `+${durationText(visit.startMs / 1000)}`,
    String(visit.requests),
    ...SERVING_LAYERS.map((layer) => String(visit.servedBy[layer])),
    REVALIDATING_LAYERS.map((layer) => String(visit.revalidated[layer])).join('/'),
    String(visit.originRequests),
    formatBytes(visit.originBytes),
    formatBytes(visit.clientBytes),
  ]);
  return formatTableWithin(header, rows, columns, ['left', 'left', ...header.slice(2).map((): Align => 'right')]);
}

function entryTable(document: HarReportDocument, visitCount: number, columns: number): string {
  const visitHeaders = Array.from({ length: visitCount }, (_, index) => `visit ${index + 1}`);
  const header = ['#', 'method', 'url', 'status', ...visitHeaders, 'edge ttl', 'why'];
  const align: Align[] = ['right', 'left', 'left', 'right', ...visitHeaders.map((): Align => 'left'), 'right', 'right'];
  const rowsWith = (urlWidth: number) =>
    document.entries.map((entry) => [
      String(entry.entry),
      entry.method,
      shortUrl(entry.url, document.pageHost, urlWidth),
      String(entry.status),
      ...entry.visits.map(servedText),
      ttlText(entry.edge),
      whyMark(document, entry.edge.reason),
    ]);
  // The URL column takes what the others leave of the line (URLs are cut in the middle), down to MIN_URL_WIDTH.
  const others = formatTable(header, rowsWith(3), align);
  const urlWidth = Math.max(MIN_URL_WIDTH, Math.min(URL_WIDTH, columns - widestLine(others) + 3));
  return formatTableWithin(header, rowsWith(urlWidth), columns, align);
}

/** The edge's reasons, each once, in the order the entries first give them: the table's "why" column names them [1], [2], …. */
function edgeReasons(document: HarReportDocument): string[] {
  return [...new Set(document.entries.map((entry) => entry.edge.reason))];
}

const whyMark = (document: HarReportDocument, reason: string): string => `[${edgeReasons(document).indexOf(reason) + 1}]`;

/** Why the edge kept each entry as long as it did: one line per rule (a column of them ran the table to 200 columns). */
function whySection(document: HarReportDocument): string[] {
  return ['', 'why (at the edge):', ...edgeReasons(document).map((reason, index) => `  [${index + 1}] ${reason}`)];
}

function servedText(visit: EntryVisit): string {
  if (visit.revalidatedAt !== null) return `${visit.servedBy} (304 ${visit.revalidatedAt})`;
  return visit.stale ? `${visit.servedBy} (stale)` : visit.servedBy;
}

function ttlText(verdict: LayerVerdict): string {
  return verdict.cacheable ? durationText(verdict.ttlSeconds) : 'not stored';
}

/** Entries no shared cache stores: every visitor's request reaches the origin. */
function notStoredSection(document: HarReportDocument): string[] {
  const entries = uniqueRequests(document.entries.filter((entry) => !entry.edge.cacheable));
  if (entries.length === 0) return ['', 'Every request is stored by the CDN.'];
  const lines = ['', `Not stored by the CDN (${plural(entries.length, 'request')}: every visitor's goes to the origin):`];
  for (const entry of entries) {
    const browser = entry.browser.cacheable ? `; the browser keeps it for ${durationText(entry.browser.ttlSeconds)}` : '';
    lines.push(`  ${entry.method} ${shortUrl(entry.url, document.pageHost)}: ${entry.edge.reason}${browser}`);
  }
  return lines;
}

/** Stored with nothing left to serve fresh: each reuse waits for a 304 from upstream. */
function alwaysRevalidatedSection(document: HarReportDocument): string[] {
  const entries = uniqueRequests(document.entries.filter((entry) => entry.edge.cacheable && entry.edge.ttlSeconds === 0));
  if (entries.length === 0) return [];
  const lines = ['', `Stored by the CDN with a ttl of 0 (${plural(entries.length, 'request')}: every reuse is revalidated with the origin):`];
  for (const entry of entries) lines.push(`  ${entry.method} ${shortUrl(entry.url, document.pageHost)}: ${entry.edge.reason}`);
  return lines;
}

function skippedSection(document: HarReportDocument): string[] {
  const { skipped } = document;
  const lines: string[] = [];
  if (skipped.entries > 0) {
    const counts = HAR_SKIP_REASONS.filter((reason) => (skipped.byReason[reason] ?? 0) > 0).map((reason) => `${skipped.byReason[reason]} ${reason}`);
    lines.push('', `Skipped ${plural(skipped.entries, 'entry', 'entries')} (${counts.join(', ')}):`);
    for (const example of skipped.examples) lines.push(`  entry ${example.entry ?? '?'}: ${example.reason}: ${shorten(example.detail, 160)}`);
    if (skipped.examples.length < skipped.entries) lines.push(`  … and ${skipped.entries - skipped.examples.length} more`);
  }
  if (skipped.notModifiedResponses > 0) {
    lines.push('', `${plural(skipped.notModifiedResponses, 'recorded 304')} (the recording browser's revalidations) not used as origin responses.`);
    if (skipped.builtFromNotModified.length > 0) {
      lines.push('The HAR has no full response for these; the origin answers them with a 200 made of the 304\'s header fields and the cached body size:');
      for (const standIn of skipped.builtFromNotModified) lines.push(`  entry ${standIn.entry}: ${standIn.method} ${shortUrl(standIn.url, document.pageHost)}`);
    }
  }
  return lines;
}

/** The first entry of each (method, URL), in order. */
function uniqueRequests<T extends Pick<EntryReplay, 'method' | 'url'>>(entries: readonly T[]): T[] {
  const seen = new Set<string>();
  return entries.filter((entry) => {
    const key = `${entry.method} ${entry.url}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// ---------------------------------------------------------------------------------------
// Formatting

const URL_WIDTH = 56;
const MIN_URL_WIDTH = 24;

/** The page's own URLs as path + query, other hosts' with the host; long ones cut in the middle, where hashes are least telling. */
export function shortUrl(url: string, pageHost: string, width: number = URL_WIDTH): string {
  const parsed = new URL(url);
  const text = parsed.host === pageHost ? `${parsed.pathname}${parsed.search}` : `${parsed.host}${parsed.pathname}${parsed.search}`;
  if (text.length <= width) return text;
  const tail = Math.floor((width - 1) / 2);
  return `${text.slice(0, width - 1 - tail)}…${text.slice(text.length - tail)}`;
}

const UNITS: readonly (readonly [number, string])[] = [
  [31_536_000, 'y'],
  [86_400, 'd'],
  [3_600, 'h'],
  [60, 'min'],
];

/** Seconds in the largest whole unit ("1 y", "10 min"), else in seconds ("59.418 s"). */
function durationText(seconds: number): string {
  for (const [size, unit] of UNITS) if (seconds >= size && seconds % size === 0) return `${seconds / size} ${unit}`;
  return `${Math.round(seconds * 1000) / 1000} s`;
}

function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

function shorten(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

