import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ScenarioJob } from '../experiment/scenarioJob.js';
import type { Summary } from '../report/summary.js';
import { UserError } from '../userError.js';
import { InterruptedError } from './interrupted.js';
import { dispatchOrder } from './jobOrder.js';
import type { JobReply, JobRequest } from './scenarioJobWorker.js';
import { SIMULATION_WORKER_LIMITS } from './workerLimits.js';

/**
 * Runs scenario jobs on worker threads, each worker taking the next job when it is done
 * with one. Results come back in job order whatever the worker count or the order jobs
 * finish in, so `--workers 4` gives the same files as `--workers 1`. Ctrl-C stops every
 * worker and rejects with InterruptedError (exit 130); nothing is written then.
 *
 * A pool's workers live until `close()`, so a command that runs jobs in rounds (the
 * bisection of `sweep --target`) loads the simulator's modules and warms its JIT once per
 * worker, not once per round.
 */

/** Default worker count: one per core, no more than there are jobs. */
export function defaultWorkers(): number {
  return availableParallelism();
}

export function parseWorkers(text: string | undefined): number {
  if (text === undefined) return defaultWorkers();
  const workers = /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
  if (!(workers >= 1 && workers <= 256)) throw new UserError(`--workers: expected a whole number from 1 to 256, found "${text}"`);
  return workers;
}

/** A worker thread's error as the main thread throws it: a user error stays one (exit 2), anything else keeps the worker's stack. */
export function errorFromWorker(reply: { userError: boolean; message: string; stack?: string }): Error {
  if (reply.userError) return new UserError(reply.message);
  const error = new Error(reply.message);
  error.stack = reply.stack;
  return error;
}

export interface PoolProgress {
  done: number;
  total: number;
}

export interface RunJobsOptions {
  onProgress?: (progress: PoolProgress) => void;
  /**
   * Each job's expected cost (any unit, such as its request count): the dearest start
   * first, so the last job to finish is a short one and no worker idles long at the end.
   * Results stay in job order.
   */
  costs?: readonly number[];
}

/** The batch being run: where its results go and what to do when it ends. */
interface Batch {
  jobs: readonly ScenarioJob[];
  order: number[];
  results: Summary[];
  next: number;
  done: number;
  onProgress?: (progress: PoolProgress) => void;
  resolve: (summaries: Summary[]) => void;
  reject: (error: Error) => void;
}

export class JobPool {
  private readonly workers: Worker[] = [];
  private batch: Batch | undefined;
  /** Set once a worker failed or the pool was closed: no more batches. */
  private broken: Error | undefined;
  private readonly onInterrupt = (): void => {
    const batch = this.batch;
    this.fail(new InterruptedError(`interrupted after ${batch?.done ?? 0} of ${batch?.jobs.length ?? 0} runs; nothing was written.`));
  };

  /** Starts `workerCount` workers now: they load the simulator while the caller prepares the jobs. */
  constructor(private readonly workerCount: number) {
    for (let w = 0; w < workerCount; w++) this.workers.push(this.startWorker());
  }

  private startWorker(): Worker {
    const worker = new Worker(new URL('./scenarioJobWorker.js', import.meta.url), { resourceLimits: SIMULATION_WORKER_LIMITS });
    worker.on('message', (reply: JobReply) => this.onReply(worker, reply));
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => this.fail(new Error(`a worker thread stopped with exit code ${code} before the runs finished`)));
    // An idle worker does not keep the process alive (a command that throws before its first batch still exits).
    worker.unref();
    return worker;
  }

  run(jobs: readonly ScenarioJob[], options: RunJobsOptions = {}): Promise<Summary[]> {
    if (this.broken) return Promise.reject(this.broken);
    if (this.batch) return Promise.reject(new Error('JobPool.run: a batch is already running'));
    if (jobs.length === 0) return Promise.resolve([]);
    if (this.workers.length === 0) return Promise.reject(new Error('JobPool.run: a pool of 0 workers runs no jobs'));
    return new Promise((resolve, reject) => {
      const batch: Batch = { jobs, order: dispatchOrder(jobs.length, options.costs), results: new Array<Summary>(jobs.length), next: 0, done: 0, onProgress: options.onProgress, resolve, reject };
      this.batch = batch;
      process.on('SIGINT', this.onInterrupt);
      for (const worker of this.workers) worker.ref();
      batch.onProgress?.({ done: 0, total: jobs.length });
      for (const worker of this.workers) this.feed(worker, batch);
    });
  }

  /** Stops every worker; the pool runs nothing after. */
  async close(): Promise<void> {
    this.broken ??= new Error('JobPool: closed');
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }

  private feed(worker: Worker, batch: Batch): void {
    if (batch.next >= batch.jobs.length) return;
    const index = batch.order[batch.next++];
    worker.postMessage({ type: 'job', index, job: batch.jobs[index] } satisfies JobRequest);
  }

  private onReply(worker: Worker, reply: JobReply): void {
    const batch = this.batch;
    if (batch === undefined) return;
    if (reply.type === 'error') {
      this.fail(errorFromWorker(reply));
      return;
    }
    batch.results[reply.index] = reply.summary as Summary;
    batch.done++;
    batch.onProgress?.({ done: batch.done, total: batch.jobs.length });
    if (batch.done === batch.jobs.length) {
      this.endBatch();
      batch.resolve(batch.results);
    } else this.feed(worker, batch);
  }

  private endBatch(): void {
    this.batch = undefined;
    process.off('SIGINT', this.onInterrupt);
    for (const worker of this.workers) worker.unref();
  }

  /** A worker failed or the user interrupted: stop every worker, then reject the running batch (if any) with `error`. */
  private fail(error: Error): void {
    if (this.broken) return;
    this.broken = error;
    const batch = this.batch;
    this.endBatch();
    void Promise.all(this.workers.map((worker) => worker.terminate())).then(() => batch?.reject(error));
  }
}

/** Runs one batch of jobs on a pool of its own (`workerCount` workers at most, no more than there are jobs). */
export async function runJobs(jobs: readonly ScenarioJob[], workerCount: number, options: RunJobsOptions = {}): Promise<Summary[]> {
  if (jobs.length === 0) return [];
  const pool = new JobPool(Math.min(workerCount, jobs.length));
  try {
    return await pool.run(jobs, options);
  } finally {
    await pool.close();
  }
}
