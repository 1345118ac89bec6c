import { workerData } from 'node:worker_threads';
import { finishOnExit, runScanWorker, type ScanWorkerData } from './traceScan.js';

/** Worker thread entry of the replay pipeline: read and intern the trace, hand batches over (traceScan.ts). */
const data = workerData as ScanWorkerData;
process.on('exit', () => finishOnExit(data));
runScanWorker(data);
