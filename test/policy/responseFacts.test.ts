import { describe, expect, it } from 'vitest';
import { normaliseHeaders } from '../../src/policy/headers.js';
import { directivesInForce } from '../../src/policy/responseFacts.js';

describe('directivesInForce (RFC 9213 §2.1, what explain shows a layer obeys)', () => {
  const response = { status: 200, headers: normaliseHeaders({ 'Cache-Control': 'Max-Age="60", Public', 'CDN-Cache-Control': 'max-age=600' }) };
  it('a CDN layer obeys the valid CDN-Cache-Control; the browser the Cache-Control, in canonical form', () => {
    expect(directivesInForce(response, 'edge', 0)).toEqual({ from: 'CDN-Cache-Control', value: 'max-age=600' });
    expect(directivesInForce(response, 'browser', 0)).toEqual({ from: 'Cache-Control', value: 'max-age=60, public' });
  });
});
