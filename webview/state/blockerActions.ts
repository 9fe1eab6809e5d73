import { ApiError } from '../api';
import type { BoardController } from './controller';
import { saveFromDrawer, type DrawerSave } from './drawerActions';

/** A card the blocker picker offers: found by its title on any board. */
export interface BlockerCandidate {
  id: string;
  title: string;
  boardId: string;
  boardName: string;
}

const MAX_CANDIDATES = 10;

/**
 * Cards on any board whose text matches `text`, without the ones in `exclude` (the card itself and
 * its current blockers). Each board answers its own search: blockers are workspace-wide, the list
 * route is per board, and a workspace has a handful of boards.
 */
export async function findBlockerCandidates(
  ctrl: BoardController,
  text: string,
  exclude: ReadonlySet<string>,
): Promise<BlockerCandidate[]> {
  const q = text.trim();
  if (q === '') return [];
  const perBoard = await Promise.all(
    ctrl.state.boards.map(async (board) => {
      const found = await ctrl.api.findCards(board.id, q).catch(() => []);
      return found.map((card) => ({
        id: card.id,
        title: card.title || card.id,
        boardId: board.id,
        boardName: board.name,
      }));
    }),
  );
  return perBoard
    .flat()
    .filter((card) => !exclude.has(card.id))
    .slice(0, MAX_CANDIDATES);
}

/** What a change of the blocker list came to: a drawer save, or refused with the server's words (shown beside the picker). */
export type BlockersSave = DrawerSave | { kind: 'refused'; message: string };

const isRefusal = (error: unknown) => error instanceof ApiError && error.status === 400;

/**
 * Store a new `blockedBy` list onto the version the drawer shows. The server resolves partial ids
 * and refuses a cycle or an unknown id with a 400 that names it: that answer is returned, not
 * toasted, so the drawer can show it where the person is typing.
 */
export async function saveBlockers(
  ctrl: BoardController,
  taskId: string,
  blockedBy: string[],
  ifMatch: string | undefined,
): Promise<BlockersSave> {
  const result = await saveFromDrawer(ctrl, taskId, { blockedBy }, ifMatch, { quietOn: isRefusal });
  if (result.kind === 'failed' && isRefusal(result.error))
    return { kind: 'refused', message: (result.error as ApiError).message };
  return result;
}
