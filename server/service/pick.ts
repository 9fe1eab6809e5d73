import {
  DEFAULT_CLAIM_SECONDS,
  claimKey,
  comparePickOrder,
  isLive,
  leaseFor,
  priorityRank,
  type StoredClaim,
} from '../core/claims';
import { ValidationError } from '../core/errors';
import type { BoardConfig, Card, TaskView } from '../core/model';
import { DELETED_STATUS } from '../core/shapes/vocabulary';
import { readyColumnsOf } from '../core/startColumn';
import { announceClaim } from './claimActions';
import { isReady } from './dependencies';
import { runAsAgent } from './requestAgent';
import { moveTask } from './tasks';
import { taskView } from './views';
import type { Workspace } from './workspace';
import type { PickBody } from '../core/shapes/requests/agents';

/** What an agent asks `pick` for; every filter is optional. */
export type PickRequest = Omit<PickBody, 'agent' | 'board'> & { agent: string };

/**
 * Pick the best card that is ready and free, and claim it, as one step for every process: the claim
 * store's lock is held from reading the claims to writing the new one, so two agents (two processes,
 * two worktrees) never pick the same card. Answers null when nothing is pickable. The move to
 * `moveTo` comes after, as the agent; when it is refused (a WIP limit that blocks) the claim is
 * given back and the refusal answered.
 */
export async function pickTask(ws: Workspace, boardId: string, request: PickRequest): Promise<TaskView | null> {
  return ws.mutate(async () => {
    const board = ws.board(boardId);
    const columns =
      request.status === undefined ? readyColumnsOf(board) : [checkColumn(board, request.status, 'status')];
    if (request.moveTo !== undefined) checkColumn(board, request.moveTo, 'moveTo');
    const picked = await ws.claims.store.exclusive(async (claims) => {
      const taken = await liveClaims(claims.list(), (claim) => claims.remove(claim.boardId, claim.cardId));
      const card = bestCard(ws, board, columns, request, taken);
      if (!card) return null;
      const claim = leaseFor(card.boardId, card.id, request.agent, request.ttlSeconds ?? DEFAULT_CLAIM_SECONDS, null);
      await claims.put(claim);
      return { card, claim };
    });
    if (!picked) return null;
    announceClaim(ws, picked.card, picked.claim, false);
    if (request.moveTo === undefined || picked.card.status === request.moveTo)
      return taskView(ws, picked.card, { withComments: true });
    try {
      // As the agent, whichever way it was named: the claim guard lets its own claim's holder through.
      return await runAsAgent(request.agent, () => moveTask(ws, boardId, picked.card.id, request.moveTo!));
    } catch (error) {
      await giveBack(ws, picked.card, picked.claim);
      throw error;
    }
  });
}

function checkColumn(board: BoardConfig, status: string, field: string): string {
  if (!board.columns.some((c) => c.id === status)) {
    throw new ValidationError(
      `${field} "${status}" is not a column of board "${board.id}" (columns: ${board.columns.map((c) => c.id).join(', ')})`,
    );
  }
  return status;
}

/** Keys of the live claims; expired claim files are removed on the way (we hold the lock). */
async function liveClaims(
  listed: Promise<StoredClaim[]>,
  removeExpired: (claim: StoredClaim) => Promise<void>,
): Promise<Set<string>> {
  const now = Date.now();
  const live = new Set<string>();
  for (const claim of await listed) {
    if (isLive(claim, now)) live.add(claimKey(claim.boardId, claim.cardId));
    else await removeExpired(claim);
  }
  return live;
}

/** What narrows the cards pick offers; every filter is optional. */
export type PickFilter = Pick<PickRequest, 'labels' | 'assignee' | 'priority'>;

/** The first card in pick order among the ready, unclaimed cards of `columns` that match the filters. */
function bestCard(
  ws: Workspace,
  board: BoardConfig,
  columns: string[],
  request: PickRequest,
  taken: Set<string>,
): Card | undefined {
  return pickOrder(ws, board, columns, request, (card) => taken.has(claimKey(card.boardId, card.id)), 1)[0];
}

/**
 * The first `limit` ready cards of `columns` that match the filters and are not `taken`, in the
 * order pick offers them: what `pick` takes the first of, and what `kanban context` lists as next.
 * Board order (columns left to right, then each column's order; archived cards are in none) breaks
 * the ties. One pass in board order, keeping the best `limit` so far: a card that cannot beat the
 * last of them on priority is passed over before the dearer checks (claims, blockers), so a pick on
 * a 10,000-card board takes a few milliseconds under the claims lock.
 */
export function pickOrder(
  ws: Workspace,
  board: BoardConfig,
  columns: readonly string[],
  filter: PickFilter,
  taken: (card: Card) => boolean,
  limit: number,
): Card[] {
  const wanted = new Set(columns);
  const assignee = filter.assignee?.toLowerCase();
  const top: Array<{ card: Card; at: number }> = [];
  let at = 0;
  for (const column of board.columns) {
    if (!wanted.has(column.id) || column.id === DELETED_STATUS) continue;
    for (const card of ws.index.column(board.id, column.id)) {
      const here = at++;
      const last = top.length === limit ? top[top.length - 1].card : undefined;
      if (last && priorityRank(card) > priorityRank(last)) continue;
      if (filter.priority !== undefined && card.priority !== filter.priority) continue;
      if (assignee !== undefined && card.assignee?.toLowerCase() !== assignee) continue;
      if (filter.labels?.some((label) => !card.labels.includes(label))) continue;
      // Board order of the candidate and of the few kept so far: all the comparisons need.
      const order = (other: Card) =>
        other === card ? here : (top.find((entry) => entry.card === other)?.at ?? Infinity);
      if (last && comparePickOrder(card, last, order) >= 0) continue;
      if (taken(card) || !isReady(ws, card)) continue;
      let slot = top.length;
      while (slot > 0 && comparePickOrder(card, top[slot - 1].card, order) < 0) slot--;
      top.splice(slot, 0, { card, at: here });
      if (top.length > limit) top.pop();
    }
  }
  return top.map((entry) => entry.card);
}

/** Undo a pick whose move was refused: the claim goes, unless the agent's lease was replaced meanwhile. */
async function giveBack(ws: Workspace, card: Card, claim: StoredClaim): Promise<void> {
  await ws.claims.store.exclusive(async (claims) => {
    const held = await claims.get(card.boardId, card.id);
    if (held && held.agent === claim.agent && held.until === claim.until) await claims.remove(card.boardId, card.id);
  });
  ws.claims.forget(card.boardId, card.id);
  const now = ws.index.get(card.boardId, card.id) ?? card;
  ws.emit('task.released', now.boardId, { taskId: now.id, agent: claim.agent, by: claim.agent, forced: false }, now);
}
