import { formatBytes } from '../units.js';
import { formatSimTime } from '../workload/incidents/simTime.js';
import { adaptiveLine } from './adaptiveReport.js';
import { DEFAULT_COLUMNS, fits, formatCount, formatMs, formatPercent, formatTable, formatTableWithin, wrapLine } from './consoleTable.js';
import { REGIONS, STATED_REGION_LATENCY_MS } from '../topology/regions.js';
import type { CapacitySummary, EdgeCaching, LatencyFigures, NodeFiguresRow, Summary } from './summary.js';
import type { IncidentRow } from './incidentRows.js';
import { statedText } from './statedTable.js';
import { warmupText } from './warmupSummary.js';

/** How the run's text is laid out: its width, and whether the stated table is shown whole. */
export interface SummaryTextOptions {
  /** Columns the text fits (at least 80; src/cli/terminalColumns.ts). */
  columns: number;
  /** The whole stated-figures table (a scenario with `modelsService: true`, or `run --stated`); else one line. */
  statedTable: boolean;
}

export const DEFAULT_SUMMARY_TEXT_OPTIONS: SummaryTextOptions = { columns: DEFAULT_COLUMNS, statedTable: false };

/**
 * The human summary `cdnsim run` prints, in `columns` (issue 26). It opens with the figures
 * that size a CDN: the CDN and edge hit ratios, the origin's load (mean and peak requests/s
 * and Gbit/s), the busiest PoP against its uplink, latency by region; then the stated
 * figures (one line, or the whole table for a scenario that models the service); then the
 * rest: hit ratios per layer, latency per serving layer, the busiest PoPs, incidents, what
 * the nodes did, the caches and the content classes. Tables wider than `columns` give way
 * to a narrower version and the CSV file that has them whole.
 */
