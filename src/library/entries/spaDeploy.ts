import { compareFigures, HEADER_COLUMNS, headerCells, strategyNamed, type CompareFigures } from '../compareFigures.js';
import type { LibraryEntry } from '../libraryEntry.js';
import { bytes, count, markdownTable, milliseconds, percent, seconds } from '../markdown.js';

export const spaDeploy: LibraryEntry<CompareFigures> = {
  name: 'spa-deploy',
  title: 'Single-page app: the shell\'s header and a deploy',
  question: 'A single-page app ships hashed bundles and one HTML shell: after a deploy, how long do visitors get the old app under each shell header, and what does the safe header cost in origin load and latency?',
  command: { kind: 'compare' },
  charts: [{ file: 'strategies.svg', alt: 'CDN hit ratio against the worst staleness, one point per shell header' }],
  figures: compareFigures,
  results(f) {
    return markdownTable(
      ['shell header (strategy)', ...HEADER_COLUMNS, 'origin requests in the deploy\'s minute / the minute before'],
      f.strategies.map((s) => [s.strategy, ...headerCells(s), `${count(s.incidentOriginRequests[0])} / ${count(s.incidentOriginRequestsBefore[0])}`]),
    );
  },
  conclusions(f) {
    const noCache = strategyNamed(f.strategies, 'shell-no-cache');
    const swr = strategyNamed(f.strategies, 'shell-swr');
    const purge = strategyNamed(f.strategies, 'shell-swr-purge');
    return [
      {
        text: `\`no-cache\` on the shell (the common advice for single-page apps) serves almost nobody an old app (${percent(noCache.staleShare, 3)} of responses), but every page load goes to the origin to revalidate: ${count(noCache.originNotModified)} 304s, and a median of ${milliseconds(noCache.p50Ms)} against ${milliseconds(swr.p50Ms)} with a cached shell.`,
        holds: noCache.staleShare < 0.001 && noCache.p50Ms > swr.p50Ms * 1.5,
      },
      {
        text: `A shell cached for an hour with stale-while-revalidate keeps serving the previous release until it expires: ${percent(swr.staleShare, 3)} of all responses were outdated, the oldest ${seconds(swr.worstStalenessSeconds)} behind the deploy.`,
        holds: swr.staleShare > 0.01,
      },
      {
        text: `Purging the shell on deploy keeps the cached shell's latency and origin load (${count(purge.originRequests)} origin requests against ${count(swr.originRequests)}) and brings outdated responses down to ${percent(purge.staleShare, 3)}: for a single-page app with hashed bundles, cache the shell and purge it on deploy.`,
        holds: purge.staleShare < swr.staleShare / 10 && purge.originRequests < noCache.originRequests,
      },
    ];
  },
};
