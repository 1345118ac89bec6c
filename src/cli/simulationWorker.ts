import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { RunProgress } from '../experiment/runScenario.js';
import { InterruptedError } from './interrupted.js';
import { errorFromWorker } from './jobPool.js';
import { SIMULATION_WORKER_LIMITS } from './workerLimits.js';

/** What a simulation worker posts: progress, its result, or an error (user mistake or bug). */
export type SimulationWorkerMessage<Done> =
  | { type: 'progress'; progress: RunProgress }
  | Done
  | { type: 'error'; userError: boolean; message: string; stack?: string };

/** Which worker to start and what an interrupted one leaves behind. */
export interface SimulationWorkerJob<Input> {
  /** The worker's module, e.g. `new URL('../runWorker.js', import.meta.url)`. */
  script: URL;
  input: Input;
  /** The folder the command writes; removed on Ctrl-C unless `finishedFile` is in it. */
  folder: string;
  /** The file whose presence means the folder is finished (summary.json, plan.json). */
  finishedFile: string;
  /** The command's noun in messages: "run", "plan". */
  noun: string;
}

/**
 * Runs one simulation in a worker thread and waits for its result (`run` and `plan`). Ctrl-C
 * stops the worker, removes the command's folder if it is unfinished (it is created only after
 * the simulation, so normally it does not exist), says so, and ends the command with exit 130.
 */
export function runSimulationWorker<Input, Done extends { type: 'done' }>(
  job: SimulationWorkerJob<Input>,
  onProgress: (progress: RunProgress) => void,
): Promise<Done> {
  const { folder, noun } = job;
  return new Promise((resolvePromise, reject) => {
    const worker = new Worker(job.script, { workerData: job.input, resourceLimits: SIMULATION_WORKER_LIMITS });
    let settled = false;
    const settle = (action: () => void) => {
      if (settled) return;
      settled = true;
      process.off('SIGINT', onInterrupt);
      action();
    };
    const onInterrupt = () => {
      settle(() => {
        void worker.terminate().then(() => {
          const removed = existsSync(folder) && !existsSync(join(folder, job.finishedFile));
          if (removed) rmSync(folder, { recursive: true, force: true });
          reject(new InterruptedError(`interrupted: the ${noun} stopped before it finished; nothing was written${removed ? ` (removed the unfinished ${noun === 'run' ? 'run folder' : 'folder'} '${folder}')` : ''}.`));
        });
      });
    };
    process.on('SIGINT', onInterrupt);
    worker.on('message', (message: SimulationWorkerMessage<Done>) => {
      if (message.type === 'progress') onProgress(message.progress);
      else if (message.type === 'done') settle(() => resolvePromise(message as Done));
      else {
        settle(() => reject(errorFromWorker(message as { userError: boolean; message: string; stack?: string })));
        void worker.terminate();
      }
    });
    worker.on('error', (error) => settle(() => reject(error)));
    worker.on('exit', (code) => settle(() => reject(new Error(`the ${noun}'s worker thread stopped with exit code ${code} before it finished`))));
  });
}

/** A worker's progress callback that posts at most ten reports a second (the bar redraws no faster), and always the last. */
export function throttledProgress(post: (message: { type: 'progress'; progress: RunProgress }) => void): (progress: RunProgress) => void {
  let lastPost = 0;
  return (progress) => {
    const now = performance.now();
    if (now - lastPost < 100 && progress.fraction < 1) return;
    lastPost = now;
    post({ type: 'progress', progress: { ...progress } });
  };
}
