import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Summary } from '../../src/report/summary.js';
import { cdnsim, temporaryFolder } from './helpers.js';

/** The run-folder CSVs (docs/outputs.md): names and columns are a contract with whatever reads them. */
const HEADERS: Record<string, string> = {
  'timeseries.csv':
    'start_s,end_s,requests,requests_per_s,browser_hit_ratio,edge_hit_ratio,regional_hit_ratio,cdn_hit_ratio,origin_requests_per_s,origin_gbit_per_s,p50_ms,p95_ms,p99_ms,stale_served,errors_served',
  'pops.csv':
    'pop,region,requests,hit_ratio,byte_hit_ratio,peak_egress_gbit_s_1s,peak_egress_gbit_s_60s,uplink_gbit_s,peak_requests_per_s,stored_bytes_end,stored_bytes_peak,capacity_bytes,latitude,longitude',
  'regions.csv':
    'region,requests,mean_ms,p50_ms,p90_ms,p95_ms,p99_ms,p999_ms,edge_hit_requests,edge_hit_mean_ms,edge_hit_p50_ms,edge_hit_p95_ms,stated_edge_hit_min_ms,stated_edge_hit_max_ms',
  'layers.csv': 'layer,requests,share,hit_ratio,byte_hit_ratio,mean_ms,p50_ms,p95_ms,p99_ms,bytes_served,bytes_fetched,lookups,lookup_hit_ratio,lookup_byte_hit_ratio',
  'classes.csv': 'class,requests,browser_hit_ratio,edge_hit_ratio,cdn_hit_ratio,objects,catalogue_bytes,new_objects,one_hit_wonders,updates',
  'stated.csv': 'id,figure,stated,simulated,unit,verdict,note',
};

function runFolder(name: string, scenarioText: string): { folder: string; csv: (file: string) => string[][]; summary: Summary; stdout: string } {
  const folder = temporaryFolder(name);
  const scenario = join(folder, `${name}.yaml`);
  writeFileSync(scenario, scenarioText);
  const out = join(folder, 'run');
  const result = cdnsim(['run', scenario, '--no-progress', '--no-charts', '--out', out]);
  expect(result.status, result.stderr).toBe(0);
  // None of these cells is quoted: no field has a comma, so a plain split reads them.
  const csv = (file: string) => readFileSync(join(out, file), 'utf8').trimEnd().split('\n').map((line) => line.split(','));
  return { folder: out, csv, summary: JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Summary, stdout: result.stdout };
}

