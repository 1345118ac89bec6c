import { TraceError } from '../traces/traceError.js';

/** Said with every "not a HAR file" error: what a HAR is and how to get one. */
export const HOW_TO_EXPORT =
  'A HAR file (HTTP Archive 1.2) is JSON like {"log": {"version": "1.2", "entries": [...]}}; ' +
  'export one from the browser: DevTools → Network → right-click a request → "Save all as HAR" (Chrome; Firefox: "Save All As HAR")';

/** The file is JSON (or empty) but not a HAR: `what` says how it differs. */
export function notHarFileError(file: string, what: string): TraceError {
  return new TraceError(`${file}: not a HAR file: ${what}. ${HOW_TO_EXPORT}.`, file);
}
