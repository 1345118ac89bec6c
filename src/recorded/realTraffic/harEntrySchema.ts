import { z } from 'zod';
import { parseIsoDateTime } from './isoDateTime.js';
import { isHttpToken, type TrafficRecord, type TrafficSource } from './trafficRecord.js';

// The entry schema: only the fields the simulator uses; unknown fields (vendor `_fields`)
// are allowed. A parsed entry becomes one TrafficRecord.

const STATUS = 'an HTTP status (a whole number 0–999; 0 = no response)';
const DATE_TIME = 'an ISO 8601 date-time with a zone offset, like "2026-11-21T09:15:02.123Z" or "…+01:00"';
const HEADERS = 'an array of {"name": …, "value": …} headers';
const BYTES = 'a whole number of bytes (−1 = unknown)';

const headerSchema = z.object(
  {
    name: z.string({ error: 'a header name (a string)' }),
    value: z.string({ error: 'a header value (a string)' }),
  },
  { error: 'a header {"name": …, "value": …}' },
);
const bytesSchema = z.number({ error: BYTES }).int({ error: BYTES }).nullish();

export const harEntrySchema = z.object(
  {
    startedDateTime: z.string({ error: DATE_TIME }).transform((text, context) => {
      const epochMs = parseIsoDateTime(text);
      if (Number.isNaN(epochMs)) {
        context.addIssue({ code: 'custom', message: DATE_TIME, input: text });
        return z.NEVER;
      }
      return epochMs;
    }),
    request: z.object(
      {
        method: z.string({ error: 'an HTTP method like "GET"' }).refine((method) => isHttpToken(method), { error: 'an HTTP method like "GET" (a token, RFC 9110 §9.1)' }),
        url: z.string({ error: 'an absolute http(s) URL' }).refine((url) => URL.canParse(url), { error: 'an absolute http(s) URL' }),
        headers: z.array(headerSchema, { error: HEADERS }),
      },
      { error: 'a request object' },
    ),
    response: z.object(
      {
        status: z.number({ error: STATUS }).int({ error: STATUS }).min(0, { error: STATUS }).max(999, { error: STATUS }),
        headers: z.array(headerSchema, { error: HEADERS }),
        content: z.object({ size: bytesSchema }, { error: 'a content object' }).nullish(),
        bodySize: bytesSchema,
      },
      { error: 'a response object' },
    ),
  },
  { error: 'an entry object' },
);

export type HarEntry = z.output<typeof harEntrySchema>;

export function toRecord(entry: HarEntry, source: TrafficSource): TrafficRecord {
  return {
    epochMs: entry.startedDateTime,
    method: entry.request.method.toUpperCase(),
    url: entry.request.url,
    status: entry.response.status,
    requestHeaders: headerPairs(entry.request.headers),
    responseHeaders: headerPairs(entry.response.headers),
    bodyBytes: bodyBytes(entry),
    source,
  };
}

/** Header pairs in file order; HTTP/2 pseudo-headers (`:path`, …) left out (RFC 9113 §8.3). */
function headerPairs(headers: ReadonlyArray<{ name: string; value: string }>): Array<readonly [string, string]> {
  const pairs: Array<readonly [string, string]> = [];
  for (const { name, value } of headers) if (!name.startsWith(':')) pairs.push([name, value]);
  return pairs;
}

/**
 * content.size (the decoded body) if known, else bodySize (the bytes received), else
 * Content-Length, else 0. HAR writes −1 for "unknown".
 */
function bodyBytes(entry: HarEntry): number {
  const size = entry.response.content?.size;
  if (size != null && size >= 0) return size;
  const bodySize = entry.response.bodySize;
  if (bodySize != null && bodySize >= 0) return bodySize;
  for (const { name, value } of entry.response.headers) {
    if (name.toLowerCase() === 'content-length' && /^\s*\d+\s*$/.test(value)) {
      const length = Number(value);
      if (Number.isSafeInteger(length)) return length;
    }
  }
  return 0;
}