describe('cdnsim run: the run folder CSVs, their headers and row counts', () => {
  it('model pops, 20 PoPs, browser caches, three classes, a 5 s interval over 30 measured seconds', () => {
    const { folder, csv, summary, stdout } = runFolder(
      'pops20',
      [
        'run: { duration: 40s, warmup: 10s }',
        'traffic: { rate: 500/s, regions: { Europe: 100% }, clients: { perRegion: 1000 } }',
        'content: { classes: [{ name: static-asset, objects: 1000 }, { name: image, objects: 1000 }, { name: html, objects: 200, share: 25% }] }',
        'topology: { pops: { regions: [Europe], count: 20 } }',
        'metrics: { interval: 5s }',
        'incidents: [{ kind: error-burst, start: 20s, duration: 5s }]',
        '',
      ].join('\n'),
    );
    expect(readdirSync(folder).sort()).toEqual(['classes.csv', 'layers.csv', 'pops.csv', 'regions.csv', 'run.json', 'scenario.json', 'stated.csv', 'summary.json', 'timeseries.csv']);
    for (const [file, header] of Object.entries(HEADERS)) expect(readFileSync(join(folder, file), 'utf8').split('\n')[0], file).toBe(header);
    expect(summary.schemaVersion).toBe(1);

    // 30 measured seconds in 5 s rows (the last also holds the requests in flight at 40 s).
    const series = csv('timeseries.csv').slice(1);
    expect(series).toHaveLength(6);
    expect(series.reduce((total, row) => total + Number(row[2]), 0)).toBe(summary.requests);
    expect(series.every((row) => row.length === 15 && row[4] !== '' && row[6] !== '')).toBe(true);

    const pops = csv('pops.csv').slice(1);
    expect(pops).toHaveLength(20);
    expect(pops.every((row) => row[1] === 'Europe' && (row[7] === '100' || row[7] === '10') && row[11] === '1000000000' && row[12] !== '' && row[13] !== '')).toBe(true);
    expect(csv('regions.csv').slice(1).map((row) => row[0])).toEqual(['North America', 'Europe', 'Asia-Pacific', 'Latin America', 'Africa']);
    // Regions without clients: zero requests and empty latency cells; their stated range stays.
    expect(csv('regions.csv')[1]).toEqual(['North America', '0', '', '', '', '', '', '', '0', '', '', '', '15', '20']);

    const layers = csv('layers.csv').slice(1);
    expect(layers.map((row) => row[0])).toEqual(['browser', 'edge', 'regional', 'origin']);
    expect(layers.reduce((total, row) => total + Number(row[1]), 0)).toBe(summary.requests);
    expect(layers[3][3]).toBe('');
    // Per lookup: the edge and regional caches' own lookups (cdn.layers), none for the browser or the origin.
    expect(layers.map((row) => row[11] === '')).toEqual([true, false, false, true]);
    expect(layers[2][11]).toBe(String(summary.cdn.layers.regional.lookups));
    expect(layers[2][12]).toBe(String(summary.lookupHitRatio.regional));
    expect(Object.keys(summary.lookupHitRatio)).toEqual(['edge', 'regional']);
    const regional = summary.cdn.layers.regional;
    expect(summary.lookupHitRatio.regional).toBeCloseTo(regional.lookupHits / regional.lookups, 6);
    expect(csv('classes.csv').slice(1).map((row) => row[0])).toEqual(['static-asset', 'image', 'html']);

    // The terminal report in the order a reader asks (issue 26): the answer (hit ratios, origin load, busiest PoP, latency by region),
    // the stated figures in one line (the scenario does not model the service), then hit ratios per layer, busiest PoPs against their uplinks, incidents.
    const order = ['\nCDN hit ratio ', '\norigin load: ', '\nbusiest PoP: ', '\nlatency (ms) ', '\nstated figures: ', '\nhit ratio ', '\nedge hits (ms) ', '\nbusiest PoPs ', '\nincident ', '\navailability '].map((heading) => stdout.indexOf(heading));
    expect(order.every((index) => index > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(stdout).toMatch(/\nbusiest PoPs\s+uplink\s+peak 1 s\s+of uplink\s+peak 60 s\s+of uplink\s+peak requests\/s\n[A-Z]{3} \(Europe\)\s+(100|10) Gbit\/s\s+[\d.]+ Gbit\/s\s+[\d.]+ %/);
  });

  it('model regions: one edge per region, no uplinks or map (empty cells), layers edge and origin', () => {
    const { csv } = runFolder('regions5', 'run: { requests: 30000, warmup: 5000 }\ncontent: { objects: 2000 }\ntopology: { model: regions }\nmetrics: { interval: 1s }\n');
    const pops = csv('pops.csv').slice(1);
    expect(pops.map((row) => row[0])).toEqual(['North America', 'Europe', 'Asia-Pacific', 'Latin America', 'Africa']);
    expect(pops.every((row) => row[7] === '' && row[12] === '' && row[13] === '' && row[5] !== '')).toBe(true);
    expect(csv('layers.csv').slice(1).map((row) => row[0])).toEqual(['edge', 'origin']);
    const series = csv('timeseries.csv').slice(1);
    // 25,000 measured requests at 20k/s: about 1.25 s, two rows.
    expect(series).toHaveLength(2);
    expect(series.every((row) => row[4] === '' && row[6] === '' && row[5] !== '')).toBe(true);
  });
});
