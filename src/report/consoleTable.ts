export type Align = 'left' | 'right';

/** Plain text tables for the terminal: by default the first column left-aligned, the rest right-aligned. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[], align?: readonly Align[]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)));
  const left = (column: number) => (align === undefined ? column === 0 : align[column] === 'left');
  const line = (cells: readonly string[]) =>
    cells.map((cell, column) => (left(column) ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ').trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

export const formatCount = (n: number): string => Math.round(n).toLocaleString('en-US');
export const formatPercent = (ratio: number, digits = 2): string => `${(ratio * 100).toFixed(digits)} %`;
/** Milliseconds to three significant figures or so; a figure with no requests behind it (NaN) is a dash. */
export const formatMs = (ms: number): string => (Number.isNaN(ms) ? '–' : ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));

/**
 * The width terminal text is laid out for (issue 26): 100 columns unless the terminal says
 * otherwise, never under 80 (a table of figures needs that much to stay a table).
 */
export const DEFAULT_COLUMNS = 100;
export const MIN_COLUMNS = 80;

/** Characters as a terminal shows them: code points (the tables use –, ·, → and §, each one column). */
export const displayWidth = (text: string): number => {
  let width = 0;
  for (const _ of text) width += 1;
  return width;
};

/** The widest line of a text, in columns. */
export const widestLine = (text: string): number => Math.max(0, ...text.split('\n').map(displayWidth));

/** Whether every line of a text fits `columns`. */
export const fits = (text: string, columns: number): boolean => widestLine(text) <= columns;

/**
 * One long line folded to `columns`, the continuation lines indented by `indent` (so a reader
 * sees where an item ends). It breaks between the " · " parts of a line first, so a figure
 * stays with its label, and between words inside a part too long for a line (from where the
 * line is, so no line is left short); a word longer than a line (a URL) is cut.
 */
export function wrapLine(line: string, columns: number, indent = '  '): string[] {
  if (displayWidth(line) <= columns) return [line];
  // A line that starts indented keeps its indent, and its continuation lines go further in.
  const lead = /^ */.exec(line)?.[0] ?? '';
  const hanging = lead + indent;
  const lines: string[] = [];
  let current = lead;
  const startOf = () => (lines.length === 0 ? lead : hanging);
  for (const part of line.slice(lead.length).split(' · ')) {
    const joined = current === startOf() ? current + part : `${current} · ${part}`;
    if (displayWidth(joined) <= columns) {
      current = joined;
      continue;
    }
    // The part does not fit after what the line holds: it starts a line of its own when it fits
    // one; a part longer than any line folds by words from where the line is.
    const separate = displayWidth(hanging) + displayWidth(part) <= columns;
    if (current !== startOf() && (separate || displayWidth(current) + 2 > columns)) {
      lines.push(current);
      current = hanging;
    } else if (current !== startOf()) current += ' ·';
    for (const word of part.split(' ')) {
      const candidate = current === startOf() ? current + word : `${current} ${word}`;
      if (current === startOf() || displayWidth(candidate) <= columns) current = candidate;
      else {
        lines.push(current);
        current = hanging + word;
      }
      if (displayWidth(current) > columns) {
        // Cut in one pass (a mutated 200,000-character word made the old cut-and-respread loop quadratic).
        const chars = [...current];
        lines.push(chars.slice(0, columns).join(''));
        const room = Math.max(1, columns - displayWidth(hanging));
        let at = columns;
        for (; chars.length - at > room; at += room) lines.push(hanging + chars.slice(at, at + room).join(''));
        current = hanging + chars.slice(at).join('');
      }
    }
  }
  if (current.trim() !== '') lines.push(current);
  return lines;
}

/** wrapLine over every line of a text. */
export const wrapText = (text: string, columns: number, indent = '  '): string =>
  text
    .split('\n')
    .flatMap((line) => wrapLine(line, columns, indent))
    .join('\n');

/**
 * A table in `columns`: whole when it fits, else its columns in consecutive blocks that
 * each repeat the first (the row's name), so every figure stays under its header.
 */
export function formatTableWithin(header: readonly string[], rows: readonly (readonly string[])[], columns: number, align?: readonly Align[]): string {
  const whole = formatTable(header, rows, align);
  if (fits(whole, columns)) return whole;
  const widthOf = (column: number) => Math.max(displayWidth(header[column] ?? ''), ...rows.map((row) => displayWidth(row[column] ?? '')));
  const blocks: number[][] = [];
  let block: number[] = [];
  let used = widthOf(0);
  for (let column = 1; column < header.length; column++) {
    const width = widthOf(column) + 2;
    if (block.length > 0 && used + width > columns) {
      blocks.push(block);
      block = [];
      used = widthOf(0);
    }
    block.push(column);
    used += width;
  }
  if (block.length > 0) blocks.push(block);
  const pick = <T extends string>(cells: readonly T[], columnsOf: number[]): string[] => [cells[0] ?? '', ...columnsOf.map((column) => cells[column] ?? '')];
  const alignOf = (columnsOf: number[]) => (align === undefined ? undefined : pick(align, columnsOf) as Align[]);
  return blocks.map((columnsOf) => formatTable(pick(header, columnsOf), rows.map((row) => pick(row, columnsOf)), alignOf(columnsOf))).join('\n\n');
}

/**
 * Help text in two columns (a name, two or more spaces, its description) folded to `columns`:
 * a description continues under itself, or under a deeper indent when the name takes more than
 * half the line (an example's command). Words are never cut, so flags and examples stay copyable.
 */
export function foldColumns(text: string, columns: number): string {
  return text
    .split('\n')
    .flatMap((line) => {
      if (displayWidth(line) <= columns) return [line];
      const twoColumns = /^(\s*\S.*?)( {2,})(\S.*)$/.exec(line);
      if (twoColumns === null) return wrapLine(line, columns);
      const [, name, gap, description] = twoColumns;
      const at = displayWidth(name) + gap.length;
      if (at > columns / 2) return [...foldCommand(name, columns), ...foldWords(description, columns, ' '.repeat(6))];
      const [first, ...rest] = foldWords(description, columns, ' '.repeat(at));
      return [name + gap + first.slice(at), ...rest];
    })
    .join('\n');
}

/** A shell command too long for a line, folded with a trailing backslash so that it still pastes as one command. */
function foldCommand(command: string, columns: number): string[] {
  if (displayWidth(command) <= columns) return [command];
  const lead = /^ */.exec(command)?.[0] ?? '';
  const lines: string[] = [];
  let current = lead;
  for (const word of command.slice(lead.length).split(/ +/)) {
    const start = lines.length === 0 ? lead : `${lead}    `;
    // Two columns kept for the " \\" that continues the command.
    if (current !== start && displayWidth(current) + 1 + displayWidth(word) + 2 > columns) {
      lines.push(`${current} \\`);
      current = `${lead}    ${word}`;
    } else current = current === start ? current + word : `${current} ${word}`;
  }
  lines.push(current);
  return lines;
}

/** Words laid into lines of `columns` that each start with `indent`; a word longer than a line stays whole on its own line. */
function foldWords(text: string, columns: number, indent: string): string[] {
  const lines: string[] = [];
  let current = indent;
  for (const word of text.split(/ +/)) {
    if (current !== indent && displayWidth(current) + 1 + displayWidth(word) > columns) {
      lines.push(current);
      current = indent;
    }
    current = current === indent ? current + word : `${current} ${word}`;
  }
  lines.push(current);
  return lines;
}
