import { parseDuration } from '../../units.js';
import type { LibraryEntry } from '../libraryEntry.js';
import { count, gbits, markdownTable, percent, seconds, times } from '../markdown.js';
import { at, cell, list, num, readCsv, readJson, type Json } from '../outputs.js';

/** What the breaking-news page publishes. */
interface NewsFigures {
  readonly [key: string]: unknown;
  readonly requests: number;
  readonly cdnHitRatio: number;
  readonly crowdStartSeconds: number;
  /** Mean over the minute before the crowd. */
  readonly before: Interval;
  /** The interval with the most requests per second. */
  readonly peak: Interval & { readonly startSeconds: number };
  readonly breaking: ClassFigures;
  readonly articles: ClassFigures;
  readonly coalescedAtEdges: number;
  readonly coalescedAtRegionals: number;
  readonly staleServedWhileRevalidate: number;
  readonly busiestPop: { readonly name: string; readonly peakGbitPerSecond1s: number; readonly uplinkGbitPerSecond: number; readonly uplinkShare1s: number };
}

interface Interval {
  readonly requestsPerSecond: number;
  readonly originRequestsPerSecond: number;
  readonly cdnHitRatio: number;
}

interface ClassFigures {
  readonly requests: number;
  readonly ttlSeconds: number;
  readonly cdnHitRatio: number;
}

function durationSeconds(value: Json, path: string): number {
  const parsed = parseDuration(at(value, path));
  if (!parsed.ok) throw new Error(`library: expected a duration at \`${path}\` of scenario.json`);
  return parsed.value / 1000;
}

function classFigures(summary: Json, name: string): ClassFigures {
  const klass = list(summary, 'contentClasses').find((entry) => at(entry, 'name') === name);
  if (klass === undefined) throw new Error(`library: no content class ${name}`);
  return { requests: num(klass, 'requests'), ttlSeconds: num(klass, 'ttlSeconds'), cdnHitRatio: num(klass, 'cdnHitRatio') };
}

function figures(folder: string): NewsFigures {
  const summary = readJson(folder, 'summary.json');
  const crowdStartSeconds = durationSeconds(readJson(folder, 'scenario.json'), 'traffic.flashCrowds.0.start');
  const rows = readCsv(folder, 'timeseries.csv').map((row) => ({
    start: cell(row, 'start_s') ?? 0,
    requests: cell(row, 'requests') ?? 0,
    length: (cell(row, 'end_s') ?? 0) - (cell(row, 'start_s') ?? 0),
    rate: cell(row, 'requests_per_s') ?? 0,
    origin: cell(row, 'origin_requests_per_s') ?? 0,
    cdn: cell(row, 'cdn_hit_ratio') ?? 0,
  }));
  const minuteBefore = rows.filter((row) => row.start >= crowdStartSeconds - 60 && row.start < crowdStartSeconds);
  const totalSeconds = minuteBefore.reduce((sum, row) => sum + row.length, 0);
  const totalRequests = minuteBefore.reduce((sum, row) => sum + row.requests, 0);
  const mean = (pick: (row: (typeof rows)[number]) => number, weight: (row: (typeof rows)[number]) => number) =>
    minuteBefore.reduce((sum, row) => sum + pick(row) * weight(row), 0) / minuteBefore.reduce((sum, row) => sum + weight(row), 0);
  const peak = rows.reduce((best, row) => (row.rate > best.rate ? row : best), rows[0]);
  const busiest = list(summary, 'capacity.busiest')[0];
  return {
    requests: num(summary, 'requests'),
    cdnHitRatio: num(summary, 'hitRatio.cdn'),
    crowdStartSeconds,
    before: {
      requestsPerSecond: round(totalRequests / totalSeconds),
      originRequestsPerSecond: round(mean((row) => row.origin, (row) => row.length)),
      cdnHitRatio: round(mean((row) => row.cdn, (row) => row.requests), 6),
    },
    peak: { startSeconds: peak.start, requestsPerSecond: peak.rate, originRequestsPerSecond: peak.origin, cdnHitRatio: peak.cdn },
    breaking: classFigures(summary, 'breaking'),
    articles: classFigures(summary, 'article'),
    coalescedAtEdges: num(summary, 'cdn.coalescedRequests.edge'),
    coalescedAtRegionals: num(summary, 'cdn.coalescedRequests.regional'),
    staleServedWhileRevalidate: num(summary, 'cdn.staleServed.whileRevalidate'),
    busiestPop: {
      name: String(at(busiest, 'name')),
      peakGbitPerSecond1s: num(busiest, 'peakEgressGbitPerSecond1s'),
      uplinkGbitPerSecond: num(busiest, 'uplinkGbitPerSecond'),
      uplinkShare1s: num(busiest, 'uplinkShare1s'),
    },
  };
}

