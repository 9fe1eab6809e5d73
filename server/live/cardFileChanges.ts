import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../core/atomicFile';
import type { Card } from '../core/model';
import { placeOf } from '../core/cardPlace';
import { serializeCard } from '../storage/cardFile';
import type { MarkdownCardStore } from '../storage/markdown/markdownCardStore';
import { fingerprint } from '../storage/markdown/cardFolders';
import { log } from '../core/log';

const exists = (file: string) => fs.access(file).then(() => true, () => false);

/**
 * A card file that changed on disk and parses: what the index should hold for it, or null when it
 * is a second copy of a card whose known file still exists. Keeps the rule that the frontmatter
 * status and the folder agree:
 * - the file is where the service knew it (or new) and its `status:` names another folder: the
 *   frontmatter wins and the file is moved there (a rename, the text unchanged);
 * - the file came from elsewhere (`git mv`, a move in a file manager): the folder wins and the
 *   frontmatter is rewritten to say so.
 * The `archived` folder is not a status: a file in it is archived and keeps its status, and a file
 * moved out of it is no longer archived (parseCard reads that from the folder).
 */
export async function settleChangedCardFile(store: MarkdownCardStore, file: string, read: { card: Card; hash: string; text: string }): Promise<Card | null> {
  const folder = store.locate(file)!.status;
  const known = store.known.get(read.card.id);
  let { card, hash } = read;
  if (known && known.file !== file) {
    if (await exists(known.file)) {
      // Removing either copy here could lose the one the user meant; the next start keeps the newer.
      log.warn(`kanban: ${store.relative(file)} is a second copy of card ${card.id} (served from ${store.relative(known.file)}); it is ignored until one of them goes`);
      return null;
    }
    if (placeOf(card) !== folder) {
      card = { ...card, status: folder };
      const text = serializeCard(card);
      store.ownWrites.set(file, { text, card });
      await writeFileAtomic(file, text);
      hash = fingerprint(text);
      log.warn(`kanban: ${store.relative(file)} was moved to the "${folder}" folder by hand; its status now says so`);
    }
  } else if (placeOf(card) !== folder) {
    const target = store.absolutePath(card);
    if (!(await exists(target))) {
      store.ownWrites.set(target, { text: read.text, card });
      store.ownWrites.set(file, { text: '', card: null });
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.rename(file, target);
      log.warn(`kanban: ${store.relative(file)} now says status "${card.status}"; moved it to ${store.relative(target)}`);
      file = target;
    }
  }
  store.adopt(card, file, hash);
  return card;
}
