import { cacheKey } from './cacheKey.js';
import {
  CACHEABLE_EXTENSIONS,
  DEFAULT_POLICY_OPTIONS,
  isSharedLayer,
  UNCACHED_MIME_TYPES,
  type CacheLayer,
  type Deployment,
  type PolicyOptions,
} from './deployment.js';
import {
  explicitFreshness,
  heuristicFreshness,
  HEURISTICALLY_CACHEABLE_STATUSES,
  initialAgeSeconds,
  type FreshnessLifetime,
  type FreshnessSource,
} from './freshness.js';
import { reason, type PolicyReason } from './reason.js';
import { readResponseFacts, type PolicyRequest, type PolicyResponse, type ResponseFacts } from './responseFacts.js';
import { DEFAULT_VARIANT_RULES, fileExtension, type VariantRules } from './variants.js';
import { parseCacheControl } from './cacheControl.js';

export interface DecisionInput {
  readonly request: PolicyRequest;
  readonly response: PolicyResponse;
  readonly deployment: Deployment;
  readonly layer: CacheLayer;
  /** When the response arrived at this layer (ms since the epoch, simulated). */
  readonly nowMs: number;
  /** When this layer sent the request; defaults to `nowMs` (no round trip). */
  readonly requestTimeMs?: number;
  readonly options?: PolicyOptions;
  readonly variants?: VariantRules;
}

/** What one layer does with one response (DESIGN "decision"). All durations in seconds. */
export interface CacheDecision {
  readonly layer: CacheLayer;
  /** Does this layer store the response. */
  readonly store: boolean;
  /** The lifetime assigned (RFC 9111 §4.2.1 order, or the deployment default); 0 when not stored. */
  readonly freshnessLifetimeSeconds: number;
  readonly freshnessSource?: FreshnessSource;
  /** The response's age on arrival (RFC 9111 §4.2.3). */
  readonly initialAgeSeconds: number;
  /** How long it may be served without asking the origin: lifetime − age, 0 when stored but stale, always revalidated, or not stored. */
  readonly ttlSeconds: number;
  /** `no-cache`: stored, but every reuse is revalidated first (RFC 9111 §5.2.2.4). */
  readonly revalidateAlways: boolean;
  /** `no-cache`, `must-revalidate`, or at a shared layer `proxy-revalidate`/`s-maxage`: never served stale (RFC 9111 §4.2.4). */
  readonly neverServeStale: boolean;
  /** RFC 5861 §3: seconds after expiry during which it is served while one background revalidation runs. */
  readonly staleWhileRevalidateSeconds: number;
  /**
   * Seconds after expiry during which it may answer in place of a 5xx (an error burst): only
   * with explicit permission (RFC 9111 §4.2.4), `stale-if-error` (RFC 5861 §4) or a
   * `stale-while-revalidate` window (RFC 5861 §3: the failed revalidation is the one that
   * window was for), the longer of the two; 0 without either.
   */
  readonly staleIfErrorSeconds: number;
  /**
   * spec 4.7 row 1: seconds after expiry during which it is served when the origin refuses the
   * connection: `stale-if-error` when given (RFC 5861 §4 counts a network error as an
   * error), else cdnsim's cap at shared layers (`PolicyOptions.staleIfUnreachableSeconds`).
   */
  readonly staleIfUnreachableSeconds: number;
  /** RFC 8246: never revalidated while fresh. */
  readonly immutable: boolean;
  /** Stored only because of origin error protection (spec 7.1). */
  readonly errorCaching: boolean;
  /** The normalised cache key (spec 2.3). */
  readonly key: string;
  readonly reasons: readonly PolicyReason[];
}

/** The methods whose responses cdnsim's caches store (RFC 9111 §3: "the request method is understood by the cache"). */
const STORABLE_METHODS = new Set(['GET']);

/** Responses that carry the asset itself, for the static-asset default of spec 4.1.4 (not a 404 or a redirect at its path). */
const ASSET_STATUSES = new Set([200, 203, 206]);

/** Statuses this engine understands (RFC 9110 §15), for `must-understand` (RFC 9111 §5.2.2.3). */
const UNDERSTOOD_STATUSES = new Set([
  200, 201, 202, 203, 204, 205, 206, 300, 301, 302, 303, 304, 305, 307, 308, 400, 401, 402, 403, 404, 405, 406, 407, 408, 409,
  410, 411, 412, 413, 414, 415, 416, 417, 421, 422, 426, 500, 501, 502, 503, 504, 505,
]);

/**
 * Does `layer` store this response, for how long, and how may it be served stale. Pure: the
 * same input always gives the same decision, and time comes in as `nowMs`.
 */
