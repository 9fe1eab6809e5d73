import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { log } from '../../core/log';
import type { AppendedEntries, LogEntry, LogMark, LogOwner, LogStore } from '../logStore';

/**
 * Logs as JSON Lines files: `.kanban/boards/<boardId>/logs/<cardId>.jsonl` for a card,
 * `.kanban/boards/<boardId>/board.jsonl` for the board, `.kanban/boards/<boardId>/flow.jsonl` for
 * its flow history. Appending a single line with O_APPEND never
 * rewrites earlier entries; a line cut short by a crash is skipped on read rather than failing the
 * whole log.
 */
export class FileLogStore implements LogStore {
  constructor(private readonly kanbanDir: string) {}

  fileOf(owner: LogOwner): string {
    const board = path.join(this.kanbanDir, 'boards', owner.boardId);
    if (owner.stream === 'flow') return path.join(board, 'flow.jsonl');
    return owner.cardId === undefined
      ? path.join(board, 'board.jsonl')
      : path.join(board, 'logs', `${owner.cardId}.jsonl`);
  }

  /** The cards of `boardId` that have a log file: one directory listing, not one lookup per card. */
  async cardsWithLogs(boardId: string): Promise<string[]> {
    const names = await fs.readdir(path.join(this.kanbanDir, 'boards', boardId, 'logs')).catch(() => [] as string[]);
    return names.filter((name) => name.endsWith('.jsonl')).map((name) => name.slice(0, -'.jsonl'.length));
  }

  async append(owner: LogOwner, entry: LogEntry): Promise<void> {
    const file = this.fileOf(owner);
    await fs.mkdir(path.dirname(file), { recursive: true });
    // After a crash mid-line the new entry must start on a line of its own, or it is lost with the torn one.
    const separator = (await endsWithoutNewline(file)) ? '\n' : '';
    await fs.appendFile(file, separator + JSON.stringify(entry) + '\n');
  }

  async read(owner: LogOwner): Promise<LogEntry[]> {
    const file = this.fileOf(owner);
    const text = await fs.readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '';
      throw error;
    });
    return entriesOf(text, file);
  }

  async readAppended(owner: LogOwner, mark: LogMark | null): Promise<AppendedEntries> {
    const since = mark as FileMark | null;
    const file = this.fileOf(owner);
    const handle = await fs.open(file, 'r').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (!handle) return { entries: [], mark: null, whole: since !== null };
    try {
      const { ino, size, mtimeMs } = await handle.stat();
      if (since && since.ino === ino && since.size === size && since.mtimeMs === mtimeMs)
        return { entries: [], mark: since, whole: false };
      // Grown in place: only the new lines. Anything else (a new file, a shorter one, one that changed
      // without growing) was rewritten, and its whole text is read again.
      const appended = since !== null && since.ino === ino && size > since.size;
      const start = appended ? since.size : 0;
      const buffer = Buffer.alloc(size - start);
      await handle.read(buffer, 0, buffer.length, start);
      // A line still being written (no newline yet) is left for the next read.
      const complete = buffer.lastIndexOf(0x0a) + 1;
      const entries = entriesOf(buffer.subarray(0, complete).toString('utf8'), file);
      return { entries, mark: { ino, size: start + complete, mtimeMs }, whole: !appended };
    } finally {
      await handle.close();
    }
  }

  async clear(owner: LogOwner): Promise<void> {
    await fs.rm(this.fileOf(owner), { force: true });
  }

  async move(from: LogOwner, to: LogOwner): Promise<void> {
    const source = this.fileOf(from);
    if (
      !(await fs.stat(source).then(
        () => true,
        () => false,
      ))
    )
      return;
    const target = this.fileOf(to);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.rename(source, target);
  }
}

/** Where a file log ended: the file, its last whole line, when it last changed. */
type FileMark = {
  ino: number;
  size: number;
  mtimeMs: number;
};

function entriesOf(text: string, file: string): LogEntry[] {
  const entries: LogEntry[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      entries.push(JSON.parse(line));
    } catch {
      log.warn(`kanban: skipped an unreadable line in ${file}`);
    }
  }
  return entries;
}

async function endsWithoutNewline(file: string): Promise<boolean> {
  const handle = await fs.open(file, 'r').catch(() => null);
  if (!handle) return false;
  try {
    const { size } = await handle.stat();
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  } finally {
    await handle.close();
  }
}
