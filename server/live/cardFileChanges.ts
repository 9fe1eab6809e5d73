import { promises as fs } from 'node:fs';
import type { Card } from '../core/model';
import { placeOf } from '../core/cardPlace';
import { ARCHIVED_STATUS } from '../core/shapes/vocabulary';
import { derivedId, provablySameCard } from '../storage/markdown/cardIdentity';
import type { MarkdownCardStore } from '../storage/markdown/markdownCardStore';
import { log } from '../core/log';

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );

/**
 * A card file that changed on disk and parses: what the index should hold for it, or null when it
 * is a second file of a card whose known file still exists. The service writes nothing in answer to
 * a hand edit (an editor may hold the file open):
 * - a `status:` edited in place: the card's status follows the frontmatter at once; the file moves
 *   to that folder on the card's next write (or `kanban doctor --fix`);
 * - a file moved by hand into another status folder (`git mv`, a file manager): the folder wins,
 *   and the frontmatter says so from the card's next write on;
 * - a file that claims the id of another card's file (a merge, a copy): it is a card of its own,
 *   served under a new id (cardIdentity.ts), unless it provably is the same card (an editor saved
 *   the card's old path after it moved), which is reported, not served.
 * The `archived` folder is not a status: a file in it is archived and keeps its status, and a file
 * moved out of it is no longer archived (parseCard reads that from the folder).
 */
export async function settleChangedCardFile(
  store: MarkdownCardStore,
  file: string,
  read: { card: Card; hash: string; text: string },
): Promise<Card | null> {
  const folder = store.locate(file)!.status;
  let card = read.card;
  const known = store.known.get(card.id);
  if (known && known.file !== file) {
    if (await exists(known.file)) {
      const other = await store.readCardFile(known.file);
      const mine = { file, card, hash: read.hash };
      if (!('card' in other) || provablySameCard(mine, { file: known.file, card: other.card, hash: other.hash })) {
        log.warn(
          `kanban: ${store.relative(file)} is a second copy of card ${card.id} (served from ${store.relative(known.file)}); it is ignored until one of them goes`,
        );
        return null;
      }
      const servedAs = derivedId(card.id, file, store.places, store.known);
      store.alias(file, card.id, servedAs, known.file);
      log.warn(
        `kanban: ${store.relative(file)} claims id ${card.id}, which ${store.relative(known.file)} holds; served as ${servedAs} until its file is renamed (its next write, or kanban doctor --fix)`,
      );
      card = { ...card, id: servedAs };
    } else if (folder !== ARCHIVED_STATUS && placeOf(card) !== folder) {
      card = { ...card, status: folder };
    }
  }
  store.adopt(card, file, read.hash);
  return card;
}
