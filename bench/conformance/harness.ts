import { createHash } from 'node:crypto';
import { HttpCacheNode, type HttpRequest, type HttpResponse, type Upstream } from '../../src/cdn/httpCacheNode.js';
import type { CacheLayer, Deployment } from '../../src/policy/deployment.js';
import { normaliseHeaders } from '../../src/policy/headers.js';
import { SimulatedOrigin, type ServerRequestRecord } from './origin.js';
import { VENDORED, type CacheTest, type CacheTestSuite, type InterimResponseSpec, type MagicFieldValue, type RequestConfig, type SetupTestName } from './suite.js';

const { fixupHeader, forbiddenResponseHeaders, noBodyStatus, skipResponseHeaders } = VENDORED;

/**
 * The HTTP Caching Tests (https://cache-tests.fyi; vendored at test/conformance/cache-tests,
 * whose VERSION.md names the commit) run in process against cdnsim's HttpCacheNode: no server,
 * no sockets, a simulated clock. What the suite's runner does (test-engine/client/test.mjs,
 * fetching.mjs, runner.mjs, lib/results.mjs) is reproduced here step by step; where this
 * differs, it says so.
 *
 * Fetch-only parts of a request that are NOT modelled:
 * - `mode`, `credentials`, `request_body`: no test depends on them for caching (request
 *   bodies only go with POST/PUT, which caches pass through).
 * - `redirect`: redirects are never followed. No test sends a 3xx with Location without
 *   `redirect: 'manual'`; the run fails loudly if one ever does.
 * - `cache`: only the request fields the Fetch standard's HTTP-network-or-cache fetch adds
 *   for a mode are modelled (no-store/reload: `Pragma: no-cache` and `Cache-Control: no-cache`
 *   when absent; no-cache: `Cache-Control: max-age=0` when absent). The CLI runner sets
 *   `no-store` but also always sends its own Pragma and Cache-Control, so nothing is added
 *   on the shared profile. On the private profile the node is the browser's HTTP cache, so
 *   a mode that changes how that cache is consulted (force-cache, only-if-cached, no-store,
 *   reload) fails loudly; the suite uses only `no-cache`.
 * - Interim (1xx) responses travel with the final response (`HttpResponse.interim`): the
 *   origin attaches `interim_responses`, the cache relays what it heard during the exchange,
 *   and `expected_interim_responses` reads what reached the client.
 * - The browser's own Fetch layer (e.g. a script's conditional request switching the cache
 *   mode to no-store) is not modelled: the private profile is the HTTP cache alone. The suite
 *   marks the tests where that matters `browser_skip`.
 * - The browser's Fetch filtering of responses (scripts never see Set-Cookie) is not modelled
 *   either: checks read the browser node's response directly.
 * - The shared profile sends what the CLI runner sends: without a test's own request fields,
 *   `Pragma: foo` and `Cache-Control: nothing-to-see-here` (client/fetching.mjs).
 * - `pause_after` advances the simulated clock by 3 s instead of waiting (client/utils.mjs).
 *   Nothing else moves it: exchanges take no simulated time, so no test needs a per-exchange
 *   tick (ages and Date fields are whole seconds apart only because of pauses).
 * - Test UUIDs are derived from the test id instead of random, so every run is identical.
 * - Every test runs on a fresh node and origin with the clock at CLOCK_START_MS. The real
 *   runner shares one cache across tests (separate URLs) and runs 100 at a time; it also
 *   pushes Test-ID/Req-Num into test definitions shared through templates, which this run
 *   avoids by cloning each test first (like running tests one by one with `--id`).
 */

export type ProfileName = 'shared' | 'private';

export interface Profile {
  readonly name: ProfileName;
  readonly layer: CacheLayer;
  /** client/config.mjs `useBrowserCache`: true for the browser runner, false for the CLI (proxies and CDNs). */
  readonly useBrowserCache: boolean;
}

export const PROFILES: Readonly<Record<ProfileName, Profile>> = {
  shared: { name: 'shared', layer: 'edge', useBrowserCache: false },
  private: { name: 'private', layer: 'browser', useBrowserCache: true },
};

