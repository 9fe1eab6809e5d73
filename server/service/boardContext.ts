import type { BoardContext, ContextCard } from '../core/boardContext';
import { CONTEXT_NEXT_LIMIT, CONTEXT_SECTION_LIMIT } from '../core/shapes/boardContext';
import { titleOf, type BoardConfig, type Card } from '../core/model';
import { DELETED_STATUS } from '../core/shapes/vocabulary';
import { readyColumnsOf, startColumnOf } from '../core/startColumn';
import { isFinished, isReady, openBlockerIds } from './dependencies';
import { pickOrder } from './pick';
import type { Workspace } from './workspace';

/**
 * The board context (core/boardContext.ts) from the index and the claims in memory: a read, so it
 * never takes the claim store's lock. Each card goes to the first section that fits, so a line is
 * never printed twice: awaiting input (a person must answer), blocked, in progress.
 */
export function boardContext(ws: Workspace, boardId: string): BoardContext {
  const board = ws.board(boardId);
  const working = workingColumns(board);
  const sections = {
    inProgress: [] as ContextCard[],
    awaitingInput: [] as ContextCard[],
    blocked: [] as ContextCard[],
  };
  for (const column of board.columns) {
    if (column.id === DELETED_STATUS) continue;
    for (const card of ws.index.column(board.id, column.id)) {
      const entry = contextCard(ws, card);
      if (entry.session?.state === 'awaitingInput') sections.awaitingInput.push(entry);
      else if (entry.waitsFor) sections.blocked.push(entry);
      else if (entry.claim || working.has(card.status)) sections.inProgress.push(entry);
    }
  }
  const claimed = (card: Card) => ws.claims.of(card.boardId, card.id) !== null;
  const next = pickOrder(ws, board, readyColumnsOf(board), {}, claimed, CONTEXT_NEXT_LIMIT);
  return {
    board: { id: board.id, name: board.name },
    inProgress: sections.inProgress.slice(0, CONTEXT_SECTION_LIMIT),
    awaitingInput: sections.awaitingInput.slice(0, CONTEXT_SECTION_LIMIT),
    blocked: sections.blocked.slice(0, CONTEXT_SECTION_LIMIT),
    next: next.map((card) => contextCard(ws, card)),
    counts: {
      inProgress: sections.inProgress.length,
      awaitingInput: sections.awaitingInput.length,
      blocked: sections.blocked.length,
      pickable: countPickable(ws, board, claimed),
    },
  };
}

/** Where work is under way: the start column (`kanban start`'s) up to, not including, the last. */
function workingColumns(board: BoardConfig): Set<string> {
  const start = startColumnOf(board.columns, board.startStatus);
  const at = start ? board.columns.indexOf(start) : board.columns.length;
  return new Set(board.columns.slice(at, -1).map((c) => c.id));
}

function contextCard(ws: Workspace, card: Card): ContextCard {
  const claim = ws.claims.of(card.boardId, card.id);
  const session = ws.claims.sessionOf(card.boardId, card.id);
  const waitsFor = isFinished(ws, card) ? [] : openBlockerIds(ws, card);
  return {
    id: card.id,
    title: titleOf(card.content),
    status: card.status,
    priority: card.priority,
    assignee: card.assignee ?? null,
    dueDate: card.dueDate ?? null,
    ...(claim ? { claim: { agent: claim.agent, until: claim.until } } : {}),
    ...(session
      ? { session: { agent: session.agent, state: session.state, note: session.note, stale: session.stale } }
      : {}),
    ...(waitsFor.length ? { waitsFor } : {}),
  };
}

/** How many cards of the board's ready columns a pick could take now (ready and unclaimed). */
function countPickable(ws: Workspace, board: BoardConfig, claimed: (card: Card) => boolean): number {
  let count = 0;
  for (const column of readyColumnsOf(board)) {
    for (const card of ws.index.column(board.id, column)) if (!claimed(card) && isReady(ws, card)) count++;
  }
  return count;
}
