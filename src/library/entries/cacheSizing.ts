import type { LibraryEntry } from '../libraryEntry.js';
import { count, markdownTable, percent, times } from '../markdown.js';
import { pointValue, sweepPoints, sweepTarget, type SweepPoint, type TargetAnswer } from '../sweepFigures.js';

const PARAM = 'edge.capacity';
const TARGET = 0.8;
const FIGURES = ['hitRatio.edge', 'byteHitRatio.edge', 'cdn.origin.requests', 'catalogue.bytes'] as const;

interface SizingFigures {
  readonly [key: string]: unknown;
  readonly points: SweepPoint[];
  readonly target: TargetAnswer;
}

function gigabytes(size: string): number {
  const amount = Number.parseFloat(size);
  return size.endsWith('GB') ? amount : size.endsWith('MB') ? amount / 1000 : amount / 1e9;
}

/** The catalogue's size in GB, as the runs report it (summary.json catalogue.bytes; the same at every point). */
const catalogueGb = (f: SizingFigures): number => value(f.points[0], 'catalogue.bytes') / 1e9;

const catalogueShare = (f: SizingFigures, size: string | null): number => (size === null ? 0 : gigabytes(size) / catalogueGb(f));

/** The hit ratio of the point nearest a tenth of the catalogue. */
function nearestTenth(f: SizingFigures): number {
  const tenth = catalogueGb(f) / 10;
  const nearest = f.points.reduce((best, point) => (Math.abs(gigabytes(String(point[PARAM])) - tenth) < Math.abs(gigabytes(String(best[PARAM])) - tenth) ? point : best));
  return value(nearest, 'hitRatio.edge');
}

const value = (point: SweepPoint, figure: (typeof FIGURES)[number]): number => pointValue(point, figure);

export const cacheSizing: LibraryEntry<SizingFigures> = {
  name: 'cache-sizing',
  title: 'Cache sizing: the smallest cache for an 80 % hit ratio',
  question: 'How large must a cache in front of the origin be to answer 80 % of requests for a Zipf(0.8) web catalogue of about 2.6 GB?',
  command: {
    kind: 'sweep',
    args: ['--param', `${PARAM}=20MB,3GB`, '--target', `hitRatio.edge>=${TARGET}`, '--minimize', PARAM, '--tolerance', '20%', '--replicates', '1'],
  },
  charts: [{ file: 'sweep-hit-ratio.svg', alt: 'Hit ratio against the cache size, every size the search tried' }],
  figures: (folder) => {
    const points = sweepPoints(folder, FIGURES);
    return { points: [...points].sort((a, b) => gigabytes(String(a[PARAM])) - gigabytes(String(b[PARAM]))), target: sweepTarget(folder) };
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
    const answer = f.points.find((point) => String(point[PARAM]) === f.target.value) ?? largest;
    return [
      {
        text: `An 80 % hit ratio needs ${f.target.value} of cache, ${percent(catalogueShare(f, f.target.value), 0)} of the catalogue's ${catalogueGb(f).toFixed(2)} GB: Zipf(0.8) popularity is not skewed enough for a small cache to catch most requests (a tenth of the catalogue answers ${percent(nearestTenth(f))}).`,
        holds: f.target.value !== null && catalogueShare(f, f.target.value) > 0.3,
      },
      {
        text: `At the answer the origin still serves ${count(value(answer, 'cdn.origin.requests'))} of the 100,000 measured requests; a cache as large as the catalogue (${largest[PARAM]}) cuts that to ${count(value(largest, 'cdn.origin.requests'))} (${times(value(largest, 'cdn.origin.requests'), value(answer, 'cdn.origin.requests'))}), its misses left for objects the warm-up had not yet brought in. The answer moves with the Zipf exponent and the object sizes: run the same search on your own catalogue, with \`--replicates 3\` for confidence intervals.`,
        holds: value(largest, 'hitRatio.edge') > 0.95 && value(largest, 'cdn.origin.requests') < value(answer, 'cdn.origin.requests') / 4,
      },
    ];
  },
};
