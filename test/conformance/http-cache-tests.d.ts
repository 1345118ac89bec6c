/**
 * Types for the parts of the `http-cache-tests` package (Mark Nottingham's HTTP Caching Tests,
 * BSD-3-Clause, https://cache-tests.fyi) that the conformance run imports. The package ships
 * plain `.mjs` without declarations; these follow its `lib/testsuite-schema.json` (0.4.5).
 */

declare module 'http-cache-tests/tests/index.mjs' {
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
    | 'expected_response_headers_missing';

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
    disconnect?: boolean;
    magic_locations?: boolean;
    magic_ims?: boolean;
    rfc850date?: string[];
    response_status?: [number, string];
    response_headers?: ResponseHeaderSpec[];
    response_body?: string | null;
    check_body?: boolean;
    expected_type?: ExpectedType;
    expected_method?: string;
    expected_status?: number;
    expected_request_headers?: (string | [string, string])[];
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
    requests: RequestConfig[];
  }

  export interface CacheTestSuite {
    name: string;
    id: string;
    description?: string;
    spec_anchors?: string[];
    tests: CacheTest[];
  }

  const suites: CacheTestSuite[];
  export default suites;
}

declare module 'http-cache-tests/lib/header-fixup.mjs' {
  import type { MagicFieldValue, RequestConfig } from 'http-cache-tests/tests/index.mjs';

  /**
   * Rewrites a field in place and returns it: integer date fields become HTTP-dates relative to
   * `respHeaders['server-now']`, Location/Content-Location become URLs under
   * `respHeaders['server-base-url']` when `magic_locations` is set.
   */
  export function fixupHeader<T extends [string, MagicFieldValue, ...unknown[]]>(
    header: T,
    respHeaders: Record<string, unknown>,
    reqConfig: RequestConfig,
  ): T;
}

declare module 'http-cache-tests/lib/utils.mjs' {
  /** The HTTP-date `deltaSecs` after `now` (ms), IMF-fixdate or, with `format: 'rfc850'`, RFC 850. */
  export function httpDate(now: number, deltaSecs: number, format?: 'rfc850'): string;
  /** Deterministic content for a key. */
  export function httpContent(csKey: string, contentLength?: number): string;
}

declare module 'http-cache-tests/lib/defines.mjs' {
  /** Statuses that never carry a body (204, 304). */
  export const noBodyStatus: ReadonlySet<number>;
  /** Fields the Fetch API hides from scripts (Set-Cookie, Set-Cookie2). */
  export const forbiddenResponseHeaders: ReadonlySet<string>;
  /** Fields not compared when checking an origin's response fields on the client (Date). */
  export const skipResponseHeaders: ReadonlySet<string>;
}
