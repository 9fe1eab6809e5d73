import { promises as fs, readFileSync } from 'node:fs';
import { FileConflictError } from '../core/errors';
import type { Card } from '../core/model';
import { StaleFileError } from '../storage/cardStore';
import { applyExternalChangesNow, applyExternalConfigNow } from './external';
import type { WorkspaceState } from './workspaceState';
import { log } from '../core/log';

/**
 * The files are the truth. Before the service writes a card, each card file it would replace or
 * remove must still be what it last read; one that is not is adopted as it now is (with the events
 * of a hand edit) and the write is refused with 409. Call inside the mutation queue.
 */
export async function writeCardsChecked<T>(ws: WorkspaceState, cards: Card[], write: () => Promise<T>): Promise<T> {
  await checkCardWrite(ws, cards);
  try {
    // All checked before any is written, so a refused change leaves every file as it was; the
    // store checks each one again at the moment it replaces it.
    await ws.store.ensureCurrent?.(cards);
    return await write();
  } catch (error) {
    if (error instanceof StaleFileError) adoptStaleFile(ws, error);
    throw error;
  }
}

/** The rules every write to these cards must pass first (another agent's claim answers 409). */
export async function checkCardWrite(ws: WorkspaceState, cards: readonly Card[]): Promise<void> {
  for (const guard of ws.cardWriteGuards) await guard(cards);
}

function adoptStaleFile(ws: WorkspaceState, error: StaleFileError): void {
  const others = ws.invalidFiles.filter((f) => f.path !== error.path);
  ws.invalidFiles = error.invalid ? [...others, error.invalid] : others;
  applyExternalChangesNow(ws, error.changes);
  log.warn(`kanban: refused a write: ${error.message}`);
}

/**
 * The same rule for `.kanban.json`. Call inside the mutation queue. `configUnchangedNow` is the
 * synchronous form, for the moment of the rename.
 */
export function configUnchangedNow(ws: WorkspaceState): boolean {
  try {
    return readFileSync(ws.configPath, 'utf8') === ws.configText;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return ws.configText === null;
    throw error;
  }
}

export async function ensureConfigCurrent(ws: WorkspaceState): Promise<void> {
  const text = await fs.readFile(ws.configPath, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  const unchanged = text === ws.configText;
  applyExternalConfigNow(ws, text);
  if (unchanged) return;
  const broken = ws.invalidFiles.find((f) => f.path === '.kanban.json');
  if (broken) {
    throw new FileConflictError(
      `.kanban.json does not parse (${broken.reason}); nothing was written. Fix the file by hand (the service never rewrites a broken file), then try again.`,
    );
  }
  throw new FileConflictError(
    '.kanban.json changed on disk since the service read it; nothing was written and the new content is now in effect. Apply your change again.',
  );
}
