import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runScenarioJob, type ScenarioJob } from '../../src/experiment/scenarioJob.js';
import type { Summary } from '../../src/report/summary.js';
import { temporaryFolder } from '../cli/helpers.js';

/**
 * A comparison is fair only on identical traffic: every strategy runs on the same seed, and
 * each component draws from its own named stream (src/sim/random.ts), so a strategy that
 * changes nothing a request touches changes nothing at all.
 */

const SITE = `
name: crn
seed: 5
run: { requests: 30000, warmup: 5000 }
traffic: { rate: 500/s }
content:
  classes:
    - { name: static-asset, share: 50%, objects: 2000 }
    - name: html
      share: 50%
      objects: 2000
      rendering: static
      headers: { fields: { Cache-Control: "public, max-age=30" } }
      churn: { updates: { rate: 2000/h, newUrl: false } }
    - { name: download, share: 0%, objects: 100 }   # nobody asks for it
edge: { capacity: 50MB }
topology: { model: regions }
incidents:
  - { kind: deploy, at: 20s }
strategies:
  - respect-headers
  - name: unused-class-no-store
    classes:
      download: { fields: { Cache-Control: "no-store" } }
  - name: pages-no-store
    classes:
      html: { fields: { Cache-Control: "no-store" } }
`;

function scenarioFile(text: string): string {
  const file = join(temporaryFolder('compare'), 'site.yaml');
  writeFileSync(file, text);
  return file;
}

const job = (file: string, strategy: string, extra: Partial<ScenarioJob> = {}): ScenarioJob => ({ scenarioFile: file, params: [], assignments: [], strategy, ...extra });

/** A summary without the class whose headers the strategy changed (its decision is reported, and differs). */
function withoutClass(summary: Summary, name: string): Omit<Summary, 'contentClasses'> & { contentClasses: Summary['contentClasses'] } {
  return { ...summary, contentClasses: summary.contentClasses.filter((klass) => klass.name !== name) };
}

describe('compare: common random numbers (same seed, named streams)', () => {
  it('two strategies that differ only for a class nobody requests give identical results, request for request', async () => {
    const file = scenarioFile(SITE);
    const [plain, unused] = await Promise.all([runScenarioJob(job(file, 'respect-headers')), runScenarioJob(job(file, 'unused-class-no-store'))]);
    expect(plain.requests).toBe(25_000);
    expect(plain.contentClasses.find((klass) => klass.name === 'download')).toMatchObject({ requests: 0, cacheable: true });
    expect(unused.contentClasses.find((klass) => klass.name === 'download')).toMatchObject({ requests: 0, cacheable: false });
    expect(withoutClass(unused, 'download')).toEqual(withoutClass(plain, 'download'));
  });

  it('control: a strategy that changes a requested class changes the results (html no-store: lower CDN hit ratio, no outdated pages)', async () => {
    const file = scenarioFile(SITE);
    const [plain, noStore] = await Promise.all([runScenarioJob(job(file, 'respect-headers')), runScenarioJob(job(file, 'pages-no-store'))]);
    expect(noStore.requests).toBe(plain.requests);
    // The same requests per class: the traffic did not move.
    expect(noStore.contentClasses.map((klass) => klass.requests)).toEqual(plain.contentClasses.map((klass) => klass.requests));
    expect(noStore.hitRatio.cdn).toBeLessThan(plain.hitRatio.cdn - 0.1);
    expect(noStore.contentClasses.find((klass) => klass.name === 'html')?.cdnHitRatio).toBe(0);
  });
});

describe('scenarios/ttl-strategies.yaml: monotone sanity at small scale', () => {
  it('a longer fixed TTL (RFC 9213 CDN-Cache-Control) never lowers the CDN hit ratio nor the share of outdated responses: 10s ≤ 1m ≤ 10m ≤ 1h', async () => {
    const file = join(import.meta.dirname, '../../scenarios/ttl-strategies.yaml');
    // 100 requests a second over the scenario's 15 minutes: 90,000 requests, both deploys inside.
    const ttls = ['fixed:10s', 'fixed:1m', 'fixed:10m', 'fixed:1h'];
    const summaries: Summary[] = [];
    for (const ttl of ttls) summaries.push(await runScenarioJob(job(file, ttl, { assignments: [['traffic.rate', '100/s']] })));
    const hit = summaries.map((summary) => summary.hitRatio.cdn);
    const stale = summaries.map((summary) => summary.cdn.staleness.share);
    for (let i = 1; i < ttls.length; i++) {
      expect(hit[i], `CDN hit ratio ${ttls[i]} against ${ttls[i - 1]}`).toBeGreaterThanOrEqual(hit[i - 1]);
      expect(stale[i], `outdated share ${ttls[i]} against ${ttls[i - 1]}`).toBeGreaterThanOrEqual(stale[i - 1]);
    }
    // Not flat: the TTL matters on this scenario (content changes every few minutes).
    expect(hit[3] - hit[0]).toBeGreaterThan(0.1);
    expect(stale[3] - stale[0]).toBeGreaterThan(0.05);
  });
});
