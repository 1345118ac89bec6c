import { formatBytes } from '../units.js';
import { formatCount, formatMs, formatPercent, formatTable } from './consoleTable.js';
import type { LatencyFigures, Summary } from './summary.js';

/** The short human summary `cdnsim run` prints. */
export function summaryText(summary: Summary): string {
  const lines: string[] = [];
  lines.push(
    `${summary.scenario} · seed ${summary.seed} · ${formatCount(summary.requests)} requests measured` +
      ` (${formatCount(summary.warmupRequests)} warm-up) · ${summary.simulatedSeconds.toFixed(1)} s simulated`,
  );
  lines.push('');
  const layers = Object.keys(summary.hitRatio);
  lines.push(
    formatTable(
      ['', ...layers],
      [
        ['hit ratio', ...layers.map((layer) => formatPercent(summary.hitRatio[layer]))],
        ['byte hit ratio', ...layers.map((layer) => formatPercent(summary.byteHitRatio[layer]))],
      ],
    ),
  );
  lines.push('');
  const row = (label: string, figures: LatencyFigures): string[] => [
    label,
    formatCount(figures.count),
    formatMs(figures.mean),
    formatMs(figures.p50),
    formatMs(figures.p90),
    formatMs(figures.p95),
    formatMs(figures.p99),
    formatMs(figures.p999),
  ];
  lines.push(
    formatTable(
      ['latency (ms)', 'requests', 'mean', 'p50', 'p90', 'p95', 'p99', 'p99.9'],
      [
        row('all', summary.latencyMs.all),
        ...Object.entries(summary.latencyMs.byRegion).map(([region, figures]) => row(region, figures)),
        ...Object.entries(summary.latencyMs.byLayer).map(([layer, figures]) => row(`served by ${layer}`, figures)),
      ],
    ),
  );
  lines.push('');
  lines.push(
    formatTable(
      ['edge cache', 'requests', 'hit ratio', 'byte hit ratio', 'stored'],
      summary.edges.map((edge) => [
        edge.name,
        formatCount(edge.requests),
        formatPercent(edge.hitRatio),
        formatPercent(edge.byteHitRatio),
        `${formatBytes(edge.storedBytes)} in ${formatCount(edge.storedObjects)} objects`,
      ]),
    ),
  );
  if (summary.theory?.model === 'che-lru') {
    lines.push(
      `theory (Che's approximation, LRU in steady state): each edge ${formatPercent(summary.theory.edgeHitRatio)} hit ratio, ` +
        `${formatPercent(summary.theory.edgeByteHitRatio)} byte hit ratio`,
    );
  } else if (summary.theory?.model === 'ttl') {
    lines.push(
      `theory (TTL cache, λT/(1+λT) per object): all edges ${formatPercent(summary.theory.edgeHitRatio)} hit ratio, ` +
        `${formatPercent(summary.theory.edgeByteHitRatio)} byte hit ratio`,
    );
  }
  lines.push(`edge caching (policy engine): ${edgeCachingLine(summary.edgeCaching)}`);
  return lines.join('\n');
}

function edgeCachingLine(caching: Summary['edgeCaching']): string {
  const headers = Object.entries(caching.responseHeaders).map(([name, value]) => `${name}: ${value}`).join('; ') || 'no caching headers';
  if (!caching.cacheable) return `${headers} → not stored (cdnsim explain shows why)`;
  return `${headers} → stored for ${caching.ttlSeconds === null ? 'ever' : `${caching.ttlSeconds} s`}`;
}
