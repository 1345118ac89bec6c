import cliProgress from 'cli-progress';
import type { RunProgress } from '../experiment/runScenario.js';
import type { ReplayProgress } from '../experiment/replay.js';

export interface ProgressReporter<P> {
  update(progress: P): void;
  stop(): void;
}

/** startBar's reporter, which can start over (a new phase: its own rate and ETA). */
interface RestartableReporter<P> extends ProgressReporter<P> {
  restart(): void;
}

const NO_PROGRESS = { update: () => {}, stop: () => {} };

/** A bar on stderr with requests and requests per second; `extra` adds fields of its own. */
function startBar<P extends { fraction: number; requests: number }>(format: string, extra: (progress: P) => Record<string, string>, initial: Record<string, string>): RestartableReporter<P> {
  let startedAt = performance.now();
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: ` {bar} {percentage}% | ${format}{requests} req, {rate}/s | ETA {eta_formatted}`,
      // Within 100 columns with the longest phase text (a steady warm-up's).
      barsize: 10,
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
    restart() {
      startedAt = performance.now();
      bar.start(1000, 0, { requests: '0', rate: '0', ...initial });
    },
  };
}

/**
 * A progress bar on stderr (the warm-up or the simulated time, requests, requests per second, ETA), shown
 * only on a terminal: on a pipe or with --no-progress nothing is drawn.
 */
export function createProgressReporter(enabled: boolean): ProgressReporter<RunProgress> {
  if (!enabled || !process.stderr.isTTY) return NO_PROGRESS;
  const bar = startBar<RunProgress>('{phase} | ', (progress) => ({ phase: runPhaseText(progress) }), { phase: 'starting' });
  let warming = false;
  return {
    update(progress) {
      // The cache-only warm-up has a bar of its own; the run then starts over with its own rate and ETA.
      if (warming && progress.warming === undefined) bar.restart();
      warming = progress.warming !== undefined;
      bar.update(progress);
    },
    stop: () => bar.stop(),
  };
}

/**
 * What the bar says the run is doing: the cache-only warm-up (its count or cap, and the last
 * block's CDN hit ratio), or the simulated time of the run through the flow.
 */
export function runPhaseText(progress: RunProgress): string {
  const warming = progress.warming;
  if (warming === undefined) return `sim ${formatSimulated(progress.simulatedMs)}`;
  const goal = warming.until === 'steady' ? `steady, ≤ ${formatShortCount(warming.target ?? 0)}` : warming.until === 'requests' ? `to ${formatShortCount(warming.target ?? 0)}` : 'for a time';
  // The stationary start fills every cache in one step before the first warmed request (docs/warmup.md).
  if (warming.filling) return `filling caches (stationary start), then ${warming.until === 'steady' ? 'steady' : goal}`;
  const block = warming.lastBlockHitRatio === null ? '' : ` · block ${(warming.lastBlockHitRatio * 100).toFixed(1)} % CDN`;
  return `warming ${goal}${block}`;
}

const formatShortCount = (count: number): string => (count >= 1e6 ? `${+(count / 1e6).toFixed(1)} M` : count.toLocaleString('en-US'));

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
