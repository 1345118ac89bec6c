/** One cell: text, a number (written as JavaScript prints it), or null for "not applicable" (an empty cell). */
export type CsvCell = string | number | null;

/** RFC 4180 quoting (a field with a comma, quote or line break is quoted, quotes doubled). */
export const csvField = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** A CSV file: the header, then one line per row; lines end in LF. */
export function csvText(columns: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  const line = (cells: readonly CsvCell[]) => cells.map((cell) => (cell === null ? '' : csvField(String(cell)))).join(',');
  return `${[columns.join(','), ...rows.map(line)].join('\n')}\n`;
}
