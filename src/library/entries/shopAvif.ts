import type { LibraryEntry } from '../libraryEntry.js';
import { bytes, count, markdownTable, percent, times } from '../markdown.js';
import { pointValue, sweepPoints, type SweepFigures, type SweepPoint } from '../sweepFigures.js';

const PARAM = 'traffic.clients.avifShare';
// incidents.0 is the release at minute 6 (the scenario's only incident): its first minute, and the minute before it.
const FIGURES = ['hitRatio.edge', 'hitRatio.cdn', 'byteHitRatio.cdn', 'cdn.origin.requests', 'cdn.origin.bytes', 'incidents.0.originRequests', 'incidents.0.originRequestsBefore'] as const;

const value = (point: SweepPoint, figure: (typeof FIGURES)[number]): number => pointValue(point, figure);

export const shopAvif: LibraryEntry<SweepFigures> = {
  name: 'shop-avif',
  title: 'E-commerce: AVIF product images',
  question: 'Negotiating AVIF splits every product image\'s cache key in two: do the smaller bodies pay for the lower hit ratio?',
  command: { kind: 'sweep', args: ['--param', `${PARAM}=0%,50%,92%`, '--replicates', '1'] },
  charts: [],
  figures: (folder) => ({ points: sweepPoints(folder, FIGURES) }),
  results(f) {
    return [
      'One run per point (the runs are deterministic; `--replicates 3` adds confidence intervals over seeds).',
      '',
      markdownTable(
        ['clients accepting AVIF', 'edge hit ratio', 'CDN hit ratio', 'CDN byte hit ratio', 'origin requests', 'origin bytes', 'origin requests, minute before the release', 'minute after'],
        f.points.map((point) => [
          String(point[PARAM]),
          percent(value(point, 'hitRatio.edge')),
          percent(value(point, 'hitRatio.cdn')),
          percent(value(point, 'byteHitRatio.cdn')),
          count(value(point, 'cdn.origin.requests')),
          bytes(value(point, 'cdn.origin.bytes')),
          count(value(point, 'incidents.0.originRequestsBefore')),
          count(value(point, 'incidents.0.originRequests')),
        ]),
      ),
    ].join('\n');
  },
  conclusions(f) {
    const [none, half, most] = f.points;
    return [
      {
        text: `Splitting the key costs hits, most when both variants are equally common: at 50 % AVIF the CDN hit ratio is ${percent(value(half, 'hitRatio.cdn'))} against ${percent(value(none, 'hitRatio.cdn'))} without negotiation, and at 92 % it recovers to ${percent(value(most, 'hitRatio.cdn'))}, since nearly everyone asks for the same variant again.`,
        holds: value(half, 'hitRatio.cdn') < value(none, 'hitRatio.cdn') && value(most, 'hitRatio.cdn') > value(half, 'hitRatio.cdn'),
      },
      {
        text: `The bytes win: with 92 % of browsers on AVIF the origin sends ${bytes(value(most, 'cdn.origin.bytes'))} instead of ${bytes(value(none, 'cdn.origin.bytes'))}, although it answers ${count(value(most, 'cdn.origin.requests'))} requests instead of ${count(value(none, 'cdn.origin.requests'))}: negotiate AVIF, and read the byte figures, not the hit ratio, to judge it.`,
        holds: value(most, 'cdn.origin.bytes') < value(none, 'cdn.origin.bytes') * 0.8,
      },
      {
        text: `The release's purge of pages and bundles shows at the origin whatever the image variants: at 92 % AVIF it answers ${count(value(most, 'incidents.0.originRequests'))} requests in the minute after the release against ${count(value(most, 'incidents.0.originRequestsBefore'))} in the minute before (${times(value(most, 'incidents.0.originRequests'), value(most, 'incidents.0.originRequestsBefore'))}): a purge of what a release changes is a short bump beside the misses the images cause all the time.`,
        holds: f.points.every((point) => value(point, 'incidents.0.originRequests') > value(point, 'incidents.0.originRequestsBefore')),
      },
    ];
  },
};
