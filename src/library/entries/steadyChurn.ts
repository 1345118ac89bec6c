import { steadyGain } from '../../experiment/steadyRule.js';
import { STEADY_DEFAULTS } from '../../scenario/warmupSchema.js';
import type { LibraryEntry } from '../libraryEntry.js';
import { count, markdownTable, percent, times } from '../markdown.js';
import { pointValue, sweepPoints, type SweepFigures, type SweepPoint } from '../sweepFigures.js';

/**
 * The baseline's site with and without content churn at a published rate (Ntoulas, Cho and
 * Olston, WWW 2004: 8 % of pages replaced each week; scenarios/library/steady-churn.yaml),
 * warmed for the same ten blocks of a million requests. The blocks are the time series: a
 * level with churn, the baseline's slope without.
 */

const PARAM = 'content.classes.0.churn.updates.rate';
const NO_CHURN = '0/week';
const CHURN = '8000/week';
/** Blocks of the scenario's warm-up (`max: 10M` over `block: 1M`). */
const BLOCKS = 10;
const BLOCK_REQUESTS = 1_000_000;
/** Blocks from this one (0-based) on are where the page claims a level. */
const LEVEL_FROM = 5;
/** An object's mean life at 8 % a week, in seconds (12.5 weeks). */
const MEAN_LIFE_S = (7 * 86_400) / 0.08;

const blockFigure = (i: number): string => `warmup.steady.blockHitRatios.${i}`;
const FIGURES = [...Array.from({ length: BLOCKS }, (_, i) => blockFigure(i)), 'catalogue.objects', 'warmup.requests', 'warmup.simulatedSeconds', 'hitRatio.cdn', 'cdn.origin.requests'];
/** Requests measured through the flow after the warm-up (the scenario's run.requests). */
const MEASURED = 100_000;

const pointAt = (f: SweepFigures, rate: string): SweepPoint => {
  const point = f.points.find((p) => String(p[PARAM]) === rate);
  if (point === undefined) throw new Error(`steady-churn: the sweep has no point ${PARAM}=${rate}`);
  return point;
};
const blocks = (point: SweepPoint): number[] => Array.from({ length: BLOCKS }, (_, i) => pointValue(point, blockFigure(i)));
const tail = (point: SweepPoint): number[] => blocks(point).slice(LEVEL_FROM);
const spread = (values: readonly number[]): number => Math.max(...values) - Math.min(...values);
const points = (ratio: number): string => `${(ratio * 100).toFixed(2)} points`;
/** Simulated days per block (the warm-up's time over its blocks; arrivals are Poisson at a constant rate). */
const daysPerBlock = (point: SweepPoint): number => pointValue(point, 'warmup.simulatedSeconds') / BLOCKS / 86_400;
/** Requests per simulated second over the warm-up. */
const rate = (point: SweepPoint): number => pointValue(point, 'warmup.requests') / pointValue(point, 'warmup.simulatedSeconds');
/** Requests an object gets, on average, in its mean life: what sets the level. */
const requestsPerLife = (point: SweepPoint): number => (rate(point) * MEAN_LIFE_S) / pointValue(point, 'catalogue.objects');

/**
 * The block (0-based) after which the default steady rule would stop on these CDN blocks
 * (docs/warmup.md: less than 0.25 points to gain over a warm-up four times as long; the page
 * has no edge blocks, so the CDN half of the rule), or -1 within the ten.
 */
function defaultRuleStop(series: readonly number[]): number {
  for (let n = 1; n <= series.length; n++) {
    const gain = steadyGain(series.slice(0, n));
    if (gain !== null && gain.gain < STEADY_DEFAULTS.tolerance) return n - 1;
  }
  return -1;
}