/** container = only what the application's headers say (spec 1.3), the closest to plain RFC 9111. */
export const DEPLOYMENT: Deployment = { kind: 'container', framework: 'next', cdnEnabled: true };

/** The simulated clock's start; it moves only by pauses. */
export const CLOCK_START_MS = Date.UTC(2026, 0, 1);
/** client/utils.mjs pause(): three seconds. */
export const PAUSE_MS = 3000;

/** The suites of tests/index.mjs, as the CLI runner runs them (CDN-Cache-Control included). */
export const SUITES: readonly CacheTestSuite[] = VENDORED.suites;

/** The cache under test: anything that answers a request, given the next hop and the clock. */
export interface CacheUnderTest {
  handle(request: HttpRequest): { readonly response: HttpResponse };
}

export type CacheFactory = (profile: Profile, upstream: Upstream, now: () => number) => CacheUnderTest;

/** cdnsim's own HttpCacheNode at the profile's layer. */
export const cdnsimNode: CacheFactory = (profile, upstream, now) => new HttpCacheNode({ layer: profile.layer, deployment: DEPLOYMENT, upstream, now });

export type TestOutcome = 'pass' | { readonly failure: string; readonly setup: boolean };

export interface Score {
  passed: number;
  total: number;
}

export interface KindScores {
  readonly required: Score;
  readonly optimal: Score;
  readonly check: Score;
}

export interface ProfileTally extends KindScores {
  readonly profile: ProfileName;
  /** The same scores per suite file (tests/*.mjs), by suite id, in the suite's order. */
  readonly suites: Map<string, KindScores>;
  /** Every test run on this profile (browser_only tests only on private, browser_skip ones only on shared). */
  readonly results: Map<string, TestOutcome>;
  /**
   * Tests run but not counted, because a test they depend on did not pass (lib/display.mjs
   * determineTestResult: "dependency_fail", ⚪️ on cache-tests.fyi), with those dependencies.
   */
  readonly dependencyFailed: Map<string, string[]>;
}

/** Does the real runner run this test for this profile (client/runner.mjs)? */
export function appliesTo(test: CacheTest, profile: Profile): boolean {
  if (test.browser_only === true && !profile.useBrowserCache) return false;
  if (test.cdn_only === true && profile.useBrowserCache) return false;
  if (test.browser_skip === true && profile.useBrowserCache) return false;
  return true;
}

export function kindOf(test: CacheTest): 'required' | 'optimal' | 'check' {
  return test.kind ?? 'required';
}

/** Runs every applicable test on a profile and tallies as lib/display.mjs does. */
export function runProfile(profileName: ProfileName, suites: readonly CacheTestSuite[] = SUITES, makeCache: CacheFactory = cdnsimNode): ProfileTally {
  const profile = PROFILES[profileName];
  const results = new Map<string, TestOutcome>();
  const testsById = new Map<string, CacheTest>();
  const suiteOf = new Map<string, string>();
  for (const suite of suites) {
    for (const test of suite.tests) {
      if (testsById.has(test.id)) throw new Error(`harness: duplicate test ${test.id}`);
      testsById.set(test.id, test);
      suiteOf.set(test.id, suite.id);
      if (appliesTo(test, profile)) results.set(test.id, runCacheTest(test, profile, makeCache));
    }
  }
  const tally: ProfileTally = {
    profile: profileName,
    required: { passed: 0, total: 0 },
    optimal: { passed: 0, total: 0 },
    check: { passed: 0, total: 0 },
    suites: new Map(suites.map((suite) => [suite.id, emptyScores()])),
    results,
    dependencyFailed: new Map(),
  };
  // lib/display.mjs: a dependency counts as passed when it is ✅ (pass) or "yes" (a passing check).
  const passes = (id: string): boolean => {
    const test = testsById.get(id);
    if (!test) throw new Error(`harness: unknown dependency ${id}`);
    return results.get(id) === 'pass' && failedDependencies(test).length === 0;
  };
  const failedDependencies = (test: CacheTest): string[] => (test.depends_on ?? []).filter((id) => !passes(id));
  for (const [id, outcome] of results) {
    const test = testsById.get(id)!;
    const failed = failedDependencies(test);
    if (failed.length > 0) {
      tally.dependencyFailed.set(id, failed);
      continue;
    }
    for (const score of [tally[kindOf(test)], tally.suites.get(suiteOf.get(id)!)![kindOf(test)]]) {
      score.total++;
      if (outcome === 'pass') score.passed++;
    }
  }
  return tally;
}

