import { parseCacheControl } from '../src/policy/cacheControl.js';
import { CompiledDecisionTable } from '../src/policy/compile.js';
import { decide } from '../src/policy/decision.js';
import { DEFAULT_DEPLOYMENT } from '../src/policy/deployment.js';
import { normaliseHeaders } from '../src/policy/headers.js';
import { HEADER_PROFILES } from '../src/policy/profiles.js';
import { readResponseFacts } from '../src/policy/responseFacts.js';
import { measure, report } from './harness.js';

/**
 * The policy engine's cost: raw header parsing, a full decision (key, facts, rules,
 * reasons), and the compiled form the simulator reads per request. The ratio of the last
 * two is what compiling buys.
 */
const CACHE_CONTROL_VALUES = [
  'public, max-age=31536000, immutable',
  'no-cache, no-store, must-revalidate',
  'public, max-age=0, must-revalidate',
  'public, max-age=3600, stale-while-revalidate=86400',
  'private, max-age=0, no-cache',
  'max-age=600, s-maxage=3600, stale-if-error=86400',
  'Public, Max-Age="120", extension="a, b"',
];

const RESPONSES = CACHE_CONTROL_VALUES.map((cacheControl, i) =>
  normaliseHeaders({
    'Cache-Control': cacheControl,
    Date: 'Sat, 21 Nov 2026 12:00:00 GMT',
    'Last-Modified': 'Fri, 20 Nov 2026 08:00:00 GMT',
    ETag: `"v${i}"`,
    'Content-Type': 'text/css',
    Vary: 'Accept-Encoding',
  }),
);

const REQUEST_HEADERS = normaliseHeaders({
  Accept: 'image/avif,image/webp,image/apng,image/*,*/*;q=0.8',
  'User-Agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
});

const NOW_MS = Date.UTC(2026, 10, 21, 12);

export function runPolicyBenchmarks(wanted: (name: string) => boolean): void {
  if (wanted('policy.parse.cacheControl')) {
    const parses = 1_000_000;
    let sink = 0;
    const result = measure(5, () => {
      for (let i = 0; i < parses; i++) sink += parseCacheControl(CACHE_CONTROL_VALUES[i % CACHE_CONTROL_VALUES.length]).directives.size;
      return parses;
    });
    report({ name: 'policy.parse.cacheControl', parsesPerSecond: result.bestPerSecond, medianParsesPerSecond: result.medianPerSecond, checksum: sink % 1000 });
  }

  if (wanted('policy.parse.responseFacts')) {
    const responses = 300_000;
    let sink = 0;
    const result = measure(5, () => {
      for (let i = 0; i < responses; i++) {
        sink += readResponseFacts({ status: 200, headers: RESPONSES[i % RESPONSES.length] }, 'edge', NOW_MS).ageSeconds;
      }
      return responses;
    });
    report({ name: 'policy.parse.responseFacts', responsesPerSecond: result.bestPerSecond, medianResponsesPerSecond: result.medianPerSecond, checksum: sink });
  }

  let decisionsPerSecond = 0;
  if (wanted('policy.decide')) {
    const decisions = 100_000;
    const urls = ['/_next/static/chunks/app.js', '/img/hero.jpg?w=800&fmt=auto', '/about', '/api/cart?b=2&a=1', '/styles/site.css'];
    let stored = 0;
    const result = measure(5, () => {
      for (let i = 0; i < decisions; i++) {
        const decision = decide({
          request: { method: 'GET', url: urls[i % urls.length], headers: REQUEST_HEADERS },
          response: { status: 200, headers: RESPONSES[i % RESPONSES.length] },
          deployment: DEFAULT_DEPLOYMENT,
          layer: 'edge',
          nowMs: NOW_MS,
        });
        if (decision.store) stored++;
      }
      return decisions;
    });
    decisionsPerSecond = result.bestPerSecond;
    report({ name: 'policy.decide', decisionsPerSecond: result.bestPerSecond, medianDecisionsPerSecond: result.medianPerSecond, stored });
  }

  if (wanted('policy.compiled')) {
    const table = new CompiledDecisionTable(DEFAULT_DEPLOYMENT);
    for (const profile of HEADER_PROFILES.values()) table.add({ url: '/objects/object.css', status: 200, headers: profile.headers });
    const classes = table.size;
    const lookups = 50_000_000;
    let sink = 0;
    const result = measure(5, () => {
      for (let i = 0; i < lookups; i++) {
        const classId = i % classes;
        if (table.stores(classId, 1)) sink += table.ttlMsOf(classId, 1);
      }
      return lookups;
    });
    report({
      name: 'policy.compiled.edgeLookup',
      classes,
      decisionsPerSecond: result.bestPerSecond,
      medianDecisionsPerSecond: result.medianPerSecond,
      ...(decisionsPerSecond > 0 ? { speedupOverDecide: Math.round(result.bestPerSecond / decisionsPerSecond) } : {}),
      checksum: sink % 1000,
    });
  }
}
