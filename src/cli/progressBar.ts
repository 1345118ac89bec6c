import cliProgress from 'cli-progress';
import type { RunProgress } from '../experiment/runScenario.js';
import type { ReplayProgress } from '../experiment/replay.js';

export interface ProgressReporter<P> {
  update(progress: P): void;
  stop(): void;
}

const NO_PROGRESS = { update: () => {}, stop: () => {} };

/** A bar on stderr with requests and requests per second; `extra` adds fields of its own. */
function startBar<P extends { fraction: number; requests: number }>(format: string, extra: (progress: P) => Record<string, string>, initial: Record<string, string>): ProgressReporter<P> {
  const startedAt = performance.now();
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: ` {bar} {percentage}% | ${format}{requests} requests | {rate} req/s | ETA {eta_formatted}`,
      barsize: 30,
      // The work is synchronous, so a Ctrl-C kills it before any handler could show the cursor again.
      hideCursor: false,
      clearOnComplete: true,
      etaBuffer: 50,
      fps: 10,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(1000, 0, { requests: '0', rate: '0', ...initial });
  return {
    update(progress) {
      const elapsedSeconds = (performance.now() - startedAt) / 1000;
      bar.update(Math.round(progress.fraction * 1000), {
        requests: progress.requests.toLocaleString('en-US'),
        rate: elapsedSeconds > 0 ? Math.round(progress.requests / elapsedSeconds).toLocaleString('en-US') : '0',
        ...extra(progress),
      });
    },
    stop() {
      bar.stop();
    },
  };
}

/**
 * A progress bar on stderr (simulated time, requests, requests per second, ETA), shown
 * only on a terminal: on a pipe or with --no-progress nothing is drawn.
 */
export function createProgressReporter(enabled: boolean): ProgressReporter<RunProgress> {
  if (!enabled || !process.stderr.isTTY) return NO_PROGRESS;
  return startBar<RunProgress>('sim {simulated} | ', (progress) => ({ simulated: formatSimulated(progress.simulatedMs) }), { simulated: '0 s' });
}

/** The same for trace replay: share of the trace read (both passes when there are two). */
export function createReplayProgressReporter(enabled: boolean): ProgressReporter<ReplayProgress> {
  if (!enabled || !process.stderr.isTTY) return NO_PROGRESS;
  return startBar<ReplayProgress>('', () => ({}), {});
}

/** `cdnsim har`: reading the HAR (entries so far), then replaying its visits (requests so far). */
export interface HarProgress {
  readonly phase: 'reading' | 'replaying';
  readonly fraction: number;
  readonly requests: number;
}

export function createHarProgressReporter(enabled: boolean): ProgressReporter<HarProgress> {
  if (!enabled || !process.stderr.isTTY) return NO_PROGRESS;
  return startBar<HarProgress>('{phase} | ', (progress) => ({ phase: progress.phase }), { phase: 'reading' });
}

function formatSimulated(ms: number): string {
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 7_200_000) return `${(ms / 60_000).toFixed(1)} min`;
  return `${(ms / 3_600_000).toFixed(2)} h`;
}
