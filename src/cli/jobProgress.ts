import cliProgress from 'cli-progress';
import type { PoolProgress } from './jobPool.js';
import type { ProgressReporter } from './progressBar.js';

/** A bar on stderr counting finished runs (compare, sweep), only on a terminal. */
export function createJobProgressReporter(enabled: boolean, what: string): ProgressReporter<PoolProgress> {
  if (!enabled || !process.stderr.isTTY) return { update: () => {}, stop: () => {} };
  const bar = new cliProgress.SingleBar(
    { stream: process.stderr, format: ` {bar} {value}/{total} ${what} | ETA {eta_formatted}`, barsize: 30, hideCursor: false, clearOnComplete: true, fps: 5 },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(progress) {
      if (!started) {
        bar.start(progress.total, 0);
        started = true;
      }
      bar.update(progress.done);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
