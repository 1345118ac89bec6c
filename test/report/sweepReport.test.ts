import { describe, expect, it } from 'vitest';
import { sweepText, type SweepDocument } from '../../src/report/sweepReport.js';

const estimate = (mean: number, n: number) => ({ mean, ci95Low: n > 1 ? mean - 0.01 : mean, ci95High: n > 1 ? mean + 0.01 : mean, n });

function document(replicates: number): SweepDocument {
  return {
    schemaVersion: 1,
    scenario: 'toy',
    seed: 1,
    params: [{ path: 'edge.capacity', values: ['1GB', '8GB'] }],
    replicates,
    target: {
      figure: 'hitRatio.cdn',
      comparison: '>=',
      value: 0.9,
      minimize: 'edge.capacity',
      results: [{ values: {}, value: '4GB', figure: estimate(0.93, replicates), meetsWithConfidence: true, below: '2GB', belowFigure: estimate(0.88, replicates) }],
    },
    points: [],
  };
}

describe('sweep --target says what its answer rests on (issue 26)', () => {
  it('one replicate: no word of a 95 % interval, and how to get one', () => {
    // Folded to 100 columns, the continuation indented.
    expect(sweepText(document(1)).split('\n').slice(-2)).toEqual([
      'target hitRatio.cdn >= 0.9: smallest edge.capacity = 4GB with hitRatio.cdn 93.00 %; 2GB does not',
      '  (88.00 %); one replicate, so no confidence interval: --replicates 3 or more gives one',
    ]);
  });

  it('three replicates whose interval clears the bound: the whole 95 % interval meets it', () => {
    expect(sweepText(document(3))).toMatch(/; its whole 95 % interval meets the target$/);
  });
});
