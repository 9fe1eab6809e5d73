import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { createKanbanGitignoreIfMissing, ensureSelfIgnoringDir } from '../generatedFiles';
import { writeFileAtomic } from '../../core/atomicFile';
import type { CardStateRecord, CardStateStore } from '../cardStateStore';
import { JournalWriter, readJournal, syncDir, type JournalEntry } from './cardStateJournal';
import { log } from '../../core/log';

export interface FileCardStateOptions {
  /** Compact once the journal is this many times the size of the last snapshot... */
  compactRatio?: number;
  /** ...and at least this many bytes, so a small state is not rewritten over and over. */
  compactMinBytes?: number;
}

/** A change waiting for the next journal append, and the savers to answer once it is on disk. */
interface Batch {
  lines: string[];
  written: Promise<void>;
  settle(error?: unknown): void;
}

function newBatch(): Batch {
  let settle!: (error?: unknown) => void;
  const written = new Promise<void>(
    (resolve, reject) => (settle = (error) => (error === undefined ? resolve() : reject(error))),
  );
  // Nobody may be waiting on an emptied batch; its failure is still reported to those who are.
  written.catch(() => undefined);
  return { lines: [], written, settle };
}

/**
 * Card state under `.kanban/.state/` (git-ignored): a snapshot, `card-state.json` (a JSON array of
 * records), and a journal, `card-state.journal`, of the changes since, one JSON line each. A save
 * appends its line and answers after the fdatasync of its batch (saves that arrive meanwhile share
 * the next one), so a save costs a few hundred bytes instead of a rewrite of every record.
 *
 * Compaction runs beside the saves once the journal outgrows the snapshot: the journal is renamed
 * to `card-state.journal.old` (new saves start a fresh journal), the snapshot of every record is
 * written atomically, then the old journal is deleted. Loading reads the snapshot, the old journal
 * and the journal, in that order; every entry sets or removes whole records, so replaying entries
 * the snapshot already holds changes nothing, and a crash between any two steps loads the same state.
 */
export class FileCardStateStore implements CardStateStore {
  readonly provider = 'file';
  private records = new Map<string, CardStateRecord>();
  private journal: JournalWriter;
  private next = newBatch();
  private batchScheduled = false;
  private tail: Promise<unknown> = Promise.resolve();
  private compaction: Promise<void> | null = null;
  private snapshotBytes = 0;
  private stateDirReady = false;
  private readonly compactRatio: number;
  private readonly compactMinBytes: number;

  constructor(
    readonly stateDir: string,
    options: FileCardStateOptions = {},
  ) {
    this.journal = new JournalWriter(this.journalFile, 0);
    this.compactRatio = options.compactRatio ?? 4;
    this.compactMinBytes = options.compactMinBytes ?? 256 * 1024;
  }

  get file(): string {
    return path.join(this.stateDir, 'card-state.json');
  }

  get journalFile(): string {
    return path.join(this.stateDir, 'card-state.journal');
  }

  get oldJournalFile(): string {
    return `${this.journalFile}.old`;
  }

  /** Card ids are unique across boards, and a transfer keeps the id: the board is not part of the key. */
  private key(r: { cardId: string; actor: string }): string {
    return `${r.cardId}\u0000${r.actor}`;
  }

  async loadAll(): Promise<CardStateRecord[]> {
    this.records.clear();
    const snapshot = await fs.readFile(this.file, 'utf8').catch(() => null);
    if (snapshot !== null) this.loadSnapshot(snapshot);
    this.snapshotBytes = snapshot === null ? 0 : Buffer.byteLength(snapshot);
    const old = await readJournal(this.oldJournalFile);
    const current = await readJournal(this.journalFile);
    for (const entry of [...old.entries, ...current.entries]) this.replay(entry);
    this.journal = new JournalWriter(this.journalFile, current.validBytes);
    // A compaction was cut short: finish it, so the next one can rotate the journal again.
    if (await exists(this.oldJournalFile)) this.compactInBackground();
    return [...this.records.values()];
  }

