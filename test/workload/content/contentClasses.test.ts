import { describe, expect, it } from 'vitest';
import { CompiledDecisionTable } from '../../../src/policy/compile.js';
import { CACHEABLE_EXTENSIONS, UNCACHED_MIME_TYPES, type Deployment, type DeploymentKind } from '../../../src/policy/deployment.js';
import { FRAMEWORK_PROFILES, HEADER_PROFILES } from '../../../src/policy/profiles.js';
import {
  CONTENT_PRESETS,
  CONTENT_PRESET_NAMES,
  DEFAULT_CLASS_MIX,
  classFromPreset,
  parsePathPattern,
  representativePath,
  resolveClassHeaders,
  type ContentClass,
  type ContentPresetName,
} from '../../../src/workload/content/contentClasses.js';

const deployment = (kind: DeploymentKind, framework = 'next', cdnEnabled = true): Deployment => ({ kind, framework, cdnEnabled });
const preset = (name: ContentPresetName): ContentClass => classFromPreset(name, name);

describe('content presets: documented defaults', () => {
  it('the seven presets exist, each with a description, a parseable path and file types with positive weights', () => {
    expect([...CONTENT_PRESETS.keys()]).toEqual(['static-asset', 'image', 'font', 'html', 'api', 'media', 'download']);
    for (const name of CONTENT_PRESET_NAMES) {
      const p = CONTENT_PRESETS.get(name)!;
      expect(p.description.length).toBeGreaterThan(10);
      expect(parsePathPattern(p.path).ok).toBe(true);
      expect(p.fileTypes.length).toBeGreaterThan(0);
      for (const type of p.fileTypes) expect(type.weight).toBeGreaterThan(0);
      expect(p.size.min).toBeLessThanOrEqual(p.size.median);
      expect(p.size.median).toBeLessThanOrEqual(p.size.max);
      expect(p.zipfExponent).toBeGreaterThanOrEqual(0.6);
      expect(p.zipfExponent).toBeLessThanOrEqual(1);
      expect(HEADER_PROFILES.has(p.staticProfile)).toBe(true);
      expect(HEADER_PROFILES.has(p.containerProfile)).toBe(true);
    }
  });

  it('spec 4.2: every extension of the file presets (assets, images, fonts, media, downloads) is in the cacheable list, and their MIME types are not the uncached ones', () => {
    for (const name of ['static-asset', 'image', 'font', 'media', 'download'] as const) {
      for (const type of CONTENT_PRESETS.get(name)!.fileTypes) {
        expect(CACHEABLE_EXTENSIONS.has(type.extension), `${name}: .${type.extension}`).toBe(true);
        expect(UNCACHED_MIME_TYPES.has(type.mimeType)).toBe(false);
      }
    }
  });

  it('spec 4.2: HTML pages are text/html and API responses application/json (the MIME types not cached by default), with no extension', () => {
    expect(preset('html').fileTypes).toEqual([{ extension: '', mimeType: 'text/html', weight: 1 }]);
    expect(preset('api').fileTypes).toEqual([{ extension: '', mimeType: 'application/json', weight: 1 }]);
  });

  it('spec 4.3: static assets and fonts live under /_<framework>/static/, API responses under /api/', () => {
    expect(preset('static-asset').path).toBe('/_{framework}/static/{ext}/{hash}.{ext}');
    expect(preset('font').path.startsWith('/_{framework}/static/')).toBe(true);
    expect(preset('api').path.startsWith('/api/')).toBe(true);
  });

  it('spec 4.8: only the media preset asks for byte ranges, and its sizes span tens of MB to GB', () => {
    expect(CONTENT_PRESET_NAMES.filter((name) => preset(name).rangeRequests)).toEqual(['media']);
    const { median, sigma, max } = preset('media').size;
    expect(median).toBe(50_000_000);
    // p99 = median · e^(2.326σ) ≈ 1.6 GB
    expect(median * Math.exp(2.326 * sigma)).toBeGreaterThan(1e9);
    expect(max).toBe(4e9);
  });

  it('hashed assets and downloads take new URLs on update; images, pages and API responses keep theirs', () => {
    const newUrl = Object.fromEntries(CONTENT_PRESET_NAMES.map((name) => [name, preset(name).churn.updates.newUrl]));
    expect(newUrl).toEqual({ 'static-asset': true, image: false, font: false, html: false, api: false, media: false, download: true });
  });

  it('the default mix is every preset once, named after it, with shares 40/35/5/8/9/2/1 % adding up to 100 %', () => {
    expect(DEFAULT_CLASS_MIX.map((klass) => [klass.name, klass.preset, klass.share])).toEqual([
      ['static-asset', 'static-asset', 0.4],
      ['image', 'image', 0.35],
      ['font', 'font', 0.05],
      ['html', 'html', 0.08],
      ['api', 'api', 0.09],
      ['media', 'media', 0.02],
      ['download', 'download', 0.01],
    ]);
    expect(Math.abs(DEFAULT_CLASS_MIX.reduce((sum, klass) => sum + klass.share, 0) - 1)).toBeLessThan(1e-12);
  });

  it('representativePath fills the pattern with the framework and the first file type', () => {
    expect(representativePath(preset('static-asset'), 'next')).toBe('/_next/static/js/0123456789abcdef.js');
    expect(representativePath(preset('image'), 'next')).toBe('/images/1.jpg');
    expect(representativePath(preset('html'), 'nuxt')).toBe('/blog/example');
  });
});