export function summaryText(summary: Summary, options: SummaryTextOptions = DEFAULT_SUMMARY_TEXT_OPTIONS): string {
  const { columns } = options;
  const lines: string[] = [];
  const wrapped = (line: string) => lines.push(...wrapLine(line, columns));
  wrapped(
    `${summary.scenario} · seed ${summary.seed} · ${formatCount(summary.requests)} request${summary.requests === 1 ? '' : 's'} measured` +
      ` ${warmupText(summary.warmup)} · ${summary.simulatedSeconds.toFixed(1)} s simulated` +
      // The catalogue beside the run: a cache's capacity means something only against it.
      ` · catalogue ${formatCount(summary.catalogue.objects)} objects, ${formatBytes(summary.catalogue.bytes)}`,
  );
  // docs/warmup.md: a warm-up that hit its cap while the hit ratios still rose measures caches still filling.
  if (summary.warmup.warning !== undefined) wrapped(`warning: ${summary.warmup.warning}`);
  lines.push('');
  // Nothing measured: every ratio and latency would be "0.00" where there is no figure at all.
  if (summary.requests === 0) {
    wrapped('no request was measured, so no hit ratio or latency: the warm-up used the whole run');
    return lines.join('\n');
  }
  // The answer first: the figures a CDN is sized by.
  for (const line of answerLines(summary)) wrapped(line);
  lines.push('');
  // Regions without clients have no latency to show (0.00 would read as instant).
  const regions = Object.entries(summary.latencyMs.byRegion).filter(([, figures]) => figures.count > 0);
  lines.push(formatTableWithin(LATENCY_HEADER('latency (ms)'), [latencyRow('all', summary.latencyMs.all), ...regions.map(([region, figures]) => latencyRow(region, figures))], columns));
  lines.push('');
  // Is this run within what the service states (spec 1.1, 4.8, 4.9, 7.1, 8)? Whole only where the scenario models the service.
  lines.push(statedText(summary.stated, { whole: options.statedTable, columns }));
  lines.push('');
  const layers = Object.keys(summary.hitRatio);
  // Per lookup: each cache's own hit ratio (a request coalesced at a PoP is not a lookup at the regional site); blank for browser and cdn.
  const perLookup = (figures: Record<string, number>) => layers.map((layer) => (figures[layer] === undefined ? '' : formatPercent(figures[layer])));
  lines.push(
    formatTableWithin(
      ['', ...layers],
      [
        ['hit ratio per request', ...layers.map((layer) => formatPercent(summary.hitRatio[layer]))],
        ['byte hit ratio per request', ...layers.map((layer) => formatPercent(summary.byteHitRatio[layer]))],
        ['hit ratio per lookup', ...perLookup(summary.lookupHitRatio)],
        ['byte hit ratio per lookup', ...perLookup(summary.lookupByteHitRatio)],
      ],
      columns,
    ),
  );
  wrapped(byteLine(summary));
  lines.push('');
  lines.push(
    formatTableWithin(
      LATENCY_HEADER('latency by layer (ms)'),
      [
        ...Object.entries(summary.latencyMs.byLayer).map(([layer, figures]) => latencyRow(`served by ${layer}`, figures)),
        ...(summary.transferMs ? [latencyRow('body transfer (uplink)', summary.transferMs)] : []),
      ],
      columns,
    ),
  );
  lines.push('');
  lines.push(...edgeHitsByRegion(summary, columns));
  if (summary.capacity) lines.push(busiestPops(summary.capacity, columns), '');
  if (summary.incidents.length > 0) lines.push(formatTableWithin(INCIDENT_HEADER, incidentRows(summary), columns), '');
  for (const line of cdnLines(summary)) wrapped(line);
  if (summary.adaptive) wrapped(adaptiveLine(summary.adaptive));
  lines.push('');
  lines.push(nodeTable('edge cache', summary.edges, columns));
  if (summary.regionals.length > 0) {
    lines.push('');
    lines.push(nodeTable('regional cache', summary.regionals, columns));
  }
  if (summary.theory?.model === 'che-lru') {
    wrapped(
      `theory (Che's approximation, LRU in steady state): each edge ${formatPercent(summary.theory.edgeHitRatio)} hit ratio, ` +
        `${formatPercent(summary.theory.edgeByteHitRatio)} byte hit ratio`,
    );
  } else if (summary.theory?.model === 'ttl') {
    wrapped(
      `theory (TTL cache, λ(T−D)/(1+λT) per object, miss delay D = ${formatMs((summary.theory.missDelaySeconds ?? 0) * 1000)} ms): all edges ${formatPercent(summary.theory.edgeHitRatio)} hit ratio, ` +
        `${formatPercent(summary.theory.edgeByteHitRatio)} byte hit ratio`,
    );
  }
  if (summary.edgeCaching) wrapped(`edge caching (policy engine): ${edgeCachingLine(summary.edgeCaching)}`);
  else lines.push('', classTable(summary.contentClasses, columns));
  return lines.join('\n');
}

const LATENCY_HEADER = (title: string): string[] => [title, 'requests', 'mean', 'p50', 'p90', 'p95', 'p99', 'p99.9'];

function latencyRow(label: string, figures: LatencyFigures): string[] {
  return [label, formatCount(figures.count), formatMs(figures.mean), formatMs(figures.p50), formatMs(figures.p90), formatMs(figures.p95), formatMs(figures.p99), formatMs(figures.p999)];
}

/**
 * The opening lines: CDN and edge hit ratio (hitRatio.cdn, hitRatio.edge), the origin's load
 * (capacity.origin) and the busiest PoP against its uplink (capacity.busiest[0], the PoP
 * capacity.pops names).
 */
