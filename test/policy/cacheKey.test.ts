import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { normaliseHeaders, type HeaderInput } from '../../src/policy/headers.js';
import { cacheKey, isOwnUrlKey, normaliseQuery } from '../../src/policy/cacheKey.js';
import { DEFAULT_VARIANT_RULES, type VariantRules } from '../../src/policy/variants.js';

const FC_OPTIONS = { numRuns: 300, seed: 777 };

// Any UTF-16 code unit (lone surrogates and controls included) mixed with tokens that make
// near-valid inputs likely. Cheaper to set up than fast-check's 'binary' unit tables.
const arbitraryText = fc.string({
  unit: fc.oneof(
    fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
    fc.constantFrom(...['%', '&', '=', '+', '?', '#', '/', ':', '.jpg', 'https://h', '%2', '%E0%A4']),
  ),
  maxLength: 40,
});

const CHROME_IMAGE_ACCEPT = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';
const SAFARI16_IMAGE_ACCEPT = 'image/webp,image/png,image/svg+xml,image/*;q=0.8,video/*;q=0.8,*/*;q=0.5';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const IPAD =
  'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

const keyOf = (url: string, headers: HeaderInput = {}, rules?: VariantRules): string =>
  cacheKey({ url, headers: normaliseHeaders(headers) }, rules).key;

describe('normaliseQuery (spec 4.3.1)', () => {
  it.each<[string, string, string]>([
    ['parameters are sorted by name', 'b=2&a=1', 'a=1&b=2'],
    ['already sorted stays as is', 'a=1&b=2', 'a=1&b=2'],
    ['a single parameter is unchanged', 'utm=x', 'utm=x'],
    ['empty query', '', ''],
    ['empty segments are dropped', '&&b=2&&a=1&', 'a=1&b=2'],
    ['only separators → empty', '&&&', ''],
    ['a name without a value sorts by its name', 'flag&a=1', 'a=1&flag'],
    ['repeated names keep their order (ordered lists)', 'a=2&b=1&a=1', 'a=2&a=1&b=1'],
    ['values stay byte-for-byte: %20 and + are distinct', 'b=+&a=%20', 'a=%20&b=+'],
    ['names compare after percent-decoding: %61 is a', 'b=1&%61=2', '%61=2&b=1'],
    ['decoded-equal names are one repeated parameter, order kept', 'a=1&%61=2', 'a=1&%61=2'],
    ['a bad escape compares raw and does not throw', 'b=1&%zz=2&a=3', '%zz=2&a=3&b=1'],
    ['code-unit order: upper case before lower case', 'b=1&B=2&a=3', 'B=2&a=3&b=1'],
    ['empty name sorts first', 'a=1&=x', '=x&a=1'],
  ])('spec 4.3.1: %s', (_name, input, expected) => {
    expect(normaliseQuery(input)).toBe(expected);
  });

  const name = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'Z', '_', '%', '2', '0', '+', 'é'), minLength: 1, maxLength: 4 });
  const value = fc.string({ unit: fc.constantFrom('1', 'x', '%', '2', '0', '+', '='), maxLength: 4 });

  it('spec 4.3.1: invariant under any permutation of distinct-name parameters', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(name, value), {
          minLength: 1,
          maxLength: 8,
          // distinct as the normaliser sees names: after form-decoding
          selector: ([n]) => decodeForTest(n),
        }),
        fc.nat(),
        (params, seed) => {
          const segments = params.map(([n, v]) => `${n}=${v}`);
          const shuffled = shuffle(segments, seed);
          expect(normaliseQuery(shuffled.join('&'))).toBe(normaliseQuery(segments.join('&')));
        },
      ),
      FC_OPTIONS,
    );
  });

  it('spec 4.3.1: idempotent and never throws on arbitrary strings', () => {
    fc.assert(
      fc.property(arbitraryText, (query) => {
        const once = normaliseQuery(query);
        expect(normaliseQuery(once)).toBe(once);
      }),
      FC_OPTIONS,
    );
  });

  it('spec 4.3.1: keeps every non-empty segment (a permutation, nothing lost)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(name, value), { maxLength: 8 }), (params) => {
        const segments = params.map(([n, v]) => `${n}=${v}`);
        const sorted = normaliseQuery(segments.join('&'));
        expect(sorted === '' ? [] : sorted.split('&').sort()).toEqual([...segments].sort());
      }),
      FC_OPTIONS,
    );
  });
});