function emptyScores(): KindScores {
  return { required: { passed: 0, total: 0 }, optimal: { passed: 0, total: 0 }, check: { passed: 0, total: 0 } };
}

// ---------------------------------------------------------------------------------------------
// One test (client/test.mjs makeCacheTest)
// ---------------------------------------------------------------------------------------------

/** A failed check: `setup` when the check is part of the test's setup (utils.mjs SetupError). */
class CheckFailure extends Error {
  constructor(
    readonly setup: boolean,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Where the real runner throws a TypeError (reading a server record that does not exist):
 * such a result is a plain failure, neither setup nor assertion.
 */
class MissingServerRecord extends Error {}

function assert(isSetup: boolean, expr: boolean, message: string): void {
  if (!expr) throw new CheckFailure(isSetup, message);
}

/** client/utils.mjs setupCheck. */
function setupCheck(reqConfig: RequestConfig, memberName: SetupTestName): boolean {
  return reqConfig.setup === true || (reqConfig.setup_tests !== undefined && reqConfig.setup_tests.includes(memberName));
}

/** A deterministic stand-in for lib/utils.mjs token(): a v4-shaped UUID from the test id. */
export function testUuid(testId: string): string {
  const hex = createHash('sha256').update(`http-cache-tests:${testId}`).digest('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** What the client sees of a response (the parts of a Fetch Response the runner reads). */
interface ClientResponse {
  readonly status: number;
  readonly headers: HttpResponse['headers'];
  readonly body: string;
}

/** Fetch's Headers.get: case-insensitive, null when absent. */
function headerGet(response: ClientResponse, name: string): string | null {
  return response.headers.get(name.toLowerCase()) ?? null;
}

function headerHas(response: ClientResponse, name: string): boolean {
  return response.headers.has(name.toLowerCase());
}

export function runCacheTest(definition: CacheTest, profile: Profile, makeCache: CacheFactory = cdnsimNode): TestOutcome {
  // The package's definitions share arrays through templates and the runner mutates them;
  // each run works on its own copy so profiles and tests cannot affect each other.
  const test = structuredClone(definition);
  const uuid = testUuid(test.id);
  const requests = inflateRequests(test);
  let nowMs = CLOCK_START_MS;
  const now = (): number => nowMs;
  const origin = new SimulatedOrigin(uuid, requests, now, (ms) => {
    nowMs += ms;
  });
  const node = makeCache(profile, (request) => origin.handle(request), now);
  const responses: ClientResponse[] = [];
  try {
    for (let idx = 0; idx < requests.length; idx++) {
      const reqConfig = requests[idx];
      const prevRes = idx > 0 ? Object.fromEntries(responses[idx - 1].headers) : undefined;
      const init = requestInit(idx, reqConfig, prevRes, profile);
      const answer = node.handle({ method: init.method, url: makeTestUrl(uuid, reqConfig), headers: normaliseHeaders(init.headers) });
      const response: ClientResponse = answer.response;
      if (response.status >= 300 && response.status < 400 && response.headers.has('location') && reqConfig.redirect !== 'manual') {
        throw new Error(`harness: ${test.id} request ${idx + 1} would follow a redirect, which is not modelled`);
      }
      responses.push(response);
      // The 1xx responses the cache relayed before its answer (RFC 9110 §15.2).
      const interim: InterimResponseSpec[] = (answer.response.interim ?? []).map((item) => [item.status, [...item.headers]]);
      checkResponse(uuid, requests, idx, response, interim);
      if (reqConfig.pause_after === true) nowMs += PAUSE_MS;
    }
    checkServerRequests(requests, responses, origin.serverState(), profile);
    return 'pass';
  } catch (error) {
    if (error instanceof CheckFailure) return { failure: error.message, setup: error.setup };
    if (error instanceof MissingServerRecord) return { failure: error.message, setup: false };
    throw error;
  }
}

/** client/fetching.mjs inflateRequests. */
function inflateRequests(test: CacheTest): RequestConfig[] {
  return test.requests.map((reqConfig) => Object.assign(reqConfig, { name: test.name, id: test.id }));
}

/** client/utils.mjs makeTestUrl, origin-form (the base URL is the node itself). */
function makeTestUrl(uuid: string, reqConfig: RequestConfig): string {
  let extra = '';
  if (reqConfig.filename !== undefined) extra += `/${reqConfig.filename}`;
  if (reqConfig.query_arg !== undefined) extra += `?${reqConfig.query_arg}`;
  return `/test/${uuid}${extra}`;
}

/** client/fetching.mjs init. */
function requestInit(idx: number, reqConfig: RequestConfig, prevResp: Record<string, string> | undefined, profile: Profile): { method: string; headers: [string, string][] } {
  let headers: [string, MagicFieldValue][] = [];
  let cacheMode: NonNullable<RequestConfig['cache']> = 'default';
  if (!profile.useBrowserCache) {
    cacheMode = 'no-store';
    // "dirty hack for Fetch": the CLI always sends these, before the test's own request fields.
    headers.push(['Pragma', 'foo']);
    headers.push(['Cache-Control', 'nothing-to-see-here']);
  }
  if (reqConfig.request_headers !== undefined) headers = headers.concat(reqConfig.request_headers);
  if (reqConfig.magic_ims === true) {
    if (prevResp === undefined) throw new Error('harness: magic_ims on the first request');
    for (let i = 0; i < headers.length; i++) {
      if (headers[i][0].toLowerCase() === 'if-modified-since') headers[i] = fixupHeader(headers[i], prevResp, reqConfig);
    }
  }
  if (reqConfig.name !== undefined) headers.push(['Test-Name', reqConfig.name]);
  if (reqConfig.cache !== undefined) cacheMode = reqConfig.cache;
  headers.push(['Test-ID', reqConfig.id ?? '']);
  headers.push(['Req-Num', (idx + 1).toString()]);
  // Fetch standard, HTTP-network-or-cache fetch: the fields a cache mode adds (after the
  // request's own, which is where undici appends them).
  const has = (field: string): boolean => headers.some(([name]) => name.toLowerCase() === field);
  if (profile.useBrowserCache && cacheMode !== 'default' && cacheMode !== 'no-cache') {
    throw new Error(`harness: fetch cache mode ${cacheMode} changes how the browser cache is consulted, which is not modelled`);
  }
  if (cacheMode === 'no-store' || cacheMode === 'reload') {
    if (!has('pragma')) headers.push(['Pragma', 'no-cache']);
    if (!has('cache-control')) headers.push(['Cache-Control', 'no-cache']);
  }
  if (cacheMode === 'no-cache' && !has('cache-control')) headers.push(['Cache-Control', 'max-age=0']);
  return { method: reqConfig.request_method ?? 'GET', headers: headers.map(([name, value]) => [name, String(value)]) };
}

/** client/test.mjs checkResponse, with makeCheckResponseBody. */
function checkResponse(uuid: string, requests: readonly RequestConfig[], idx: number, response: ClientResponse, interimResponses: readonly InterimResponseSpec[]): void {
  const reqNum = idx + 1;
  const reqConfig = requests[idx];
  const resNum = parseInt(headerGet(response, 'Server-Request-Count') ?? '', 10);

  // catch retries
  const requestNumbers = headerGet(response, 'Request-Numbers');
  if (requestNumbers !== null) {
    const serverRequests = requestNumbers.split(' ').map((item) => parseInt(item, 10));
    if (serverRequests.length !== new Set(serverRequests).size) assert(true, false, 'retry');
  }

  // check response type
  if (reqConfig.expected_type !== undefined) {
    const typeSetup = setupCheck(reqConfig, 'expected_type');
    if (reqConfig.expected_type === 'cached') {
      // "some caches will not include the hdr" on a 304
      if (!(response.status === 304 && Number.isNaN(resNum))) assert(typeSetup, resNum < reqNum, `Response ${reqNum} does not come from cache`);
    }
    if (reqConfig.expected_type === 'not_cached') assert(typeSetup, resNum === reqNum, `Response ${reqNum} comes from cache`);
  }

  // check response status
  if (reqConfig.expected_status !== undefined) {
    // null: any status will do
    if (reqConfig.expected_status !== null) {
      assert(setupCheck(reqConfig, 'expected_status'), response.status === reqConfig.expected_status, `Response ${reqNum} status is ${response.status}, not ${reqConfig.expected_status}`);
    }
  } else if (reqConfig.response_status !== undefined) {
    assert(true, response.status === reqConfig.response_status[0], `Response ${reqNum} status is ${response.status}, not ${reqConfig.response_status[0]}`);
  } else if (response.status === 999) {
    // the server thought it should have received a conditional request
    assert(setupCheck(reqConfig, 'expected_type'), false, `Request ${reqNum} should have been conditional, but it was not.`);
  } else {
    assert(true, response.status === 200, `Response ${reqNum} status is ${response.status}, not 200`);
  }

  // check response headers
  if (reqConfig.expected_response_headers !== undefined) {
    const respPresentSetup = setupCheck(reqConfig, 'expected_response_headers');
    for (const header of reqConfig.expected_response_headers) {
      if (typeof header === 'string') {
        assert(respPresentSetup, headerHas(response, header), `Response ${reqNum} ${header} header not present.`);
      } else if (header.length > 2) {
        const [name, operator, operand] = header as [string, string, string | number];
        assert(respPresentSetup, headerHas(response, name), `Response ${reqNum} ${name} header not present.`);
        const value = headerGet(response, name);
        let msg: string;
        let condition: boolean;
        if (operator === '=') {
          const expected = headerGet(response, String(operand));
          condition = value === expected;
          msg = `match ${operand} (${expected})`;
        } else if (operator === '>') {
          condition = parseInt(value ?? '', 10) > Number(operand);
          msg = `be bigger than ${operand}`;
        } else {
          throw new Error(`harness: unknown expected-header operator '${operator}'`);
        }
        assert(respPresentSetup, condition, `Response ${reqNum} header ${name} is ${value}, should ${msg}`);
      } else {
        const expectedValue = fixupHeader(header as [string, MagicFieldValue], Object.fromEntries(response.headers), reqConfig)[1];
        const actual = headerGet(response, header[0]);
        assert(respPresentSetup, actual === expectedValue, `Response ${reqNum} header ${header[0]} is "${actual}", not "${expectedValue}"`);
      }
    }
  }
  if (reqConfig.expected_response_headers_missing !== undefined) {
    const respMissingSetup = setupCheck(reqConfig, 'expected_response_headers_missing');
    for (const header of reqConfig.expected_response_headers_missing) {
      if (typeof header === 'string') {
        assert(respMissingSetup, !headerHas(response, header), `Response ${reqNum} includes unexpected header ${header}: "${headerGet(response, header)}"`);
      } else if (header.length !== 2) {
        throw new Error(`harness: unknown unexpected-header form '${String(header)}'`);
      }
      // The [name, substring] form reads `response.headers[name]`, a property a Fetch Headers
      // object never has, so the runner never checks it; neither does this.
    }
  }

  // check interim responses
  if (reqConfig.expected_interim_responses !== undefined) {
    const interimSetup = setupCheck(reqConfig, 'expected_interim_responses');
    reqConfig.expected_interim_responses.forEach(([statusCode, fields = []], i) => {
      const received = interimResponses[i];
      if (received === undefined) {
        assert(interimSetup, false, `Interim response ${i + 1} not received`);
        return;
      }
      assert(interimSetup, received[0] === statusCode, `Interim response ${i + 1} status is ${received[0]}, not ${statusCode}`);
      const receivedFields = new Map(received[1] ?? []);
      for (const [name, value] of fields) {
        assert(interimSetup, receivedFields.has(name), `Interim response ${i + 1} ${name} header not present.`);
        assert(interimSetup, receivedFields.get(name) === value, `Interim response ${i + 1} header ${name} is ${receivedFields.get(name)}, should ${value}`);
      }
    });
    assert(interimSetup, interimResponses.length === reqConfig.expected_interim_responses.length, `Received ${interimResponses.length} interim response(s), expected ${reqConfig.expected_interim_responses.length}`);
  }

  // check the body
  if (reqConfig.check_body === false) return;
  if (reqConfig.expected_response_text !== undefined) {
    if (reqConfig.expected_response_text !== null) {
      assert(setupCheck(reqConfig, 'expected_response_text'), response.body === reqConfig.expected_response_text, `Response body is "${response.body}", not "${reqConfig.expected_response_text}"`);
    }
  } else if (reqConfig.response_body !== undefined && reqConfig.response_body !== null) {
    assert(true, response.body === reqConfig.response_body, `Response body is "${response.body}", not "${reqConfig.response_body}"`);
  } else if (!noBodyStatus.has(response.status) && reqConfig.request_method !== 'HEAD') {
    assert(true, response.body === uuid, `Response body is "${response.body}", not "${uuid}"`);
  }
}

/** client/test.mjs checkServerRequests: the test's requests against what the origin saw. */
function checkServerRequests(requests: readonly RequestConfig[], responses: readonly ClientResponse[], serverState: ServerRequestRecord[], profile: Profile): void {
  let testIdx = 0;
  for (let i = 0; i < requests.length; ++i) {
    const expectedValidatingHeaders: string[] = [];
    const reqConfig = requests[i];
    const response = responses[i];
    const serverRequest: ServerRequestRecord | undefined = serverState[testIdx];
    const reqNum = i + 1;
    const typeSetup = setupCheck(reqConfig, 'expected_type');
    // The runner reads these without checking that the record exists (a TypeError there).
    const record = (): ServerRequestRecord => {
      if (serverRequest === undefined) throw new MissingServerRecord(`Request ${reqNum} has no server-side record (the runner fails with a TypeError here)`);
      return serverRequest;
    };
    if (reqConfig.expected_type !== undefined) {
      if (reqConfig.expected_type === 'cached') continue; // the server will not see the request
      if (reqConfig.expected_type === 'not_cached') {
        assert(typeSetup, record().request_num === reqNum, `Response ${reqNum} comes from cache (${record().request_num} on server)`);
      }
      if (reqConfig.expected_type === 'etag_validated') expectedValidatingHeaders.push('if-none-match');
      if (reqConfig.expected_type === 'lm_validated') expectedValidatingHeaders.push('if-modified-since');
    }
    testIdx++; // only increment for requests the server sees
    for (const vhdr of expectedValidatingHeaders) {
      assert(typeSetup, serverRequest !== undefined, `request ${reqNum} wasn't sent to server`);
      assert(typeSetup, Object.prototype.hasOwnProperty.call(record().request_headers, vhdr), `request ${reqNum} doesn't have ${vhdr} header`);
    }
    if (reqConfig.expected_request_headers !== undefined) {
      const reqPresentSetup = setupCheck(reqConfig, 'expected_request_headers');
      for (const header of reqConfig.expected_request_headers) {
        if (typeof header === 'string') {
          const headerName = header.toLowerCase();
          assert(reqPresentSetup, Object.prototype.hasOwnProperty.call(record().request_headers, headerName), `Request ${reqNum} ${header} header not present.`);
        } else {
          const reqValue = record().request_headers[header[0].toLowerCase()];
          assert(reqPresentSetup, reqValue === header[1], `Request ${reqNum} header ${header[0]} is "${reqValue}", not "${header[1]}"`);
        }
      }
    }
    if (reqConfig.expected_request_headers_missing !== undefined) {
      const reqMissingSetup = setupCheck(reqConfig, 'expected_request_headers_missing');
      for (const header of reqConfig.expected_request_headers_missing) {
        if (typeof header === 'string') {
          assert(reqMissingSetup, !Object.prototype.hasOwnProperty.call(record().request_headers, header.toLowerCase()), `Request ${reqNum} ${header} header present.`);
        } else {
          const reqValue = record().request_headers[header[0].toLowerCase()];
          assert(reqMissingSetup, reqValue !== header[1], `Request ${reqNum} header ${header[0]} is "${reqValue}"`);
        }
      }
    }
    if (serverRequest !== undefined) {
      for (const header of serverRequest.response_headers) {
        const name = header[0].toLowerCase();
        // browsers hide these from scripts, so the browser runner cannot verify them
        if (profile.useBrowserCache && forbiddenResponseHeaders.has(name)) continue;
        if (skipResponseHeaders.has(name)) continue; // "these just cause spurious failures"
        const received = headerGet(response, header[0]);
        const expected = Array.isArray(header[1]) ? header[1].join(', ') : header[1];
        assert(true, received === expected, `Response ${reqNum} header ${header[0]} is "${received}", not "${expected}"`);
      }
    }
    if (reqConfig.expected_method !== undefined) {
      assert(setupCheck(reqConfig, 'expected_method'), record().request_method === reqConfig.expected_method, `Request ${reqNum} had method ${record().request_method}, not ${reqConfig.expected_method}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Naming: RFC 9111 sections for the suite's spec anchors
// ---------------------------------------------------------------------------------------------

/**
 * RFC 9111 section numbers for the anchors the suite uses (the anchors are RFC 9111's own; the
 * draft bundled with the package numbers some of them differently, so the RFC's numbers are
 * listed here).
 */
const RFC9111_SECTIONS: Readonly<Record<string, string>> = {
  'response.cacheability': '3',
  'storing.fields': '3.1',
  'update': '3.2',
  'incomplete.responses': '3.3',
  'combining.responses': '3.4',
  'caching.authenticated.responses': '3.5',
  'constructing.responses.from.caches': '4',
  'caching.negotiated.responses': '4.1',
  'expiration.model': '4.2',
  'calculating.freshness.lifetime': '4.2.1',
  'heuristic.freshness': '4.2.2',
  'age.calculations': '4.2.3',
  'serving.stale.responses': '4.2.4',
  'validation.model': '4.3',
  'validation.sent': '4.3.1',
  'validation.received': '4.3.2',
  'validation.response': '4.3.3',
  'freshening.responses': '4.3.4',
  'head.effects': '4.3.5',
  'invalidation': '4.4',
  'field.age': '5.1',
  'field.cache-control': '5.2',
  'cache-request-directive': '5.2.1',
  'cache-request-directive.max-age': '5.2.1.1',
  'cache-request-directive.max-stale': '5.2.1.2',
  'cache-request-directive.min-fresh': '5.2.1.3',
  'cache-request-directive.no-cache': '5.2.1.4',
  'cache-request-directive.no-store': '5.2.1.5',
  'cache-request-directive.no-transform': '5.2.1.6',
  'cache-request-directive.only-if-cached': '5.2.1.7',
  'cache-response-directive': '5.2.2',
  'cache-response-directive.max-age': '5.2.2.1',
  'cache-response-directive.must-revalidate': '5.2.2.2',
  'cache-response-directive.must-understand': '5.2.2.3',
  'cache-response-directive.no-cache': '5.2.2.4',
  'cache-response-directive.no-store': '5.2.2.5',
  'cache-response-directive.no-transform': '5.2.2.6',
  'cache-response-directive.private': '5.2.2.7',
  'cache-response-directive.proxy-revalidate': '5.2.2.8',
  'cache-response-directive.public': '5.2.2.9',
  'cache-response-directive.s-maxage': '5.2.2.10',
  'cache.control.extensions': '5.2.3',
  'field.expires': '5.3',
  'field.pragma': '5.4',
};

/** "RFC 9111 §4.2, §5.2.2" for a list of anchors; anchors outside RFC 9111 are named as they are. */
export function specSections(anchors: readonly string[] | undefined): string | undefined {
  if (!anchors || anchors.length === 0) return undefined;
  const known = anchors.filter((anchor) => anchor in RFC9111_SECTIONS).map((anchor) => `§${RFC9111_SECTIONS[anchor]}`);
  const unknown = anchors.filter((anchor) => !(anchor in RFC9111_SECTIONS));
  const parts = [...(known.length ? [`RFC 9111 ${known.join(', ')}`] : []), ...unknown.map((anchor) => `#${anchor}`)];
  return parts.join('; ');
}
