import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../../core/atomicFile';
import type { CardStateRecord, CardStateStore } from '../cardStateStore';
import { log } from '../../core/log';

/**
 * Card state as one JSON file under `.kanban/.state/` (git-ignored). Records are few and small;
 * the whole file is rewritten atomically, coalescing bursts of saves into one write.
 */
export class FileCardStateStore implements CardStateStore {
  readonly provider = 'file';
  private records = new Map<string, CardStateRecord>();
  private writing: Promise<void> = Promise.resolve();
  private dirty = false;
  private stateDirReady = false;
  /** Each record's part of the file, made once per record object (a save replaces the object). */
  private fragments = new WeakMap<CardStateRecord, string>();

  constructor(readonly stateDir: string) {}

  get file(): string {
    return path.join(this.stateDir, 'card-state.json');
  }

  /** Card ids are unique across boards, and a transfer keeps the id: the board is not part of the key. */
  private key(r: { cardId: string; actor: string }): string {
    return `${r.cardId}\u0000${r.actor}`;
  }

  async loadAll(): Promise<CardStateRecord[]> {
    const text = await fs.readFile(this.file, 'utf8').catch(() => null);
    if (text === null) return [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      log.warn(`kanban: ${this.file} is not valid JSON; card state starts empty (the file is left as it is until the next change)`);
      return [];
    }
    const list = Array.isArray(parsed) ? (parsed as CardStateRecord[]) : [];
    for (const record of list) {
      if (record && typeof record.boardId === 'string' && typeof record.cardId === 'string' && typeof record.actor === 'string') {
        // Files written before transfers kept one record per board: the most recently touched one wins.
        const held = this.records.get(this.key(record));
        if (!held || latestStamp(record) >= latestStamp(held)) this.records.set(this.key(record), record);
      }
    }
    return [...this.records.values()];
  }

  save(record: CardStateRecord): Promise<void> {
    this.records.set(this.key(record), record);
    return this.flush();
  }

  removeCard(_boardId: string, cardId: string): Promise<void> {
    for (const [key, record] of this.records) if (record.cardId === cardId) this.records.delete(key);
    return this.flush();
  }

  /** One write at a time; saves that arrive meanwhile are folded into the next write. */
  private flush(): Promise<void> {
    if (this.dirty) return this.writing;
    this.dirty = true;
    // A failed write must not poison the chain: the next save tries again with every record.
    this.writing = this.writing.catch(() => undefined).then(async () => {
      this.dirty = false;
      // The folder and its .gitignore are checked once, not on every save; a failed write checks again.
      if (!this.stateDirReady) await ensureStateDir(this.stateDir);
      this.stateDirReady = true;
      try {
        await writeFileAtomic(this.file, this.serialize());
      } catch (error) {
        this.stateDirReady = false;
        throw error;
      }
    });
    return this.writing;
  }

  /**
   * `JSON.stringify([...records], null, 1)` plus a newline, assembled from per-record pieces: only
   * records changed since the last save are stringified again.
   */
  private serialize(): string {
    const parts: string[] = [];
    for (const record of this.records.values()) {
      let part = this.fragments.get(record);
      if (part === undefined) {
        part = ' ' + JSON.stringify(record, null, 1).replace(/\n/g, '\n ');
        this.fragments.set(record, part);
      }
      parts.push(part);
    }
    return (parts.length ? `[\n${parts.join(',\n')}\n]` : '[]') + '\n';
  }

  async close(): Promise<void> {
    await this.writing.catch(() => undefined);
  }
}

function latestStamp(record: CardStateRecord): string {
  return [record.openedAt, record.readThrough, record.lastActivityAt].reduce<string>((max, t) => (t && t > max ? t : max), '');
}

/** `.kanban/.state/` plus the `.kanban/.gitignore` that keeps it out of git. */
export async function ensureStateDir(stateDir: string): Promise<void> {
  await fs.mkdir(stateDir, { recursive: true });
  const gitignore = path.join(path.dirname(stateDir), '.gitignore');
  const current = await fs.readFile(gitignore, 'utf8').catch(() => null);
  if (current === null) await writeFileAtomic(gitignore, '.state/\n');
  else if (!current.split('\n').some((line) => line.trim() === '.state/' || line.trim() === '.state')) {
    await writeFileAtomic(gitignore, current.replace(/\n?$/, '\n') + '.state/\n');
  }
}
