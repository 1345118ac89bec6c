import type { HttpRequest, HttpResponse } from '../../src/cdn/httpCacheNode.js';
import { normaliseHeaders } from '../../src/policy/headers.js';
import { VENDORED, type MagicFieldValue, type RequestConfig } from './suite.js';

const { fixupHeader, httpDate, noBodyStatus } = VENDORED;

/**
 * The test server of the HTTP Caching Tests (`server/handle-test.mjs`), in process: one
 * origin serves one test's configuration (what `PUT /config/<uuid>` stores) and records what
 * it saw (what `GET /state/<uuid>` returns). Differences from the Node server, all because
 * there is no wire here:
 * - Node adds `Date` (when the test did not set one) and `Content-Length` (when a body is
 *   sent and neither Content-Length nor Transfer-Encoding was set); so does this origin, from
 *   the simulated clock. Node's `Connection`/`Keep-Alive` defaults are hop-by-hop and left out.
 * - Fields a test sets that Node would also use for framing (Content-Length, Transfer-Encoding,
 *   Connection …) are delivered as plain fields.
 * - `disconnect` makes the origin unreachable: `undefined` instead of a destroyed socket.
 * - `response_pause` moves the simulated clock on (through `pause`) before the answer is
 *   built, as the server's setTimeout delays it; the node sees the time pass mid-exchange.
 * - `interim_responses` (1xx) travel with the final response (`HttpResponse.interim`), in the
 *   order the server would write them before it; the node relays them to the client.
 * - Request fields arrive already combined (`, `) by `normaliseHeaders`; Node drops some
 *   repeated request fields instead. Only `expected_request_headers` reads them.
 */

export interface ServerRequestRecord {
  request_num: number | null;
  request_method: string;
  request_headers: Record<string, string>;
  response_headers: [string, SavedValue][];
}

type SavedValue = string | number | (string | number)[];

export class SimulatedOrigin {
  /** The server's own copy of the test's requests (the runner sends it as JSON). */
  private readonly requests: RequestConfig[];
  private readonly state: ServerRequestRecord[] = [];

  constructor(
    private readonly uuid: string,
    requests: readonly RequestConfig[],
    private readonly now: () => number,
    /** Moves the simulated clock on by `ms` (for `response_pause`). */
    private readonly pause: (ms: number) => void,
  ) {
    this.requests = JSON.parse(JSON.stringify(requests)) as RequestConfig[];
  }

  /** `GET /state/<uuid>`: the records as the client receives them (through JSON). */
  serverState(): ServerRequestRecord[] {
    return JSON.parse(JSON.stringify(this.state)) as ServerRequestRecord[];
  }

