import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Card } from '../../core/model';
import { placeOf } from '../../core/cardPlace';
import type { RecoveredFile } from '../cardStore';
import type { MarkdownCardStore } from './markdownCardStore';
import { log } from '../../core/log';

export interface ParsedFile {
  file: string;
  card: Card;
  hash: string;
}

/**
 * Of two copies of one card, the one to keep: the newer by `modified`; at a tie, the one whose
 * folder agrees with its frontmatter status, then the larger text, so the choice never depends on
 * the order folders were read in.
 */
export function preferredCopy(a: ParsedFile, b: ParsedFile, store: MarkdownCardStore): ParsedFile {
  if (a.card.modified !== b.card.modified) return a.card.modified > b.card.modified ? a : b;
  const settled = (p: ParsedFile) => store.locate(p.file)?.status === placeOf(p.card);
  if (settled(a) !== settled(b)) return settled(a) ? a : b;
  return a.hash >= b.hash ? a : b;
}

/** Move a losing copy under `.kanban/.state/recovered/`, keeping its board/status path. */
export async function moveToRecovered(store: MarkdownCardStore, loser: ParsedFile, kept: ParsedFile): Promise<RecoveredFile> {
  const at = new Date().toISOString();
  const relativeInBoards = path.relative(path.join(store.kanbanDir, 'boards'), loser.file);
  const target = path.join(store.kanbanDir, '.state', 'recovered', `${relativeInBoards.slice(0, -3)}.${at.replace(/[:.]/g, '-')}.md`);
  await fs.mkdir(path.dirname(target), { recursive: true });
  await fs.rename(loser.file, target);
  const recovered = { path: store.relative(loser.file), movedTo: store.relative(target), kept: store.relative(kept.file), at };
  log.warn(`kanban: ${recovered.path} and ${recovered.kept} hold the same card ${loser.card.id}; kept ${recovered.kept} (newer by modified, then content), moved the other copy to ${recovered.movedTo}`);
  return recovered;
}

/**
 * Make the files agree with the rules before serving them: one file per card (a crash between
 * writing a moved card and removing its old file leaves two), and each file in the folder of its
 * frontmatter status (the frontmatter wins at start-up; a rename moves it, text unchanged).
 */
export async function repairAtLoad(store: MarkdownCardStore, parsed: ParsedFile[]): Promise<{ kept: ParsedFile[]; recovered: RecoveredFile[] }> {
  const byId = new Map<string, ParsedFile>();
  const recovered: RecoveredFile[] = [];
  for (const copy of parsed) {
    const other = byId.get(copy.card.id);
    if (!other) {
      byId.set(copy.card.id, copy);
      continue;
    }
    const keep = preferredCopy(copy, other, store);
    recovered.push(await moveToRecovered(store, keep === copy ? other : copy, keep));
    byId.set(copy.card.id, keep);
  }
  const kept = [...byId.values()];
  for (const entry of kept) {
    const folder = store.locate(entry.file)?.status;
    // The archive folder decides archived-ness when the card is parsed, so only status folders can disagree.
    if (folder === placeOf(entry.card)) continue;
    const target = store.absolutePath(entry.card);
    if (await fs.access(target).then(() => true, () => false)) {
      // Something that is not this card (a file that does not parse) holds the name: touch neither.
      log.warn(`kanban: ${store.relative(entry.file)} says status "${entry.card.status}", but ${store.relative(target)} exists; left both where they are`);
      continue;
    }
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.rename(entry.file, target);
    log.warn(`kanban: ${store.relative(entry.file)} says status "${entry.card.status}"; moved it to ${store.relative(target)} (the frontmatter decides)`);
    entry.file = target;
  }
  return { kept, recovered };
}
