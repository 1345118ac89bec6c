import { describe, expect, it } from 'vitest';
import { parseScenarioText, ScenarioError } from '../../src/scenario/load.js';
import { scenarioToInput } from '../../src/scenario/serialize.js';
import { STEADY_DEFAULTS } from '../../src/scenario/warmupSchema.js';

const parse = (text: string) => parseScenarioText(text, 'scenarios/test.yaml');

function messagesOf(text: string): string[] {
  try {
    parse(text);
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioError);
    return (error as ScenarioError).problems.map((problem) => `${problem.keyPath}: ${problem.message}`);
  }
  throw new Error('expected a ScenarioError');
}

describe('run.warmup: the cache-only forms (spec 1.1: figures of a CDN in service)', () => {
  it('steady alone takes the documented rule: at most 0.25 points to gain over a warm-up four times as long, blocks scaled to the run (null), at most 200M', () => {
    expect(parse('run: { warmup: steady }\n').run.warmup).toEqual({ kind: 'caches', length: { kind: 'steady', tolerance: 0.0025, blockRequests: null, maxRequests: 200_000_000, start: 'stationary' } });
    expect(STEADY_DEFAULTS).toEqual({ tolerance: 0.0025, blockRequests: null, maxRequests: 200_000_000 });
  });

  it('{until: steady} takes its own tolerance, block and max in human units', () => {
    expect(parse('run: { warmup: { until: steady, tolerance: 0.5%, block: 200k, max: 5M } }\n').run.warmup).toEqual({
      kind: 'caches',
      length: { kind: 'steady', tolerance: 0.005, blockRequests: 200_000, maxRequests: 5_000_000, start: 'stationary' },
    });
  });

  it('{requests: 20M} and {duration: 30m} warm the caches for a fixed count or simulated time', () => {
    expect(parse('run: { warmup: { requests: 20M } }\n').run.warmup).toEqual({ kind: 'caches', length: { kind: 'requests', requests: 20_000_000, start: 'empty' } });
    expect(parse('run: { warmup: { duration: 30m } }\n').run.warmup).toEqual({ kind: 'caches', length: { kind: 'time', ms: 1_800_000, start: 'empty' } });
  });

  it('start: stationary | empty says how the caches start (docs/warmup.md "A stationary start"); each form keeps its default unless told', () => {
    expect(parse('run: { warmup: { until: steady, start: empty } }\n').run.warmup).toMatchObject({ length: { kind: 'steady', start: 'empty' } });
    expect(parse('run: { warmup: { requests: 8M, start: stationary } }\n').run.warmup).toEqual({ kind: 'caches', length: { kind: 'requests', requests: 8_000_000, start: 'stationary' } });
    expect(parse('run: { warmup: { duration: 30m, start: stationary } }\n').run.warmup).toMatchObject({ length: { kind: 'time', start: 'stationary' } });
    expect(messagesOf('run: { warmup: { until: steady, start: warm } }\n')).toEqual([
      'run.warmup.start: expected stationary (the caches filled with their steady-state contents) or empty, found "warm"',
    ]);
  });

  it('the flow forms are unchanged: a count, a share, a time', () => {
    expect(parse('run: { warmup: 500000 }\n').run.warmup).toEqual({ kind: 'requests', requests: 500_000 });
    expect(parse('run: { warmup: 25% }\n').run.warmup).toEqual({ kind: 'fraction', fraction: 0.25 });
    expect(parse('run: { warmup: 60s }\n').run.warmup).toEqual({ kind: 'time', ms: 60_000 });
  });

  it('scenario.json writes each form back so that it loads to the same warm-up', () => {
    for (const text of ['steady', '{ until: steady, tolerance: 1%, block: 10k, max: 1M }', '{ until: steady, start: empty }', '{ requests: 20M, start: stationary }', '{ requests: 20M }', '{ duration: 30m }', '25%', '1000', '60s']) {
      const scenario = parse(`run: { warmup: ${text} }\n`);
      expect(parse(JSON.stringify(scenarioToInput(scenario))).run.warmup).toEqual(scenario.run.warmup);
    }
  });

  it('mistakes name the key and what was expected', () => {
    expect(messagesOf('run: { warmup: { until: soon } }\n')).toEqual(['run.warmup.until: expected steady (or requests: N / duration: D for a fixed length), found "soon"']);
    expect(messagesOf('run: { warmup: { until: steady, requests: 2M } }\n')).toEqual(['run.warmup: expected exactly one of until: steady, requests (20M) or duration (30m), found until and requests']);
    expect(messagesOf('run: { warmup: { requests: 20M, tolerance: 1% } }\n')).toEqual(['run.warmup.tolerance: expected no `tolerance` with a fixed warm-up length; it belongs to until: steady, found "1%"']);
    expect(messagesOf('run: { warmup: { until: steady, block: 2M, max: 1M } }\n')).toEqual([expect.stringMatching(/^run\.warmup\.block: expected a block no longer than max \(1000000 requests\), found 2000000/)]);
    expect(messagesOf('run: { warmup: { until: steady, tolerance: 0% } }\n')).toEqual([expect.stringMatching(/^run\.warmup\.tolerance: expected a tolerance above 0%, such as 0\.2%/)]);
  });

  it('incidents with a warm-up until steady are refused: their times would fall at an unknown point of it', () => {
    const [message] = messagesOf('run: { warmup: steady }\nincidents:\n  - { kind: outage, start: 5m, duration: 1m }\n');
    expect(message).toMatch(/^run\.warmup: expected no incidents with run\.warmup until steady: .*\{duration: 30m\}/);
    expect(parse('run: { warmup: { duration: 30m } }\nincidents:\n  - { kind: outage, start: 35m, duration: 1m }\n').incidents).toHaveLength(1);
  });

  it('traffic.growth with a warm-up until steady is refused: shrinking traffic could die out before the caches settle', () => {
    const [message] = messagesOf('run: { warmup: steady }\ntraffic:\n  growth: { rate: -90%, per: 10m }\n');
    expect(message).toMatch(/^run\.warmup: expected no traffic\.growth with run\.warmup until steady: .*\{duration: 30m\}/);
  });

  it('a fixed cache-only warm-up counts in the work bound: traffic must last through the warm-up and the run', () => {
    // −90 % a minute at 20k/s: about 521,000 requests ever arrive.
    const growth = 'traffic:\n  growth: { rate: -90%, per: 1m }\n';
    expect(parse(`run: { requests: 200k, warmup: 0 }\n${growth}`).run.requests).toBe(200_000);
    expect(messagesOf(`run: { requests: 200k, warmup: { requests: 300k } }\n${growth}`)[0]).toMatch(
      /dies out after about 521,153 requests, fewer than twice run\.requests and the warm-up's requests \(500,000\)/,
    );
  });
});
