import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEFAULT_MOBILE_SHARES } from '../../../src/topology/clients.js';
import {
  requestAttributeSpec,
  requestAttributesSection,
  requestAttributesToInput,
} from '../../../src/workload/requests/requestAttributesSchema.js';

function messages(input: unknown): string[] {
  const result = requestAttributesSection.safeParse(input);
  expect(result.success).toBe(false);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('clients section schema', () => {
  it('fills every default (about 92 % AVIF, AVIF images 10 % of the JPEG (spec 4.4), 10 % reordered, 100k clients, 40 % revisits, 30 % repeats, 4 MB windows every 6.4 s = 5 Mbit/s)', () => {
    expect(requestAttributesSection.parse({})).toEqual({
      avifShare: 0.92,
      avifSizeShare: 0.1,
      queryReorderShare: 0.1,
      clientsPerRegion: 100_000,
      revisitShare: 0.4,
      repeatShare: 0.3,
      recentObjects: 8,
      mobileShareOverrides: {},
      media: { windowBytes: 4_000_000, seekProbability: 0.05, meanWatchShare: 0.4, minBytes: 10_000_000, windowIntervalMs: 6_400 },
    });
  });

  it('reads the example with units', () => {
    const settings = requestAttributesSection.parse({
      avifShare: '90%',
      avifSizeShare: '25%',
      queryReorderShare: '15%',
      perRegion: '20k',
      revisitShare: '50%',
      repeatShare: 0.25,
      mobileShare: { Europe: '60%' },
      media: { windowBytes: '2MB', seekProbability: '10%', meanWatchShare: '30%', minSize: '50MB' },
    });
    expect(settings).toMatchObject({ avifShare: 0.9, avifSizeShare: 0.25, queryReorderShare: 0.15, clientsPerRegion: 20_000, revisitShare: 0.5, repeatShare: 0.25, mobileShareOverrides: { Europe: 0.6 } });
    expect(settings.media).toEqual({ windowBytes: 2_000_000, seekProbability: 0.1, meanWatchShare: 0.3, minBytes: 50_000_000, windowIntervalMs: 3_200 });
    expect(requestAttributesSection.parse({ media: { windowInterval: '2s' } }).media.windowIntervalMs).toBe(2_000);
  });

  it('mobile shares come from the topology unless overridden per region', () => {
    const settings = requestAttributesSection.parse({ mobileShare: { Africa: '50%' } });
    const spec = requestAttributeSpec(settings, DEFAULT_MOBILE_SHARES);
    expect(spec.mobileShares).toEqual([DEFAULT_MOBILE_SHARES['North America'], DEFAULT_MOBILE_SHARES.Europe, DEFAULT_MOBILE_SHARES['Asia-Pacific'], DEFAULT_MOBILE_SHARES['Latin America'], 0.5]);
    expect(spec.population).toEqual({ groups: 5, clientsPerGroup: 100_000, revisitShare: 0.4, repeatShare: 0.3, recentObjects: 8 });
  });

  it('errors say what was expected', () => {
    expect(messages({ avifShare: '120%' })).toEqual(['avifShare: expected a percentage such as 35% or a fraction between 0 and 1']);
    expect(messages({ avifSizeShare: '0%' })).toEqual(['avifSizeShare: expected a share above 0% (an AVIF image has a body)']);
    expect(messages({ avifSizeShare: '110%' })).toEqual(['avifSizeShare: expected a percentage such as 35% or a fraction between 0 and 1']);
    expect(messages({ perRegion: '5M' })).toEqual(['perRegion: expected from 1 to 1000000 clients per region (each costs about 90 bytes)']);
    expect(messages({ media: { meanWatchShare: '0%' } })).toEqual(['media.meanWatchShare: expected a mean watch share above 0%']);
    expect(messages({ media: { windowBytes: 'big' } })).toEqual(['media.windowBytes: expected a size such as 5MB, 193MiB, 10GB or a whole number of bytes']);
    expect(messages({ mobileShare: { Antarctica: '10%' } })[0]).toMatch(/^mobileShare: Unrecognized key/);
    expect(messages({ revisitShare: '40%', repeatShare: '30%', revisits: 1 })[0]).toMatch(/Unrecognized key: "revisits"/);
  });

  it('written back as input, it parses to the same settings', () => {
    const settings = requestAttributesSection.parse({ perRegion: '20k', avifSizeShare: '12.5%', mobileShare: { Europe: '60%' }, media: { windowBytes: '2MB' } });
    expect(requestAttributesSection.parse(requestAttributesToInput(settings))).toEqual(settings);
    expect(requestAttributeSpec(settings, DEFAULT_MOBILE_SHARES).avifSizeShare).toBe(0.125);
  });

  it('every field has a description in the JSON Schema (editor completion)', () => {
    const schema = z.toJSONSchema(requestAttributesSection, { io: 'input', unrepresentable: 'any' }) as { properties: Record<string, { description?: string; properties?: Record<string, { description?: string }> }> };
    for (const [key, field] of Object.entries(schema.properties)) expect(field.description, key).toBeTruthy();
    for (const [key, field] of Object.entries(schema.properties.media.properties ?? {})) expect(field.description, `media.${key}`).toBeTruthy();
  });
});
