import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cdnsim, expectNoStackTrace } from './helpers.js';

/** `cdnsim topology` end to end: the built CLI, human and --json output. */

interface TopologyJson {
  pops: { code: string; city: string; country: string; region: string; lat: number; lon: number; sizeClass: string; regionalSite: string | null }[];
  regionalSites: { code: string; city: string; region: string; lat: number; lon: number }[];
  origins: { code: string; city: string; region: string; lat: number; lon: number }[];
}

describe('cdnsim topology', () => {
  it('--json prints {pops, regionalSites, origins}: 200+ PoPs, each mapped to a regional site', () => {
    const result = cdnsim(['topology', '--json']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const document = JSON.parse(result.stdout) as TopologyJson;
    expect(Object.keys(document)).toEqual(['pops', 'regionalSites', 'origins']);
    expect(document.pops.length).toBeGreaterThanOrEqual(200);
    expect(Object.keys(document.pops[0])).toEqual(['code', 'city', 'country', 'region', 'lat', 'lon', 'sizeClass', 'regionalSite']);
    const siteCodes = new Set(document.regionalSites.map((site) => site.code));
    expect(siteCodes.size).toBe(14);
    for (const pop of document.pops) expect(siteCodes.has(pop.regionalSite ?? '')).toBe(true);
    expect(document.pops.find((pop) => pop.code === 'MEX')).toMatchObject({ region: 'Latin America', sizeClass: 'major' });
    expect(document.pops.find((pop) => pop.code === 'CDG')?.regionalSite).toBe('FRA');
    expect(document.origins).toEqual([{ code: 'IAD', city: 'Ashburn', region: 'North America', lat: 39.04, lon: -77.49 }]);
  });

  it('prints PoPs per region, the regional sites with the PoPs they serve, and nearest-PoP RTT percentiles', () => {
    const result = cdnsim(['topology']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^339 PoPs \(65 major, 274 minor\), 14 regional sites, origin IAD \(Ashburn, North America\)/);
    expect(result.stdout).toMatch(/region\s+PoPs\s+major\s+demand\s+RTT p50\s+RTT p90\s+RTT p99\s+edge hit\s+stated\s+regional\s+origin/);
    expect(result.stdout).toMatch(/\nAfrica\s+34\s+5\s+11\.5 %/);
    expect(result.stdout).toMatch(/\nglobal\s+339\s+65\s+100\.0 %.*\s25\.45\s/);
    expect(result.stdout).toMatch(/\n {2}JNB {2}Johannesburg, Africa\s+17 PoPs: CPT DAR DUR/);
    expect(result.stdout).toContain('Layers (spec 4.9): edge hit 24.8 ms (stated 5–25)');
    // DXB (Dubai) serves Cairo and is filed under Europe: the output says why (issue 26).
    expect(result.stdout).toMatch(/\n {2}DXB {2}Dubai, Europe\s+30 PoPs: .*CAI/);
    expect(result.stdout).toContain('the Middle East, Turkey and the Caucasus count as Europe');
  });

  it('--scenario FILE shows that scenario\'s network: its PoP selection, tier and origins, with traffic.regions as the demand', () => {
    const folder = mkdtempSync(join(tmpdir(), 'cdnsim-topology-'));
    const file = join(folder, 'eu.yaml');
    writeFileSync(
      file,
      'traffic: { regions: { Europe: 100% } }\ntopology:\n  pops: { regions: [Europe], count: 12 }\n  regionalTier: { enabled: false }\n  origins: [FRA, AMS]\n',
    );
    const json = cdnsim(['topology', '--scenario', file, '--json']);
    expect(json.status).toBe(0);
    const document = JSON.parse(json.stdout) as TopologyJson;
    expect(document.pops).toHaveLength(12);
    expect(document.pops.every((pop) => pop.region === 'Europe' && pop.regionalSite === null)).toBe(true);
    expect(document.origins.map((origin) => origin.code)).toEqual(['FRA', 'AMS']);
    const text = cdnsim(['topology', '--scenario', file]);
    expect(text.stdout).toMatch(/^12 PoPs \(\d+ major, \d+ minor\), no regional tier, origins FRA/);
    expect(text.stdout).toMatch(/\nEurope\s+12\s+\d+\s+100\.0 %/);
    // Regions without PoPs or demand show dashes, not NaN.
    expect(text.stdout).toMatch(/\nAfrica\s+0\s+0\s+0\.0 %\s+–\s+–/);
    expect(text.stdout).not.toContain('NaN');
  });

  it('--scenario with the regions model is refused with the reason (exit 2, no stack trace)', () => {
    const result = cdnsim(['topology', '--scenario', 'scenarios/frequent-api.yaml']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('scenarios/frequent-api.yaml: topology.model is regions, which has one edge per region and no PoPs to show');
    expect(expectNoStackTrace(result.stderr)).toBe(true);
    const missing = cdnsim(['topology', '--scenario', 'no-such.yaml']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("cannot read scenario file 'no-such.yaml': no such file");
  });

  it('an unknown option is a usage error (exit 2, no stack trace)', () => {
    const result = cdnsim(['topology', '--scenarioo', 'x.yaml']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/Unknown argument: scenarioo/);
    expect(expectNoStackTrace(result.stderr)).toBe(true);
  });
});
