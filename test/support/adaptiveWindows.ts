import type { AdaptiveWindow } from '../../src/cdn/adaptiveController.js';
import type { RunResult } from '../../src/experiment/runScenario.js';

/** The adaptive controller's windows of one content class, in time order (spec 1.2 item 6 tests). */
export function windowsOf(result: RunResult, name: string): AdaptiveWindow[] {
  const figures = result.adaptive;
  if (figures === undefined) throw new Error('the run has no adaptive controller');
  const c = figures.classes.findIndex((klass) => klass.name === name);
  return figures.windows.filter((window) => window.classId === c);
}

/** CDN hit ratio over a run of windows: their CDN hits over their requests. */
export const hitRatio = (windows: readonly AdaptiveWindow[]): number => windows.reduce((sum, w) => sum + w.cdnHits, 0) / windows.reduce((sum, w) => sum + w.requests, 0);
