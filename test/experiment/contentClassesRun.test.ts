import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/experiment/runScenario.js';
import { buildSummary, summaryJson } from '../../src/report/summary.js';
import { ScenarioError, parseScenarioText } from '../../src/scenario/load.js';

const CLASSES = `content:
  classes:
    - { name: static-asset }
    - { name: image }
    - { name: font }
    - { name: html }
    - { name: api }
    - { name: media }
    - { name: download }
`;
const run = (text: string) => buildSummary(runScenario(parseScenarioText(`run: { requests: 120000, warmup: 20000 }\n${text}`, 'classes.yaml')));

describe('content classes through a run (issue 6: deployments and their content)', () => {
  const fullStack = run(CLASSES);

  it('spec 4.3: a full-stack deployment gives each class its framework profile; the engine decides per class', () => {
    const byName = Object.fromEntries(fullStack.contentClasses.map((klass) => [klass.name, klass]));
    expect(fullStack.contentClasses.map((klass) => klass.name)).toEqual(['static-asset', 'image', 'font', 'html', 'api', 'media', 'download']);
    expect(byName['static-asset']).toMatchObject({ url: '/_next/static/js/0123456789abcdef.js', cacheable: true, ttlSeconds: 31_536_000 });
    expect(byName['static-asset'].responseHeaders['Cache-Control']).toBe('public, max-age=31536000, immutable');
    // spec 4.3: API routes are not cached by default, so no CDN layer ever serves one.
    expect(byName.api).toMatchObject({ cacheable: false, ttlSeconds: 0, edgeHitRatio: 0, cdnHitRatio: 0 });
    expect(byName.html.headerSource).toContain('spec 4.3 framework defaults by path');
    // One class per object: the per-class requests add up to the run's.
    expect(fullStack.contentClasses.reduce((sum, klass) => sum + klass.requests, 0)).toBe(100_000);
    expect(fullStack.edgeCaching).toBeUndefined();
  });

  it('class shares of requests follow the mix (40/35/5/8/9/2/1 %) within 3σ of a binomial', () => {
    const shares = [0.4, 0.35, 0.05, 0.08, 0.09, 0.02, 0.01];
    fullStack.contentClasses.forEach((klass, c) => {
      const sigma = Math.sqrt((shares[c] * (1 - shares[c])) / 100_000);
      expect(Math.abs(klass.requests / 100_000 - shares[c])).toBeLessThan(3 * sigma);
    });
  });

  it('spec 1.3: a container deployment without the CDN stores nothing at any layer', () => {
    const off = run(`${CLASSES}deployment: { kind: container, cdn: false }\n`);
    expect(off.hitRatio.cdn).toBe(0);
    for (const klass of off.contentClasses) expect(klass.cacheable).toBe(false);
    expect(off.requestsByLayer.origin).toBe(100_000);
  });

  it('a class with churn (new objects, one-hit wonders, updates with new URLs) runs deterministically', () => {
    const text = `content:\n  classes:\n    - { name: news, preset: html, share: 100%, objects: 500, churn: { newObjects: 20/s, oneHitWonderShare: 50%, updates: { rate: 5/s, newUrl: true } } }\n`;
    const a = run(text);
    expect(summaryJson(a)).toBe(summaryJson(run(text)));
    expect(a.requests).toBe(100_000);
    // 120,000 requests at 20k/s (and one-hit wonders on top): about 6 s of churn at 20 new objects/s
    // (half of them one-hit wonders) and 5 updates/s. Poisson counts, within 4σ.
    const [news] = a.contentClasses;
    const seconds = a.simulatedSeconds;
    const within = (count: number, mean: number) => expect(Math.abs(count - mean)).toBeLessThan(4 * Math.sqrt(mean) + 1);
    within(news.newObjects, 20 * seconds);
    within(news.updates, 5 * seconds);
    expect(news.oneHitWonders).toBeGreaterThan(0.3 * news.newObjects);
    expect(news.oneHitWonders).toBeLessThan(0.7 * news.newObjects);
    // With churn off the same class has none.
    const still = run(text.replace(/churn: \{.*\} \}/, 'churn: { newObjects: 0, updates: { rate: 0 } } }'));
    expect([still.contentClasses[0].newObjects, still.contentClasses[0].updates]).toEqual([0, 0]);
  });

  it('content.classes replaces the single-class keys: giving both is refused at the key', () => {
    expect(() => parseScenarioText(`content:\n  objects: 5000\n  classes: [{ name: image }]\n`, 'both.yaml')).toThrow(ScenarioError);
    try {
      parseScenarioText(`content:\n  objects: 5000\n  classes: [{ name: image, share: 100% }]\n`, 'both.yaml');
    } catch (error) {
      expect((error as Error).message).toContain('both.yaml:2:12: `content.objects`: expected no `objects` beside content.classes');
    }
  });
});
