import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEFAULT_CLASS_MIX, classFromPreset } from '../../../src/workload/content/contentClasses.js';
import { contentClassesSchema, type ContentClassInput } from '../../../src/workload/content/contentSchema.js';

/** The issues (path and message) of an input the schema must refuse. */
function issuesOf(schema: z.ZodType, input: unknown): { path: PropertyKey[]; message: string }[] {
  const result = schema.safeParse(input);
  expect(result.success).toBe(false);
  return result.error!.issues.map((issue) => ({ path: issue.path, message: issue.message }));
}

describe('content schema (content.classes): resolution over presets', () => {
  it('the issue\'s example: units parsed, preset fields overridden, the rest filled from the preset', () => {
    const classes = contentClassesSchema.parse([
      {
        name: 'assets',
        preset: 'static-asset',
        share: '35%',
        objects: 20_000,
        zipfExponent: 0.8,
        size: { median: '30KB', sigma: 1.2, min: '200B', max: '2MB' },
        headers: { profile: 'auto', fields: { 'Cache-Control': 'public, max-age=31536000, immutable' } },
        churn: { newObjects: '50/h', oneHitWonderShare: '30%', updates: { rate: '2/h', newUrl: true } },
      },
      { name: 'video', preset: 'media', share: '5%' },
      { name: 'image', share: '60%' },
    ] satisfies ContentClassInput[]);
    const [assets, video, image] = classes;
    expect(assets).toEqual({
      ...classFromPreset('assets', 'static-asset'),
      share: 0.35,
      objects: 20_000,
      zipfExponent: 0.8,
      size: { median: 30_000, sigma: 1.2, min: 200, max: 2_000_000 },
      headers: { profile: 'auto', fields: { 'Cache-Control': 'public, max-age=31536000, immutable' } },
      churn: { newObjectsPerSecond: 50 / 3600, oneHitWonderShare: 0.3, entry: 'top', updates: { perSecond: 2 / 3600, newUrl: true } },
    });
    expect(video).toEqual({ ...classFromPreset('video', 'media'), share: 0.05 });
    // Without `preset`, the name is the preset.
    expect(image).toEqual({ ...classFromPreset('image', 'image'), share: 0.6 });
  });

  it('partial size and churn overrides keep the preset\'s other fields; 0 switches churn off', () => {
    const [pages] = contentClassesSchema.parse([{ name: 'html', share: 1, size: { median: '50KB' }, churn: { newObjects: 0, updates: { rate: '0/h' } } }]);
    const preset = classFromPreset('html', 'html');
    expect(pages.size).toEqual({ ...preset.size, median: 50_000 });
    expect(pages.churn).toEqual({ ...preset.churn, newObjectsPerSecond: 0, updates: { ...preset.churn.updates, perSecond: 0 } });
    expect(pages.share).toBe(1);
  });

  it('spec 4.2: custom file types (extension, MIME type) and path; weights default to 1', () => {
    const [fonts] = contentClassesSchema.parse([
      { name: 'fonts', preset: 'font', share: 1, path: '/fonts/{slug}.{ext}', fileTypes: [{ extension: 'ttf', mimeType: 'font/ttf' }, { extension: 'otf', mimeType: 'font/otf', weight: 3 }] },
    ]);
    expect(fonts.path).toBe('/fonts/{slug}.{ext}');
    expect(fonts.fileTypes).toEqual([
      { extension: 'ttf', mimeType: 'font/ttf', weight: 1 },
      { extension: 'otf', mimeType: 'font/otf', weight: 3 },
    ]);
  });

  it('every preset named once, with nothing else, is the default mix (40/35/5/8/9/2/1 %)', () => {
    expect(contentClassesSchema.parse(DEFAULT_CLASS_MIX.map((c) => ({ name: c.name })))).toEqual(DEFAULT_CLASS_MIX);
  });

  it('every object in the schema has a description (for the JSON Schema and `cdnsim schema`)', () => {
    const json = z.toJSONSchema(contentClassesSchema, { io: 'input', unrepresentable: 'any' }) as unknown as { description?: string; items: { properties: Record<string, { description?: string }> } };
    expect(json.description).toMatch(/preset/);
    for (const [key, property] of Object.entries(json.items.properties)) expect(property.description, key).toBeTruthy();
  });
});

