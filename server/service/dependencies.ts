import { ValidationError } from '../core/errors';
import { isFullCardId } from '../core/ids';
import type { Card } from '../core/model';
import type { WorkspaceState } from './workspaceState';

/**
 * Card dependencies: `blockedBy` holds whole card ids of any board. A partial id is resolved when
 * it is written (as path ids are, but workspace-wide), so the file always names whole ids.
 */

/** The last column of a board: a card there is finished. */
function lastColumnOf(ws: WorkspaceState, boardId: string): string | undefined {
  const columns = ws.config.boards.find((b) => b.id === boardId)?.columns;
  return columns?.[columns.length - 1]?.id;
}

/** Whether a card is finished as a blocker: in its board's last column, or archived. */
export function isFinished(ws: WorkspaceState, card: Card): boolean {
  return card.archivedAt !== undefined || card.status === lastColumnOf(ws, card.boardId);
}

/**
 * How many blockers of the card are still open. An id that names no card (left by a hand edit)
 * blocks nothing: there is nothing left to wait for. O(number of blockers).
 */
export function openBlockerCount(ws: WorkspaceState, card: Card): number {
  let open = 0;
  for (const id of card.blockedBy ?? []) {
    const blocker = ws.index.findById(id);
    if (blocker && !isFinished(ws, blocker)) open++;
  }
  return open;
}

/** Ids of the card's blockers that are still open, in its blockedBy order. */
export function openBlockerIds(ws: WorkspaceState, card: Card): string[] {
  return (card.blockedBy ?? []).filter((id) => {
    const blocker = ws.index.findById(id);
    return blocker !== undefined && !isFinished(ws, blocker);
  });
}

/** Whether any blocker of the card is still open. */
export function isBlocked(ws: WorkspaceState, card: Card): boolean {
  return openBlockerCount(ws, card) > 0;
}

/** Ready to start: nothing blocks it and it is not finished itself. */
export function isReady(ws: WorkspaceState, card: Card): boolean {
  return card.status !== lastColumnOf(ws, card.boardId) && !isBlocked(ws, card);
}

/**
 * A whole card id for `idish` among `cards`: exact, else the unique prefix, else the unique
 * substring. `field` names the request field in the 400, `where` the place searched.
 */
export function resolveIdAmong(
  cards: readonly Card[],
  idish: string,
  field: string,
  where = 'in the workspace',
): string {
  const text = idish.trim();
  const exact = cards.find((c) => c.id === text);
  if (exact) return exact.id;
  if (text !== '' && !isFullCardId(text)) {
    for (const matches of [cards.filter((c) => c.id.startsWith(text)), cards.filter((c) => c.id.includes(text))]) {
      if (matches.length === 1) return matches[0].id;
      if (matches.length > 1) {
        const names = matches
          .slice(0, 10)
          .map((c) => c.id)
          .join(', ');
        throw new ValidationError(
          `${field}: "${text}" matches ${matches.length} cards (${names}${matches.length > 10 ? ', ...' : ''}); give more of the id`,
        );
      }
    }
  }
  throw new ValidationError(`${field}: no card "${text}" ${where}`);
}

/** A whole card id for `idish` on any board (see resolveIdAmong); `field` names it in a 400. */
export function resolveWorkspaceCardId(ws: WorkspaceState, idish: string, field: string): string {
  const text = idish.trim();
  if (ws.index.hasId(text)) return text;
  return resolveIdAmong(ws.index.allCards(), text, field);
}

/** The path of blockers from `from` back to `target`, if `target` is reachable (a cycle once the edge is added). */
function pathTo(
  ws: WorkspaceState,
  from: string,
  target: string,
  blockedByOf: (id: string) => readonly string[],
): string[] | null {
  const seen = new Set<string>();
  const walk = (id: string): string[] | null => {
    if (id === target) return [id];
    if (seen.has(id)) return null;
    seen.add(id);
    for (const next of blockedByOf(id)) {
      const rest = walk(next);
      if (rest) return [id, ...rest];
    }
    return null;
  };
  return walk(from);
}

/**
 * The `blockedBy` list to store for card `cardId` (undefined for a card not created yet): whole
 * ids, without repeats. A cycle, the card itself, an unknown or an ambiguous id is a 400 naming it.
 */
export function resolveBlockedBy(
  ws: WorkspaceState,
  cardId: string | undefined,
  ids: readonly string[],
): string[] | undefined {
  const resolved = [...new Set(ids.map((id) => resolveWorkspaceCardId(ws, id, 'blockedBy')))];
  if (cardId !== undefined) {
    if (resolved.includes(cardId))
      throw new ValidationError(`blockedBy: a card cannot be blocked by itself ("${cardId}")`);
    const blockedByOf = (id: string) => ws.index.findById(id)?.blockedBy ?? [];
    for (const blocker of resolved) {
      const cycle = pathTo(ws, blocker, cardId, blockedByOf);
      if (cycle)
        throw new ValidationError(
          `blockedBy: "${blocker}" would make a cycle: ${[cardId, ...cycle].join(' is blocked by ')}`,
        );
    }
  }
  return resolved.length === 0 ? undefined : resolved;
}
