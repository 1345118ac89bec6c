import { csvText } from './csvTable.js';
import { CHUNK_SIZE_BYTES } from '../policy/ranges.js';
import type { RunResult } from '../experiment/runScenario.js';
import {
  CAPACITY_EXPECT_FIGURES,
  STATED_FIGURES,
  STATED_LONG_LIFETIME_SECONDS,
  STATED_REGION_IDS,
  STATED_STATIC_PAGE_SECONDS,
  STATED_STATIC_PAGE_SWR_SECONDS,
  type StatedFigure,
  type StatedUnit,
} from '../metrics/statedFigures.js';
import { outsideBy, verdictOf, type Bounds, type Verdict } from '../metrics/statedVerdict.js';
import { DEFAULT_UPLINK_BITS_PER_SECOND } from '../topology/bandwidth.js';
import { formatBytes } from '../units.js';
import { figureValue } from '../experiment/sweepGrid.js';
import { fits, formatCount, formatMs, formatTableWithin, wrapLine } from './consoleTable.js';
import type { LatencyFigures, Summary } from './summary.js';

/** One stated figure against the run (docs/stated-figures.md). */
export interface StatedRow {
  id: string;
  figure: string;
  /** What the row is checked against: the service's stated value, or the scenario's `expect`. */
  stated: string;
  /** The run's value in `unit` (ms, a ratio 0..1, a count, seconds, bytes); null when not applicable. */
  simulated: number | null;
  unit: StatedUnit;
  verdict: Verdict;
  /** How the value was taken, why it is not applicable, or why it is outside. */
  note: string;
}

/** A scenario's `expect`: bounds per row id, in the row's unit. */
export type Expectations = Readonly<Record<string, Bounds>>;

/** What a row found before judging: a value and how it was taken, or why there is none. */
type Reading = { value: number; note: string; verdict?: Verdict } | { value: null; note: string };

/** A row checked against the scenario's `expect` says so after its bounds: "at least 60.000 % (scenario expect…". */
const EXPECT_MARK = ' (scenario expect';

const notApplicable = (note: string): Reading => ({ value: null, note });

export function formatStatedValue(value: number, unit: StatedUnit): string {
  if (!Number.isFinite(value)) return 'forever';
  switch (unit) {
    case 'ms':
      return `${formatMs(value)} ms`;
    case 'ratio':
      return `${(value * 100).toFixed(3)} %`;
    case 'count':
      return formatCount(value);
    case 'seconds':
      return `${+value.toFixed(3)} s`;
    case 'bytes':
      return formatBytes(value);
    case 'perSecond':
      return `${formatCount(value)}/s`;
    case 'gbps':
      return `${+value.toFixed(6)} Gbit/s`;
  }
}

/** Bounds in words: "at least 60.000 %", "at most 25.0 ms", "15.0–20.0 ms", "exactly 5 s". */
export function boundsText(bounds: Bounds, unit: StatedUnit): string {
  const f = (value: number) => formatStatedValue(value, unit);
  if (bounds.min !== undefined && bounds.max !== undefined) return bounds.min === bounds.max ? `exactly ${f(bounds.min)}` : `${f(bounds.min)} to ${f(bounds.max)}`;
  if (bounds.min !== undefined) return `at least ${f(bounds.min)}`;
  return `at most ${f(bounds.max ?? Infinity)}`;
}

/**
 * The stated table of a run: every figure of STATED_FIGURES, read from the summary (and, for
 * the few facts it does not carry, the run), judged against the stated bounds or the
 * scenario's expectation for that row.
 */
