import { checkFailureLines, type ChecksFigure } from '../report/conservation.js';

/** A conservation check failed (docs/conservation.md): a bug in the simulator. Exit code 4, after the results are written. */
export const EXIT_CONSERVATION_FAILED = 4;

export class ConservationFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConservationFailedError';
  }
}

/**
 * The error that ends a command whose runs broke a conservation identity, or null when every
 * run held: one line per failure, labelled by the run (a strategy, a sweep point and seed).
 */
export function conservationFailure(runs: readonly { label: string; checks: ChecksFigure }[]): ConservationFailedError | null {
  const lines = runs.flatMap((run) => checkFailureLines(run.checks.failed).map((line) => `  ${run.label === '' ? '' : `${run.label}: `}${line}`));
  if (lines.length === 0) return null;
  return new ConservationFailedError(
    `conservation check failed (${lines.length} figure${lines.length === 1 ? '' : 's'}): a bug in the simulator; the results were written, with the failures under "checks" (docs/conservation.md):\n${lines.join('\n')}`,
  );
}
