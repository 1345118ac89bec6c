import type { ResourceLimits } from 'node:worker_threads';

/**
 * The heap of a worker thread that runs simulations (`run`, `compare`, `sweep`). A worker's
 * young generation starts smaller than the main thread's, and a run allocates steadily
 * (per-run objects, summaries, time series), so with the default the collector scavenges
 * often; 96 MB (semi-spaces of 32 MB) took about 6 % off the CPU time of a sweep point on
 * worker threads, alone or two at once (bench/sweepBench.ts's scenario, alternated runs).
 * It costs at most about 64 MB more memory per worker, next to the 150 MB or more a run
 * of the shipped scenarios holds.
 */
export const SIMULATION_WORKER_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 96 };
