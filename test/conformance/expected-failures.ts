import type { ProfileName } from '../../bench/conformance/harness.js';

/**
 * What cdnsim's HttpCacheNode is expected to fail in the HTTP Caching Tests (vendored at
 * ./cache-tests, VERSION.md names the commit), per mode, each with its reason. The
 * conformance test fails on any other failure (a regression) and on any listed test that
 * passes (remove it here). Only counted tests are listed: a test whose dependency did not pass
 * is not counted (cache-tests.fyi shows ⚪️).
 *
 * Required tests are conformance claims, so each carries its own reason. Optional ("optimal")
 * tests are listed with the reason for their group. "check" tests are observations, not
 * pass/fail; the ones observed as "no" are pinned so that a change in behaviour is noticed.
 */
export interface ExpectedFailure {
  readonly id: string;
  readonly modes: readonly ProfileName[];
  readonly reason: string;
}

const BOTH: readonly ProfileName[] = ['shared', 'private'];
const SHARED: readonly ProfileName[] = ['shared'];
const PRIVATE: readonly ProfileName[] = ['private'];

const SET_COOKIE_RULE =
  'Deliberate cdnsim rule (DESIGN; policy/decision.ts): a response with Set-Cookie is not stored at a shared layer unless it says public or s-maxage, ' +
  'so that one user\'s cookie is never served to another; the test\'s response has only max-age. The private (browser) mode stores it.';

const INTERIM =
  'HttpCacheNode exchanges one final response per request and does not model interim (1xx) responses, so the 103 the origin sends never reaches the ' +
  'client (RFC 9110 §15.2 asks a proxy to forward them). Storing only the final response, which the test is about, is what the node does.';

export const EXPECTED_REQUIRED_FAILURES: readonly ExpectedFailure[] = [
  { id: 'headers-store-Set-Cookie', modes: SHARED, reason: SET_COOKIE_RULE },
  { id: 'interim-not-cached', modes: SHARED, reason: INTERIM },
];

const HEURISTIC_AT_EDGE =
  'spec 4.1-4.2: at a CDN layer a response without an explicit lifetime gets the deployment\'s default (none for a container deployment), not an RFC 9111 §4.2.2 heuristic; the browser mode uses the heuristic and passes.';
const PARTIAL = 'Partial content: HttpCacheNode passes Range requests and 206 responses through and never stores or combines partial responses (RFC 9111 §3.3-3.4 allow, do not require).';
const VARY_NORMALISE = 'Vary matching compares the field values after list normalisation only (RFC 9111 §4.1 "MAY" normalise further); Accept-Language values are not reordered or case-folded by language semantics.';

export const EXPECTED_OPTIONAL_FAILURES: readonly ExpectedFailure[] = [
  ...['200', '203', '204', '404', '405', '410', '414', '501', '599'].map((status) => ({ id: `heuristic-${status}-cached`, modes: SHARED, reason: HEURISTIC_AT_EDGE })),
  { id: 'method-POST', modes: BOTH, reason: 'RFC 9111 §3: POST responses are passed through; the node never reuses them for a later GET.' },
  ...['order', 'case', 'select'].map((what) => ({ id: `vary-normalise-lang-${what}`, modes: BOTH, reason: VARY_NORMALISE })),
  { id: 'conditional-lm-fresh-no-lm', modes: SHARED, reason: 'RFC 9110 §13.1.3: a stored response without Last-Modified is not answered 304 to an If-Modified-Since; the node requires the stored Last-Modified to compare.' },
  ...[
    'partial-store-complete-reuse-partial',
    'partial-store-complete-reuse-partial-no-last',
    'partial-store-complete-reuse-partial-suffix',
    'partial-store-partial-reuse-partial-byterange',
    'partial-store-partial-reuse-partial-absent',
    'partial-store-partial-reuse-partial-suffix',
    'partial-store-partial-complete',
  ].map((id) => ({ id, modes: BOTH, reason: PARTIAL })),
  { id: 'other-set-cookie', modes: SHARED, reason: SET_COOKIE_RULE },
  ...['interim-102', 'interim-103', 'interim-no-header-reuse'].map((id) => ({ id, modes: SHARED, reason: INTERIM })),
  { id: 'cc-resp-immutable-fresh', modes: PRIVATE, reason: 'RFC 8246: immutable lets a browser skip revalidation on reload; the browser node treats a no-cache reload (Cache-Control: max-age=0) as a request directive it obeys.' },
];

