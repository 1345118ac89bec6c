import type { LibraryEntry } from '../libraryEntry.js';
import { count, markdownTable, percent } from '../markdown.js';
import { sweepPoints, sweepTarget, type SweepPoint, type TargetAnswer } from '../sweepFigures.js';

const PARAM = 'edge.capacity';
const TARGET = 0.8;
const FIGURES = ['hitRatio.edge', 'byteHitRatio.edge', 'cdn.origin.requests'] as const;

interface SizingFigures {
  readonly [key: string]: unknown;
  readonly points: SweepPoint[];
  readonly target: TargetAnswer;
}

const value = (point: SweepPoint, figure: (typeof FIGURES)[number]): number => Number(point[figure]);

export const cacheSizing: LibraryEntry<SizingFigures> = {
  name: 'cache-sizing',
  title: 'Cache sizing: the smallest cache for an 80 % hit ratio',
  question: 'How large must a cache in front of the origin be to answer 80 % of requests for a Zipf(0.8) web catalogue of about 2.6 GB?',
  command: {
    kind: 'sweep',
    args: ['--param', `${PARAM}=20MB,3GB`, '--target', `hitRatio.edge>=${TARGET}`, '--minimize', PARAM, '--tolerance', '20%', '--replicates', '1'],
  },
  charts: [{ file: 'miss-ratio-curves.svg', alt: 'Hit ratio against the cache size, every size the search tried' }],
  figures: (folder) => {
    const points = sweepPoints(folder, FIGURES);
    const size = (point: SweepPoint) => Number.parseFloat(String(point[PARAM])) * (String(point[PARAM]).endsWith('GB') ? 1000 : 1);
    return { points: [...points].sort((a, b) => size(a) - size(b)), target: sweepTarget(folder) };
  },
  results(f) {
    return [
      `The search tried ${f.points.length} sizes between 20 MB and 3 GB (bisection on geometric midpoints until the bracket was within 20 %), one run each (deterministic):`,
      '',
      markdownTable(
        ['cache size', 'hit ratio', 'byte hit ratio', 'origin requests', `meets ${percent(TARGET, 0)}`],
        f.points.map((point) => [
          String(point[PARAM]),
          percent(value(point, 'hitRatio.edge')),
          percent(value(point, 'byteHitRatio.edge')),
          count(value(point, 'cdn.origin.requests')),
          value(point, 'hitRatio.edge') >= TARGET ? 'yes' : 'no',
        ]),
      ),
      '',
      f.target.value === null
        ? `Not met at the upper end (${f.target.below}).`
        : `Answer: **${f.target.value}** (hit ratio ${percent(f.target.figure)}); ${f.target.below} does not meet it (${percent(f.target.belowFigure)}).`,
    ].join('\n');
  },
  conclusions(f) {
    const largest = f.points[f.points.length - 1];
    return [
      {
        text: `An 80 % hit ratio needs about ${f.target.value} of cache for this catalogue, roughly half of it: Zipf(0.8) popularity is not skewed enough for a small cache to catch most requests.`,
        holds: f.target.value !== null,
      },
      {
        text: `The last points cost most: from the answer to ${largest[PARAM]} the hit ratio only rises to ${percent(value(largest, 'hitRatio.edge'))}. Size for the target you need, and check it with \`--replicates 3\` on your own catalogue, since the answer moves with the Zipf exponent and the object sizes.`,
        holds: value(largest, 'hitRatio.edge') > TARGET,
      },
    ];
  },
};
