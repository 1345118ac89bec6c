import { compareFigures, strategyNamed, type CompareFigures } from '../compareFigures.js';
import type { LibraryEntry } from '../libraryEntry.js';
import { count, markdownTable, percent } from '../markdown.js';

export const originOutage: LibraryEntry<CompareFigures> = {
  name: 'origin-outage',
  title: 'Busy site: a five-minute origin outage',
  question: 'When the origin of a busy framework site is unreachable for five minutes, what share of requests still succeed, and which header changes raise it?',
  command: { kind: 'compare' },
  charts: [],
  figures: compareFigures,
  results(f) {
    return markdownTable(
      ['strategy', 'availability during the outage', 'served stale: origin unreachable', 'served stale: while revalidating', 'CDN hit ratio (whole run)', 'origin requests (whole run)'],
      f.strategies.map((s) => [
        s.strategy,
        percent(s.incidentAvailability[0]),
        count(s.staleServedOriginUnreachable),
        count(s.staleServedWhileRevalidate),
        percent(s.cdnHitRatio),
        count(s.originRequests),
      ]),
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
        text: `Letting pages be served stale (\`max-age=60, stale-while-revalidate=600\`) raises availability to ${percent(pages.incidentAvailability[0])}: inside the ten-minute window a stale page is answered at once while its revalidation fails in the background. A short shared lifetime with \`stale-if-error\` on the API adds more, to ${percent(api.incidentAvailability[0])} (${count(api.staleServedOriginUnreachable)} responses served stale with the origin unreachable, against ${count(pages.staleServedOriginUnreachable)} with stale pages alone).`,
        holds: pages.incidentAvailability[0] > headers.incidentAvailability[0] && api.incidentAvailability[0] > pages.incidentAvailability[0],
      },
      {
        text: `Even then ${percent(1 - api.incidentAvailability[0])} of requests fail: those for objects no cache held when the origin went down (the long tail of images, API resources not asked for within their lifetime). Headers decide whether a stored copy may be used; only earlier traffic decides whether there is one.`,
        holds: api.incidentAvailability[0] < 0.999,
      },
    ];
  },
};