export function buildStatedRows(result: RunResult, summary: Omit<Summary, 'stated' | 'checks'>, expectations: Expectations = {}): StatedRow[] {
  const rows = STATED_FIGURES.map((figure) => {
    const reading = readFigure(figure.id, result, summary);
    const expected = expectations[figure.id];
    const bounds = expected ?? figure.bounds;
    const stated = expected === undefined ? figure.stated : `${boundsText(expected, figure.unit)}${EXPECT_MARK}; stated ${figure.stated})`;
    if (reading.value === null) return row(figure, stated, null, 'not-applicable', reading.note);
    if (figure.comparisonFor !== undefined && expected === undefined) {
      const why = `shown for comparison, not judged: the table judges this figure on ${figure.comparisonFor} (name this row under expect: to check it); `;
      return row(figure, `${figure.stated}, judged on ${figure.comparisonFor}`, reading.value, 'not-applicable', `${why}${reading.note}`);
    }
    const verdict = reading.verdict ?? verdictOf(reading.value, bounds);
    const why = verdict === 'outside' && reading.verdict === undefined ? `${outsideBy(reading.value, bounds, (v) => formatStatedValue(v, figure.unit))}; ` : '';
    return row(figure, stated, Number.isFinite(reading.value) ? reading.value : null, verdict, `${why}${reading.note}`);
  });
  return [...rows, ...capacityRows(summary, expectations)];
}

/** The capacity figures the scenario's `expect` names (docs/capacity.md), after the stated rows, judged on its bounds alone. */
function capacityRows(summary: Omit<Summary, 'stated' | 'checks'>, expectations: Expectations): StatedRow[] {
  return CAPACITY_EXPECT_FIGURES.flatMap((figure) => {
    const expected = expectations[figure.id];
    if (expected === undefined) return [];
    const stated = `${boundsText(expected, figure.unit)}${EXPECT_MARK})`;
    const value = figureValue(summary, figure.id);
    if (value === undefined) {
      return [row(figure, stated, null, 'not-applicable', 'the run has no such figure: capacity figures need a recorded timeline, uplink shares the pops model, regional figures a regional tier with traffic')];
    }
    const verdict = verdictOf(value, expected);
    const why = verdict === 'outside' ? `${outsideBy(value, expected, (v) => formatStatedValue(v, figure.unit))}; ` : '';
    return [row(figure, stated, value, verdict, `${why}summary.json ${figure.id}`)];
  });
}

function row(figure: StatedFigure, stated: string, simulated: number | null, verdict: Verdict, note: string): StatedRow {
  return { id: figure.id, figure: figure.figure, stated, simulated, unit: figure.unit, verdict, note };
}

const REGION_OF_ID = new Map<string, string>(Object.entries(STATED_REGION_IDS).map(([region, id]) => [id, region]));

function meanOf(figures: LatencyFigures | undefined, what: string, note: string): Reading {
  if (figures === undefined || figures.count === 0) return notApplicable(`no ${what} in the measured part of the run`);
  return { value: figures.mean, note: `mean of ${formatCount(figures.count)} ${what}; ${note}` };
}

function readFigure(id: string, result: RunResult, summary: Omit<Summary, 'stated' | 'checks'>): Reading {
  const region = REGION_OF_ID.get(id);
  if (region !== undefined) return meanOf(summary.latencyMs.byRegionAndLayer[region]?.edge, `edge hits from ${region}`, 'time to first byte of requests an edge cache answered');
  const { latencyMs } = summary;
  switch (id) {
    case 'pops':
      if (result.scenario.topology.model !== 'pops') return notApplicable('model regions has one edge cache per region (or one for all), not a network of PoPs');
      return { value: summary.edges.length, note: `PoPs modelled, ${formatCount(summary.edges.filter((edge) => edge.requests > 0).length)} of them with measured traffic` };
    case 'latency.global.edge':
      return meanOf(latencyMs.byLayer.edge, 'edge-served requests', 'one reading of the stated global average: requests an edge cache answered');
    case 'latency.global.all':
      return meanOf(latencyMs.all, 'requests', 'the other reading of the stated global average: every measured request, regional and origin included (browser hits count 0 ms)');
    case 'latency.layer.browser':
      return meanOf(latencyMs.byLayer.browser, 'browser hits', 'a browser hit costs 0 ms in the model');
    case 'latency.layer.edge':
      return meanOf(latencyMs.byLayer.edge, 'edge-served requests', 'time to first byte');
    case 'latency.layer.regional':
      return meanOf(latencyMs.byLayer.regional, 'regional-served requests', 'time to first byte');
    case 'latency.layer.originService':
      return originServiceTime(summary);
    case 'latency.layer.origin':
      return meanOf(latencyMs.byLayer.origin, 'origin-served requests', "the client's time to first byte, every hop included, not the origin's service time alone");
    case 'cdnHitRatio':
      if (!result.scenario.deployment.cdn) return notApplicable('the deployment runs without the CDN (deployment.cdn: false)');
      if (summary.hitRatio.cdn === undefined || summary.requests - (summary.requestsByLayer.browser ?? 0) === 0) return notApplicable('no measured request reached the edge');
      return { value: summary.hitRatio.cdn, note: 'requests an edge or regional cache answered, of those that reached the edge' };
    case 'availability.originProblems':
      return availabilityDuringProblems(summary);
    case 'errorCaching':
      return errorCaching(result, summary);
    case 'chunkSize':
      if (result.rangeRequests.requests === 0) return notApplicable('no range requests were measured (classes with rangeRequests and traffic.clients send them)');
      return {
        value: CHUNK_SIZE_BYTES,
        note: `the chunk size the flow keys range requests by (a constant of the policy engine, not a measurement); ${formatCount(result.rangeRequests.requests)} measured range requests needed ${formatCount(result.rangeRequests.chunks)} chunks`,
      };
    case 'lifetime.long':
      return lifetime(result, (cc) => maxAge(cc) === STATED_LONG_LIFETIME_SECONDS, 'max-age=31536000', null);
    case 'lifetime.staticPage':
      return lifetime(result, (cc) => maxAge(cc) === STATED_STATIC_PAGE_SECONDS && directiveSeconds(cc, 'stale-while-revalidate') === STATED_STATIC_PAGE_SWR_SECONDS, 'max-age=3600, stale-while-revalidate=86400', STATED_STATIC_PAGE_SWR_SECONDS);
    case 'uplink.major':
      return majorUplinkPeak(result, summary);
    default:
      throw new Error(`no reading for stated figure ${id}`);
  }
}