describe('content schema: errors', () => {
  it('shares not adding up to 100 % list every share and the total', () => {
    expect(issuesOf(contentClassesSchema, [{ name: 'assets', preset: 'static-asset', share: '35%' }, { name: 'image', share: '30%' }, { name: 'video', preset: 'media', share: '5%' }])).toEqual([
      { path: [], message: 'expected class shares that add up to 100%, found assets 35% + image 30% + video 5% = 70%' },
    ]);
  });

  it('preset default shares count in the total: two presets without shares add up to 75 %', () => {
    expect(issuesOf(contentClassesSchema, [{ name: 'static-asset' }, { name: 'image' }])[0].message).toBe(
      'expected class shares that add up to 100%, found static-asset 40% + image 35% = 75%',
    );
  });

  it('a class alone needs no share: it gets every request (issue 26), and an explicit share still has to be 100 %', () => {
    expect(contentClassesSchema.parse([{ name: 'html', preset: 'html' }])[0].share).toBe(1);
    expect(issuesOf(contentClassesSchema, [{ name: 'html', share: '50%' }])[0].message).toBe('expected class shares that add up to 100%, found html 50% = 50%');
  });

  it('duplicate names are refused at the second one', () => {
    expect(issuesOf(contentClassesSchema, [{ name: 'image', share: '50%' }, { name: 'image', preset: 'image', share: '50%' }])).toEqual([
      { path: [1, 'name'], message: 'expected unique class names, found "image" again (first at class 1)' },
    ]);
  });

  it('an unknown preset gets a suggestion, at `preset`, and at `name` when the name stands for the preset', () => {
    expect(issuesOf(contentClassesSchema, [{ name: 'pics', preset: 'imgae', share: 1 }])).toEqual([
      {
        path: [0, 'preset'],
        message: 'expected a preset among "static-asset", "image", "font", "html", "api", "media", "download", found "imgae" — did you mean "image"?',
      },
    ]);
    expect(issuesOf(contentClassesSchema, [{ name: 'vidoes', share: 1 }])[0]).toEqual({
      path: [0, 'name'],
      message: 'expected a `preset` (one of "static-asset", "image", "font", "html", "api", "media", "download") for class "vidoes", found none, and its name is no preset',
    });
    expect(issuesOf(contentClassesSchema, [{ name: 'medai', share: 1 }])[0].message).toMatch(/— did you mean "media"\?$/);
  });

  it('errors keep their place inside the content section', () => {
    expect(issuesOf(contentClassesSchema, [{ name: 'x', preset: 'htm', share: 1 }])[0].path).toEqual([0, 'preset']);
  });

  it('sizes: min above max, or a median outside [min, max]', () => {
    expect(issuesOf(contentClassesSchema, [{ name: 'image', share: 1, size: { min: '2MB', max: '1MB' } }])).toEqual([
      { path: [0, 'size', 'min'], message: 'expected min (2000000 B) not above max (1000000 B)' },
    ]);
    expect(issuesOf(contentClassesSchema, [{ name: 'image', share: 1, size: { median: '1GB' } }])[0]).toEqual({
      path: [0, 'size', 'median'],
      message: 'expected a median between min (100 B) and max (20000000 B), found 1000000000 B',
    });
  });

  it('spec 4.2: paths: unknown placeholders; {ext} needs extensions; several file types need {ext}', () => {
    expect(issuesOf(contentClassesSchema, [{ name: 'image', share: 1, path: '/img/{name}.{ext}' }])[0]).toEqual({
      path: [0, 'path'],
      message: 'expected placeholders among {framework} {hash} {id} {slug} {ext} (not {name}), found "/img/{name}.{ext}"',
    });
    expect(issuesOf(contentClassesSchema, [{ name: 'api', share: 1, path: '/api/{id}.{ext}' }])[0].path).toEqual([0, 'fileTypes', 0, 'extension']);
    expect(issuesOf(contentClassesSchema, [{ name: 'image', share: 1, path: '/img/{id}.jpg' }])[0]).toEqual({
      path: [0, 'path'],
      message: 'expected {ext} in the path, since the class has 6 file types, found "/img/{id}.jpg"',
    });
  });

  it('strict objects, units and ranges: unknown keys, bad rates, shares above 100 %, no classes', () => {
    expect(issuesOf(contentClassesSchema, [{ name: 'image', share: 1, sise: {} }])[0]).toMatchObject({ path: [0], message: expect.stringMatching(/sise/) });
    expect(issuesOf(contentClassesSchema, [{ name: 'image', share: 1, churn: { newObjects: 'often' } }])[0]).toEqual({
      path: [0, 'churn', 'newObjects'],
      message: 'expected a rate such as 50/h, 2/min, 0.5/s or 0',
    });
    expect(issuesOf(contentClassesSchema, [{ name: 'image', share: '120%' }])[0].path).toEqual([0, 'share']);
    expect(issuesOf(contentClassesSchema, [])[0].path).toEqual([]);
    expect(issuesOf(contentClassesSchema, [{ name: 'image', share: 1, headers: { profile: 'framework' } }])[0].path).toEqual([0, 'headers', 'profile']);
  });
});
