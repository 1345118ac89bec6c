import { compareStrategies, strategyNamed, type StrategyFigures } from '../compareFigures.js';
import type { LibraryEntry } from '../libraryEntry.js';
import { count, markdownTable, percent } from '../markdown.js';

interface OutageFigures {
  readonly [key: string]: unknown;
  readonly strategies: StrategyFigures[];
}

export const originOutage: LibraryEntry<OutageFigures> = {
  name: 'origin-outage',
  title: 'Busy site: a five-minute origin outage',
  question: 'When the origin of a busy framework site is unreachable for five minutes, what share of requests still succeed, and which header changes raise it?',
  command: { kind: 'compare' },
  charts: [],
  figures: (folder) => ({ strategies: compareStrategies(folder) }),
  results(f) {
    return markdownTable(
      ['strategy', 'availability during the outage', 'served stale, origin unreachable', 'CDN hit ratio (whole run)', 'origin requests (whole run)'],
      f.strategies.map((s) => [s.strategy, percent(s.incidentAvailability[0]), count(s.staleServedOriginUnreachable), percent(s.cdnHitRatio), count(s.originRequests)]),
    );
  },
  conclusions(f) {
    const headers = strategyNamed(f.strategies, 'respect-headers');
    const pages = strategyNamed(f.strategies, 'pages-swr');
    const api = strategyNamed(f.strategies, 'pages-swr-api-sie');
    return [
      {
        text: `With the framework's default headers only ${percent(headers.incidentAvailability[0])} of requests succeed during the outage, far from the 99.9 % the service states for origin problems (spec 1.1): server-rendered pages are \`max-age=0, must-revalidate\` and API routes \`no-store\`, and neither may be served stale (RFC 9111 §4.2.4), so the CDN has nothing to fall back on for them.`,
        holds: headers.incidentAvailability[0] < 0.9,
      },
      {
        text: `Letting pages be served stale (\`max-age=60, stale-while-revalidate=600\`) raises availability to ${percent(pages.incidentAvailability[0])} (${count(pages.staleServedOriginUnreachable)} stale pages served while the origin was down); a short shared lifetime with \`stale-if-error\` on the API adds more, to ${percent(api.incidentAvailability[0])}.`,
        holds: pages.incidentAvailability[0] > headers.incidentAvailability[0] && api.incidentAvailability[0] > pages.incidentAvailability[0],
      },
      {
        text: `What stays unavailable is content no cache ever held: the long tail of images, media and downloads that were not asked for before the outage, and API responses never cached. Headers decide whether a stored copy may be used; only earlier traffic decides whether there is one.`,
        holds: api.incidentAvailability[0] < 0.999,
      },
    ];
  },
};