export function decide(input: DecisionInput): CacheDecision {
  const { request, response, deployment, layer, nowMs } = input;
  const options = input.options ?? DEFAULT_POLICY_OPTIONS;
  const shared = isSharedLayer(layer);
  const key = cacheKey(request, input.variants ?? DEFAULT_VARIANT_RULES);
  const facts = readResponseFacts(response, layer, nowMs);
  const cc = facts.cacheControl;
  const reasons: PolicyReason[] = [
    reason('RFC 9111 §1, spec 4.9', shared ? `${layer} is a shared cache` : 'the browser is a private cache'),
    ...directiveSourceReasons(facts, shared),
    ...key.reasons,
  ];
  const base = { layer, key: key.key, initialAgeSeconds: 0, immutable: cc.immutable, errorCaching: false, reasons };
  const notStored = (why?: PolicyReason): CacheDecision => {
    if (why) reasons.push(why);
    return { ...base, store: false, freshnessLifetimeSeconds: 0, ttlSeconds: 0, revalidateAlways: false, neverServeStale: false, staleWhileRevalidateSeconds: 0, staleIfErrorSeconds: 0, staleIfUnreachableSeconds: 0 };
  };

  if (shared && !deployment.cdnEnabled) return notStored(reason('spec 1.3', 'the CDN is disabled for this container deployment'));
  if (!STORABLE_METHODS.has(request.method.toUpperCase())) {
    return notStored(reason('RFC 9111 §3', `${request.method.toUpperCase()} responses are not stored (cdnsim caches store GET only)`));
  }
  if (facts.status < 200 || facts.status === 304) return notStored(reason('RFC 9111 §3', `status ${facts.status} is not a storable final response`));
  const requestCc = parseCacheControl(request.headers.get('cache-control'));
  if (requestCc.noStore) return notStored(reason('RFC 9111 §5.2.1.5', 'the request says no-store'));
  if (cc.mustUnderstand && !UNDERSTOOD_STATUSES.has(facts.status)) {
    return notStored(reason('RFC 9111 §5.2.2.3', `must-understand and status ${facts.status} is not understood`));
  }
  if (cc.noStore && !(cc.mustUnderstand && UNDERSTOOD_STATUSES.has(facts.status))) {
    return notStored(reason('spec 2.2, RFC 9111 §5.2.2.5', `${facts.directivesFrom} no-store: never cached anywhere`));
  }
  if (shared && cc.private && !cc.privateFields) return notStored(reason('spec 2.2, RFC 9111 §5.2.2.7', 'private: cacheable by browsers only'));
  if (shared && request.headers.has('authorization') && !(cc.public || cc.sMaxAge !== undefined || cc.mustRevalidate)) {
    return notStored(reason('RFC 9111 §3.5', 'a request with Authorization is stored by a shared cache only with public, s-maxage or must-revalidate'));
  }
  // private="Set-Cookie" keeps the cookie out of the shared copy (RFC 9111 §5.2.2.7), so the bypass is not needed.
  if (shared && facts.hasSetCookie && !(cc.public || cc.sMaxAge !== undefined || cc.privateFields?.includes('set-cookie'))) {
    return notStored(reason('cdnsim reading', 'a response with Set-Cookie bypasses shared caches unless it says public or s-maxage'));
  }
  if (facts.vary.includes('*')) return notStored(reason('RFC 9111 §4.1', 'Vary: * never matches a later request, so it is not stored'));
  if (shared && cc.privateFields) reasons.push(reason('RFC 9111 §5.2.2.7', `private=${cc.privateFields.join(',')}: those fields are not stored, the rest is`));

  const lifetime = chooseLifetime(facts, input, options, reasons);
  // chooseLifetime has already said why nothing allows storing.
  if (!lifetime) return notStored();
  reasons.push(lifetime.reason);

  const age = initialAgeSeconds(facts, input.requestTimeMs ?? nowMs, nowMs);
  const revalidateAlways = cc.noCache && !cc.noCacheFields;
  const neverServeStale = revalidateAlways || cc.mustRevalidate || (shared && (cc.proxyRevalidate || cc.sMaxAge !== undefined));
  const errorCaching = lifetime.source === 'error caching';
  if (revalidateAlways) reasons.push(reason('spec 8.1, RFC 9111 §5.2.2.4', 'no-cache: stored, but revalidated with the origin before every reuse'));
  if (cc.noCacheFields) reasons.push(reason('RFC 9111 §5.2.2.4', `no-cache=${cc.noCacheFields.join(',')}: only those fields need revalidation`));
  if (neverServeStale) reasons.push(reason('RFC 9111 §4.2.4, spec 4.7', `${staleBlocker(facts, shared)}: never served stale, not even when the origin is down`));
  if (age > 0) reasons.push(reason('RFC 9111 §4.2.3', `the response is already ${formatSeconds(age)} s old on arrival`));
  const ttlSeconds = revalidateAlways ? 0 : Math.max(0, lifetime.seconds - age);
  const staleWhileRevalidateSeconds = neverServeStale ? 0 : (cc.staleWhileRevalidate ?? 0);
  if (staleWhileRevalidateSeconds > 0) {
    reasons.push(reason('spec 2.2, RFC 5861 §3', `stale-while-revalidate=${staleWhileRevalidateSeconds}: served stale for that long after expiry while one background revalidation runs`));
  }
  // spec 4.7 serves the "last known good version": a stored 5xx is never served stale in its place.
  const mayBeStale = !neverServeStale && facts.status < 500;
  // A 5xx is not "origin offline": stale in its place needs the response's permission (RFC 9111 §4.2.4, DESIGN).
  // At shared layers a stale-while-revalidate window counts, so a failed background revalidation
  // does not discard the copy it was refreshing; the browser keeps to stale-if-error alone.
  const staleIfErrorSeconds = mayBeStale ? Math.max(cc.staleIfError ?? 0, shared ? staleWhileRevalidateSeconds : 0) : 0;
  const staleIfUnreachableSeconds = mayBeStale ? (cc.staleIfError ?? (shared ? options.staleIfUnreachableSeconds : 0)) : 0;
  if (staleIfErrorSeconds > 0) {
    reasons.push(
      cc.staleIfError !== undefined && cc.staleIfError >= staleWhileRevalidateSeconds
        ? reason('RFC 5861 §4', `stale-if-error=${staleIfErrorSeconds}: served stale for that long after expiry when the origin answers 5xx`)
        : reason('RFC 5861 §3, RFC 9111 §4.2.4', `stale-while-revalidate=${staleWhileRevalidateSeconds} permits serving it stale for that long, so a failed (5xx) revalidation inside it is answered from the stored copy`),
    );
  } else if (shared && staleIfUnreachableSeconds > 0) {
    reasons.push(reason('RFC 9111 §4.2.4, spec 7.1', 'no stale-if-error: on a 5xx the client gets the error (a 500 is cached 5 s, spec 7.1), not a stale copy'));
  }
  if (staleIfUnreachableSeconds > 0) {
    reasons.push(
      cc.staleIfError !== undefined
        ? reason('RFC 5861 §4, spec 4.7', `stale-if-error=${staleIfUnreachableSeconds}: served stale for that long when the origin is unreachable`)
        : reason('spec 4.7', `served stale for up to ${staleIfUnreachableSeconds} s when the origin is unreachable (connection refused; cdnsim's cap, the spec states none)`),
    );
  }
  if (cc.immutable) reasons.push(reason('spec 2.2, RFC 8246', 'immutable: not revalidated while fresh'));
  return {
    ...base,
    store: true,
    freshnessLifetimeSeconds: lifetime.seconds,
    freshnessSource: lifetime.source,
    initialAgeSeconds: age,
    ttlSeconds,
    revalidateAlways,
    neverServeStale,
    staleWhileRevalidateSeconds,
    staleIfErrorSeconds,
    staleIfUnreachableSeconds,
    errorCaching,
  };
}

