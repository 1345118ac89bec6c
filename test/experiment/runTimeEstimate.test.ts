import { describe, expect, it } from 'vitest';
import { runTimeEstimate, runTimeEstimateLine } from '../../src/experiment/jobCost.js';
import { parseScenarioText } from '../../src/scenario/load.js';

const scenario = (run: string) => parseScenarioText(`traffic: { rate: 20k/s }\nrun: ${run}\n`, 'long.yaml');

describe('the time estimate printed before a long run (issue 26)', () => {
  it('100 M requests after a 15 M cache-only warm-up: 100/0.5 + 15/1.2 = 212.5 s, "about 4 min"', () => {
    const estimate = runTimeEstimate(scenario('{ requests: 100M, warmup: { requests: 15M } }'));
    expect(estimate).toEqual({ flowRequests: 100e6, cacheWarmupRequests: 15e6, cacheWarmupIsCap: false, seconds: 212.5 });
    expect(runTimeEstimateLine(estimate)).toBe('a long run: about 100 M requests through the flow after 15 M warming the caches alone; expect about 4 min on one core');
  });

  it('a steady warm-up is named with its cap but not counted; a run of a duration is rate × time; --requests replaces both', () => {
    const steady = runTimeEstimate(scenario('{ requests: 40M, warmup: steady }'));
    expect(steady.seconds).toBe(80);
    expect(runTimeEstimateLine(steady)).toBe('a long run: about 40 M requests through the flow, plus a warm-up until the caches settle (up to 200 M requests); expect about 2 min on one core');
    expect(runTimeEstimate(scenario('{ duration: 10h, warmup: 0 }')).flowRequests).toBe(720e6);
    expect(runTimeEstimateLine(runTimeEstimate(scenario('{ duration: 10h, warmup: 0 }')))).toMatch(/about 720 M requests through the flow; expect about 24 min on one core$/);
    expect(runTimeEstimate(scenario('{ duration: 10h, warmup: 0 }'), { requests: 1e6 }).flowRequests).toBe(1e6);
  });

  it('the baseline as shipped (1 M requests, steady warm-up) gets no line: under a minute', () => {
    expect(runTimeEstimateLine(runTimeEstimate(scenario('{ requests: 1M, warmup: steady }')))).toBeNull();
  });
});