const round = (value: number, digits = 1): number => Number(value.toFixed(digits));

export const newsFlashCrowd: LibraryEntry<NewsFigures> = {
  name: 'news-flash-crowd',
  title: 'News site: a breaking-news flash crowd',
  question: 'When a breaking story multiplies a news site\'s traffic for a few minutes, how much of the surge reaches the origin, and does any PoP come near its uplink?',
  command: { kind: 'run' },
  charts: [
    { file: 'origin-load.svg', alt: 'Requests per second reaching the origin over time, the flash crowd in the middle' },
    { file: 'hit-ratio-over-time.svg', alt: 'Hit ratio per layer over time' },
  ],
  figures,
  results(f) {
    const load = markdownTable(
      ['', 'client requests/s', 'origin requests/s', 'CDN hit ratio'],
      [
        ['the minute before the crowd', count(f.before.requestsPerSecond), count(f.before.originRequestsPerSecond), percent(f.before.cdnHitRatio)],
        [`the busiest interval (from ${seconds(f.peak.startSeconds)})`, count(f.peak.requestsPerSecond), count(f.peak.originRequestsPerSecond), percent(f.peak.cdnHitRatio)],
        ['peak over before', times(f.peak.requestsPerSecond, f.before.requestsPerSecond), times(f.peak.originRequestsPerSecond, f.before.originRequestsPerSecond), ''],
      ],
    );
    const classes = markdownTable(
      ['content class', 'requests', 'edge TTL', 'CDN hit ratio'],
      [
        ['breaking (the story\'s live pages)', count(f.breaking.requests), seconds(f.breaking.ttlSeconds), percent(f.breaking.cdnHitRatio)],
        ['article (the rest of the site\'s pages)', count(f.articles.requests), seconds(f.articles.ttlSeconds), percent(f.articles.cdnHitRatio)],
      ],
    );
    const shield = markdownTable(
      ['what the CDN did', 'requests'],
      [
        ['waited for a fetch already in flight at an edge (coalesced)', count(f.coalescedAtEdges)],
        ['waited for a fetch already in flight at a regional site', count(f.coalescedAtRegionals)],
        ['served stale while one background revalidation ran (RFC 5861)', count(f.staleServedWhileRevalidate)],
      ],
    );
    const uplink = markdownTable(
      ['busiest PoP', 'peak egress over 1 s', 'uplink', 'share of the uplink'],
      [[f.busiestPop.name, gbits(f.busiestPop.peakGbitPerSecond1s), gbits(f.busiestPop.uplinkGbitPerSecond), percent(f.busiestPop.uplinkShare1s, 3)]],
    );
    return [
      `${count(f.requests)} requests measured; CDN hit ratio over the whole run ${percent(f.cdnHitRatio)}. The crowd starts at ${seconds(f.crowdStartSeconds)} on the simulated clock.`,
      '',
      load,
      '',
      classes,
      '',
      shield,
      '',
      uplink,
    ].join('\n');
  },
  conclusions(f) {
    const clientGrowth = f.peak.requestsPerSecond / f.before.requestsPerSecond;
    const originGrowth = f.peak.originRequestsPerSecond / f.before.originRequestsPerSecond;
    return [
      {
        text: `At its peak the crowd multiplied client requests by ${clientGrowth.toFixed(1)} but origin requests only by ${originGrowth.toFixed(1)}: the surge is for a few pages, and the CDN answers them.`,
        holds: originGrowth < clientGrowth / 2,
      },
      {
        text: `A 10-second lifetime is enough: the live pages were answered by the CDN for ${percent(f.breaking.cdnHitRatio)} of their ${count(f.breaking.requests)} requests, because each PoP fetches a page once per lifetime however many readers ask (coalescing and stale-while-revalidate absorb the rest). Short TTLs on breaking pages cost the origin little; what costs is pages that are not cached at all.`,
        holds: f.breaking.cdnHitRatio > 0.99,
      },
      {
        text: `Uplinks are not the constraint for a text-and-image story: the busiest PoP (${f.busiestPop.name}) peaked at ${percent(f.busiestPop.uplinkShare1s, 3)} of its uplink over one second.`,
        holds: f.busiestPop.uplinkShare1s < 0.5,
      },
    ];
  },
};