function answerLines(summary: Summary): string[] {
  const { hitRatio, byteHitRatio } = summary;
  const lines: string[] = [];
  if (hitRatio.cdn !== undefined) {
    // Of the requests that reached the edge (DESIGN's one definition; browser hits never do).
    lines.push(`CDN hit ratio ${formatPercent(hitRatio.cdn)} · edge hit ratio ${formatPercent(hitRatio.edge ?? 0)} · CDN byte hit ratio ${formatPercent(byteHitRatio.cdn ?? 0)}`);
  } else {
    // deployment.cdn: false (spec 1.3): no CDN answers, every request past the browser goes to the origin.
    lines.push(`no CDN (deployment.cdn: false) · origin offload ${formatPercent(summary.originOffload)}`);
  }
  lines.push(...originLoadLines(summary));
  const busiest = summary.capacity?.busiest[0];
  if (busiest !== undefined) {
    const name = busiest.region === undefined || busiest.region === busiest.name ? busiest.name : `${busiest.name} (${busiest.region})`;
    const peak = `peaks at ${formatGbit(busiest.peakEgressGbitPerSecond1s)} over 1 s`;
    lines.push(
      busiest.uplinkGbitPerSecond === undefined || busiest.uplinkShare1s === undefined
        ? `busiest edge cache: ${name} ${peak}, ${formatCount(busiest.peakRequestsPerSecond)} requests/s (no uplink modelled)`
        : `busiest PoP: ${name} ${peak}, ${formatPercent(busiest.uplinkShare1s)} of its ${formatGbit(busiest.uplinkGbitPerSecond)} uplink`,
    );
  }
  return lines;
}

/** Bytes against what clients asked for (docs/byte-figures.md): byte hit ratios count per 5 MB chunk (spec 4.8). */
function byteLine(summary: Summary): string {
  const clientBytes = Object.values(summary.bytesByLayer).reduce((sum, bytes) => sum + bytes, 0);
  const offload = summary.originByteOffload;
  return (
    `bytes: clients asked for ${formatBytes(clientBytes)}, the origin sent ${formatBytes(summary.cdn.origin.bytes)} · origin byte offload ${formatPercent(offload)}` +
    (offload < 0 ? ' (negative: whole 5 MB chunks fetched for smaller ranges exceed what clients read, spec 4.8)' : '')
  );
}

/**
 * Responses older than the origin's version: a count first, so a share that rounds to 0.00 %
 * is not read as none ("0.000 % outdated, worst 10.8 s" looked contradictory).
 */
function outdatedLine(staleness: Summary['cdn']['staleness']): string {
  if (staleness.responses === 0) return 'outdated responses: none (no response older than the origin\'s version)';
  const share = staleness.share < 0.00005 ? 'under 0.01 %' : formatPercent(staleness.share);
  return `outdated responses ${formatCount(staleness.responses)} (${share}), mean ${staleness.meanSeconds} s, worst ${staleness.maxSeconds} s behind the origin`;
}

/** What the nodes did on the clock: coalescing, revalidation, stale serves, errors, staleness, the origin. */
function cdnLines(summary: Summary): string[] {
  const { cdn } = summary;
  return [
    `availability ${formatPercent(cdn.availability)} · errors ${formatCount(cdn.errors.responses)} (${formatCount(cdn.errors.cachedErrorsServed)} cached, spec 7.1)` +
      ` · coalesced ${formatCount(cdn.coalescedRequests.edge)} at edges, ${formatCount(cdn.coalescedRequests.regional)} at regional sites${cdn.coalescing ? '' : ' (coalescing off)'}`,
    `stale served: ${formatCount(cdn.staleServed.whileRevalidate)} while revalidating, ${formatCount(cdn.staleServed.originError)} on origin errors,` +
      ` ${formatCount(cdn.staleServed.originUnreachable)} with the origin unreachable · revalidated (304) ${formatCount(cdn.revalidatedRequests)}`,
    outdatedLine(cdn.staleness),
    ...originLines(summary),
  ];
}

