import { UserError } from '../userError.js';

/**
 * Reads a comma-separated file with a header row (RFC 4180: fields with commas, quotes or
 * line breaks are quoted, a quote inside doubled). Returns one record per data row, keyed
 * by the header's names. `file` names the file in error messages.
 */
export function parseCsv(text: string, file: string): { columns: string[]; records: Record<string, string>[] } {
  const rows = splitRecords(text, file);
  if (rows.length === 0) throw new UserError(`${file}: the file is empty; expected a header row first`);
  const [header, ...data] = rows;
  const records = data
    .filter((row) => !(row.length === 1 && row[0] === ''))
    .map((row, index) => {
      if (row.length !== header.length) throw new UserError(`${file}, line ${index + 2}: expected ${header.length} fields as in the header, found ${row.length}`);
      return Object.fromEntries(header.map((name, column) => [name, row[column]]));
    });
  return { columns: header, records };
}

function splitRecords(text: string, file: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else {
        if (char === '\n') line++;
        field += char;
      }
    } else if (char === '"' && field === '') quoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      line++;
    } else field += char;
  }
  if (quoted) throw new UserError(`${file}, line ${line}: a quoted field is not closed; expected a closing "`);
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}

/** A typed table: each named column must be in the header; numeric cells parse as numbers, an empty cell is null ("not applicable"). */
export function typedRows<T>(text: string, file: string, columns: { text: readonly string[]; numbers: readonly string[] }): T[] {
  const table = parseCsv(text, file);
  const missing = [...columns.text, ...columns.numbers].filter((name) => !table.columns.includes(name));
  if (missing.length > 0) throw new UserError(`${file}: missing column(s) ${missing.join(', ')}; expected a header with ${[...columns.text, ...columns.numbers].join(',')}`);
  return table.records.map((record, index) => {
    const row: Record<string, string | number | null> = {};
    for (const name of columns.text) row[name] = record[name];
    for (const name of columns.numbers) {
      const cell = record[name].trim();
      const value = cell === '' ? null : Number(cell);
      if (value !== null && !Number.isFinite(value)) throw new UserError(`${file}, line ${index + 2}, column ${name}: expected a number or an empty cell, found "${cell.slice(0, 40)}"`);
      row[name] = value;
    }
    return row as T;
  });
}
