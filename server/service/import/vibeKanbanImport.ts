import type { ImportedCard, ImportNote, ParsedSource } from './importTypes';
import { requireShape } from './importPlan';
import { textOf, type Json } from './markdownSource';

/**
 * A vibe-kanban project's tasks as its API lists them (`GET /api/tasks?project_id=...`): the
 * envelope `{"success": true, "data": [...]}`, the bare array, or `{"project": ..., "tasks": [...]}`.
 * A task has id (UUID), project_id, title, description, status (todo, inprogress, inreview, done,
 * cancelled), an optional parent_task_id, created_at and updated_at.
 */

export const VIBE_STATUSES = ['todo', 'inprogress', 'inreview', 'done', 'cancelled'] as const;

/** Board columns to try for each status, by id then by name. */
const COLUMNS: Record<string, string[]> = {
  todo: ['todo', 'To Do'],
  inprogress: ['in-progress', 'In Progress'],
  inreview: ['review', 'In Review'],
  done: ['done', 'Done'],
};

/** The task list of any of the shapes above, or undefined. */
export function vibeTasksOf(data: unknown): Json[] | undefined {
  const json = data as Json | null;
  const list = Array.isArray(json) ? json : Array.isArray(json?.data) ? json.data : json?.tasks;
  if (!Array.isArray(list)) return undefined;
  const isTask = (t: Json) =>
    t &&
    typeof t === 'object' &&
    typeof t.title === 'string' &&
    (VIBE_STATUSES as readonly string[]).includes(t.status);
  return list.every(isTask) && list.some((t: Json) => 'project_id' in t) ? list : undefined;
}

function cardOf(task: Json): ImportedCard {
  const status = String(task.status);
  const parent = textOf(task.parent_task_id);
  return {
    importedFrom: `vibe-kanban:${textOf(task.id) ?? task.title}`,
    title: task.title,
    body: textOf(task.description) ?? '',
    column: COLUMNS[status] ?? [],
    done: status === 'done',
    // Cancelled work is not work to do: kept, but out of the columns.
    archived: status === 'cancelled',
    labels: [],
    metadata: {},
    comments: [],
    parent: parent ? `vibe-kanban:${parent}` : undefined,
  };
}

export function parseVibeKanban(data: unknown): ParsedSource {
  const tasks = vibeTasksOf(data);
  requireShape(
    tasks !== undefined,
    'vibe-kanban',
    '{"success": true, "data": [tasks]}, [tasks] or {"tasks": [...]}: each task with title, status (todo|inprogress|inreview|done|cancelled) and project_id',
  );
  const notes: ImportNote[] = [];
  const byCreation = [...tasks].sort((a, b) => String(a.created_at ?? '').localeCompare(String(b.created_at ?? '')));
  return { cards: byCreation.map(cardOf), notes };
}