describe('path patterns', () => {
  it('splits literals and placeholders', () => {
    expect(parsePathPattern('/images/{id}.{ext}')).toEqual({
      ok: true,
      tokens: [{ literal: '/images/' }, { placeholder: 'id' }, { literal: '.' }, { placeholder: 'ext' }],
    });
  });

  it('refuses unknown placeholders, relative paths and query strings', () => {
    expect(parsePathPattern('/img/{name}.png')).toEqual({ ok: false, expected: 'placeholders among {framework} {hash} {id} {slug} {ext} (not {name})' });
    expect(parsePathPattern('images/{id}').ok).toBe(false);
    expect(parsePathPattern('/images/{id}?w=1').ok).toBe(false);
    expect(parsePathPattern('/images/{id').ok).toBe(false);
  });
});

describe('spec 1.3: header profile of each preset per deployment kind', () => {
  const expected: Record<DeploymentKind, Record<ContentPresetName, string>> = {
    // spec 4.3 by path: /_next/static/* → static assets, /api/* → API routes, pages → static pages, other files → no headers (spec 4.2 decides).
    'full-stack': {
      'static-asset': 'framework-static-assets',
      image: 'no-cache-headers',
      font: 'framework-static-assets',
      html: 'framework-static-pages',
      api: 'framework-api-routes',
      media: 'no-cache-headers',
      download: 'no-cache-headers',
    },
    // spec 8.1 rows 1–3 where a row fits; unversioned files send nothing and spec 4.1.3 caches them.
    static: {
      'static-asset': 'guidance-static-assets',
      image: 'no-cache-headers',
      font: 'guidance-static-assets',
      html: 'guidance-dynamic-html',
      api: 'guidance-frequent-api',
      media: 'no-cache-headers',
      download: 'no-cache-headers',
    },
    // spec 8.2: static-files route, API route, root page.
    container: {
      'static-asset': 'container-static-files',
      image: 'container-static-files',
      font: 'container-static-files',
      html: 'container-root',
      api: 'container-api',
      media: 'container-static-files',
      download: 'container-static-files',
    },
  };

  for (const kind of ['full-stack', 'static', 'container'] as const) {
    it(`spec 1.3 ${kind}: ${CONTENT_PRESET_NAMES.map((name) => `${name} → ${expected[kind][name]}`).join(', ')}`, () => {
      for (const name of CONTENT_PRESET_NAMES) {
        const headers = resolveClassHeaders(preset(name), deployment(kind));
        expect(headers.profile.name, `${kind} ${name}`).toBe(expected[kind][name]);
        expect(headers.fields).toEqual(Object.entries(headers.profile.headers));
      }
    });
  }

  it('spec 4.3: the framework segment follows the deployment: a nuxt deployment finds its assets under /_nuxt/static/', () => {
    expect(resolveClassHeaders(preset('static-asset'), deployment('full-stack', 'nuxt')).profile).toBe(FRAMEWORK_PROFILES.staticAssets);
  });

  it('spec 4.3: server-rendered pages get "public, max-age=0, must-revalidate"', () => {
    const ssr = { ...preset('html'), rendering: 'server' as const };
    expect(resolveClassHeaders(ssr, deployment('full-stack')).profile.name).toBe('framework-server-rendered');
  });

  it('spec 4.3: a class path moved out of /_<framework>/static/ loses the framework asset profile', () => {
    const moved = { ...preset('static-asset'), path: '/assets/{hash}.{ext}' };
    expect(resolveClassHeaders(moved, deployment('full-stack')).profile.name).toBe('no-cache-headers');
  });

  it('spec 1.3 container with the CDN disabled: the origin sends the same spec 8.2 headers', () => {
    expect(resolveClassHeaders(preset('api'), deployment('container', 'next', false)).profile.name).toBe('container-api');
  });

  it('a class naming a profile gets it under every kind, and its fields replace the profile\'s', () => {
    const klass = { ...preset('image'), headers: { profile: 'guidance-static-assets', fields: { 'cache-control': 'public, max-age=600', 'X-Extra': '1' } } };
    for (const kind of ['full-stack', 'static', 'container'] as const) {
      const headers = resolveClassHeaders(klass, deployment(kind));
      expect(headers.profile.name).toBe('guidance-static-assets');
      expect(headers.source).toBe('named by the class');
      expect(headers.fields).toEqual([
        ['cache-control', 'public, max-age=600'],
        ['X-Extra', '1'],
      ]);
    }
  });

  it('auto with fields: the deployment\'s profile with Cache-Control replaced (the issue\'s `profile: framework` example)', () => {
    const klass = { ...preset('static-asset'), headers: { profile: 'auto', fields: { 'Cache-Control': 'public, max-age=600' } } };
    const headers = resolveClassHeaders(klass, deployment('full-stack'));
    expect(headers.profile.name).toBe('framework-static-assets');
    expect(headers.fields).toEqual([['Cache-Control', 'public, max-age=600']]);
  });

  it('spec 4.1, 4.2, 4.3 end to end: under a full-stack deployment the edge stores every preset except API responses', () => {
    const table = new CompiledDecisionTable(deployment('full-stack'));
    const stored = Object.fromEntries(
      CONTENT_PRESET_NAMES.map((name) => {
        const klass = preset(name);
        const headers = resolveClassHeaders(klass, deployment('full-stack'));
        const id = table.add({
          url: representativePath(klass, 'next'),
          status: 200,
          headers: [...headers.fields, ['Content-Type', klass.fileTypes[0].mimeType]],
        });
        return [name, table.get(id, 'edge').store];
      }),
    );
    expect(stored).toEqual({ 'static-asset': true, image: true, font: true, html: true, api: false, media: true, download: true });
  });
});
