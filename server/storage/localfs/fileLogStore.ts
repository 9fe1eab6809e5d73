import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { log } from '../../core/log';
import type { LogEntry, LogOwner, LogStore } from '../logStore';

/**
 * Logs as JSON Lines files: `.kanban/boards/<boardId>/logs/<cardId>.jsonl` for a card,
 * `.kanban/boards/<boardId>/board.jsonl` for the board. Appending a single line with O_APPEND never
 * rewrites earlier entries; a line cut short by a crash is skipped on read rather than failing the
 * whole log.
 */
export class FileLogStore implements LogStore {
  constructor(private readonly kanbanDir: string) {}

  fileOf(owner: LogOwner): string {
    const board = path.join(this.kanbanDir, 'boards', owner.boardId);
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