/** spec 4.9 layer 4: the origin server's own time to its first byte, over the answers it gave in the measured part. */
function originServiceTime(summary: Omit<Summary, 'stated' | 'checks'>): Reading {
  const { origin } = summary.cdn;
  if (origin.meanServiceMs === null) return notApplicable('the origin answered no request in the measured part of the run');
  const answers = origin.requests - origin.refused;
  return { value: origin.meanServiceMs, note: `mean of the origin's ${formatCount(answers)} answers (slowdowns included, refused connections excluded): its own work to the first byte, no network hop` };
}

/** spec 1.1's 100 Gbit/s at major PoPs: the busiest major PoP's 1 s peak egress against its uplink (pops.csv has every PoP). */
function majorUplinkPeak(result: RunResult, summary: Omit<Summary, 'stated' | 'checks'>): Reading {
  if (result.scenario.topology.model !== 'pops') return notApplicable('model regions has no PoPs and no uplinks');
  const majorGbit = DEFAULT_UPLINK_BITS_PER_SECOND.major / 1e9;
  const majors = summary.edges.filter((edge) => edge.uplinkGbitPerSecond === majorGbit && edge.requests > 0 && edge.peakEgressGbitPerSecond1s !== undefined);
  if (majors.length === 0) return notApplicable('no major PoP had measured traffic, or the run recorded no per-PoP capacity');
  const share = (edge: (typeof majors)[number]) => (edge.peakEgressGbitPerSecond1s ?? 0) / majorGbit;
  const busiest = majors.reduce((best, edge) => (share(edge) > share(best) ? edge : best));
  return {
    // Rounded like the figures it is taken from (Gbit/s to 6 decimals), without float noise.
    value: Math.round(share(busiest) * 1e9) / 1e9,
    note: `${busiest.name} peaks at ${busiest.peakEgressGbitPerSecond1s} Gbit/s over 1 s (${busiest.peakEgressGbitPerSecond60s} over 60 s) of its ${majorGbit} Gbit/s uplink; ${formatCount(majors.length)} major PoPs with traffic (every PoP: pops.csv)`,
  };
}

