import { isFullCardId } from '../../server/core/ids';

/**
 * The pure rules of a commit message for board-only changes: which changed files are the board's,
 * and a one-line summary of what happened to which cards.
 */

/** A changed file as git reports it, relative to the kanban root (`/` separators). */
export interface BoardChange {
  path: string;
  /** `added` covers untracked; a staged rename comes as the old path `deleted`, the new `added`. */
  kind: 'added' | 'deleted' | 'modified';
}

export interface CardFacts {
  title(cardId: string): string | undefined;
  columnName(boardId: string, status: string): string;
}

const CARD_FILE = /^\.kanban\/boards\/([^/]+)\/([^/]+)\/([^/]+)\.md$/;

function cardFileOf(path: string): { boardId: string; status: string; id: string } | null {
  const match = CARD_FILE.exec(path);
  return match && isFullCardId(match[3]) ? { boardId: match[1], status: match[2], id: match[3] } : null;
}

/** Whether every change is a card file or `.kanban.json` (and there is at least one). */
export function onlyBoardChanges(changes: BoardChange[]): boolean {
  return changes.length > 0 && changes.every((c) => c.path === '.kanban.json' || cardFileOf(c.path));
}

/** "Board: move 'Fix login' to Done; add 'Write docs'", one clause per card, in the order git lists them. */
export function boardCommitMessage(changes: BoardChange[], facts: CardFacts): string {
  const byCard = new Map<string, { boardId: string; before?: string; after?: string; modified?: string }>();
  let settings = false;
  for (const change of changes) {
    const card = cardFileOf(change.path);
    if (!card) {
      settings ||= change.path === '.kanban.json';
      continue;
    }
    const entry = byCard.get(card.id) ?? { boardId: card.boardId };
    if (change.kind === 'deleted') entry.before = card.status;
    else if (change.kind === 'added') entry.after = card.status;
    else entry.modified = card.status;
    byCard.set(card.id, entry);
  }
  const clauses = [...byCard].map(([id, entry]) => {
    const name = `'${facts.title(id) ?? id}'`;
    if (entry.before && entry.after && entry.before !== entry.after)
      return `move ${name} to ${facts.columnName(entry.boardId, entry.after)}`;
    if (entry.after && !entry.before) return `add ${name}`;
    if (entry.before && !entry.after && !entry.modified) return `delete ${name}`;
    return `update ${name}`;
  });
  if (settings) clauses.push('update board settings');
  return `Board: ${clauses.join('; ')}`;
}
