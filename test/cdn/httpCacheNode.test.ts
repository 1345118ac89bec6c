import { describe, expect, it } from 'vitest';
import { HttpCacheNode, type HttpRequest, type HttpResponse } from '../../src/cdn/httpCacheNode.js';
import { normaliseHeaders } from '../../src/policy/headers.js';

const NOW = Date.UTC(2026, 0, 1);

function nodeOver(response: HttpResponse): { node: HttpCacheNode; originRequests: () => number } {
  let count = 0;
  const node = new HttpCacheNode({
    layer: 'edge',
    deployment: { kind: 'container', framework: 'next', cdnEnabled: true },
    upstream: () => {
      count++;
      return response;
    },
    now: () => NOW,
  });
  return { node, originRequests: () => count };
}

describe('HttpCacheNode: fields it must not store (RFC 9111 §3.1)', () => {
  it('RFC 9111 §3.1: Proxy-Authentication-Info is forwarded on the miss but not served from cache', () => {
    const { node, originRequests } = nodeOver({
      status: 200,
      headers: normaliseHeaders({ 'Cache-Control': 'max-age=3600', 'Proxy-Authentication-Info': 'nextnonce="abc"', 'Content-Type': 'text/plain' }),
      body: 'x',
    });
    const request = { method: 'GET', url: '/a', headers: normaliseHeaders({}) };
    const miss = node.handle(request);
    expect(miss.outcome).toBe('miss');
    expect(miss.response.headers.get('proxy-authentication-info')).toBe('nextnonce="abc"');
    const hit = node.handle(request);
    expect(hit.outcome).toBe('hit');
    expect(originRequests()).toBe(1);
    expect(hit.response.headers.has('proxy-authentication-info')).toBe(false);
    expect(hit.response.headers.get('content-type')).toBe('text/plain');
  });
});

describe('HttpCacheNode: interim responses (RFC 9110 §15.2, RFC 9111 §3)', () => {
  it('RFC 9110 §15.2: a 103 the origin sends before its 200 is relayed on the miss; RFC 9111 §3: only the final response is stored, so the hit has none', () => {
    const hints = { status: 103, headers: normaliseHeaders({ Link: '</styles.css>; rel=preload; as=style' }) };
    const { node, originRequests } = nodeOver({ status: 200, headers: normaliseHeaders({ 'Cache-Control': 'max-age=3600' }), body: 'page', interim: [hints] });
    const request = { method: 'GET', url: '/page', headers: normaliseHeaders({}) };
    const miss = node.handle(request);
    expect(miss.outcome).toBe('miss');
    expect(miss.response.interim).toEqual([hints]);
    expect(miss.response.headers.has('link')).toBe(false);
    const hit = node.handle(request);
    expect(hit.outcome).toBe('hit');
    expect(hit.response.interim).toBeUndefined();
    expect(originRequests()).toBe(1);
  });

  it('a chain relays them hop by hop: a browser over an edge hears the origin\'s 103 on the first load only', () => {
    const hints = { status: 103, headers: normaliseHeaders({ Link: '</app.js>; rel=preload; as=script' }) };
    const { node: edge } = nodeOver({ status: 200, headers: normaliseHeaders({ 'Cache-Control': 'max-age=3600' }), body: 'page', interim: [hints] });
    const browser = new HttpCacheNode({ layer: 'browser', deployment: { kind: 'container', framework: 'next', cdnEnabled: true }, upstream: (request) => edge.handle(request).response, now: () => NOW });
    const request = { method: 'GET', url: '/page', headers: normaliseHeaders({}) };
    expect(browser.handle(request).response.interim).toEqual([hints]);
    expect(browser.handle(request).response.interim).toBeUndefined();
  });
});

/** An origin holding one representation that honours Range and If-Range (RFC 9110 §14), recording what it was asked. */
function rangeOrigin(body: string, extra: Record<string, string> = {}) {
  const asked: { method: string; range?: string; ifRange?: string }[] = [];
  const upstream = (request: HttpRequest): HttpResponse => {
    asked.push({ method: request.method, range: request.headers.get('range'), ifRange: request.headers.get('if-range') });
    const headers = new Map(Object.entries({ 'cache-control': 'max-age=3600', etag: '"v1"', ...extra }));
    const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.get('range') ?? '');
    const ifRange = request.headers.get('if-range');
    if (!range || (ifRange !== undefined && ifRange !== '"v1"')) return { status: 200, headers, body: request.method === 'HEAD' ? '' : body };
    const first = range[1] === '' ? body.length - Number(range[2]) : Number(range[1]);
    const last = range[1] === '' || range[2] === '' ? body.length - 1 : Math.min(Number(range[2]), body.length - 1);
    headers.set('content-range', `bytes ${first}-${last}/${body.length}`);
    return { status: 206, headers, body: body.slice(first, last + 1) };
  };
  return { asked, upstream };
}