/** spec 1.1's 99.9 %: over the requests sent during outages and error bursts (overlapping windows count a request in each). */
function availabilityDuringProblems(summary: Omit<Summary, 'stated' | 'checks'>): Reading {
  const windows = summary.incidents.filter((incident) => incident.kind === 'outage' || incident.kind === 'error-burst');
  if (windows.length === 0) return notApplicable('the run has no outage or error burst');
  const requests = windows.reduce((sum, incident) => sum + incident.requests, 0);
  const errors = windows.reduce((sum, incident) => sum + incident.errors, 0);
  if (requests === 0) return notApplicable('no request was sent during its outages and error bursts');
  return {
    value: Math.round((1 - errors / requests) * 1e6) / 1e6,
    note: `non-error responses of the ${formatCount(requests)} requests sent during ${windows.length} outage/error-burst window${windows.length === 1 ? '' : 's'} (warm-up included)`,
  };
}

/**
 * spec 7.1: how long the edge keeps an origin error. Read from the policy engine's decision
 * for each status the error bursts send (a response without explicit freshness), which the
 * flow applies at every shared layer; the cached errors served show it took effect.
 */
function errorCaching(result: RunResult, summary: Omit<Summary, 'stated' | 'checks'>): Reading {
  if (result.errorCaching.length === 0) return notApplicable('the run has no error burst');
  const seconds = result.errorCaching.map(({ status, edge }) => ({ status, seconds: edge.store && edge.errorCaching ? edge.ttlMs / 1000 : 0 }));
  const shown = seconds.find((entry) => entry.status === 500) ?? seconds[0];
  const each = seconds.map((entry) => `${entry.status}: ${entry.seconds} s`).join(', ');
  return {
    value: shown.seconds,
    note:
      `the edge's decision for the error bursts' responses (no explicit freshness): ${each}; the flow serves the cached error until then and retries the origin after; ` +
      `${formatCount(summary.cdn.errors.cachedErrorsServed)} cached errors were served`,
  };
}

type CacheControl = ReadonlyMap<string, string>;

function cacheControlOf(headers: Readonly<Record<string, string>>): CacheControl {
  const value = Object.entries(headers).find(([name]) => name.toLowerCase() === 'cache-control')?.[1] ?? '';
  return new Map(
    value
      .split(',')
      .map((part) => part.trim().toLowerCase())
      .filter(Boolean)
      .map((part) => {
        const eq = part.indexOf('=');
        return eq < 0 ? [part, ''] : [part.slice(0, eq).trim(), part.slice(eq + 1).trim().replace(/^"|"$/g, '')];
      }),
  );
}

const directiveSeconds = (cc: CacheControl, name: string): number | undefined => {
  const value = cc.get(name);
  return value === undefined || !/^\d+$/.test(value) ? undefined : Number(value);
};
const maxAge = (cc: CacheControl) => directiveSeconds(cc, 'max-age');

/**
 * spec 8's lifetimes: the classes whose origin sends the stated Cache-Control, and what the
 * edge's compiled decision keeps them for (another header, s-maxage or CDN-Cache-Control, a
 * deployment rule can change it). The value shown is the one farthest from the stated one.
 */
function lifetime(result: RunResult, sends: (cc: CacheControl) => boolean, directives: string, swrSeconds: number | null): Reading {
  const classes = result.contentCaching.classes.filter((klass) => sends(cacheControlOf(klass.responseHeaders)));
  if (classes.length === 0) return notApplicable(`no content class is sent with ${directives}`);
  const stated = swrSeconds === null ? STATED_LONG_LIFETIME_SECONDS : STATED_STATIC_PAGE_SECONDS;
  const ttl = (klass: (typeof classes)[number]) => (klass.edge.store ? klass.edge.ttlMs / 1000 : 0);
  const worst = classes.reduce((a, b) => (Math.abs(ttl(b) - stated) > Math.abs(ttl(a) - stated) ? b : a));
  const each = classes.map((klass) => `${klass.name} ${klass.edge.store ? `${ttl(klass)} s` : 'not stored'}${swrSeconds === null ? '' : ` (swr ${klass.edge.staleWhileRevalidateMs / 1000} s)`}`).join(', ');
  const note = `the edge's compiled decision for the classes sent with ${directives}: ${each}`;
  const swrOff = swrSeconds === null ? undefined : classes.find((klass) => klass.edge.staleWhileRevalidateMs / 1000 !== swrSeconds);
  if (swrOff !== undefined) return { value: ttl(worst), note: `${swrOff.name}'s stale-while-revalidate is not the stated ${swrSeconds} s; ${note}`, verdict: 'outside' };
  return { value: ttl(worst), note };
}

