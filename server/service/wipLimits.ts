import { WipLimitError } from '../core/errors';
import { isArchived } from '../core/cardPlace';
import type { BoardConfig, Card, Column } from '../core/model';
import { addWarning } from './warnings';
import type { Workspace } from './workspace';

/** A card about to enter a column that has a WIP limit, and how full the column was before. */
export interface WipEntry {
  boardId: string;
  column: Column;
  limit: number;
  before: number;
}

/**
 * Call before a card enters `status` on `board` (create, move, status change, transfer, restore).
 * Under the `block` policy a column already at its limit refuses the card; otherwise the answer
 * is what `announceWipEntry` needs once the card is in. A card that only changes place within its
 * own column never counts as entering. Archived cards are not counted (the index keeps them apart).
 */
export function checkWipEntry(ws: Workspace, board: BoardConfig, status: string, card?: Card): WipEntry | null {
  const column = board.columns.find((c) => c.id === status);
  if (!column?.wipLimit) return null;
  if (card && card.boardId === board.id && card.status === status && !isArchived(card)) return null;
  const before = ws.index.countIn(board.id, status);
  if (before >= column.wipLimit && (board.wipPolicy ?? 'warn') === 'block') {
    throw new WipLimitError(
      `column ${column.name} ("${column.id}") is at its WIP limit (${before}/${column.wipLimit}) on board "${board.id}", whose wipPolicy is block; ` +
        'move a card out of it first, raise the limit, or set the board\'s wipPolicy to "warn"',
    );
  }
  return { boardId: board.id, column, limit: column.wipLimit, before };
}

/**
 * Call once the card is in. Over the limit, the request gets a warning (every time), and
 * `column.limit.exceeded` goes out only when this change took the column from at-or-under to over:
 * once per crossing, not on every later write while it stays over.
 */
export function announceWipEntry(ws: Workspace, entry: WipEntry | null): void {
  if (!entry) return;
  const count = ws.index.countIn(entry.boardId, entry.column.id);
  if (count <= entry.limit) return;
  addWarning(`column ${entry.column.name} is over its WIP limit (${count}/${entry.limit})`);
  if (entry.before <= entry.limit) {
    ws.emit('column.limit.exceeded', entry.boardId, {
      boardId: entry.boardId,
      columnId: entry.column.id,
      count,
      limit: entry.limit,
    });
  }
}
