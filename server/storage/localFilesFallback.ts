import { promises as fs } from 'node:fs';
import type { AttachmentPayload, AttachmentStore, CardRef } from './attachmentStore';
import type { LogEntry, LogOwner, LogStore } from './logStore';
import type { FileLogStore } from './localfs/fileLogStore';
import type { LocalFsAttachmentStore } from './localfs/localFsAttachmentStore';

/*
 * Before schema 5 a MySQL workspace kept attachments and logs in the local files of the instance
 * that took them. Those files stay readable, and are removed or moved with their card, while
 * everything new goes to the database: an upgrade loses nothing, and writes no file on its own.
 * At start the service moves them into the database (adoptLocalFile), so other instances see them.
 */

/** Attachments in the database, with the older local files still served when the database has no such file. */
export class AttachmentsWithLocalFiles implements AttachmentStore {
  readonly provider: string;

  constructor(
    private readonly database: AttachmentStore,
    private readonly files: LocalFsAttachmentStore,
  ) {
    this.provider = database.provider;
  }

  /** The cards of `boardId` whose files are (partly) still local. */
  cardsWithLocalFiles(boardId: string): Promise<Set<string>> {
    return this.files.cardsWithFiles(boardId);
  }

  async put(card: CardRef, filename: string, data: Buffer, contentType?: string): Promise<void> {
    await this.database.put(card, filename, data, contentType);
    await this.files.remove(card, filename);
  }

  async get(card: CardRef, filename: string): Promise<AttachmentPayload | null> {
    return (await this.database.get(card, filename)) ?? this.files.get(card, filename);
  }

  async remove(card: CardRef, filename: string): Promise<void> {
    await this.database.remove(card, filename);
    await this.files.remove(card, filename);
  }

  async removeAll(card: CardRef): Promise<void> {
    await this.database.removeAll(card);
    await this.files.removeAll(card);
  }

  async move(from: CardRef, to: CardRef, filenames: string[]): Promise<void> {
    await this.database.move(from, to, filenames);
    await this.files.move(from, to, filenames);
  }

  /**
   * Put the local file of `filename` into the database, then remove it: true when there was one.
   * The file goes only once its copy is committed; one the database holds already is what is
   * served, and the local one is what an earlier adoption or upload left behind after its commit.
   */
  async adoptLocalFile(card: CardRef, filename: string): Promise<boolean> {
    const local = await this.files.get(card, filename);
    if (!local?.path) return false;
    if (!(await this.database.get(card, filename))) {
      const data = await fs.readFile(local.path).catch((error: NodeJS.ErrnoException) => {
        // Another process sharing this folder adopted it meanwhile.
        if (error.code === 'ENOENT') return null;
        throw error;
      });
      if (!data) return false;
      await this.database.put(card, filename, data, local.contentType);
    }
    await this.files.remove(card, filename);
    return true;
  }

  describe(): Record<string, unknown> {
    return this.database.describe?.() ?? {};
  }

  async close(): Promise<void> {
    await this.database.close();
    await this.files.close();
  }
}

/** Logs in the database, after the entries an older service wrote to this instance's local file. */
export class LogsWithLocalFiles implements LogStore {
  constructor(
    private readonly database: LogStore,
    private readonly files: FileLogStore,
  ) {}

  /** The cards of `boardId` whose log is still (partly) in a local file. */
  cardsWithLocalLogs(boardId: string): Promise<string[]> {
    return this.files.cardsWithLogs(boardId);
  }

  append(owner: LogOwner, entry: LogEntry): Promise<void> {
    return this.database.append(owner, entry);
  }

  async read(owner: LogOwner): Promise<LogEntry[]> {
    return [...(await this.files.read(owner)), ...(await this.database.read(owner))];
  }

  async clear(owner: LogOwner): Promise<void> {
    await this.database.clear(owner);
    await this.files.clear(owner);
  }

  async move(from: LogOwner, to: LogOwner): Promise<void> {
    await this.database.move(from, to);
    await this.files.move(from, to);
  }

  /** Put the local log of `owner` into the database ahead of its entries, then remove the file: true when there was one. */
  async adoptLocalFile(owner: LogOwner): Promise<boolean> {
    const entries = await this.files.read(owner);
    if (entries.length === 0 || !this.database.adoptOlder) return false;
    await this.database.adoptOlder(owner, entries);
    await this.files.clear(owner);
    return true;
  }
}
