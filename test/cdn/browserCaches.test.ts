import { describe, expect, it } from 'vitest';
import { BrowserCaches } from '../../src/cdn/browserCaches.js';

describe('BrowserCaches: one private cache per client (spec 4.9 layer 1)', () => {
  it('a stored key is a hit until its expiry, and only in its own client', () => {
    const browsers = new BrowserCaches(2, 4);
    browsers.insert(0, 7, 1_000);
    expect(browsers.lookup(0, 7, 999)).toBe(true);
    expect(browsers.lookup(0, 7, 1_000)).toBe(false); // RFC 9111 §4.2: fresh while age < lifetime
    expect(browsers.lookup(1, 7, 0)).toBe(false);
  });

  it('re-storing a key refreshes it in place; a full ring drops its oldest key', () => {
    const browsers = new BrowserCaches(1, 3);
    browsers.insert(0, 1, 100);
    browsers.insert(0, 2, 100);
    browsers.insert(0, 1, 500); // refresh, no new slot
    browsers.insert(0, 3, 100);
    expect([1, 2, 3].map((key) => browsers.lookup(0, key, 50))).toEqual([true, true, true]);
    expect(browsers.lookup(0, 1, 200)).toBe(true);
    browsers.insert(0, 4, 100); // evicts key 1 (the oldest slot)
    expect([1, 2, 3, 4].map((key) => browsers.lookup(0, key, 50))).toEqual([false, true, true, true]);
  });

  it('clear empties a slot for its new client', () => {
    const browsers = new BrowserCaches(2, 2);
    browsers.insert(0, 5, Infinity);
    browsers.insert(1, 5, Infinity);
    browsers.clear(0);
    expect(browsers.lookup(0, 5, 0)).toBe(false);
    expect(browsers.lookup(1, 5, 0)).toBe(true);
  });
});
