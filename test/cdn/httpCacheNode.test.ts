import { describe, expect, it } from 'vitest';
import { HttpCacheNode, type HttpResponse } from '../../src/cdn/httpCacheNode.js';
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
