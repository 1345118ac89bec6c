import { cacheKey } from '../../policy/cacheKey.js';
import { normaliseHeaders } from '../../policy/headers.js';
import { fileExtension } from '../../policy/variants.js';
import { TraceError } from '../traces/traceError.js';
import type { SkippedTraffic, TrafficReader, TrafficRecord } from './trafficRecord.js';

/** What the origin answered for a group of objects: the policy engine decides once for all of them. */
export interface RecordedObjectProfile {
  status: number;
  /** Path (+ query) of the first object with this profile. */
  url: string;
  /** Names lower-cased, in recorded order; values as recorded. */
  responseHeaders: ReadonlyArray<readonly [string, string]>;
}

/**
 * Real traffic from one HAR export or access log, interned for a simulation run: the
 * strings (URLs, headers) stay here, at the edge, and the run sees dense object ids and
 * profile indices only (DESIGN.md "Hot path").
 *
 * An object is what the policy engine's cache key names (src/policy/cacheKey.ts, its
 * `urlKey`): the path and the query with its parameters sorted (spec 4.3.1), so
 * `/s.css?a=1&b=2` and `/s.css?b=2&a=1` are one object, as `cdnsim explain` keys them. Its
 * variants (spec 4.4, 4.5) depend on each request's headers and are keys of that one object.
 * One deployment = one host: the host is not part of the key either, so a HAR that loads
 * `/js/app.js` from two hosts gets one object for both; split such a file by host to keep
 * them apart.
 */
export interface RecordedTraffic {
  readonly file: string;
  /**
   * Distinct objects in first-appearance order (file order): id = index. Each is named by the
   * first request target seen for it (without scheme and host: path + '?' + query, as
   * recorded), for reports; later targets with the same cache key map to the same id.
   */
  readonly urls: readonly string[];
  /** Body bytes of the first record of each object (DESIGN "Trace semantics": an id seen again with another size keeps its first size). */
  readonly objectSizes: Float64Array;
  /** GET records per object in the file. */
  readonly requestCounts: Float64Array;
  /** Per object: index into `profiles`, decided by the object's first record (like its size). */
  readonly profileOf: Uint32Array;
  readonly profiles: readonly RecordedObjectProfile[];
  /**
   * The file's GET requests in time order (a stable sort of file order: requests recorded
   * at the same ms keep their file order): object id, and ms since the earliest of them
   * (so the first is at 0 and all are ≥ 0; HAR entries are not always in time order).
   */
  readonly requestObjects: Int32Array;
  readonly requestOffsetsMs: Float64Array;
  /** What the reader passed over (non-HTTP URLs, blocked entries, malformed lines). */
  readonly skipped: SkippedTraffic;
  /** Records left out because their method is not GET, counted by method (see `loadRecordedTraffic`). */
  readonly nonGet: Readonly<Record<string, number>>;
}

/**
 * Reads real traffic once and interns it: objects by cache key (spec 4.3.1) in order of first
 * appearance, their first size, per-object request counts, response profiles, and the
 * requests sorted by time with offsets from the earliest one.
 *
 * GET only. A CDN stores responses to GET (RFC 9111 §2: caches commonly store
 * only GET responses, keyed by the target); a HEAD is answered from the stored GET, or passed to the origin without storing
 * anything, and POST, PUT, DELETE … go to the origin. Replaying them as GETs would move
 * bytes and fill caches in ways the recording never did, so they are left out and counted
 * by method in `nonGet`, for the report.
 *
 * Profiles: one per distinct (status, file extension of the path, response headers with
 * names lower-cased, in recorded order, without `Age`: that is what a cache on the recording's
 * path added, not what the origin sent). The policy engine's decision for a response
 * depends on exactly these (spec 4.2 extensions, status, headers), so objects with the same
 * signature share one compiled decision. An object's profile comes from its first record;
 * later records of the same target with another status or other headers do not change it
 * (as its size does not). Header values count as recorded, so `Date`, `ETag`,
 * `Content-Length` that differ per response make distinct profiles: a run groups profiles by
 * the decisions the engine takes for them (src/experiment/recordedCaching.ts).
 *
 * Throws TraceError (a UserError) for no GET request and whatever the reader throws.
 */