/**
 * Explicit headers win at every layer, whatever the extension or MIME type (spec 2.1,
 * 4.1.1). Without them: origin error protection (spec 7.1) at CDN layers, then the
 * deployment's defaults (spec 4.1–4.2) at CDN layers and RFC 9111 heuristics in the browser,
 * and only for statuses that may be cached without explicit freshness (RFC 9110 §15.1).
 */
function chooseLifetime(facts: ResponseFacts, input: DecisionInput, options: PolicyOptions, reasons: PolicyReason[]): FreshnessLifetime | undefined {
  const { layer, deployment, nowMs } = input;
  const explicit = explicitFreshness(facts, layer, nowMs);
  if (explicit) {
    reasons.push(reason('spec 2.1, spec 4.1.1', 'explicit freshness in the headers wins, whatever the extension or MIME type'));
    return explicit;
  }
  const shared = isSharedLayer(layer);
  if (shared && options.errorCachingStatuses.includes(facts.status)) {
    return {
      seconds: options.errorCachingSeconds,
      source: 'error caching',
      reason: reason('spec 7.1', `origin error ${facts.status} without explicit freshness is cached for ${options.errorCachingSeconds} s to protect the origin`),
    };
  }
  const heuristicStatus = HEURISTICALLY_CACHEABLE_STATUSES.has(facts.status);
  if (!heuristicStatus && !(facts.cacheControl.public && !shared)) {
    // At CDN layers `public` alone does not open the deployment defaults to other statuses (a 502 is not an asset).
    reasons.push(reason('RFC 9110 §15.1, RFC 9111 §4.2.2', `status ${facts.status} is not cached without explicit freshness`));
    return undefined;
  }
  if (facts.cacheControl.noCache && !facts.cacheControl.noCacheFields) {
    return {
      seconds: 0,
      source: 'no-cache',
      reason: reason('RFC 9111 §5.2.2.4, cdnsim reading', 'no-cache without a lifetime: stored, and revalidated before every reuse'),
    };
  }
  if (!shared) {
    const heuristic = heuristicFreshness(facts, nowMs, options);
    if (heuristic) return heuristic;
    if (facts.etag !== undefined) {
      return { seconds: 0, source: 'heuristic', reason: reason('RFC 9111 §3, §4.3', 'no lifetime, but an ETag: stored stale, reused after revalidation') };
    }
    reasons.push(reason('RFC 9111 §4.2.2', 'no explicit lifetime and no Last-Modified to derive one from'));
    return undefined;
  }
  switch (deployment.kind) {
    case 'full-stack': {
      if (facts.mediaType && UNCACHED_MIME_TYPES.has(facts.mediaType)) {
        reasons.push(reason('spec 4.2', `${facts.mediaType} is not cached without headers in a full-stack deployment`));
        return undefined;
      }
      const extension = fileExtension(new URL(input.request.url, 'http://cdnsim.invalid').pathname);
      if (extension && CACHEABLE_EXTENSIONS.has(extension) && !ASSET_STATUSES.has(facts.status)) {
        reasons.push(reason('spec 4.1.4', `the static-asset default is for the asset itself; a ${facts.status} at a .${extension} path is not cached without headers`));
        return undefined;
      }
      if (extension && CACHEABLE_EXTENSIONS.has(extension)) {
        return {
          seconds: options.staticAssetDefaultSeconds,
          source: 'static-asset default',
          reason: reason('spec 4.1.4, spec 4.2', `.${extension} is a cacheable static asset: aggressive default lifetime of ${options.staticAssetDefaultSeconds} s`),
        };
      }
      reasons.push(reason('spec 4.1.2', 'a full-stack response without Cache-Control or Expires is not cached'));
      return undefined;
    }
    case 'static': {
      const heuristic = heuristicFreshness(facts, nowMs, options);
      if (heuristic) {
        reasons.push(reason('spec 4.1.3', 'static site generation caches everything by default'));
        return heuristic;
      }
      return {
        seconds: options.staticSiteDefaultSeconds,
        source: 'static-site default',
        reason: reason('spec 4.1.3, spec 8', `static site generation caches everything; without headers or Last-Modified the lifetime is ${options.staticSiteDefaultSeconds} s`),
      };
    }
    case 'container':
      reasons.push(reason('spec 1.3', 'a container deployment is cached only as its own headers say'));
      return undefined;
  }
}

