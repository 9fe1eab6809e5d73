import { writeCsv } from '../../core/csv';
import type { TaskView } from '../../core/model';
import { selectTasks } from '../taskQueries';
import { taskView } from '../views';
import type { Workspace } from '../workspace';

/**
 * A board's live cards (not deleted), in board order, as a file. CSV columns, in this order:
 * id, title, description (the content under the title), status, priority, assignee, due, labels
 * (joined by `;`), created, modified, completedAt; `kanban import --format csv` reads them back.
 * JSON: `{board: {id, name, columns}, exported, cards}` with every card's full read model, comments included.
 */

export const EXPORT_CSV_COLUMNS = [
  'id',
  'title',
  'description',
  'status',
  'priority',
  'assignee',
  'due',
  'labels',
  'created',
  'modified',
  'completedAt',
] as const;

/** The content without its first `#` heading line: what was written under the title. */
function descriptionOf(content: string): string {
  return content.replace(/^\s*#[ \t]+.*(\r?\n|$)/, '').trim();
}

function boardCards(ws: Workspace, boardId: string): TaskView[] {
  return selectTasks(ws, boardId, {}).map(({ card, position }) => taskView(ws, card, { withComments: true, position }));
}

export function exportCsv(ws: Workspace, boardId: string): string {
  const rows = boardCards(ws, boardId).map((t) => [
    t.id,
    t.title,
    descriptionOf(t.content),
    t.status,
    t.priority,
    t.assignee ?? '',
    t.dueDate ?? '',
    t.labels.join(';'),
    t.created,
    t.modified,
    t.completedAt ?? '',
  ]);
  return writeCsv([[...EXPORT_CSV_COLUMNS], ...rows]);
}

export function exportJson(ws: Workspace, boardId: string): string {
  const board = ws.board(boardId);
  const body = {
    board: { id: board.id, name: board.name, columns: board.columns },
    exported: new Date().toISOString(),
    cards: boardCards(ws, boardId),
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}