describe('cacheKey (spec 2.3, 4.3.1, 4.4, 4.5)', () => {
  it('spec 4.3.1: ?b=2&a=1 and ?a=1&b=2 share one key', () => {
    expect(keyOf('/search?b=2&a=1')).toBe('/search?a=1&b=2');
    expect(keyOf('/search?a=1&b=2')).toBe('/search?a=1&b=2');
  });

  it('spec 4.3.1: values matter: ?a=1 and ?a=2 are different keys', () => {
    expect(keyOf('/search?a=1')).not.toBe(keyOf('/search?a=2'));
  });

  it.each<[string, string, HeaderInput, string]>([
    ['spec 2.3: plain path, no query', '/about', {}, '/about'],
    ['spec 2.3: absolute URL uses path + query only (one deployment = one host)', 'https://Example.com:443/a.js?v=2', {}, '/a.js?v=2'],
    ['spec 2.3: fragment dropped (RFC 9110 §7.1)', '/a.js?v=1#top', {}, '/a.js?v=1'],
    ['spec 2.3: empty path is / (RFC 9110 §4.2.3)', 'https://example.com', {}, '/'],
    ['spec 2.3: empty query "?" is no query', '/a.js?', {}, '/a.js'],
    ['spec 2.3: origin-form // is a path, not a host', '//cdn/a.js', {}, '//cdn/a.js'],
    ['spec 2.3: ":" in the path is %3A so it cannot fake a variant suffix', '/a.css:mobile', {}, '/a.css%3Amobile'],
    ['spec 4.4: Chrome image Accept → <image_name>:avif-support', '/img/hero.jpg', { accept: CHROME_IMAGE_ACCEPT, 'user-agent': CHROME_WINDOWS }, '/img/hero.jpg:avif-support:desktop'],
    ['spec 4.4: Safari 16 Accept → :no-avif-support', '/img/hero.jpg', { accept: SAFARI16_IMAGE_ACCEPT, 'user-agent': CHROME_WINDOWS }, '/img/hero.jpg:no-avif-support:desktop'],
    ['spec 4.4: image/avif;q=0 → :no-avif-support', '/img/hero.png', { accept: 'image/avif;q=0,image/*' }, '/img/hero.png:no-avif-support:desktop'],
    ['spec 4.4 + 4.5: iPhone with avif → :avif-support:mobile', '/img/hero.webp?w=640', { Accept: CHROME_IMAGE_ACCEPT, 'User-Agent': IPHONE }, '/img/hero.webp?w=640:avif-support:mobile'],
    ['spec 4.5: CSS gets a device variant only', '/css/site.css', { accept: CHROME_IMAGE_ACCEPT, 'user-agent': IPHONE }, '/css/site.css:mobile'],
    ['spec 4.5: iPad CSS → :desktop (tablets as desktop)', '/css/site.css', { 'user-agent': IPAD }, '/css/site.css:desktop'],
    ['spec 4.4: svg gets no variant', '/logo.svg', { accept: CHROME_IMAGE_ACCEPT, 'user-agent': IPHONE }, '/logo.svg'],
    ['spec 4.4: JS gets no variant', '/app.js?b=1&a=2', { accept: CHROME_IMAGE_ACCEPT, 'user-agent': IPHONE }, '/app.js?a=2&b=1'],
    ['spec 4.4: upper-case extension still an image', '/IMG/HERO.JPG', {}, '/IMG/HERO.JPG:no-avif-support:desktop'],
    ['spec 4.4: extension is read from the path, not the query', '/page?file=a.jpg', { accept: CHROME_IMAGE_ACCEPT }, '/page?file=a.jpg'],
  ])('%s', (_name, url, headers, expected) => {
    expect(keyOf(url, headers)).toBe(expected);
  });

  it('spec 4.4, 4.5: variants can be switched off by the rules', () => {
    const off: VariantRules = {
      imageFormat: { ...DEFAULT_VARIANT_RULES.imageFormat, enabled: false },
      device: { ...DEFAULT_VARIANT_RULES.device, enabled: false },
    };
    expect(keyOf('/img/hero.jpg', { accept: CHROME_IMAGE_ACCEPT, 'user-agent': IPHONE }, off)).toBe('/img/hero.jpg');
    const noDevice: VariantRules = { ...DEFAULT_VARIANT_RULES, device: { ...DEFAULT_VARIANT_RULES.device, enabled: false } };
    expect(keyOf('/img/hero.jpg', { accept: CHROME_IMAGE_ACCEPT, 'user-agent': IPHONE }, noDevice)).toBe('/img/hero.jpg:avif-support');
  });

  it('spec 4.5: rules.device.tabletAs = mobile puts an iPad on :mobile', () => {
    const rules: VariantRules = { ...DEFAULT_VARIANT_RULES, device: { ...DEFAULT_VARIANT_RULES.device, tabletAs: 'mobile' } };
    const key = cacheKey({ url: '/css/site.css', headers: normaliseHeaders({ 'user-agent': IPAD }) }, rules);
    expect(key.key).toBe('/css/site.css:mobile');
    expect(key.reasons).toEqual([
      { source: 'spec 4.5; cdnsim reading: tablets follow rules.device.tabletAs', rule: '.css asset, User-Agent platform tablet → mobile variant' },
    ]);
  });

  it('spec 4.3.1, 4.4, 4.5: fields and reasons say which rules fired', () => {
    const key = cacheKey({
      url: 'https://example.com/img/hero.jpg?w=640&dpr=2',
      headers: normaliseHeaders({ accept: CHROME_IMAGE_ACCEPT, 'user-agent': IPHONE }),
    });
    expect(key).toEqual({
      key: '/img/hero.jpg?dpr=2&w=640:avif-support:mobile',
      urlKey: '/img/hero.jpg?dpr=2&w=640',
      path: '/img/hero.jpg',
      query: 'dpr=2&w=640',
      imageFormat: 'avif-support',
      device: 'mobile',
      reasons: [
        { source: 'cdnsim reading: one deployment = one host', rule: 'the host is not part of the cache key' },
        { source: 'spec 4.3.1', rule: 'query parameters sorted by name (empty ones dropped): "w=640&dpr=2" → "dpr=2&w=640"' },
        { source: 'spec 4.4', rule: '.jpg image and Accept lists image/avif → avif-support variant' },
        { source: 'spec 4.5', rule: '.jpg asset, User-Agent platform mobile → mobile variant' },
      ],
    });
  });

  it('spec 2.3: a request no rule touches has no variants and no reasons', () => {
    const key = cacheKey({ url: '/api/items?a=1&b=2', headers: normaliseHeaders({}) });
    expect(key).toEqual({ key: '/api/items?a=1&b=2', urlKey: '/api/items?a=1&b=2', path: '/api/items', query: 'a=1&b=2', reasons: [] });
  });

  it('spec 4.4, 4.5: missing Accept and User-Agent are explained', () => {
    const key = cacheKey({ url: '/a.png', headers: normaliseHeaders({}) });
    expect(key.key).toBe('/a.png:no-avif-support:desktop');
    expect(key.reasons.map((r) => r.rule)).toEqual([
      '.png image and Accept is missing → no-avif-support variant',
      '.png asset, no User-Agent → desktop variant',
    ]);
  });

  it('spec 2.3: distinct requests never share a key through the ":" suffix marker', () => {
    const segment = fc.string({ unit: fc.constantFrom('a', '.', 'css', 'jpg', ':', 'mobile', 'desktop', '%3A', '-'), maxLength: 6 });
    fc.assert(
      fc.property(segment, segment, fc.constantFrom(IPHONE, CHROME_WINDOWS), fc.constantFrom(IPHONE, CHROME_WINDOWS), (p1, p2, ua1, ua2) => {
        const k1 = cacheKey({ url: `/${p1}`, headers: normaliseHeaders({ 'user-agent': ua1 }) });
        const k2 = cacheKey({ url: `/${p2}`, headers: normaliseHeaders({ 'user-agent': ua2 }) });
        // Equal keys only when the path (modulo ":" ≡ "%3A") and the chosen variants agree.
        if (k1.key === k2.key) {
          expect(k1.path.replace(/:/g, '%3A')).toBe(k2.path.replace(/:/g, '%3A'));
          expect(k1.device).toBe(k2.device);
          expect(k1.imageFormat).toBe(k2.imageFormat);
        }
      }),
      FC_OPTIONS,
    );
  });

  it('spec 4.3.1, 4.4, 4.5: urlKey is the key without variant suffixes, one for every parameter order and variant', () => {
    const names = fc.uniqueArray(fc.constantFrom('a', 'b', 'w', 'q', 'dpr', 'v'), { minLength: 1, maxLength: 5 });
    fc.assert(
      fc.property(names, fc.integer({ min: 0, max: 99 }), fc.constantFrom('/p.jpg', '/s.css', '/api/x'), fc.constantFrom(IPHONE, CHROME_WINDOWS), (unique, seed, path, ua) => {
        const pairs = unique.map((name, i) => `${name}=${(seed + i) % 7}`);
        const shuffled = [...pairs].sort((x, y) => ((x.charCodeAt(0) * 31 + seed) % 11) - ((y.charCodeAt(0) * 31 + seed) % 11));
        const k1 = cacheKey({ url: `${path}?${pairs.join('&')}`, headers: normaliseHeaders({ accept: CHROME_IMAGE_ACCEPT, 'user-agent': ua }) });
        const k2 = cacheKey({ url: `https://h.example${path}?${shuffled.join('&')}#f`, headers: normaliseHeaders({}) });
        expect(k2.urlKey).toBe(k1.urlKey);
        expect(k1.key.startsWith(k1.urlKey)).toBe(true);
        expect(k1.urlKey).toBe(`${path}?${[...pairs].sort().join('&')}`);
      }),
      FC_OPTIONS,
    );
    expect(cacheKey({ url: '/a:b.css?x=1', headers: normaliseHeaders({}) }).urlKey).toBe('/a%3Ab.css?x=1');
  });

  it('spec 4.3.1: isOwnUrlKey (a byte scan) is true only for targets whose urlKey is the target itself', () => {
    fc.assert(
      fc.property(arbitraryText, (raw) => {
        const bytes = Buffer.from(`/${raw}`, 'utf8');
        const text = bytes.toString('utf8'); // lone surrogates become U+FFFD, as a reader decodes them
        if (isOwnUrlKey(bytes, 0, bytes.length)) expect(cacheKey({ url: text, headers: normaliseHeaders({}) }).urlKey).toBe(text);
      }),
      FC_OPTIONS,
    );
    const own = (url: string) => isOwnUrlKey(Buffer.from(`..${url}..`), 2, url.length + 2);
    expect(['/a.css', '/a.jpg?w=800', '/é?q=ü'].map(own)).toEqual([true, true, true]);
    expect(['/s.css?a=1&b=2', 'http://h/a', 'a', '/p?', '/p#f', '/a:b', ''].map(own)).toEqual([false, false, false, false, false, false, false]);
  });

  it('spec 2.3: never throws on arbitrary URLs', () => {
    fc.assert(
      fc.property(arbitraryText, (url) => {
        const key = cacheKey({ url, headers: normaliseHeaders({}) });
        expect(key.key.startsWith('/')).toBe(true);
      }),
      FC_OPTIONS,
    );
  });
});

function decodeForTest(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/** Deterministic Fisher–Yates driven by a fast-check seed. */
function shuffle<T>(items: readonly T[], seed: number): T[] {
  const result = [...items];
  let state = seed >>> 0;
  for (let i = result.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const j = state % (i + 1);
    [result[i], result[j]] = [result[j], result[i]];
  }
  return result;
}
