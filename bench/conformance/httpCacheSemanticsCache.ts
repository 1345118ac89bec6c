import CachePolicy from 'http-cache-semantics';
import type { HttpRequest, HttpResponse, Upstream } from '../../src/cdn/httpCacheNode.js';
import type { CacheFactory, CacheUnderTest } from './harness.js';

/**
 * The npm library http-cache-semantics (a devDependency, for comparison only) inside the
 * minimal cache loop its README describes, so the same harness can score it: one stored
 * response per method and URL; `evaluateRequest` decides hit, stale-while-revalidate or
 * revalidation; `revalidatedPolicy` merges a 304; `storable` decides storing;
 * `responseHeaders` builds what is served. Nothing the library leaves to its caller is added
 * (no invalidation on unsafe methods, no 304 to a conditional client, no several variants
 * per URL), which is how a user of the library gets it. The library reads the clock through
 * `now()`, overridden here with the simulated clock.
 */
export const httpCacheSemanticsCache: CacheFactory = (profile, upstream, now) => new HttpCacheSemanticsCache(profile.layer !== 'browser', upstream, now);

interface Stored {
  policy: CachePolicy;
  status: number;
  body: string;
}

const BAD_GATEWAY: HttpResponse = { status: 502, headers: new Map([['content-type', 'text/plain']]), body: 'origin unreachable' };

class HttpCacheSemanticsCache implements CacheUnderTest {
  private readonly store = new Map<string, Stored>();
  private readonly Policy: typeof CachePolicy;

  constructor(
    private readonly shared: boolean,
    private readonly upstream: Upstream,
    now: () => number,
  ) {
    this.Policy = class ClockedPolicy extends CachePolicy {
      // The library's clock (index.js `now()`; not in @types/http-cache-semantics, hence no `override`).
      now(): number {
        return now();
      }
    };
  }

  handle(request: HttpRequest): { response: HttpResponse } {
    const libraryRequest = toLibraryRequest(request);
    const key = `${request.method.toUpperCase()} ${request.url}`;
    const stored = this.store.get(key);
    if (stored) {
      const { response, revalidation } = stored.policy.evaluateRequest(libraryRequest);
      if (response && !revalidation) return { response: served(stored.status, response.headers, stored.body) };
      if (response && revalidation && !revalidation.synchronous) {
        const answer = served(stored.status, response.headers, stored.body);
        this.revalidate(key, stored, libraryRequest, request, revalidation.headers);
        return { response: answer };
      }
      return { response: this.revalidate(key, stored, libraryRequest, request, revalidation?.headers ?? libraryRequest.headers) };
    }
    const origin = this.upstream(request);
    if (origin === undefined) return { response: BAD_GATEWAY };
    const policy = new this.Policy(libraryRequest, toLibraryResponse(origin), { shared: this.shared });
    if (policy.storable()) this.store.set(key, { policy, status: origin.status, body: origin.body });
    return { response: origin };
  }

  private revalidate(key: string, stored: Stored, libraryRequest: CachePolicy.Request, request: HttpRequest, headers: CachePolicy.Headers): HttpResponse {
    const fields = new Map<string, string>();
    for (const [name, value] of Object.entries(headers)) if (value !== undefined) fields.set(name, Array.isArray(value) ? value.join(', ') : value);
    const origin = this.upstream({ method: request.method, url: request.url, headers: fields });
    if (origin === undefined) return BAD_GATEWAY;
    const { policy, modified } = stored.policy.revalidatedPolicy(libraryRequest, toLibraryResponse(origin));
    const body = modified ? origin.body : stored.body;
    const status = modified ? origin.status : stored.status;
    if (policy.storable()) this.store.set(key, { policy, status, body });
    else this.store.delete(key);
    return modified ? origin : served(status, policy.responseHeaders(), body);
  }
}

function toLibraryRequest(request: HttpRequest): CachePolicy.Request {
  return { method: request.method, url: request.url, headers: Object.fromEntries(request.headers) };
}

function toLibraryResponse(response: HttpResponse): CachePolicy.Response {
  return { status: response.status, headers: Object.fromEntries(response.headers) };
}

function served(status: number, headers: CachePolicy.Headers, body: string): HttpResponse {
  const fields = new Map<string, string>();
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) fields.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value));
  return { status, headers: fields, body };
}