export const steadyChurn: LibraryEntry<SweepFigures> = {
  name: 'steady-churn',
  title: 'Content churn: a level, not a slope',
  question: 'The baseline\'s immutable catalogue gives a hit ratio that keeps climbing for as long as it is measured: with 8 % of the objects replaced each week (the rate published for web pages), does the CDN hit ratio settle at a level, and where?',
  command: { kind: 'sweep', args: ['--param', `${PARAM}=${NO_CHURN},${CHURN}`, '--replicates', '1'] },
  charts: [],
  figures: (folder) => ({ points: sweepPoints(folder, FIGURES) }),
  results(f) {
    const still = pointAt(f, NO_CHURN);
    const churn = pointAt(f, CHURN);
    const days = daysPerBlock(churn);
    return [
      `One run per point (deterministic), the same seed and requests; each warms the caches alone for ${BLOCKS} blocks of ${count(BLOCK_REQUESTS)} requests (about ${days.toFixed(0)} simulated days each at ${rate(churn).toFixed(2)} requests a second), then measures ${count(MEASURED)} requests through the whole flow. CDN hit ratio of each block:`,
      '',
      markdownTable(
        ['block', 'requests so far', 'simulated days so far', 'no churn', '8 % of objects replaced a week'],
        blocks(still).map((ratio, i) => [String(i + 1), `${(((i + 1) * BLOCK_REQUESTS) / 1e6).toFixed(0)} M`, ((i + 1) * days).toFixed(0), percent(ratio), percent(blocks(churn)[i])]),
      ),
      '',
      markdownTable(
        ['after the warm-up, through the flow', 'no churn', '8 % of objects replaced a week'],
        [
          ['CDN hit ratio', percent(pointValue(still, 'hitRatio.cdn')), percent(pointValue(churn, 'hitRatio.cdn'))],
          ['origin requests', count(pointValue(still, 'cdn.origin.requests')), count(pointValue(churn, 'cdn.origin.requests'))],
        ],
      ),
    ].join('\n');
  },
  conclusions(f) {
    const still = pointAt(f, NO_CHURN);
    const churn = pointAt(f, CHURN);
    const churnTail = tail(churn);
    const stillTail = tail(still);
    const rise = stillTail[stillTail.length - 1] - stillTail[0];
    const stop = defaultRuleStop(blocks(churn));
    const afterStop = blocks(churn).slice(stop);
    const stopRatio = blocks(churn)[stop];
    const lives = ((LEVEL_FROM * pointValue(churn, 'warmup.simulatedSeconds')) / BLOCKS / MEAN_LIFE_S).toFixed(1);
    const lastBlock = churnTail[churnTail.length - 1];
    return [
      {
        text: `With churn the hit ratio levels off: from block ${LEVEL_FROM + 1} on (after ${LEVEL_FROM} M requests, ${lives} mean object lives of 12.5 weeks) every block lies between ${percent(Math.min(...churnTail))} and ${percent(Math.max(...churnTail))}, a band of ${points(spread(churnTail))}, without a direction: the last block is below the one before.`,
        holds: spread(churnTail) < 0.005 && churnTail[churnTail.length - 1] < Math.max(...churnTail),
      },
      {
        text: `Without churn the same blocks climb from ${percent(stillTail[0])} to ${percent(stillTail[stillTail.length - 1])} (+${points(rise)}, ${times(rise, spread(churnTail))} the churned band), each above the one before: the baseline's slope, which only ends when every regional cache has seen every object (docs/warmup.md).`,
        holds: stillTail.every((ratio, i) => i === 0 || ratio > stillTail[i - 1]) && rise > 5 * spread(churnTail),
      },
      {
        text:
          stop < 0
            ? `The warm-up's default rule (stop when the blocks project less than ${points(STEADY_DEFAULTS.tolerance)} to gain over a warm-up four times as long) does not stop the churned site within the ten blocks, though its last blocks lie within ${points(spread(churnTail))} of each other: their noise keeps the fit's bound above the tolerance, so on a site with churn the rule errs on the long side and a fixed warm-up of this length is the practical choice.`
            : `The warm-up's default rule (stop when the blocks project less than ${points(STEADY_DEFAULTS.tolerance)} to gain over a warm-up four times as long) stops the churned site after block ${stop + 1} at ${percent(stopRatio)}, and that is the level: the blocks after it stay within ${points(Math.max(...afterStop.map((ratio) => Math.abs(ratio - stopRatio))))} of it, and the ${count(MEASURED)} requests measured through the flow after the warm-up give ${percent(pointValue(churn, 'hitRatio.cdn'))} (last block ${percent(lastBlock)}).`,
        holds:
          stop < 0
            ? spread(churnTail) < 0.005
            : afterStop.every((ratio) => Math.abs(ratio - stopRatio) < 0.005) && Math.abs(pointValue(churn, 'hitRatio.cdn') - lastBlock) < 0.005,
      },
      {
        text: `The level has a price at this traffic: each replaced object is a first request again at the regional caches that ask for it, so the origin gets ${count(pointValue(churn, 'cdn.origin.requests'))} of the measured requests against ${count(pointValue(still, 'cdn.origin.requests'))} without churn (${times(pointValue(churn, 'cdn.origin.requests'), pointValue(still, 'cdn.origin.requests'))}). Where the level lies depends on how many requests an object gets in its life (here ${requestsPerLife(churn).toFixed(0)} on average), not on the churn rate alone: the page works it out for the baseline's 20,000 requests a second.`,
        holds: pointValue(churn, 'cdn.origin.requests') > 4 * pointValue(still, 'cdn.origin.requests'),
      },
    ];
  },
};
