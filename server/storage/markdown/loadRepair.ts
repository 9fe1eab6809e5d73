import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Card } from '../../core/model';
import { placeOf } from '../../core/cardPlace';
import { ARCHIVED_STATUS } from '../../core/shapes/vocabulary';
import type { RecoveredFile, StaleCopy } from '../cardStore';
import type { CachedFile } from './indexCache';
import { log } from '../../core/log';

/**
 * What moving a copy away needs of the markdown store: declared here, as markdownCardStore.ts
 * imports this file.
 */
export interface RecoveringStore {
  readonly root: string;
  readonly kanbanDir: string;
  /** Files the store itself wrote or removed, so the file watcher ignores their echoes. */
  readonly ownWrites: Map<string, { text: string; card: Card | null }>;
  /** A path as the store reports it: relative to the root, with forward slashes. */
  relative(file: string): string;
}

/**
 * Move a torn move's leftover copy under `.kanban/.state/recovered/` (keeping its board/status
 * path and its text), or answer null when it is gone already. Only for a copy that provably is the
 * same card as the file served (cardIdentity.ts): a different card is never moved out of the tree.
 */
export async function moveToRecovered(store: RecoveringStore, copy: StaleCopy): Promise<RecoveredFile | null> {
  const at = new Date().toISOString();
  const file = path.join(store.root, copy.path);
  const relativeInBoards = path.relative(path.join(store.kanbanDir, 'boards'), file);
  const target = path.join(
    store.kanbanDir,
    '.state',
    'recovered',
    `${relativeInBoards.slice(0, -3)}.${at.replace(/[:.]/g, '-')}.md`,
  );
  await fs.mkdir(path.dirname(target), { recursive: true });
  store.ownWrites.set(file, { text: '', card: null });
  const moved = await fs.rename(file, target).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    },
  );
  if (!moved) return null;
  const recovered = { path: copy.path, movedTo: store.relative(target), kept: copy.servedFrom, at };
  log.warn(
    `kanban: ${recovered.path} was a second copy of card ${copy.id} left by an interrupted move (served from ${recovered.kept}); moved it to ${recovered.movedTo}`,
  );
  return recovered;
}

/**
 * Which wins when a card file's folder and its `status:` disagree at load. The frontmatter, as a
 * rule: a status edited by hand leaves the file where it was. But a file that was moved by hand into
 * another status folder (a file manager, `git mv`) says the old status; the index cache tells that
 * case apart: the path is new to it while the same card id was cached at another path. Then the
 * folder wins, as the file watcher decided when it saw the move, and a restart agrees with it.
 */
export function movedByHandSince(cache: Map<string, CachedFile>): (key: string, card: Card, folder: string) => Card {
  let cachedPaths: Map<string, string> | null = null;
  return (key, card, folder) => {
    if (folder === ARCHIVED_STATUS || placeOf(card) === folder || cache.size === 0 || cache.has(key)) return card;
    cachedPaths ??= new Map([...cache].map(([cachedKey, entry]) => [entry.card.id, cachedKey]));
    const before = cachedPaths.get(card.id);
    return before !== undefined && before !== key ? { ...card, status: folder } : card;
  };
}
