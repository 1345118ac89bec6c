import { formatCount, formatPercent } from '../report/consoleTable.js';
import { formatBytes } from '../units.js';

/** Formatting for the library's pages: Markdown tables and the figures' units. */

export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[], align?: readonly ('l' | 'r')[]): string {
  const alignment = header.map((_, i) => ((align?.[i] ?? (i === 0 ? 'l' : 'r')) === 'l' ? ':---' : '---:'));
  const line = (cells: readonly string[]) => `| ${cells.map((text) => text.replaceAll('|', '\\|')).join(' | ')} |`;
  return [line(header), line(alignment), ...rows.map(line)].join('\n');
}

export const percent = (ratio: number | null, digits = 2): string => (ratio === null ? '–' : formatPercent(ratio, digits));
export const count = formatCount;
export const milliseconds = (ms: number | null): string => (ms === null ? '–' : ms >= 100 ? `${ms.toFixed(0)} ms` : `${ms.toFixed(1)} ms`);
export const bytes = (n: number): string => formatBytes(n);
export const seconds = (s: number): string => `${s >= 100 ? s.toFixed(0) : s.toFixed(1)} s`;
export const gbits = (gbitPerSecond: number): string => `${gbitPerSecond.toFixed(gbitPerSecond >= 10 ? 1 : 3)} Gbit/s`;
/** a/b as "×1.23". */
export const times = (a: number, b: number): string => (b === 0 ? '–' : `×${(a / b).toFixed(2)}`);