function node(layer: 'edge' | 'browser', upstream: (request: HttpRequest) => HttpResponse, now: () => number = () => NOW): HttpCacheNode {
  return new HttpCacheNode({ layer, deployment: { kind: 'container', framework: 'next', cdnEnabled: true }, upstream, now });
}

const GET = (headers: Record<string, string> = {}): HttpRequest => ({ method: 'GET', url: '/video.mp4', headers: normaliseHeaders(headers) });

describe('HttpCacheNode: partial content (RFC 9111 §3.3-3.4) in 5 MB chunks (spec 4.8)', () => {
  const size = 12_000_000;
  const body = Array.from({ length: size / 10 }, (_, i) => String(i % 10).repeat(10)).join('');

  it('spec 4.8: a range miss fills its whole chunk, later ranges in it are hits, and missing chunks are fetched with If-Range until the object is complete', () => {
    const origin = rangeOrigin(body);
    const edge = node('edge', origin.upstream);
    const first = edge.handle(GET({ Range: 'bytes=6000000-6000099' }));
    expect(origin.asked).toEqual([{ method: 'GET', range: 'bytes=5000000-9999999', ifRange: undefined }]);
    expect(first.response.status).toBe(206);
    expect(first.response.headers.get('content-range')).toBe('bytes 6000000-6000099/12000000');
    expect(first.response.body).toBe(body.slice(6_000_000, 6_000_100));

    const inChunk = edge.handle(GET({ Range: 'bytes=9999990-9999999' }));
    expect([inChunk.outcome, inChunk.response.status, inChunk.response.body]).toEqual(['hit', 206, body.slice(9_999_990, 10_000_000)]);
    expect(origin.asked).toHaveLength(1);

    const lastChunk = edge.handle(GET({ Range: 'bytes=11000000-' }));
    expect(origin.asked[1]).toEqual({ method: 'GET', range: 'bytes=10000000-', ifRange: '"v1"' });
    expect(lastChunk.response.body).toBe(body.slice(11_000_000));

    const whole = edge.handle(GET());
    expect(origin.asked[2]).toEqual({ method: 'GET', range: 'bytes=0-4999999', ifRange: '"v1"' });
    expect([whole.response.status, whole.response.headers.get('content-length'), whole.response.body === body]).toEqual([200, '12000000', true]);
    expect(whole.response.headers.has('content-range')).toBe(false);

    expect(edge.handle(GET()).outcome).toBe('hit');
    expect(edge.handle(GET({ Range: 'bytes=-5' })).response.body).toBe(body.slice(-5));
    expect(origin.asked).toHaveLength(3);
    expect(edge.storedCount).toBe(1);
  });

  it('a browser forwards the range it needs, not whole chunks', () => {
    const origin = rangeOrigin(body);
    node('browser', origin.upstream).handle(GET({ Range: 'bytes=6000000-6000099' }));
    expect(origin.asked[0].range).toBe('bytes=6000000-6000099');
  });
});

describe('HttpCacheNode: ranges from a stored complete response (RFC 9111 §4, RFC 9110 §14)', () => {
  const origin = () => rangeOrigin('0123456789', { a: '1' });

  it('RFC 9110 §15.3.7: a range of a stored 200 is a 206 hit with the stored fields and its Content-Range', () => {
    const { asked, upstream } = origin();
    const edge = node('edge', upstream);
    edge.handle(GET());
    const answer = edge.handle(GET({ Range: 'bytes=2-4' }));
    expect([answer.outcome, answer.response.status, answer.response.body]).toEqual(['hit', 206, '234']);
    expect(Object.fromEntries(answer.response.headers)).toMatchObject({ a: '1', 'content-range': 'bytes 2-4/10', 'content-length': '3' });
    expect(asked).toHaveLength(1);
  });

  it('RFC 9110 §13.1.5, §15.5.17: If-Range with another validator gets the whole 200; a range past the end a 416', () => {
    const { upstream } = origin();
    const edge = node('edge', upstream);
    edge.handle(GET());
    expect(edge.handle(GET({ Range: 'bytes=2-4', 'If-Range': '"v0"' })).response).toMatchObject({ status: 200, body: '0123456789' });
    const unsatisfiable = edge.handle(GET({ Range: 'bytes=50-' })).response;
    expect([unsatisfiable.status, unsatisfiable.headers.get('content-range')]).toEqual([416, 'bytes */10']);
  });
});

