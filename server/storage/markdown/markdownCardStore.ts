import { closeSync, fstatSync, openSync, promises as fs, readSync } from 'node:fs';
import * as path from 'node:path';
import type { Card } from '../../core/model';
import { createFileExclusive, isTempFile, writeFileAtomic } from '../../core/atomicFile';
import { CardFileError, parseCard, serializeCard } from '../cardFile';
import type { CardStore, InvalidFile, LoadResult } from '../cardStore';

/** Folders under a board that hold something other than cards. */
export const RESERVED_BOARD_FOLDERS = new Set(['attachments', 'logs']);

/**
 * Files read per turn of the event loop while loading. Small card files read synchronously cost a
 * fraction of the thread-pool round trips of async reads (10,000 cards: ~90 ms instead of ~430 ms),
 * and slices keep each pause short.
 */
const LOAD_SLICE = 128;

/** Cards as Markdown files: `.kanban/boards/<boardId>/<status>/<cardId>.md`. */
export class MarkdownCardStore implements CardStore {
  readonly provider = 'markdown';
  /**
   * Paths we wrote last, with their content ('' for a removal) and the card written, so the file
   * watcher can recognise its echo of our own write without parsing the file again.
   */
  readonly ownWrites = new Map<string, { text: string; card: Card | null }>();

  constructor(readonly root: string, readonly kanbanDir: string) {}

  filePathOf(card: Pick<Card, 'id' | 'boardId' | 'status'>): string {
    return path.relative(this.root, this.absolutePath(card)).split(path.sep).join('/');
  }

  absolutePath(card: Pick<Card, 'id' | 'boardId' | 'status'>): string {
    return path.join(this.kanbanDir, 'boards', card.boardId, card.status, `${card.id}.md`);
  }

  async loadAll(): Promise<LoadResult> {
    const files = await this.listCardFiles();
    const cards: Card[] = [];
    const invalid: InvalidFile[] = [];
    for (let i = 0; i < files.length; i += LOAD_SLICE) {
      for (const file of files.slice(i, i + LOAD_SLICE)) {
        const result = this.readCardFileNow(file);
        if ('card' in result) cards.push(result.card);
        else invalid.push(result.invalid);
      }
      // Between slices, whatever else is waiting (requests during a reload) gets its turn.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return { cards, invalid };
  }

  /** Every `<board>/<status>/<id>.md` under the boards folder. */
  async listCardFiles(): Promise<string[]> {
    const boardsDir = path.join(this.kanbanDir, 'boards');
    const files: string[] = [];
    for (const board of await readDirs(boardsDir)) {
      for (const status of await readDirs(path.join(boardsDir, board))) {
        if (RESERVED_BOARD_FOLDERS.has(status)) continue;
        const dir = path.join(boardsDir, board, status);
        const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
        for (const entry of entries) {
          if (entry.isFile() && entry.name.endsWith('.md') && !isTempFile(entry.name)) files.push(path.join(dir, entry.name));
        }
      }
    }
    return files;
  }

  /** Read and parse one card file given its absolute path. */
  async readCardFile(file: string): Promise<{ card: Card } | { invalid: InvalidFile }> {
    const relative = path.relative(this.root, file).split(path.sep).join('/');
    const location = this.locate(file);
    if (!location) return { invalid: { path: relative, reason: 'not in a <board>/<status>/ folder' } };
    try {
      const [text, stat] = await Promise.all([fs.readFile(file, 'utf8'), fs.stat(file)]);
      return { card: parseCard(text, { ...location, fileTime: stat.mtime.toISOString() }) };
    } catch (error) {
      const reason = error instanceof CardFileError ? error.message : `cannot read: ${(error as Error).message}`;
      return { invalid: { path: relative, reason } };
    }
  }

  /** `readCardFile` for loading: synchronous, with the file time from the same open file. */
  private readCardFileNow(file: string): { card: Card } | { invalid: InvalidFile } {
    const relative = path.relative(this.root, file).split(path.sep).join('/');
    const location = this.locate(file);
    if (!location) return { invalid: { path: relative, reason: 'not in a <board>/<status>/ folder' } };
    try {
      const { text, mtime } = readWithTime(file);
      return { card: parseCard(text, { ...location, fileTime: mtime.toISOString() }) };
    } catch (error) {
      const reason = error instanceof CardFileError ? error.message : `cannot read: ${(error as Error).message}`;
      return { invalid: { path: relative, reason } };
    }
  }

  /** Board, status and id from a card file's absolute path, or null when it is not a card path. */
  locate(file: string): { id: string; boardId: string; status: string } | null {
    const parts = path.relative(path.join(this.kanbanDir, 'boards'), file).split(path.sep);
    if (parts.length !== 3 || !parts[2].endsWith('.md') || parts[0].startsWith('..')) return null;
    if (RESERVED_BOARD_FOLDERS.has(parts[1])) return null;
    return { boardId: parts[0], status: parts[1], id: parts[2].slice(0, -3) };
  }

  async create(card: Card): Promise<boolean> {
    if (await this.existsAnywhere(card.id)) return false;
    const text = serializeCard(card);
    const file = this.absolutePath(card);
    this.ownWrites.set(file, { text, card });
    const created = await createFileExclusive(file, text);
    if (!created) this.ownWrites.delete(file);
    return created;
  }

  async update(card: Card, previous: Card): Promise<void> {
    const text = serializeCard(card);
    const file = this.absolutePath(card);
    this.ownWrites.set(file, { text, card });
    await writeFileAtomic(file, text);
    const oldFile = this.absolutePath(previous);
    if (oldFile !== file) {
      this.ownWrites.set(oldFile, { text: '', card: null });
      await fs.rm(oldFile, { force: true });
    }
  }

  async remove(card: Card): Promise<void> {
    const file = this.absolutePath(card);
    this.ownWrites.set(file, { text: '', card: null });
    await fs.rm(file, { force: true });
  }

  /**
   * Another process may have claimed the id in a different board or status folder. The folders
   * are checked all at once: this runs inside the mutation queue, so its latency delays every write.
   */
  private async existsAnywhere(id: string): Promise<boolean> {
    const boardsDir = path.join(this.kanbanDir, 'boards');
    const perBoard = await Promise.all(
      (await readDirs(boardsDir)).map(async (board) => {
        const statuses = (await readDirs(path.join(boardsDir, board))).filter((status) => !RESERVED_BOARD_FOLDERS.has(status));
        const found = await Promise.all(statuses.map((status) => fs.access(path.join(boardsDir, board, status, `${id}.md`)).then(() => true, () => false)));
        return found.includes(true);
      }),
    );
    return perBoard.includes(true);
  }

  async close(): Promise<void> {}
}

function readWithTime(file: string): { text: string; mtime: Date } {
  const fd = openSync(file, 'r');
  try {
    const stat = fstatSync(fd);
    const buffer = Buffer.allocUnsafe(stat.size);
    let read = 0;
    while (read < stat.size) {
      const n = readSync(fd, buffer, read, stat.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return { text: buffer.toString('utf8', 0, read), mtime: stat.mtime };
  } finally {
    closeSync(fd);
  }
}

async function readDirs(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name);
}