  private loadSnapshot(text: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      log.warn(
        `kanban: ${this.file} is not valid JSON; card state starts from the journal alone (the file is replaced at the next compaction)`,
      );
      return;
    }
    for (const record of Array.isArray(parsed) ? (parsed as CardStateRecord[]) : []) {
      if (
        record &&
        typeof record.boardId === 'string' &&
        typeof record.cardId === 'string' &&
        typeof record.actor === 'string'
      ) {
        // Files written before transfers kept one record per board: the most recently touched one wins.
        const held = this.records.get(this.key(record));
        if (!held || latestStamp(record) >= latestStamp(held)) this.records.set(this.key(record), record);
      }
    }
  }

  private replay(entry: JournalEntry): void {
    if ('save' in entry) this.records.set(this.key(entry.save), entry.save);
    else this.dropCard(entry.removeCard);
  }

  private dropCard(cardId: string): void {
    for (const [key, record] of this.records) if (record.cardId === cardId) this.records.delete(key);
  }

  save(record: CardStateRecord): Promise<void> {
    this.records.set(this.key(record), record);
    return this.append({ save: record });
  }

  removeCard(_boardId: string, cardId: string): Promise<void> {
    this.dropCard(cardId);
    return this.append({ removeCard: cardId });
  }

  private append(entry: JournalEntry): Promise<void> {
    const batch = this.next;
    batch.lines.push(JSON.stringify(entry) + '\n');
    if (!this.batchScheduled) {
      this.batchScheduled = true;
      void this.exclusive(() => this.writeBatch());
    }
    return batch.written;
  }

  /** Journal work (appends, the rotation of a compaction) runs one step at a time, in order. */
  private exclusive<T>(step: () => Promise<T>): Promise<T> {
    const run = this.tail.then(step);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Everything saved since the last append: changes made while this one runs go into the next. */
  private async writeBatch(): Promise<void> {
    this.batchScheduled = false;
    const batch = this.next;
    this.next = newBatch();
    try {
      await this.ensureStateDir();
      await this.journal.append(batch.lines.join(''));
      batch.settle();
    } catch (error) {
      this.stateDirReady = false;
      batch.settle(error);
    }
    if (this.shouldCompact()) this.compactInBackground();
  }

  private shouldCompact(): boolean {
    const bytes = this.journal.bytes;
    return this.compaction === null && bytes >= this.compactMinBytes && bytes >= this.compactRatio * this.snapshotBytes;
  }

  private compactInBackground(): void {
    this.compaction ??= this.compact()
      .catch((error) =>
        log.warn(
          `kanban: compacting ${this.journalFile} failed (it keeps growing until the next try): ${(error as Error).message}`,
        ),
      )
      .finally(() => (this.compaction = null));
  }

  /**
   * The rotation runs between two appends, and the records are captured right after it, before any
   * later change: the snapshot holds every entry of the old journal. The slow part (writing and
   * syncing the snapshot) runs while saves go on appending to the new journal.
   */
  private async compact(): Promise<void> {
    const text = await this.exclusive(async () => {
      // An old journal left by an interrupted compaction is folded into this snapshot as it is.
      if (!(await exists(this.oldJournalFile))) {
        await this.journal.close();
        await fs.rename(this.journalFile, this.oldJournalFile).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
        });
        this.journal = new JournalWriter(this.journalFile, 0);
      }
      return serialize(this.records.values());
    });
    await this.ensureStateDir();
    await writeFileAtomic(this.file, text);
    // The new snapshot's name must be durable before the entries it replaces are deleted.
    await syncDir(this.stateDir);
    this.snapshotBytes = Buffer.byteLength(text);
    await fs.rm(this.oldJournalFile, { force: true });
  }

  private async ensureStateDir(): Promise<void> {
    // The folder and its .gitignore are checked once, not on every save; a failed write checks again.
    if (!this.stateDirReady) {
      await ensureStateDir(this.stateDir);
      // Saving card state is a write a person or agent asked for: a board without the file gets it.
      await createKanbanGitignoreIfMissing(path.dirname(this.stateDir));
    }
    this.stateDirReady = true;
  }

  /** Wait for every save asked so far and a running compaction, then let go of the file. */
  async close(): Promise<void> {
    do {
      await this.exclusive(async () => undefined);
      await this.compaction;
    } while (this.compaction || this.batchScheduled);
    await this.journal.close();
  }
}

/** One record per line: a snapshot of many records stays readable and diffs well by eye. */
function serialize(records: Iterable<CardStateRecord>): string {
  const lines = [...records].map((record) => JSON.stringify(record));
  return lines.length ? `[\n${lines.join(',\n')}\n]\n` : '[]\n';
}

function latestStamp(record: CardStateRecord): string {
  return [record.openedAt, record.readThrough, record.lastActivityAt].reduce<string>(
    (max, t) => (t && t > max ? t : max),
    '',
  );
}

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}

/**
 * `.kanban/.state/`, kept out of git by a `.gitignore` of its own, so a read that writes a cache
 * there changes nothing git shows (`.kanban/.gitignore` is `kanban init`'s and `doctor --fix`'s).
 */
export async function ensureStateDir(stateDir: string): Promise<void> {
  await ensureSelfIgnoringDir(stateDir);
}
