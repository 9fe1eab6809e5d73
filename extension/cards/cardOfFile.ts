import * as path from 'node:path';
import type { Card } from '../../server/core/model';
import type { FolderAccess } from '../auth/folderAccess';
import type { ApiTarget } from '../service/callApi';
import type { FolderRef, FolderServices } from '../service/folderServices';
import type { KanbanService } from '../service/kanbanService';

/** What finding a card by its file needs of the extension. */
export interface CardFileLookup {
  folders: { all(): FolderRef[]; rootOf(folder: FolderRef): string };
  services: FolderServices;
  access: FolderAccess;
}

export interface CardAtFile {
  target: ApiTarget;
  card: Card;
}

/** Only `.../.kanban/boards/<board>/<column>/<id>.md` can be a card file: anything else costs nothing. */
export function looksLikeCardFile(fsPath: string): boolean {
  return /[\\/]\.kanban[\\/]boards[\\/][^\\/]+[\\/][^\\/]+[\\/][^\\/]+\.md$/i.test(fsPath);
}

function isInside(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/** The absolute path of a card's file in its service's root, if its store keeps files. */
export function cardFilePath(service: KanbanService, card: Pick<Card, 'id' | 'boardId' | 'status'>): string | null {
  const relative = service.workspace.store.filePathOf?.(card);
  return relative ? path.join(service.root, ...relative.split('/')) : null;
}

/** The folder whose kanban root holds a card-looking file, with its service (opened if needed). */
export async function serviceOfFile(
  lookup: CardFileLookup,
  fsPath: string,
): Promise<{ folder: FolderRef; service: KanbanService } | undefined> {
  if (!looksLikeCardFile(fsPath)) return undefined;
  // The innermost kanban root wins when folders nest.
  const owners = lookup.folders
    .all()
    .map((folder) => ({ folder, root: lookup.folders.rootOf(folder) }))
    .filter(({ root }) => isInside(root, fsPath))
    .sort((a, b) => b.root.length - a.root.length);
  const owner = owners[0];
  if (!owner) return undefined;
  const service = await lookup.services.get(owner.folder).catch(() => null);
  return service ? { folder: owner.folder, service } : undefined;
}

/**
 * The card a file is, as the folder's service serves it: the file must be the one the card is
 * served from (a second copy at an old path is not the card). Opens the folder's service if
 * needed, but only for paths that look like card files.
 */
export async function cardOfFile(lookup: CardFileLookup, fsPath: string): Promise<CardAtFile | undefined> {
  const owner = await serviceOfFile(lookup, fsPath);
  if (!owner) return undefined;
  const { folder, service } = owner;
  const card = service.workspace.index.findById(path.basename(fsPath, path.extname(fsPath)));
  if (!card || cardFilePath(service, card) !== path.resolve(fsPath)) return undefined;
  return { target: { folder, service, access: lookup.access }, card };
}