/** The origin's requests (docs/origin-accounting.md): the offload they give, then by cause and by response, each adding up to the count. */
function originLines(summary: Summary): string[] {
  const { origin } = summary.cdn;
  const cause = origin.byCause;
  return [
    `origin: ${formatCount(origin.requests)} requests, offload ${formatPercent(summary.originOffload)}`,
    `  by cause: ${formatCount(cause.miss)} misses, ${formatCount(cause.expired)} expired copies, ${formatCount(cause.errorRetry)} cached-error retries,` +
      ` ${formatCount(cause.purged)} after purges, ${formatCount(cause.backgroundRevalidation)} background revalidations`,
    `  by answer: ${formatCount(origin.fullResponses)} bodies (${formatBytes(origin.bytes)}), ${formatCount(origin.notModified)} answered 304, ${formatCount(origin.errors)} errors, ${formatCount(origin.refused)} refused`,
  ];
}

/**
 * The origin's load as a rate with its peaks (summary.json capacity.origin, docs/capacity.md):
 * an origin is sized by its peak, not by the count over the run.
 */
function originLoadLines(summary: Summary): string[] {
  const capacity = summary.capacity;
  const load = capacity?.origin;
  if (capacity === undefined || load === undefined) return [];
  const rate = (perSecond: number): string => (perSecond >= 100 ? formatCount(Math.round(perSecond)) : perSecond.toFixed(1));
  const gbps = (value: number): string => (value >= 10 ? value.toFixed(1) : value.toPrecision(2));
  return [
    // A run measured for under a minute has no 60 s window: its "60 s peak" is its total / 60.
    `origin load: ${rate(load.meanRequestsPerSecond)} requests/s mean, peak ${formatCount(load.peakRequestsPerSecond1s)} in 1 s` +
      (capacity.measuredSeconds >= 60 ? `, ${rate(load.peakRequestsPerSecond60s)}/s over 60 s` : ''),
    `origin egress: ${gbps(load.meanGbps)} Gbit/s mean, peak ${gbps(load.peakGbps1s)} over 1 s` + (capacity.measuredSeconds >= 60 ? `, ${gbps(load.peakGbps60s)} over 60 s` : ''),
  ];
}

/**
 * Each incident's window: what clients got, and the origin's load against the window just
 * before. A repeated entry is one line over all its occurrences, then the occurrence that
 * stood out: the lowest availability, or for a deploy the most origin requests (its purge
 * spike); every occurrence has its row in summary.json.
 */
const INCIDENT_HEADER = ['incident', 'requests', 'availability', 'stale served', 'origin requests', 'just before'];

function incidentRows(summary: Summary): string[][] {
  const figures = (row: { requests: number; availability: number; staleServed: number; originRequests: number; originRequestsBefore: number }): string[] => [
    formatCount(row.requests),
    // No request in the window: nothing was available or not (the run may have ended before it).
    row.requests === 0 ? '–' : formatPercent(row.availability),
    formatCount(row.staleServed),
    formatCount(row.originRequests),
    formatCount(row.originRequestsBefore),
  ];
  // An incident after the run's end has no figures: "0 requests, 0 stale served" would read as one weathered.
  const shown = (row: IncidentRow): string[] => (row.happened === false ? ['–', '–', '–', '–', '–'] : figures(row));
  const repeated = new Map((summary.repeatedIncidents ?? []).map((row) => [row.entry, row]));
  const rows = summary.incidents.flatMap((row) => {
    if (row.entry === undefined) return [[row.label, ...shown(row)]];
    const entry = repeated.get(row.entry);
    if (row.occurrence !== 1 || entry === undefined) return [];
    const byOrigin = entry.kind === 'deploy';
    const standout = byOrigin ? entry.peakOccurrence : entry.worstOccurrence;
    const occurrence = summary.incidents.find((other) => other.entry === entry.entry && other.occurrence === standout)!;
    const why = byOrigin ? 'most origin requests' : 'lowest availability';
    return [
      [entry.label, ...figures(entry)],
      [`  ${why}: #${standout}, ${formatSimTime(Math.round(occurrence.fromSeconds * 1000))}–${formatSimTime(Math.round(occurrence.toSeconds) * 1000)}`, ...figures(occurrence)],
    ];
  });
  return rows;
}

