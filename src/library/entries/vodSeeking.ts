import type { LibraryEntry } from '../libraryEntry.js';
import { bytes, markdownTable, percent } from '../markdown.js';
import { pointValue, sweepPoints, type SweepFigures, type SweepPoint } from '../sweepFigures.js';

const PARAM = 'edge.capacity';
const FIGURES = ['hitRatio.edge', 'byteHitRatio.edge', 'hitRatio.cdn', 'cdn.origin.bytes', 'originByteOffload', 'latencyMs.all.p95'] as const;

const value = (point: SweepPoint, figure: (typeof FIGURES)[number]): number => pointValue(point, figure);

export const vodSeeking: LibraryEntry<SweepFigures> = {
  name: 'vod-seeking',
  title: 'Video on demand: 5 MB chunks, seeks and PoP storage',
  question: 'Viewers watch videos in range requests cached as 5 MB chunks and sometimes seek: how much storage does each PoP need before the edge serves most of the video?',
  command: { kind: 'sweep', args: ['--param', `${PARAM}=5GB,20GB,80GB`, '--replicates', '1'] },
  charts: [{ file: 'sweep-hit-ratio.svg', alt: 'Edge and CDN hit ratio against the edge cache size per PoP' }],
  figures: (folder) => ({ points: sweepPoints(folder, FIGURES) }),
  results(f) {
    return [
      'One run per point (deterministic). Each request is one window of a viewing session; a window needs the 5 MB chunks it touches (spec 4.8). Byte figures count per chunk: each chunk\'s share of a window is credited to the layer that served it; origin byte offload is 1 − origin bytes / bytes clients asked for, negative when whole chunks fetched exceed what viewers read (docs/byte-figures.md).',
      '',
      markdownTable(
        ['edge cache per PoP', 'edge hit ratio', 'edge byte hit ratio', 'CDN hit ratio', 'origin bytes', 'origin byte offload', 'p95 time to first byte'],
        f.points.map((point) => [
          String(point[PARAM]),
          percent(value(point, 'hitRatio.edge')),
          percent(value(point, 'byteHitRatio.edge')),
          percent(value(point, 'hitRatio.cdn')),
          bytes(value(point, 'cdn.origin.bytes')),
          percent(value(point, 'originByteOffload')),
          `${value(point, 'latencyMs.all.p95').toFixed(0)} ms`,
        ]),
      ),
    ].join('\n');
  },
  conclusions(f) {
    const [small, middle, large] = f.points;
    return [
      {
        text: `The edge's share of video grows from ${percent(value(small, 'hitRatio.edge'))} at ${small[PARAM]} per PoP to ${percent(value(middle, 'hitRatio.edge'))} at ${middle[PARAM]}, and only to ${percent(value(large, 'hitRatio.edge'))} at ${large[PARAM]}: popular titles' early chunks are most of what is watched (viewers stop early, seeks are rare), so a PoP needs room for those, not for the catalogue.`,
        holds: value(middle, 'hitRatio.edge') - value(small, 'hitRatio.edge') > 2 * (value(large, 'hitRatio.edge') - value(middle, 'hitRatio.edge')),
      },
      {
        text: `The regional tier makes the origin's load independent of the PoPs' size: ${bytes(value(small, 'cdn.origin.bytes'))} from the origin at every point, with a CDN hit ratio of ${percent(value(small, 'hitRatio.cdn'))}. PoP storage buys latency and regional bandwidth, not origin offload.`,
        holds: value(small, 'cdn.origin.bytes') === value(large, 'cdn.origin.bytes'),
      },
    ];
  },
};
