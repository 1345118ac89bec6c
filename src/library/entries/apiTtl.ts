import { compareFigures, HEADER_COLUMNS, headerCells, strategyNamed, type CompareFigures } from '../compareFigures.js';
import type { LibraryEntry } from '../libraryEntry.js';
import { bytes, count, markdownTable, milliseconds, percent, seconds } from '../markdown.js';

export const apiTtl: LibraryEntry<CompareFigures> = {
  name: 'api-ttl',
  title: 'API: short TTLs and revalidation',
  question: 'A public JSON API whose resources change in place, two a second across the catalogue: what do no-store, no-cache with validators, 10 s, 60 s and 300 s lifetimes and stale-while-revalidate each cost in origin load, latency and outdated answers?',
  command: { kind: 'compare' },
  charts: [{ file: 'strategies.svg', alt: 'CDN hit ratio against the worst staleness, one point per API header' }],
  figures: compareFigures,
  results(f) {
    return markdownTable(
      ['API header (strategy)', ...HEADER_COLUMNS],
      f.strategies.map((s) => [s.strategy, ...headerCells(s)]),
    );
  },
  conclusions(f) {
    const noStore = strategyNamed(f.strategies, 'no-store');
    const noCache = strategyNamed(f.strategies, 'no-cache');
    const ttl60 = strategyNamed(f.strategies, 'max-age-60');
    const swr = strategyNamed(f.strategies, 'max-age-60-swr');
    const guidance = strategyNamed(f.strategies, 'guidance');
    return [
      {
        text: `\`no-cache\` with validators does not lighten the origin's request count (${count(noCache.originRequests)} against ${count(noStore.originRequests)} for \`no-store\`) nor the latency, but 304s cut the origin's bytes from ${bytes(noStore.originBytes)} to ${bytes(noCache.originBytes)}: it saves bandwidth, not round trips.`,
        holds: noCache.originRequests > noStore.originRequests * 0.9 && noCache.originBytes < noStore.originBytes * 0.5,
      },
      {
        text: `Each longer lifetime trades origin load for outdated answers: 60 s takes ${percent(ttl60.cdnHitRatio)} of requests off the origin with the oldest answer ${seconds(ttl60.worstStalenessSeconds)} behind; the spec's 300 s guidance (8.1 row 3) ${percent(guidance.cdnHitRatio)}, up to ${seconds(guidance.worstStalenessSeconds)} behind.`,
        holds: guidance.cdnHitRatio > ttl60.cdnHitRatio && guidance.worstStalenessSeconds > ttl60.worstStalenessSeconds,
      },
      {
        text: `Replacing \`must-revalidate\` with stale-while-revalidate at the same 60 s lifetime keeps the origin's load (${count(swr.originRequests)} against ${count(ttl60.originRequests)}) but takes the revalidation off the client's path: the median falls from ${milliseconds(ttl60.p50Ms)} to ${milliseconds(swr.p50Ms)}, for answers up to ${seconds(swr.worstStalenessSeconds)} old.`,
        holds: swr.p50Ms < ttl60.p50Ms && swr.worstStalenessSeconds > ttl60.worstStalenessSeconds,
      },
    ];
  },
};