describe('HttpCacheNode: a HEAD updates the stored response (RFC 9111 §4.3.5)', () => {
  it('RFC 9111 §4.3.5: a stale response is validated with a HEAD, whose 200 updates its fields and freshness; the body is kept', () => {
    let now = NOW;
    const asked: string[] = [];
    let answer: HttpResponse = { status: 200, headers: normaliseHeaders({ 'Cache-Control': 'max-age=2', 'Template-A': '1' }), body: 'stored body' };
    const edge = node('edge', (request) => {
      asked.push(request.method);
      return request.method === 'HEAD' ? { ...answer, body: '' } : answer;
    }, () => now);
    edge.handle(GET());
    now += 3000;
    answer = { status: 200, headers: normaliseHeaders({ 'Cache-Control': 'max-age=1000', 'Template-A': '2' }), body: '' };
    const head = edge.handle({ method: 'HEAD', url: '/video.mp4', headers: normaliseHeaders({}) });
    expect(asked).toEqual(['GET', 'HEAD']);
    expect([head.outcome, head.response.body, head.response.headers.get('template-a')]).toEqual(['revalidated', '', '2']);
    const hit = edge.handle(GET());
    expect([hit.outcome, hit.response.body, hit.response.headers.get('template-a')]).toEqual(['hit', 'stored body', '2']);
    expect(asked).toHaveLength(2);
  });

  it('RFC 9111 §4.3.5: a HEAD whose ETag differs makes the stored response stale, so the next GET goes upstream', () => {
    let now = NOW;
    let etag = '"v1"';
    const asked: string[] = [];
    const edge = node('edge', (request) => {
      asked.push(request.method);
      return { status: 200, headers: normaliseHeaders({ 'Cache-Control': 'max-age=2', ETag: etag }), body: request.method === 'HEAD' ? '' : 'x' };
    }, () => now);
    edge.handle(GET());
    now += 3000;
    etag = '"v2"';
    const head = edge.handle({ method: 'HEAD', url: '/video.mp4', headers: normaliseHeaders({}) });
    expect([head.outcome, head.response.headers.get('etag')]).toEqual(['miss', '"v2"']);
    edge.handle(GET());
    expect(asked).toEqual(['GET', 'HEAD', 'GET']);
  });
});

describe('HttpCacheNode: a POST response stored for later GETs (RFC 9110 §9.3.3)', () => {
  const post = (contentLocation: string, cacheControl?: string) => {
    const asked: string[] = [];
    const edge = node('edge', (request) => {
      asked.push(request.method);
      const headers: Record<string, string> = { 'Content-Location': contentLocation };
      if (cacheControl) headers['Cache-Control'] = cacheControl;
      return { status: 200, headers: normaliseHeaders(headers), body: 'created' };
    });
    edge.handle({ method: 'POST', url: '/orders/7', headers: normaliseHeaders({ 'Content-Type': 'text/plain' }) });
    const get = edge.handle({ method: 'GET', url: '/orders/7', headers: normaliseHeaders({}) });
    return { asked, get };
  };

  it('RFC 9110 §9.3.3: explicit freshness and a Content-Location naming the request URI answer the next GET', () => {
    const { asked, get } = post('/orders/7', 'max-age=60');
    expect([get.outcome, get.response.body, asked]).toEqual(['hit', 'created', ['POST']]);
  });

  it('RFC 9110 §9.3.3: another Content-Location, or no explicit freshness, leaves the GET to the origin', () => {
    expect(post('/orders/8', 'max-age=60').asked).toEqual(['POST', 'GET']);
    expect(post('/orders/7').asked).toEqual(['POST', 'GET']);
  });
});
