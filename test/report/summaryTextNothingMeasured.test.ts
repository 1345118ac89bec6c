import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/experiment/runScenario.js';
import { buildSummary } from '../../src/report/summary.js';
import { summaryText } from '../../src/report/summaryText.js';
import { parseScenarioText } from '../../src/scenario/load.js';

const textOf = (run: string): string =>
  summaryText(buildSummary(runScenario(parseScenarioText(`run: ${run}\ncontent: { objects: 100 }\ntopology: { model: regions, jitter: 0 }\n`, 'nothing.yaml'))));

describe('the terminal summary of a run with nothing or one request measured (issue 26)', () => {
  it('a warm-up that uses the whole run prints one line instead of tables of 0.00 % and 0.00 ms', () => {
    const lines = textOf('{ requests: 200, warmup: 200 }').split('\n');
    expect(lines[0]).toMatch(/^nothing · seed 1 · 0 requests measured \(200 warm-up\) · /);
    // The header folds before its catalogue part (100 columns).
    expect(lines.slice(1)).toEqual(['  catalogue 100 objects, 3.77 MB', '', 'no request was measured, so no hit ratio or latency: the warm-up used the whole run']);
  });

  it('one request measured is "1 request measured"', () => {
    expect(textOf('{ requests: 201, warmup: 200 }').split('\n')[0]).toMatch(/ · 1 request measured \(200 warm-up\) · /);
  });
});