const FIGURE_OF_ID = new Map<string, StatedFigure>([...STATED_FIGURES, ...CAPACITY_EXPECT_FIGURES].map((figure) => [figure.id, figure]));

const VERDICT_WORD: Record<Verdict, string> = { within: 'within', outside: 'outside', 'not-applicable': 'n/a' };

/** "9 within, 9 outside, 2 n/a": the verdicts counted, in the table's order. */
export function verdictCounts(rows: readonly StatedRow[]): string {
  return (['within', 'outside', 'not-applicable'] as const).map((verdict) => `${rows.filter((r) => r.verdict === verdict).length} ${VERDICT_WORD[verdict]}`).join(', ');
}

/** The run's value as the table shows it; the uplink row says what its share is of. */
function simulatedText(row: StatedRow): string {
  if (row.simulated === null) return '–';
  const value = formatStatedValue(row.simulated, row.unit);
  return row.id === 'uplink.major' ? `${value} of it` : value;
}

/**
 * The whole stated table (issue 26): what the service description states and where, what
 * cdnsim judges the run by (its own tolerance, or the scenario's `expect`), the run's value
 * and the verdict; then why each row outside is outside.
 */
export function statedTableText(rows: readonly StatedRow[], columns: number): string {
  const table = formatTableWithin(
    ['figure (expect: key)', 'service states (spec §)', 'cdnsim judges by', 'this run', 'verdict'],
    rows.map((r) => {
      const figure = FIGURE_OF_ID.get(r.id);
      const expect = r.stated.indexOf(EXPECT_MARK);
      // The expect's bounds in symbols ("expect ≥ 60.000 %"): the column stays narrow.
      const bounds = r.stated.slice(0, expect).replace(/^at least /, '≥ ').replace(/^at most /, '≤ ').replace(/^exactly /, '= ').replace(' to ', '–');
      const judged = expect >= 0 ? `expect ${bounds}` : (figure?.judgedBy ?? r.stated);
      return [r.id, figure?.says ?? r.stated, judged, simulatedText(r), VERDICT_WORD[r.verdict]];
    }),
    columns,
  );
  const outside = rows.filter((r) => r.verdict === 'outside');
  return [
    table,
    ...wrapLine(
      `${verdictCounts(rows)} · states: the service description, by section (docs/service.md)` +
        " · judges by: cdnsim's own tolerance, or the scenario's expect (docs/stated-figures.md) · each row's note: stated.csv",
      columns,
    ),
    ...outside.flatMap((r) => wrapLine(`outside: ${r.id}: ${r.note}`, columns)),
  ].join('\n');
}

/**
 * The stated figures for the terminal: the whole table when asked (a scenario that models the
 * service, or --stated) and it fits; else one line, so a scenario that never meant to
 * reproduce the service is not greeted by verdicts on its PoP count.
 */
export function statedText(rows: readonly StatedRow[], options: { whole: boolean; columns: number }): string {
  if (options.whole) {
    const whole = statedTableText(rows, options.columns);
    if (fits(whole, options.columns)) return whole;
  }
  const why = options.whole ? `wider than ${options.columns} columns` : 'the whole table: --stated';
  return wrapLine(`stated figures: ${verdictCounts(rows)} — stated.csv (${why})`, options.columns).join('\n');
}

/** Why the rows outside failed `cdnsim run --check`: one line each. */
export function outsideLines(rows: readonly StatedRow[]): string[] {
  return rows.filter((r) => r.verdict === 'outside').map((r) => `${r.id} (${r.figure}): stated ${r.stated}, simulated ${r.simulated === null ? 'forever' : formatStatedValue(r.simulated, r.unit)}: ${r.note}`);
}

const CSV_COLUMNS = ['id', 'figure', 'stated', 'simulated', 'unit', 'verdict', 'note'] as const;

/** stated.csv: a header, then one line per row; simulated empty when not applicable. */
export function statedCsv(rows: readonly StatedRow[]): string {
  return csvText(CSV_COLUMNS, rows.map((r) => CSV_COLUMNS.map((column) => (r[column] === null ? null : String(r[column])))));
}
