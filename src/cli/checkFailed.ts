/** `run --check` found a stated figure outside its range: exit code 3, after the results are written. */
export const EXIT_CHECK_FAILED = 3;

/** Ends `cdnsim run --check` with exit 3 after the results are written; the message lists the rows outside. */
export class CheckFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CheckFailedError';
  }
}
