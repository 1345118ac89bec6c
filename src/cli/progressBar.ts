import cliProgress from 'cli-progress';
import type { RunProgress } from '../experiment/runScenario.js';

export interface ProgressReporter {
  update(progress: RunProgress): void;
  stop(): void;
}

/**
 * A progress bar on stderr (simulated time, requests, requests per second, ETA), shown
 * only on a terminal: on a pipe or with --no-progress nothing is drawn.
 */
export function createProgressReporter(enabled: boolean): ProgressReporter {
  if (!enabled || !process.stderr.isTTY) return { update: () => {}, stop: () => {} };
  const startedAt = performance.now();
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: ' {bar} {percentage}% | sim {simulated} | {requests} requests | {rate} req/s | ETA {eta_formatted}',
      barsize: 30,
      // The run is synchronous, so a Ctrl-C kills it before any handler could show the cursor again.
      hideCursor: false,
      clearOnComplete: true,
      etaBuffer: 50,
      fps: 10,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(1000, 0, { simulated: '0 s', requests: '0', rate: '0' });
  return {
    update(progress) {
      const elapsedSeconds = (performance.now() - startedAt) / 1000;
      bar.update(Math.round(progress.fraction * 1000), {
        simulated: formatSimulated(progress.simulatedMs),
        requests: progress.requests.toLocaleString('en-US'),
        rate: elapsedSeconds > 0 ? Math.round(progress.requests / elapsedSeconds).toLocaleString('en-US') : '0',
      });
    },
    stop() {
      bar.stop();
    },
  };
}

function formatSimulated(ms: number): string {
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 7_200_000) return `${(ms / 60_000).toFixed(1)} min`;
  return `${(ms / 3_600_000).toFixed(2)} h`;
}