/** "check" tests observed as "no", per mode. */
export const EXPECTED_CHECK_NO: Readonly<Record<ProfileName, readonly string[]>> = {
  shared: [
    // An Age with a parameter is not a non-negative integer, so it is ignored (RFC 9111 §5.1) and the response stays fresh.
    'age-parse-parameter', 'age-parse-numeric-parameter',
    'freshness-max-age-two-stale-fresh-sameline', 'freshness-max-age-two-stale-fresh-sepline', 'freshness-max-age-decimal-zero', 'freshness-max-age-decimal-five',
    'freshness-max-age-a100', 'freshness-max-age-100a', 'headers-omit-headers-listed-in-Cache-Control-no-cache-single', 'headers-omit-headers-listed-in-Cache-Control-no-cache',
    'stale-warning-stored', 'stale-warning-become', 'heuristic-delta-5', 'heuristic-delta-10', 'heuristic-delta-30', 'heuristic-delta-60', 'heuristic-delta-300',
    'heuristic-delta-600', 'heuristic-delta-1200', 'heuristic-delta-1800', 'heuristic-delta-3600', 'heuristic-delta-43200', 'heuristic-delta-86400', 'ccreq-no-store',
    'conditional-etag-quoted-respond-unquoted', 'conditional-etag-unquoted-respond-quoted', 'conditional-etag-vary-headers-mismatch', 'conditional-etag-strong-generate-unquoted',
    '304-etag-update-response-Content-Encoding', '304-etag-update-response-Content-MD5', '304-etag-update-response-Content-Range',
    '304-etag-update-response-ETag', '304-etag-update-response-Set-Cookie', 'head-writethrough', 'other-age-delay', 'cdn-max-age-case-insensitive',
    // A CDN node fills itself on a miss: it asks for the full response and answers the
    // client's If-None-Match itself (RFC 9111 §4.3.2), as the layered flow's nodes do.
    'conditional-etag-forward',
  ],
  private: [
    // An Age with a parameter is not a non-negative integer, so it is ignored (RFC 9111 §5.1) and the response stays fresh.
    'age-parse-parameter', 'age-parse-numeric-parameter',
    'freshness-max-age-two-stale-fresh-sameline', 'freshness-max-age-two-stale-fresh-sepline', 'freshness-max-age-decimal-zero', 'freshness-max-age-decimal-five',
    'freshness-max-age-a100', 'freshness-max-age-100a', 'headers-omit-headers-listed-in-Cache-Control-no-cache-single', 'headers-omit-headers-listed-in-Cache-Control-no-cache',
    'stale-close', 'stale-503', 'heuristic-delta-5', 'heuristic-delta-10', 'heuristic-delta-30', 'ccreq-no-store', 'pragma-request-no-cache',
    'conditional-etag-vary-headers-mismatch', 'conditional-etag-strong-generate-unquoted', 'conditional-etag-forward-unquoted', '304-etag-update-response-Content-Encoding',
    '304-etag-update-response-Content-MD5', '304-etag-update-response-Content-Range', '304-etag-update-response-ETag', 'head-writethrough', 'other-age-delay',
  ],
};

export function expectedFailuresFor(list: readonly ExpectedFailure[], mode: ProfileName): Map<string, ExpectedFailure> {
  return new Map(list.filter((entry) => entry.modes.includes(mode)).map((entry) => [entry.id, entry]));
}
