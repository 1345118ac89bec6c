import { parentPort } from 'node:worker_threads';
import { runScenarioJob, type ScenarioJob } from '../experiment/scenarioJob.js';
import { isUserError } from '../userError.js';

/**
 * A worker thread of `compare` and `sweep`: it takes jobs one at a time from the main
 * thread, runs each (src/experiment/scenarioJob.ts) and sends back its summary. The main
 * thread stays free to draw progress and to answer Ctrl-C.
 */

export type JobRequest = { type: 'job'; index: number; job: ScenarioJob };

export type JobReply =
  | { type: 'done'; index: number; summary: unknown }
  | { type: 'error'; index: number; userError: boolean; message: string; stack?: string };

if (parentPort !== null) {
  const port = parentPort;
  port.on('message', (request: JobRequest) => {
    runScenarioJob(request.job).then(
      (summary) => port.postMessage({ type: 'done', index: request.index, summary } satisfies JobReply),
      (error: unknown) =>
        port.postMessage({
          type: 'error',
          index: request.index,
          userError: isUserError(error),
          message: error instanceof Error ? error.message : String(error),
          stack: error instanceof Error ? error.stack : undefined,
        } satisfies JobReply),
    );
  });
}