/** Gbit/s to three significant figures or so; an uplink's whole number as it is (100, 10). */
const formatGbit = (gbit: number): string => `${Number.isInteger(gbit) ? gbit : gbit >= 10 ? gbit.toFixed(1) : gbit >= 0.1 ? gbit.toFixed(2) : gbit.toFixed(3)} Gbit/s`;

/** The PoPs closest to their uplink (spec 1.1: 100 Gbit/s at major PoPs; 10 Gbit/s assumed at minor ones): the capacity planner's bottlenecks. */
function busiestPops(capacity: CapacitySummary, columns: number): string {
  const share = (value: number | undefined) => (value === undefined ? '–' : formatPercent(value));
  // Model regions: an edge per region, named after it, and no uplinks.
  const pops = capacity.busiest.some((pop) => pop.uplinkGbitPerSecond !== undefined);
  return `${formatTableWithin(
    [pops ? 'busiest PoPs' : 'busiest edge caches', 'uplink', 'peak 1 s', 'of uplink', 'peak 60 s', 'of uplink', 'peak requests/s'],
    capacity.busiest.map((pop) => [
      pop.region === undefined || pop.region === pop.name ? pop.name : `${pop.name} (${pop.region})`,
      pop.uplinkGbitPerSecond === undefined ? '–' : formatGbit(pop.uplinkGbitPerSecond),
      formatGbit(pop.peakEgressGbitPerSecond1s),
      share(pop.uplinkShare1s),
      formatGbit(pop.peakEgressGbitPerSecond60s),
      share(pop.uplinkShare60s),
      formatCount(pop.peakRequestsPerSecond),
    ]),
    columns,
  )}\n(egress to clients; every PoP: pops.csv)`;
}

/**
 * Per content class: its share of requests, the edge TTL the engine gave it, and its hit
 * ratios. Where the headers come from is a sentence per source below the table (it is
 * prose, a column of it ran the table past 250 columns); a table still too wide for
 * `columns` leaves the catalogue and the new objects to classes.csv.
 */
function classTable(classes: Summary['contentClasses'], columns: number): string {
  const total = classes.reduce((sum, klass) => sum + klass.requests, 0);
  const browsers = classes.some((klass) => klass.browserHitRatio !== undefined);
  const build = (wide: boolean) =>
    formatTableWithin(
      [
        'content class',
        'requests',
        'share',
        ...(wide ? ['catalogue'] : []),
        'edge TTL',
        ...(browsers ? ['browser hit ratio'] : []),
        'edge hit ratio',
        'CDN hit ratio',
        'CDN byte hit ratio',
        ...(wide ? ['new (1-hit) / updates'] : []),
      ],
      classes.map((klass) => [
        klass.name,
        formatCount(klass.requests),
        formatPercent(total === 0 ? 0 : klass.requests / total),
        ...(wide ? [`${formatCount(klass.objects)} · ${formatBytes(klass.catalogueBytes)}`] : []),
        !klass.cacheable ? 'not stored' : klass.ttlSeconds === null ? 'forever' : klass.ttlSeconds === 0 ? 'revalidate' : `${klass.ttlSeconds} s`,
        ...(browsers ? [formatPercent(klass.browserHitRatio ?? 0)] : []),
        formatPercent(klass.edgeHitRatio),
        formatPercent(klass.cdnHitRatio),
        formatPercent(klass.cdnByteHitRatio),
        ...(wide ? [`${formatCount(klass.newObjects)} (${formatCount(klass.oneHitWonders)}) / ${formatCount(klass.updates)}`] : []),
      ]),
      // The wide form is shown only whole; the narrow one splits into blocks if it must.
      wide ? Infinity : columns,
    );
  const wide = build(true);
  const table = fits(wide, columns) ? wide : `${build(false)}\n(each class's catalogue, new objects and updates — classes.csv)`;
  // One line per header source, naming its classes: most scenarios have two or three.
  const sources = new Map<string, string[]>();
  for (const klass of classes) sources.set(klass.headerSource, [...(sources.get(klass.headerSource) ?? []), klass.name]);
  const headerLines = [...sources].flatMap(([source, names]) => wrapLine(`headers of ${names.join(', ')}: ${source}`, columns));
  return [table, ...headerLines].join('\n');
}

