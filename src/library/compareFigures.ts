import { bytes, count, milliseconds, percent, seconds } from './markdown.js';
import { at, list, num, readJson, type Json } from './outputs.js';

/**
 * The figures of one strategy of a `cdnsim compare` folder that the library's comparisons
 * publish: the compare table's columns plus the origin's 304s, the stale serves and each
 * incident's availability, all read from the strategy's run summary in compare.json.
 */
export interface StrategyFigures {
  readonly [key: string]: string | number | number[];
  readonly strategy: string;
  readonly cdnHitRatio: number;
  readonly cdnByteHitRatio: number;
  readonly originRequests: number;
  readonly originNotModified: number;
  readonly originBytes: number;
  /** 1 − origin body bytes / client bytes (negative with chunk over-fetch, spec 4.8). */
  readonly originByteOffload: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly staleShare: number;
  readonly worstStalenessSeconds: number;
  readonly availability: number;
  readonly staleServedOriginUnreachable: number;
  readonly staleServedWhileRevalidate: number;
  /** Per incident, in the scenario's order: availability of the requests sent in its window. */
  readonly incidentAvailability: number[];
  /** Per incident: origin requests in its window (a deploy's: its first minute). */
  readonly incidentOriginRequests: number[];
  /** Per incident: origin requests over the same length just before. */
  readonly incidentOriginRequestsBefore: number[];
}

export function compareStrategies(folder: string): StrategyFigures[] {
  const document = readJson(folder, 'compare.json');
  return list(document, 'strategies').map((strategy): StrategyFigures => {
    const summary = at(strategy, 'summary');
    const incidents = list(summary, 'incidents');
    return {
      strategy: String(at(strategy, 'name')),
      cdnHitRatio: num(summary, 'hitRatio.cdn'),
      cdnByteHitRatio: num(summary, 'byteHitRatio.cdn'),
      originRequests: num(summary, 'cdn.origin.requests'),
      originNotModified: num(summary, 'cdn.origin.notModified'),
      originBytes: num(summary, 'cdn.origin.bytes'),
      originByteOffload: num(summary, 'originByteOffload'),
      p50Ms: num(summary, 'latencyMs.all.p50'),
      p95Ms: num(summary, 'latencyMs.all.p95'),
      staleShare: num(summary, 'cdn.staleness.share'),
      worstStalenessSeconds: num(summary, 'cdn.staleness.maxSeconds'),
      availability: num(summary, 'cdn.availability'),
      staleServedOriginUnreachable: num(summary, 'cdn.staleServed.originUnreachable'),
      staleServedWhileRevalidate: num(summary, 'cdn.staleServed.whileRevalidate'),
      incidentAvailability: incidents.map((incident: Json) => num(incident, 'availability')),
      incidentOriginRequests: incidents.map((incident: Json) => num(incident, 'originRequests')),
      incidentOriginRequestsBefore: incidents.map((incident: Json) => num(incident, 'originRequestsBefore')),
    };
  });
}

/** The strategy named `name`; an error naming the strategies there are. */
export function strategyNamed(strategies: readonly StrategyFigures[], name: string): StrategyFigures {
  const found = strategies.find((strategy) => strategy.strategy === name);
  if (found === undefined) throw new Error(`library: no strategy ${name} among ${strategies.map((strategy) => strategy.strategy).join(', ')}`);
  return found;
}

/** The figures of a library comparison: every strategy's. */
export interface CompareFigures {
  readonly [key: string]: unknown;
  readonly strategies: StrategyFigures[];
}

export function compareFigures(folder: string): CompareFigures {
  return { strategies: compareStrategies(folder) };
}

/** The columns the header comparisons share: load, 304s, bytes, latency and staleness. */
export const HEADER_COLUMNS = ['CDN hit', 'origin requests', 'of them 304', 'origin bytes', 'p50', 'p95', 'outdated responses', 'worst outdated'] as const;

export function headerCells(s: StrategyFigures): string[] {
  return [
    percent(s.cdnHitRatio),
    count(s.originRequests),
    count(s.originNotModified),
    bytes(s.originBytes),
    milliseconds(s.p50Ms),
    milliseconds(s.p95Ms),
    percent(s.staleShare, 3),
    seconds(s.worstStalenessSeconds),
  ];
}
