import { ValidationError } from './errors';

/**
 * CSV as RFC 4180 writes it: fields split by commas, records by CRLF or LF; a field in double quotes
 * may hold commas, line breaks and doubled quotes (`""` is one `"`). No CSV package is among the
 * dependencies, and this is all the import and export need.
 */

/** Every record of the text, each a list of fields. A trailing line break ends the last record. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let quoteLine = 0;
  for (; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        if (c === '\n') line++;
        field += c;
      }
    } else if (c === '"' && field === '') {
      quoted = true;
      quoteLine = line;
    } else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      line++;
    } else {
      field += c;
    }
  }
  if (quoted) throw new ValidationError(`CSV: the quoted field opened on line ${quoteLine} is never closed`);
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records.filter((r) => !(r.length === 1 && r[0] === ''));
}

/** Rows as objects keyed by the (trimmed, lowercased) header names of the first record. */
export function csvRows(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  if (!header) return [];
  const names = header.map((name) => name.trim().toLowerCase());
  return rows.map((row) => Object.fromEntries(names.map((name, i) => [name, row[i] ?? ''])));
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) || /^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Records as CSV text: CRLF between records (as RFC 4180 asks), quotes only where needed. */
export function writeCsv(records: string[][]): string {
  return records.map((record) => record.map(csvField).join(',')).join('\r\n') + '\r\n';
}
