import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { CardStateRecord } from '../cardStateStore';
import { log } from '../../core/log';

/** One change of card state, one JSON line of the journal. Replaying a change twice is harmless. */
export type JournalEntry = { save: CardStateRecord } | { removeCard: string };

export function isJournalEntry(value: unknown): value is JournalEntry {
  const entry = value as { save?: CardStateRecord; removeCard?: unknown };
  if (typeof entry !== 'object' || entry === null) return false;
  if (typeof entry.removeCard === 'string') return true;
  const record = entry.save;
  return (
    typeof record === 'object' &&
    record !== null &&
    typeof record.boardId === 'string' &&
    typeof record.cardId === 'string' &&
    typeof record.actor === 'string'
  );
}

export interface JournalContents {
  entries: JournalEntry[];
  /** Bytes up to the end of the last whole, valid line: what later appends continue from. */
  validBytes: number;
}

/**
 * The entries of a journal file, stopping at the first line that is cut short or unreadable. A
 * crash in the middle of an append leaves such a line last; its batch was never acknowledged (the
 * fsync had not returned), so dropping it loses nothing anyone was told was saved.
 */
export async function readJournal(file: string): Promise<JournalContents> {
  const bytes = await fs.readFile(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (bytes === null) return { entries: [], validBytes: 0 };
  const entries: JournalEntry[] = [];
  let start = 0;
  while (start < bytes.length) {
    const end = bytes.indexOf(0x0a, start);
    if (end < 0) break;
    const entry = parseLine(bytes.subarray(start, end).toString('utf8'));
    if (!entry) break;
    entries.push(entry);
    start = end + 1;
  }
  if (start < bytes.length) {
    const rest = bytes.length - start;
    log.warn(
      `kanban: ${file} ends with ${rest} bytes that are not a whole journal line (an append cut short by a crash); they are ignored`,
    );
  }
  return { entries, validBytes: start };
}

function parseLine(line: string): JournalEntry | null {
  try {
    const value: unknown = JSON.parse(line);
    return isJournalEntry(value) ? value : null;
  } catch {
    return null;
  }
}

/** Make a rename or a new file in `dir` durable (its directory entry, not only its bytes). */
export async function syncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * The append side of a journal file: whole lines, one write and one fdatasync per batch. It knows
 * how many bytes are good; after a failed append (a full disk may have written half a line) the
 * file is cut back to that length before the next append, so a later line never follows a torn one.
 */
export class JournalWriter {
  private handle: fs.FileHandle | null = null;
  private needsTrim = false;

  constructor(
    readonly file: string,
    private goodBytes: number,
  ) {}

  get bytes(): number {
    return this.goodBytes;
  }

  async append(text: string): Promise<void> {
    const handle = await this.open();
    try {
      const data = Buffer.from(text, 'utf8');
      await handle.write(data, 0, data.length, null);
      await handle.datasync();
      this.goodBytes += data.length;
    } catch (error) {
      this.needsTrim = true;
      await this.close();
      throw error;
    }
  }

  private async open(): Promise<fs.FileHandle> {
    if (this.handle) return this.handle;
    const created = this.goodBytes === 0 && !(await exists(this.file));
    if (!created && (this.needsTrim || (await fs.stat(this.file)).size !== this.goodBytes)) {
      await fs.truncate(this.file, this.goodBytes);
    }
    this.needsTrim = false;
    this.handle = await fs.open(this.file, 'a');
    // A new file's name must survive a crash as well as its bytes.
    if (created) await syncDir(path.dirname(this.file));
    return this.handle;
  }

  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    await handle?.close().catch(() => undefined);
  }
}

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}
