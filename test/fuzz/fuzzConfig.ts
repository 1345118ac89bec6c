/**
 * How many cases the fuzz suites try. `npm test` runs a few hundred (a few seconds);
 * `npm run fuzz` sets CDNSIM_FUZZ_RUNS for the long run (tens of thousands).
 */
export const FUZZ_RUNS = Number(process.env.CDNSIM_FUZZ_RUNS ?? 200);
/** Cases that spawn the CLI: a sample, since each costs a Node start. */
export const CLI_FUZZ_RUNS = Number(process.env.CDNSIM_CLI_FUZZ_RUNS ?? Math.max(12, Math.min(300, Math.round(FUZZ_RUNS / 50))));
/** Longest stderr a user mistake may print. */
export const MAX_STDERR_BYTES = 32 * 1024;
/** A fixed seed unless one is asked for, so that a failure can be repeated. */
export const FUZZ_SEED = Number(process.env.CDNSIM_FUZZ_SEED ?? 17);
