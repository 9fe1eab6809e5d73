import * as yaml from 'js-yaml';
import { titleOf } from '../../core/model';
import type { ImportedCard, ImportedComment, ImportNote, KanbanLiteFiles, ParsedSource } from './importTypes';
import { requireShape } from './importPlan';

/**
 * A kanban-lite workspace: its card files under `.kanban/` (`.kanban/boards/<board>/<status>/<id>.md`,
 * or `.kanban/<status>/<id>.md` in older layouts) and its `.kanban.json`. A card file is YAML
 * frontmatter (id, status, priority, assignee, dueDate, labels, metadata, ...) then the Markdown
 * content; comments are either trailing `---` blocks with `comment: true` (kanban-lite) or a
 * `comments:` list in the frontmatter (this board's own files). Every card lands on the one board
 * the import names; its status is matched to a column by id, then by the name kanban-lite's
 * `.kanban.json` gives that status. Soft-deleted cards are left out.
 */

type Json = Record<string, any>;

const FRONTMATTER = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/;
const SKIPPED_FOLDERS = /(^|\/)(\.state|attachments|logs)\//;

function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== ''
    ? value
    : typeof value === 'number'
      ? String(value)
      : undefined;
}

/** Body and kanban-lite comment blocks: a `---` line, a header with `comment: true`, `---`, the comment. */
function splitComments(rest: string): { content: string; comments: ImportedComment[] } {
  const sections = rest.split(/\n---\n/);
  let content = sections[0];
  const comments: ImportedComment[] = [];
  for (let i = 1; i < sections.length; i++) {
    let header: Json | null = null;
    try {
      header = /^\s*comment:/.test(sections[i]) ? (yaml.load(sections[i], { schema: yaml.CORE_SCHEMA }) as Json) : null;
    } catch {
      header = null;
    }
    if (header && (header.comment === true || header.comment === 'true')) {
      comments.push({
        author: textOf(header.author) ?? 'unknown',
        content: (sections[i + 1] ?? '').trim(),
        created: textOf(header.created),
      });
      i++;
    } else {
      content += `\n---\n${sections[i]}`;
    }
  }
  return { content, comments };
}

/** Column names kanban-lite's `.kanban.json` gives its status ids (top-level columns, or per board). */
function columnNames(config: Json | null): Map<string, string> {
  const names = new Map<string, string>();
  const add = (columns: unknown) =>
    Array.isArray(columns) &&
    columns.forEach((c: Json) => typeof c?.id === 'string' && typeof c.name === 'string' && names.set(c.id, c.name));
  add(config?.columns);
  const boards = config?.boards;
  for (const board of Array.isArray(boards)
    ? boards
    : boards && typeof boards === 'object'
      ? Object.values(boards)
      : [])
    add((board as Json)?.columns);
  return names;
}

function parseConfig(files: KanbanLiteFiles['files'], notes: ImportNote[]): Json | null {
  const file = files.find((f) => f.path.replace(/^\.\//, '') === '.kanban.json');
  if (!file) return null;
  try {
    return JSON.parse(file.content) as Json;
  } catch (error) {
    notes.push({ title: '.kanban.json', reason: `not JSON (${(error as Error).message}); column names not used` });
    return null;
  }
}

function cardOf(
  file: { path: string; content: string },
  names: Map<string, string>,
  notes: ImportNote[],
): ImportedCard | null {
  const match = FRONTMATTER.exec(file.content.replace(/\r\n/g, '\n'));
  let front: Json | null = null;
  try {
    front = match ? (yaml.load(match[1], { schema: yaml.CORE_SCHEMA }) as Json) : null;
  } catch (error) {
    notes.push({
      title: file.path,
      reason: `frontmatter does not parse (${(error as Error).message.split('\n')[0]}); left out`,
    });
    return null;
  }
  if (!match || !front || typeof front !== 'object') {
    notes.push({ title: file.path, reason: 'no YAML frontmatter; left out' });
    return null;
  }
  const status = textOf(front.status) ?? file.path.split('/').slice(-2, -1)[0];
  const id = textOf(front.id) ?? file.path.split('/').pop()!.replace(/\.md$/, '');
  const { content, comments } = splitComments(match[2]);
  const title = titleOf(content) || id;
  if (status === 'deleted') {
    notes.push({ title, reason: 'soft-deleted in kanban-lite; left out' });
    return null;
  }
  const own = Array.isArray(front.comments)
    ? (front.comments as Json[]).map((c) => ({
        author: textOf(c?.author) ?? 'unknown',
        content: String(c?.content ?? ''),
        created: textOf(c?.created),
      }))
    : [];
  return {
    importedFrom: `kanban-lite:${id}`,
    title,
    body: content.replace(/^\s*#[ \t]+.*(\n|$)/, '').trim(),
    column: [status, names.get(status) ?? ''],
    priority: textOf(front.priority),
    assignee: textOf(front.assignee),
    dueDate: textOf(front.dueDate),
    labels: Array.isArray(front.labels) ? front.labels.map(String) : [],
    metadata:
      front.metadata && typeof front.metadata === 'object' && !Array.isArray(front.metadata)
        ? { ...front.metadata }
        : {},
    comments: [...own, ...comments],
  };
}

/** Folder, then kanban-lite's fractional `order` key, then path: each column keeps its order. */
function sortKeyOf(file: { path: string; content: string }): string[] {
  const order = /^order:\s*["']?([^"'\n]*)/m.exec(file.content)?.[1] ?? '';
  return [file.path.slice(0, file.path.lastIndexOf('/')), order, file.path];
}

function compareKeys(a: string[], b: string[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

export function parseKanbanLite(data: unknown): ParsedSource {
  const files = (data as KanbanLiteFiles | null)?.files;
  requireShape(
    Array.isArray(files) && files.every((f) => f && typeof f.path === 'string' && typeof f.content === 'string'),
    'kanban-lite',
    '{"files": [{"path", "content"}]}: the workspace\'s .kanban.json and the .md files under .kanban/, paths relative to its root',
  );
  const notes: ImportNote[] = [];
  const names = columnNames(parseConfig(files, notes));
  const cardFiles = files.filter((f) => /^(\.\/)?\.kanban\/.+\.md$/.test(f.path) && !SKIPPED_FOLDERS.test(f.path));
  const cards = cardFiles
    .map((f) => ({ card: cardOf(f, names, notes), key: sortKeyOf(f) }))
    .filter((c): c is { card: ImportedCard; key: string[] } => c.card !== null)
    .sort((a, b) => compareKeys(a.key, b.key))
    .map((c) => c.card);
  return { cards, notes };
}