function edgeCachingLine(caching: EdgeCaching): string {
  const headers = Object.entries(caching.responseHeaders).map(([name, value]) => `${name}: ${value}`).join('; ') || 'no caching headers';
  if (!caching.cacheable) return `${headers} → not stored (cdnsim explain shows why)`;
  return `${headers} → stored for ${caching.ttlSeconds === null ? 'ever' : `${caching.ttlSeconds} s`}`;
}

/** Nodes listed one per row up to this many; more (hundreds of PoPs) are summed per region. */
const MAX_NODE_ROWS = 16;

function nodeTable(title: string, nodes: readonly NodeFiguresRow[], columns: number): string {
  const stored = (bytes: number, objects: number) => `${formatBytes(bytes)} in ${formatCount(objects)} objects`;
  if (nodes.length <= MAX_NODE_ROWS) {
    return formatTableWithin(
      [title, 'requests', 'hit ratio', 'byte hit ratio', 'stored'],
      nodes.map((node) => [node.name, formatCount(node.requests), formatPercent(node.hitRatio), formatPercent(node.byteHitRatio), stored(node.storedBytes, node.storedObjects)]),
      columns,
    );
  }
  const rows = REGIONS.map((region) => {
    const inRegion = nodes.filter((node) => node.region === region);
    const requests = inRegion.reduce((sum, node) => sum + node.requests, 0);
    const hits = inRegion.reduce((sum, node) => sum + node.hitRatio * node.requests, 0);
    const busiest = [...inRegion].sort((a, b) => b.requests - a.requests || a.name.localeCompare(b.name)).slice(0, 3);
    return [
      region,
      `${inRegion.filter((node) => node.requests > 0).length} of ${inRegion.length}`,
      formatCount(requests),
      formatPercent(requests === 0 ? 0 : hits / requests),
      stored(
        inRegion.reduce((sum, node) => sum + node.storedBytes, 0),
        inRegion.reduce((sum, node) => sum + node.storedObjects, 0),
      ),
      busiest.map((node) => `${node.name} ${formatPercent(node.hitRatio)}`).join(', '),
    ];
  });
  const header = [`${title}s by region`, 'with traffic', 'requests', 'hit ratio', 'stored', 'busiest (hit ratio)'];
  const file = title === 'edge cache' ? 'pops.csv' : 'summary.json "regionals"';
  const wide = formatTable(header, rows);
  // Too wide with each region's three busiest: the table without them, and where each node's figures are.
  if (!fits(wide, columns)) return `${formatTableWithin(header.slice(0, -1), rows.map((row) => row.slice(0, -1)), columns)}\n(each ${title}'s own figures — ${file})`;
  return `${wide}\n(each ${title} — ${file})`;
}

/** Mean time to first byte of edge hits per region against the stated averages (spec 1.1). */
function edgeHitsByRegion(summary: Summary, columns: number): string[] {
  const rows = REGIONS.flatMap((region) => {
    const edge = summary.latencyMs.byRegionAndLayer[region]?.edge;
    if (!edge || edge.count === 0) return [];
    const [low, high] = STATED_REGION_LATENCY_MS[region];
    return [[region, formatCount(edge.count), formatMs(edge.mean), formatMs(edge.p50), formatMs(edge.p95), `${low}–${high}`]];
  });
  if (rows.length === 0) return [];
  return [formatTableWithin(['edge hits (ms)', 'requests', 'mean', 'p50', 'p95', 'stated mean (spec 1.1)'], rows, columns), ''];
}
