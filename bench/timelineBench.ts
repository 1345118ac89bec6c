import { join } from 'node:path';
import { runScenario } from '../src/experiment/runScenario.js';
import { LatencyHistogram } from '../src/metrics/latencyHistogram.js';
import { RunTimeline } from '../src/metrics/runTimeline.js';
import { RandomStreams } from '../src/sim/random.js';
import { loadScenarioFile } from '../src/scenario/load.js';
import { alternate, measure, report, timeRun } from './harness.js';

/**
 * `slice.timeline`: what recording the time series and the per-PoP capacity costs, on the
 * run `npm start` makes (scenarios/baseline.yaml). The two variants alternate, so load
 * from other processes falls on both alike; each is timed by wall clock and by this
 * process's CPU time, and compared as a ratio.
 */
export function runTimelineBenchmarks(wanted: (name: string) => boolean): void {
  if (wanted('metrics.timeline')) timelineRecord();
  if (!wanted('slice.timeline')) return;
  const scenario = loadScenarioFile(join(import.meta.dirname, '..', '..', 'scenarios', 'baseline.yaml'));
  const repeats = 3;
  runScenario(scenario, { timeline: true, requests: 200_000 }); // warm-up: JIT
  const { requests, without, with: withTimeline } = alternate(repeats, (timeline) => timeRun(() => runScenario(scenario, { timeline }).totalRequests));
  report({
    name: 'slice.timeline.baseline',
    requests,
    withoutCpuSeconds: round(without.cpu),
    withCpuSeconds: round(withTimeline.cpu),
    cpuRatio: round(withTimeline.cpu / without.cpu),
    withoutWallSeconds: round(without.wall),
    withWallSeconds: round(withTimeline.wall),
    wallRatio: round(withTimeline.wall / without.wall),
    withoutRequestsPerSecond: Math.round(requests / without.wall),
    withRequestsPerSecond: Math.round(requests / withTimeline.wall),
  });
}

const round = (value: number): number => Math.round(value * 1000) / 1000;

/**
 * `metrics.timeline.record`: the collectors alone, fed 20k requests per simulated second
 * over 339 PoPs (the baseline's rate and PoP count), so their cost per request can be set
 * against a whole run's (slice.timeline: about 5 µs of CPU per request).
 */
function timelineRecord(): void {
  const requests = 4_000_000;
  const stream = new RandomStreams(1).stream('bench');
  const pops = 339;
  const layer = new Uint8Array(1 << 16);
  const edge = new Int32Array(1 << 16);
  const size = new Float64Array(1 << 16);
  for (let i = 0; i < layer.length; i++) {
    layer[i] = stream.int(3);
    edge[i] = stream.int(pops);
    size[i] = Math.round(stream.lognormal(32_000, 1));
  }
  const stores = Array.from({ length: pops }, () => ({ occupancy: 1e9 }));
  const done = { layer: 0, latencyMs: 0, edge: 0, sizeBytes: 0, status: 200, outcome: 0 };
  const result = measure(5, () => {
    const timeline = new RunTimeline({
      intervalMs: 60_000,
      layers: { browser: -1, edge: 0, regional: 1, origin: 2 },
      origin: { requests: 0, bytes: 0 },
      latency: new LatencyHistogram(),
      staleBits: 8,
      edgeStores: stores,
    });
    timeline.start(0);
    for (let i = 0; i < requests; i++) {
      const k = i & 0xffff;
      done.layer = layer[k];
      done.edge = edge[k];
      done.sizeBytes = size[k];
      timeline.record(i / 20, done); // 20 requests per simulated ms
    }
    timeline.finish(requests / 20);
    return requests;
  });
  report({ name: 'metrics.timeline.record', recordsPerSecond: result.bestPerSecond, medianRecordsPerSecond: result.medianPerSecond, nanosecondsPerRecord: round(1e9 / result.bestPerSecond) });
}