function directiveSourceReasons(facts: ResponseFacts, shared: boolean): PolicyReason[] {
  const reading = facts.cdnCacheControl;
  if (!shared) {
    return reading.status === 'absent' ? [] : [reason('RFC 9213 §2.1', 'CDN-Cache-Control is for CDN caches; the browser ignores it')];
  }
  if (reading.status === 'invalid') return [reason('RFC 9213 §2.1', `CDN-Cache-Control is not a valid Structured Fields dictionary (${reading.problem}); it is ignored`)];
  if (reading.status === 'valid') {
    const ignored = reading.ignoredMembers.length ? `; ignored members with values of the wrong type: ${reading.ignoredMembers.join(', ')}` : '';
    return [reason('RFC 9213 §2.1', `CDN-Cache-Control is valid, so this layer uses it instead of Cache-Control and Expires${ignored}`)];
  }
  return [];
}

function staleBlocker(facts: ResponseFacts, shared: boolean): string {
  const cc = facts.cacheControl;
  if (cc.noCache) return 'no-cache';
  if (cc.mustRevalidate) return 'must-revalidate';
  if (shared && cc.proxyRevalidate) return 'proxy-revalidate';
  return 's-maxage (implies proxy-revalidate, RFC 9111 §5.2.2.10)';
}

function formatSeconds(seconds: number): string {
  return Number.isFinite(seconds) ? String(Math.round(seconds * 1000) / 1000) : '∞';
}
