import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/experiment/runScenario.js';
import { buildSummary } from '../../src/report/summary.js';
import { summaryText } from '../../src/report/summaryText.js';
import { ScenarioError, parseScenarioText } from '../../src/scenario/load.js';
import { checkRunLength } from '../../src/cli/commands/run.js';
import { sweepFigures } from '../../src/experiment/sweepGrid.js';
import { compareCsv, compareDocument, compareText } from '../../src/report/compareReport.js';
import { withWarmup } from '../../src/scenario/warmupSchema.js';

const textOf = (run: string): string =>
  summaryText(buildSummary(runScenario(parseScenarioText(`run: ${run}\ncontent: { objects: 100 }\ntopology: { model: regions, jitter: 0 }\n`, 'nothing.yaml'))));

describe('the terminal summary of a run with nothing or one request measured (issue 26)', () => {
  it('a warm-up that uses the whole run prints one line instead of tables of 0.00 % and 0.00 ms', () => {
    // A time against a count: known only at the run's end (a count against a count is refused before, below).
    const lines = textOf('{ requests: 200, warmup: 1m }').split('\n');
    expect(lines[0]).toMatch(/^nothing · seed 1 · 0 requests measured \(200 warm-up\) · /);
    // The header folds before its catalogue part (100 columns).
    expect(lines.slice(1)).toEqual(['  catalogue 100 objects, 3.77 MB', '', 'no request was measured, so no hit ratio or latency: the warm-up used the whole run']);
  });

  it('one request measured is "1 request measured"', () => {
    expect(textOf('{ requests: 201, warmup: 200 }').split('\n')[0]).toMatch(/ · 1 request measured \(200 warm-up\) · /);
  });
});

const problemOf = (run: string): string => {
  try {
    parseScenarioText(`run: ${run}\n`, 'w.yaml');
  } catch (error) {
    if (error instanceof ScenarioError) return error.message;
    throw error;
  }
  return '';
};

describe('issue 26: a warm-up that uses the whole run', () => {
  const advice = 'no request would be measured; shorten run.warmup, lengthen the run, or warm the caches alone before it (run.warmup: {requests: N})';

  it('is refused at run.warmup when the file says so in the warm-up\'s own unit: a count, a time, a share of 100 %', () => {
    expect(problemOf('{ requests: 20000, warmup: 20000 }')).toBe(`w.yaml:1:33: \`run.warmup\`: expected a warm-up shorter than the run's 20,000 requests, found 20,000: ${advice}`);
    expect(problemOf('{ duration: 1m, warmup: 2m }')).toBe(`w.yaml:1:30: \`run.warmup\`: expected a warm-up shorter than the run's 60 s, found 120 s: ${advice}`);
    expect(problemOf('{ requests: 1000, warmup: 100% }')).toBe(`w.yaml:1:32: \`run.warmup\`: expected a share of the run below 100 %, found 100 %: ${advice}`);
    // The default run is 1,000,000 requests.
    expect(problemOf('{ warmup: 1000000 }')).toMatch(/the run's 1,000,000 requests, found 1,000,000/);
    expect(problemOf('{ requests: 20000, warmup: 19999 }')).toBe('');
  });

  it('"1M" as a warm-up is refused as ambiguous: a million in run.requests, a minute as a duration (it was read as a minute)', () => {
    expect(problemOf('{ requests: 5M, warmup: 1M }')).toBe('w.yaml:1:30: `run.warmup`: expected 1000000 (a request count) or 1m (minutes): "1M" is a count in run.requests but minutes as a time, found "1M"');
    expect(problemOf('{ requests: 5M, warmup: 1m }')).toBe('');
  });

  it('is refused (exit 2) when --requests, --duration or --warmup make it so, naming the flag', () => {
    const scenario = parseScenarioText('run: { requests: 20000, warmup: 1000 }\n', 'w.yaml');
    expect(() => checkRunLength(scenario, { requests: 1000 })).toThrow(`--requests with scenario "w": \`run.warmup\`: expected a warm-up shorter than the run's 1,000 requests, found 1,000: ${advice}`);
    expect(() => checkRunLength(withWarmup(scenario, { kind: 'fraction', fraction: 1 }), {})).toThrow(/^--warmup with scenario "w": `run\.warmup`: expected a share of the run below 100 %/);
    expect(() => checkRunLength(scenario, { durationMs: 1000 })).not.toThrow();
  });

  it('sweep and compare show "–" for the ratios and latencies of a run that measured nothing, not 0.00 %', () => {
    const summary = buildSummary(runScenario(parseScenarioText('run: { requests: 200, warmup: 1m }\ncontent: { objects: 100 }\ntopology: { model: regions, jitter: 0 }\n', 'n.yaml')));
    expect(summary.requests).toBe(0);
    const names = sweepFigures(summary).map(([name]) => name);
    expect(names.filter((name) => /^(hitRatio|byteHitRatio|originOffload|originByteOffload|latencyMs|cdn\.availability|cdn\.staleness)/.test(name))).toEqual([]);
    expect(names).toContain('cdn.origin.requests');
    const document = compareDocument('n', 1, [{ name: 'fixed:1h', description: '', summary }]);
    expect(compareText(document, 200).split('\n')[3]).toMatch(/^fixed:1h\s+–\s+–\s+0\s+–\s+0 B\s+–\s+–\s+–\s+–\s+–\s+–\s+–$/);
    expect(compareCsv(document).split('\n')[1]).toMatch(/^fixed:1h,,,0,,0,,,,,,,,/);
  });
});