export async function loadRecordedTraffic(reader: TrafficReader): Promise<RecordedTraffic> {
  const file = reader.file;
  // Strings at the edge: Maps intern them (the IdInterner takes numeric 64-bit ids). The
  // engine's cacheKey runs once per distinct target as recorded, not once per record.
  const objectOfTarget = new Map<string, number>();
  const objectOfKey = new Map<string, number>();
  const urls: string[] = [];
  const sizes: number[] = [];
  const counts: number[] = [];
  const profileOfObject: number[] = [];
  const profileIds = new Map<string, number>();
  const profiles: RecordedObjectProfile[] = [];
  const nonGet = new Map<string, number>();
  /** The object's profile, from its first record (see above). */
  const profileOf = (record: TrafficRecord, target: string): number => {
    // The origin's answer: a recording made through a CDN carries the Age that CDN's cache
    // added (RFC 9111 §5.1); the simulated layers count age themselves.
    const headers = record.responseHeaders.map(([name, value]) => [name.toLowerCase(), value] as const).filter(([name]) => name !== 'age');
    const signature = JSON.stringify([record.status, pathExtension(target), headers]);
    let profile = profileIds.get(signature);
    if (profile === undefined) {
      profile = profiles.length;
      profileIds.set(signature, profile);
      profiles.push({ status: record.status, url: target, responseHeaders: headers });
    }
    return profile;
  };
  let requestObjects = new Int32Array(1024);
  let requestTimes = new Float64Array(1024);
  let requests = 0;
  let records = 0;

  for await (const record of reader) {
    records++;
    if (record.method !== 'GET') {
      nonGet.set(record.method, (nonGet.get(record.method) ?? 0) + 1);
      continue;
    }
    const target = requestTarget(record.url);
    let id = objectOfTarget.get(target);
    if (id === undefined) {
      const key = cacheKey({ url: target, headers: NO_HEADERS }).urlKey;
      id = objectOfKey.get(key);
      if (id === undefined) {
        id = urls.length;
        objectOfKey.set(key, id);
        urls.push(target);
        sizes.push(record.bodyBytes);
        counts.push(0);
        profileOfObject.push(profileOf(record, target));
      }
      objectOfTarget.set(target, id);
    }
    counts[id]++;
    if (requests === requestObjects.length) {
      requestObjects = grown(requestObjects, new Int32Array(requests * 2));
      requestTimes = grown(requestTimes, new Float64Array(requests * 2));
    }
    requestObjects[requests] = id;
    requestTimes[requests] = record.epochMs;
    requests++;
  }

  if (requests === 0) {
    const left = [...nonGet].map(([method, count]) => `${count} ${method}`).join(', ');
    const skipped = reader.skipped.total;
    const found = records === 0 ? 'no usable records' : `${records} record${records === 1 ? '' : 's'}, none a GET (${left})`;
    throw new TraceError(
      `no GET requests in ${file}: ${found}${skipped > 0 ? `; ${skipped} skipped by the reader` : ''}. cdnsim replays GET requests only (a CDN stores GET responses).`,
      file,
    );
  }
  const { objects: sortedObjects, offsets } = sortByTime(requestObjects, requestTimes, requests);
  return {
    file,
    urls,
    objectSizes: Float64Array.from(sizes),
    requestCounts: Float64Array.from(counts),
    profileOf: Uint32Array.from(profileOfObject),
    profiles,
    requestObjects: sortedObjects,
    requestOffsetsMs: offsets,
    skipped: reader.skipped,
    nonGet: Object.fromEntries(nonGet),
  };
}

/** The object's key leaves out the variants, so the request's headers do not matter. */
const NO_HEADERS = normaliseHeaders(undefined);

/**
 * The request target of a recorded URL: an absolute URL (HAR; a proxy's access log) loses
 * its scheme and authority, keeping path and query as recorded (no decoding, no
 * re-encoding: the cache key normalises, spec 4.3.1). A fragment is never sent to a
 * server, so it is dropped. A target already (CLF) is kept as logged.
 */
export function requestTarget(url: string): string {
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(url);
  if (scheme === null) return url;
  let start = scheme[0].length;
  while (start < url.length && url[start] !== '/' && url[start] !== '?' && url[start] !== '#') start++;
  let end = url.indexOf('#', start);
  if (end < 0) end = url.length;
  const target = url.slice(start, end);
  return target === '' || target[0] !== '/' ? `/${target}` : target;
}

/**
 * The extension the policy engine sees for a target: decision.ts applies `fileExtension`
 * to the WHATWG URL pathname (spec 4.2), so the same is done here.
 */
function pathExtension(target: string): string {
  let path: string;
  try {
    path = new URL(target, 'http://cdnsim.invalid').pathname;
  } catch {
    path = target;
  }
  return fileExtension(path);
}

function grown<T extends Int32Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** Requests sorted by time, stable (ties keep file order), with offsets from the earliest. */
function sortByTime(objects: Int32Array, times: Float64Array, count: number): { objects: Int32Array; offsets: Float64Array } {
  const order = Array.from({ length: count }, (_, i) => i);
  order.sort((a, b) => times[a] - times[b] || a - b);
  const earliest = times[order[0]];
  const sortedObjects = new Int32Array(count);
  const offsets = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    sortedObjects[i] = objects[order[i]];
    offsets[i] = times[order[i]] - earliest;
  }
  return { objects: sortedObjects, offsets };
}
