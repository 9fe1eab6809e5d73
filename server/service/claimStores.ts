import * as path from 'node:path';
import { isLive } from '../core/claims';
import { log } from '../core/log';
import type { CardStore } from '../storage/cardStore';
import type { ClaimStore } from '../storage/claims/claimStore';
import { claimsFolderOf } from '../storage/claims/claimsLocation';
import { FileClaimStore } from '../storage/claims/fileClaimStore';
import { ensureSelfIgnoringDir } from '../storage/generatedFiles';
import type { WorkspaceState } from './workspaceState';

/**
 * Claims live where the cards do. Over a database (SQLite, MySQL) they are tables beside the cards,
 * so every process and instance using it decides under the database's lock, on any machine.
 * Otherwise they are files in the git common directory (every worktree sees them), or under
 * `.kanban/.state/` outside git.
 */
export async function openClaimStore(root: string, cards: CardStore): Promise<ClaimStore> {
  const inDatabase = cards.claimStore?.();
  if (inDatabase) return inDatabase;
  const stateDir = path.join(root, '.kanban', '.state');
  const folder = await claimsFolderOf(root, stateDir);
  return new FileClaimStore(folder.dir, folder.inGit ? undefined : () => ensureSelfIgnoringDir(stateDir));
}

/**
 * The cards moved to another provider (a migration): the live claims and the sessions go with
 * them, so no agent loses the card it holds, and the workspace decides in the new place from now
 * on. Call before the old card store closes (its database may hold the claims).
 */
export async function moveClaimsWithCards(ws: WorkspaceState, cards: CardStore): Promise<void> {
  const next = await openClaimStore(ws.root, cards);
  const before = ws.claims.store;
  if (next === before) return;
  try {
    const now = Date.now();
    const claims = (await before.list()).filter((claim) => isLive(claim, now));
    const sessions = await before.listSessions();
    if (claims.length > 0 || sessions.length > 0) {
      await next.exclusive(async (tx) => {
        for (const claim of claims) await tx.put(claim);
        for (const session of sessions) await tx.putSession(session);
      });
    }
  } catch (error) {
    // The migration itself succeeded: a lost claim only frees its card early.
    log.warn(
      `kanban: the agents' claims could not move with the cards (${(error as Error).message}); their cards are free again`,
    );
  }
  // Switched either way: the old store may be about to close.
  ws.claims.useStore(next);
}
