import { csvRows } from '../../core/csv';
import type { ImportedCard, ParsedSource } from './importTypes';
import { requireShape } from './importPlan';

/**
 * A CSV with a header row. Columns (names case-insensitive, any order, others ignored): title
 * (required), description or body, status (a column id or name), priority, assignee, due (or
 * dueDate), labels (separated by ; or ,), and id: the row key of `importedFrom`
 * (`csv:<source>:<id>`). Without an id column the key is the title, with `#2`, `#3`... for repeats
 * within the file. `kanban export csv` writes exactly these columns, so an export imports back.
 */

function pick(row: Record<string, string>, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = row[name]?.trim();
    if (value) return value;
  }
  return undefined;
}

export function parseCsvImport(data: unknown, source: string): ParsedSource {
  requireShape(typeof data === 'string', 'csv', 'the CSV text as one string, with a header row');
  const rows = csvRows(data as string);
  requireShape(rows.length === 0 || 'title' in rows[0], 'csv', 'CSV text whose header row has a "title" column');
  const repeats = new Map<string, number>();
  const cards: ImportedCard[] = [];
  const notes = [];
  for (const [i, row] of rows.entries()) {
    const title = pick(row, 'title');
    if (!title) {
      notes.push({ title: `row ${i + 2}`, reason: 'no title; left out' });
      continue;
    }
    const count = (repeats.get(title) ?? 0) + 1;
    repeats.set(title, count);
    const key = pick(row, 'id') ?? (count === 1 ? title : `${title}#${count}`);
    cards.push({
      importedFrom: `csv:${source}:${key}`,
      title,
      body: row.description ?? row.body ?? '',
      column: pick(row, 'status'),
      priority: pick(row, 'priority'),
      assignee: pick(row, 'assignee'),
      dueDate: pick(row, 'due', 'duedate'),
      labels: (pick(row, 'labels') ?? '').split(/[;,]/),
      metadata: {},
      comments: [],
    });
  }
  return { cards, notes };
}
