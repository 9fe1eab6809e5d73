import { silentProgress, throwIfCancelled } from '../core/progress';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../core/atomicFile';
import type { Card } from '../core/model';
import { serializeCard } from '../storage/cardFile';
import type { CardStore } from '../storage/cardStore';
import { type MarkdownCardStore } from '../storage/markdown/markdownCardStore';
import type { SqliteCardStore } from '../storage/sqlite/sqliteCardStore';
import type { SqlCardStore } from '../storage/sql/sqlCardStore';

/**
 * Writing every card into the migration's target, with a way back. A writer either leaves the
 * target holding exactly the given cards (checked by reading them back) or throws after putting
 * the target back as it was; `undo` reverts a finished write when a later step fails.
 */
/** Where a writer says how far it got (see server/core/progress.ts). */
export type ProgressReport = (phase: string, done: number, total: number) => void;

export interface TargetWrite {
  /** Where whatever the target held before now is, if anything was moved aside. */
  movedAside: string | null;
  undo(): Promise<void>;
  /** Drop what is only needed for `undo` (staging files). */
  finish(): Promise<void>;
}

/** The part of a card a migration must carry: everything the store persists, in one comparable string. */
function fingerprint(card: Card): string {
  return `${card.boardId}/${card.status}\n${serializeCard(card)}`;
}

/** Read the target back and compare it with what was written, card by card. */
export async function verifyTarget(store: CardStore, cards: Card[]): Promise<void> {
  const { cards: stored, invalid } = await store.loadAll();
  if (invalid.length > 0) throw new Error(`the target cannot read back ${invalid[0].path}: ${invalid[0].reason}`);
  const expected = new Map(cards.map((c) => [c.id, fingerprint(c)]));
  if (stored.length !== cards.length)
    throw new Error(`the target holds ${stored.length} cards after writing ${cards.length}`);
  for (const card of stored) {
    if (expected.get(card.id) !== fingerprint(card))
      throw new Error(`card "${card.id}" reads back differently from the target`);
  }
}

/** Remove `folder` and its parents while they are empty, stopping at `stopAt` (left in place). */
async function removeEmptyFolders(folder: string, stopAt: string): Promise<void> {
  let current = folder;
  while (current.startsWith(stopAt + path.sep)) {
    try {
      await fs.rmdir(current);
    } catch {
      return; // not empty (or already gone): the folders above are in use too
    }
    current = path.dirname(current);
  }
}

function stamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-');
}

/** Into SQLite: one transaction replaces the card tables; older rows are first copied to a backup file. */
export async function writeSqliteTarget(
  store: SqliteCardStore,
  cards: Card[],
  kanbanDir: string,
  report: ProgressReport = silentProgress,
  signal?: AbortSignal,
): Promise<TargetWrite> {
  let movedAside: string | null = null;
  if ((await store.countCards()) > 0) {
    movedAside = path.join(
      kanbanDir,
      'backups',
      `${path.basename(store.absolutePath, path.extname(store.absolutePath))}-${stamp()}.db`,
    );
    await fs.mkdir(path.dirname(movedAside), { recursive: true });
    await store.backupTo(movedAside);
  }
  // A cancel thrown inside the copy rolls its transaction back: the tables keep what they held.
  const before = await store.replaceAll(cards, (done, total) => {
    throwIfCancelled(signal, 'the migration');
    report('copying cards', done, total);
  });
  const undo = async () => {
    await store.replaceAll(before);
  };
  try {
    report('checking the copy', 0, 1);
    await verifyTarget(store, cards);
    report('checking the copy', 1, 1);
  } catch (error) {
    await undo();
    throw error;
  }
  return { movedAside, undo, finish: async () => undefined };
}

/**
 * Into a MySQL or PostgreSQL database the caller found empty: one transaction fills the card
 * tables, and undoing empties them again (other instances may already read the database, so nothing
 * is kept aside there).
 */
export async function writeDatabaseTarget(
  store: SqlCardStore,
  cards: Card[],
  report: ProgressReport = silentProgress,
  signal?: AbortSignal,
): Promise<TargetWrite> {
  await store.replaceAll(cards, (done, total) => {
    throwIfCancelled(signal, 'the migration');
    report('copying cards', done, total);
  });
  const undo = async () => {
    await store.replaceAll([]);
  };
  try {
    report('checking the copy', 0, 1);
    await verifyTarget(store, cards);
    report('checking the copy', 1, 1);
  } catch (error) {
    await undo();
    throw error;
  }
  return { movedAside: null, undo, finish: async () => undefined };
}

/**
 * Into Markdown files. Every file is first written to a staging folder; card files already under
 * `.kanban/boards/` (left from an earlier migration) are moved aside into `.kanban/backups/`, so no
 * stale card comes back; then the staged files are renamed into place. Each step is recorded so a
 * failure can be rolled back exactly.
 */
export async function writeMarkdownTarget(
  store: MarkdownCardStore,
  cards: Card[],
  kanbanDir: string,
  report: ProgressReport = silentProgress,
  signal?: AbortSignal,
): Promise<TargetWrite> {
  const id = stamp();
  const staging = path.join(kanbanDir, '.state', `migration-${id}`);
  const backupDir = path.join(kanbanDir, 'backups', `markdown-${id}`);
  const movedOut: { from: string; to: string }[] = [];
  const placed: string[] = [];

  const undo = async () => {
    for (const file of placed.splice(0)) {
      await fs.rm(file, { force: true });
      await removeEmptyFolders(path.dirname(file), kanbanDir);
    }
    for (const move of movedOut.splice(0).reverse()) {
      await fs.mkdir(path.dirname(move.from), { recursive: true });
      await fs.rename(move.to, move.from);
    }
    await fs.rm(backupDir, { recursive: true, force: true });
    await removeEmptyFolders(path.dirname(backupDir), kanbanDir);
    await fs.rm(staging, { recursive: true, force: true });
  };

  try {
    const staged = new Map<Card, string>();
    for (const card of cards) {
      throwIfCancelled(signal, 'the migration');
      const file = path.join(staging, card.boardId, card.status, `${card.id}.md`);
      await writeFileAtomic(file, serializeCard(card));
      staged.set(card, file);
      report('copying cards', staged.size, cards.length);
    }
    for (const file of await store.listCardFiles()) {
      const to = path.join(backupDir, path.relative(kanbanDir, file));
      await fs.mkdir(path.dirname(to), { recursive: true });
      await fs.rename(file, to);
      movedOut.push({ from: file, to });
    }
    for (const [card, file] of staged) {
      const target = store.absolutePath(card);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.rename(file, target);
      placed.push(target);
    }
    report('checking the copy', 0, 1);
    await verifyTarget(store, cards);
    report('checking the copy', 1, 1);
  } catch (error) {
    await undo();
    throw error;
  }
  return {
    movedAside: movedOut.length > 0 ? backupDir : null,
    undo,
    finish: () => fs.rm(staging, { recursive: true, force: true }),
  };
}
