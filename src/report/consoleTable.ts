/** Plain text tables for the terminal: the first column left-aligned, the rest right-aligned. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ').trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

export const formatCount = (n: number): string => Math.round(n).toLocaleString('en-US');
export const formatPercent = (ratio: number, digits = 2): string => `${(ratio * 100).toFixed(digits)} %`;
/** Milliseconds to three significant figures or so; a figure with no requests behind it (NaN) is a dash. */
export const formatMs = (ms: number): string => (Number.isNaN(ms) ? '–' : ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