  handle(request: HttpRequest): HttpResponse | undefined {
    const target = new URL(request.url, 'http://origin.invalid');
    const pathSegs = target.pathname.split('/').slice(2);
    if (!target.pathname.startsWith('/test/') || pathSegs[0] !== this.uuid) return plain(404, `Config Not Found for ${pathSegs[0]}`);

    const srvReqNum = this.state.length + 1;
    const cliReqNum = parseInt(request.headers.get('req-num') ?? '', 10);
    const reqNum = cliReqNum || srvReqNum;
    const reqConfig = this.requests[reqNum - 1];
    if (!reqConfig) return plain(409, `${this.requests[0].id} config not found for request ${srvReqNum} (anticipating ${this.requests.length})`);
    // server/handle-test.mjs: continueHandleTest runs response_pause seconds later.
    if (reqConfig.response_pause !== undefined) this.pause(reqConfig.response_pause * 1000);
    const previousConfig = this.requests[reqNum - 2];
    const now = this.now();

    // The response status, with the 304 / 999 logic for *_validated requests.
    let httpStatus = reqConfig.response_status ?? [200, 'OK'];
    if (reqConfig.expected_type !== undefined && reqConfig.expected_type.endsWith('validated')) {
      if (!previousConfig?.response_headers) throw new Error(`harness: request ${reqNum} is validated but request ${reqNum - 1} has no response_headers`);
      const previousLm = getHeader(previousConfig.response_headers, 'Last-Modified');
      if (previousLm !== undefined && request.headers.get('if-modified-since') === previousLm) httpStatus = [304, 'Not Modified'];
      const previousEtag = getHeader(previousConfig.response_headers, 'ETag');
      if (previousEtag !== undefined && request.headers.get('if-none-match') === previousEtag) httpStatus = [304, 'Not Modified'];
      if (httpStatus[0] !== 304) httpStatus = [999, '304 Not Generated'];
    }
    const status = httpStatus[0];

    // Header fields, as Node's setHeader/getHeader keep them (case-insensitive, arrays for repeats).
    const fields = new OutgoingFields();
    fields.set('Server-Base-Url', target.pathname + target.search);
    fields.set('Server-Request-Count', srvReqNum);
    fields.set('Client-Request-Count', cliReqNum);
    fields.set('Server-Now', now);
    fields.set('Capability-Seen', request.headers.get('surrogate-capability') ?? '');
    const savedHeaders = new Map<string, SavedValue>();
    for (const spec of reqConfig.response_headers ?? []) {
      // fixupHeader rewrites the server's copy in place, as on the real server.
      const header = fixupHeader(spec, fields.getHeaders(), reqConfig);
      const current = fields.get(header[0]);
      if (current === undefined) fields.set(header[0], header[1]);
      else fields.set(header[0], Array.isArray(current) ? [...current, header[1]] : [current, header[1]]);
      if (header.length < 3 || header[2] === true) savedHeaders.set(header[0], snapshot(fields.get(header[0])!));
    }
    if (!fields.has('content-type')) fields.set('Content-Type', 'text/plain');

    this.state.push({
      request_num: cliReqNum,
      request_method: request.method,
      request_headers: Object.fromEntries(request.headers),
      response_headers: [...savedHeaders.entries()],
    });
    fields.set('Request-Numbers', this.state.map((item) => item.request_num).join(' '));

    if (reqConfig.disconnect) return undefined;
    const hasBody = !noBodyStatus.has(status) && request.method.toUpperCase() !== 'HEAD';
    const body = hasBody ? reqConfig.response_body || this.uuid : '';
    // Node's automatic fields (http OutgoingMessage#_storeHeader).
    if (!fields.has('date')) fields.set('Date', httpDate(now, 0));
    if (hasBody && !fields.has('content-length') && !fields.has('transfer-encoding')) fields.set('Content-Length', Buffer.byteLength(body));
    const interim = (reqConfig.interim_responses ?? []).map(([interimStatus, interimFields = []]) => ({ status: interimStatus, headers: normaliseHeaders(interimFields) }));
    return interim.length === 0 ? { status, headers: fields.toWire(), body } : { status, headers: fields.toWire(), body, interim };
  }
}

/** server/utils.mjs getHeader: the last value configured for a field (case-insensitive). */
function getHeader(headers: readonly (readonly [string, MagicFieldValue, ...unknown[]])[], name: string): MagicFieldValue | undefined {
  let result: MagicFieldValue | undefined;
  for (const header of headers) if (header[0].toLowerCase() === name.toLowerCase()) result = header[1];
  return result;
}

function snapshot(value: SavedValue): SavedValue {
  return Array.isArray(value) ? [...value] : value;
}

function plain(status: number, message: string): HttpResponse {
  return { status, headers: new Map([['content-type', 'text/plain']]), body: `${message}\n` };
}

/** Node's outgoing header store: case-insensitive names, raw values (numbers, arrays) until sent. */
class OutgoingFields {
  private readonly fields = new Map<string, { name: string; value: SavedValue }>();

  set(name: string, value: SavedValue): void {
    this.fields.set(name.toLowerCase(), { name, value });
  }

  get(name: string): SavedValue | undefined {
    return this.fields.get(name.toLowerCase())?.value;
  }

  has(name: string): boolean {
    return this.fields.has(name.toLowerCase());
  }

  /** `response.getHeaders()`: lower-case names, raw values. */
  getHeaders(): Record<string, SavedValue> {
    return Object.fromEntries([...this.fields].map(([key, field]) => [key, field.value]));
  }

  /** What the next hop receives: one field line per array member, combined with `, ` (RFC 9110 §5.3). */
  toWire(): Map<string, string> {
    const wire = new Map<string, string>();
    for (const [key, field] of this.fields) {
      wire.set(key, (Array.isArray(field.value) ? field.value : [field.value]).map((item) => String(item)).join(', '));
    }
    return wire;
  }
}
