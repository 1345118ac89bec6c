import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The HTTP Caching Tests (Mark Nottingham, BSD-3-Clause, https://cache-tests.fyi), vendored
 * unmodified at test/conformance/cache-tests/ (VERSION.md names the commit). The suite is plain
 * `.mjs` without declarations; the types below follow its test-engine/lib/testsuite-schema.json
 * and what its runner reads.
 *
 * The files are loaded at run time from the checkout's root, found by walking up from this
 * module: the same code then runs from source (vitest) and from dist/ (`npm run conformance`),
 * and the vendored files are never copied into dist/.
 */

/** A field value in a test definition: integers are deltas in seconds for date fields (lib/header-fixup.mjs). */
export type MagicFieldValue = string | number;

/** `[name, value]`, or `[name, value, check]` where `check: false` keeps the server from checking it on the client. */
export type ResponseHeaderSpec = [string, MagicFieldValue] | [string, MagicFieldValue, boolean];

/** A name that must be present, `[name, value]`, `[name, '=', otherName]` or `[name, '>', integer]`. */
export type ExpectedResponseHeader = string | [string, MagicFieldValue] | [string, '=', string] | [string, '>', number];

export type ExpectedType = 'cached' | 'not_cached' | 'lm_validated' | 'etag_validated';

export type SetupTestName =
  | 'expected_type'
  | 'expected_method'
  | 'expected_status'
  | 'expected_response_headers'
  | 'expected_response_text'
  | 'expected_request_headers'
  | 'expected_request_headers_missing'
  | 'expected_response_headers_missing'
  | 'expected_interim_responses';

/** An interim (1xx) response: status and optional fields. */
export type InterimResponseSpec = [number] | [number, [string, string][]];

/** One request of a test and the origin's configured answer to it. */
export interface RequestConfig {
  request_method?: string;
  request_headers?: [string, MagicFieldValue][];
  request_body?: string;
  query_arg?: string;
  filename?: string;
  mode?: string;
  credentials?: string;
  cache?: 'default' | 'no-store' | 'reload' | 'no-cache' | 'force-cache' | 'only-if-cached';
  redirect?: 'follow' | 'error' | 'manual';
  pause_after?: boolean;
  /** Seconds the server waits before answering (server/handle-test.mjs). */
  response_pause?: number;
  disconnect?: boolean;
  magic_locations?: boolean;
  magic_ims?: boolean;
  rfc850date?: string[];
  interim_responses?: InterimResponseSpec[];
  expected_interim_responses?: InterimResponseSpec[];
  response_status?: [number, string];
  response_headers?: ResponseHeaderSpec[];
  response_body?: string | null;
  check_body?: boolean;
  expected_type?: ExpectedType;
  expected_method?: string;
  /** `null`: any status (client/test.mjs checks only a non-null value). */
  expected_status?: number | null;
  expected_request_headers?: (string | [string, string])[];
  expected_request_headers_missing?: (string | [string, string])[];
  expected_response_headers?: ExpectedResponseHeader[];
  expected_response_headers_missing?: (string | [string, string])[];
  expected_response_text?: string | null;
  setup?: boolean;
  setup_tests?: SetupTestName[];
  /** Added by the runner (client/fetching.mjs inflateRequests). */
  name?: string;
  id?: string;
  dump?: boolean;
}

export type TestKind = 'required' | 'optimal' | 'check';

export interface CacheTest {
  name: string;
  id: string;
  description?: string;
  /** Absent means required. */
  kind?: TestKind;
  spec_anchors?: string[];
  depends_on?: string[];
  /** Run only against browser caches (skipped for proxies and CDNs). */
  browser_only?: boolean;
  /** Skipped for browser caches. */
  browser_skip?: boolean;
  /** Run only against non-browser caches (client/runner.mjs skips it for browsers). */
  cdn_only?: boolean;
  requests: RequestConfig[];
}

export interface CacheTestSuite {
  name: string;
  id: string;
  description?: string;
  spec_anchors?: string[];
  tests: CacheTest[];
}

/** test-engine/lib/header-fixup.mjs: rewrites a date or location field in place and returns it. */
export type FixupHeader = <T extends [string, MagicFieldValue, ...unknown[]]>(header: T, respHeaders: Record<string, unknown>, reqConfig: RequestConfig) => T;

/** What the harness uses from the vendored files. */
export interface VendoredSuite {
  /** tests/index.mjs, in its order. */
  readonly suites: readonly CacheTestSuite[];
  readonly fixupHeader: FixupHeader;
  /** test-engine/lib/utils.mjs: the HTTP-date `deltaSecs` after `now` (ms). */
  readonly httpDate: (now: number, deltaSecs: number, format?: 'rfc850') => string;
  /** test-engine/lib/defines.mjs. */
  readonly noBodyStatus: ReadonlySet<number>;
  readonly forbiddenResponseHeaders: ReadonlySet<string>;
  readonly skipResponseHeaders: ReadonlySet<string>;
}

/** Where the suite is vendored, relative to the checkout's root. */
export const VENDORED_DIR = join('test', 'conformance', 'cache-tests');

function findVendoredDir(): string {
  let dir = import.meta.dirname;
  for (;;) {
    const candidate = join(dir, VENDORED_DIR);
    if (existsSync(join(candidate, 'VERSION.md'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`the HTTP Caching Tests are not vendored at ${VENDORED_DIR} above ${import.meta.dirname}`);
    dir = parent;
  }
}

async function load(): Promise<VendoredSuite> {
  const root = findVendoredDir();
  const url = (path: string): string => pathToFileURL(join(root, path)).href;
  const [index, fixup, utils, defines] = await Promise.all([
    import(url('tests/index.mjs')) as Promise<{ default: CacheTestSuite[] }>,
    import(url('test-engine/lib/header-fixup.mjs')) as Promise<{ fixupHeader: FixupHeader }>,
    import(url('test-engine/lib/utils.mjs')) as Promise<{ httpDate: VendoredSuite['httpDate'] }>,
    import(url('test-engine/lib/defines.mjs')) as Promise<Pick<VendoredSuite, 'noBodyStatus' | 'forbiddenResponseHeaders' | 'skipResponseHeaders'>>,
  ]);
  return {
    suites: index.default,
    fixupHeader: fixup.fixupHeader,
    httpDate: utils.httpDate,
    noBodyStatus: defines.noBodyStatus,
    forbiddenResponseHeaders: defines.forbiddenResponseHeaders,
    skipResponseHeaders: defines.skipResponseHeaders,
  };
}

export const VENDORED: VendoredSuite = await load();
