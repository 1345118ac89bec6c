import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ScenarioJob } from '../experiment/scenarioJob.js';
import type { Summary } from '../report/summary.js';
import { UserError } from '../userError.js';
import { InterruptedError } from './interrupted.js';
import type { JobReply, JobRequest } from './scenarioJobWorker.js';

/**
 * Runs scenario jobs on worker threads, each worker taking the next job when it is done
 * with one. Results come back in job order whatever the worker count or the order jobs
 * finish in, so `--workers 4` gives the same files as `--workers 1`. Ctrl-C stops every
 * worker and rejects with InterruptedError (exit 130); nothing is written then.
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

export function runJobs(jobs: readonly ScenarioJob[], workerCount: number, onProgress?: (progress: PoolProgress) => void): Promise<Summary[]> {
  if (jobs.length === 0) return Promise.resolve([]);
  return new Promise((resolvePromise, reject) => {
    const results: Summary[] = new Array(jobs.length);
    const workers: Worker[] = [];
    let next = 0;
    let done = 0;
    let settled = false;
    const finish = (action: () => void) => {
      if (settled) return;
      settled = true;
      process.off('SIGINT', onInterrupt);
      void Promise.all(workers.map((worker) => worker.terminate())).then(action);
    };
    const onInterrupt = () => finish(() => reject(new InterruptedError(`interrupted after ${done} of ${jobs.length} runs; nothing was written.`)));
    process.on('SIGINT', onInterrupt);
    onProgress?.({ done: 0, total: jobs.length });
    const feed = (worker: Worker) => {
      if (next >= jobs.length) return;
      const index = next++;
      worker.postMessage({ type: 'job', index, job: jobs[index] } satisfies JobRequest);
    };
    for (let w = 0; w < Math.min(workerCount, jobs.length); w++) {
      const worker = new Worker(new URL('./scenarioJobWorker.js', import.meta.url));
      workers.push(worker);
      worker.on('message', (reply: JobReply) => {
        if (reply.type === 'error') {
          finish(() => reject(errorFromWorker(reply)));
          return;
        }
        results[reply.index] = reply.summary as Summary;
        done++;
        onProgress?.({ done, total: jobs.length });
        if (done === jobs.length) finish(() => resolvePromise(results));
        else feed(worker);
      });
      worker.on('error', (error) => finish(() => reject(error)));
      worker.on('exit', (code) => finish(() => reject(new Error(`a worker thread stopped with exit code ${code} before the runs finished`))));
      feed(worker);
    }
  });
}
