import { Readable } from 'node:stream';
import type { AttachmentPayload, AttachmentStore, CardRef } from '../attachmentStore';
import { SqliteFileStore, openSqliteWithSchema } from './sqliteFileStore';
import type { SqliteLocation } from './sqliteCardStore';

/** Downloads are handed out in pieces of this size, so a large file is never one giant write. */
const STREAM_CHUNK_BYTES = 64 * 1024;

/**
 * `attachment.storage: sqlite`: file payloads as blobs, one row per card and file name. Several
 * processes may share the file (WAL); each statement is its own transaction.
 */
export class SqliteAttachmentStore extends SqliteFileStore implements AttachmentStore {
  static async open(location: SqliteLocation): Promise<SqliteAttachmentStore> {
    return new SqliteAttachmentStore(await openSqliteWithSchema(location, 'attachments'), location);
  }

  async put(card: CardRef, filename: string, data: Buffer, contentType?: string): Promise<void> {
    this.db
      .prepare('INSERT OR REPLACE INTO kanban_attachments (board_id, card_id, filename, content_type, size, data) VALUES (?, ?, ?, ?, ?, ?)')
      .run(card.boardId, card.id, filename, contentType ?? null, data.length, data);
  }

  async get(card: CardRef, filename: string): Promise<AttachmentPayload | null> {
    const row = this.db
      .prepare('SELECT size, content_type FROM kanban_attachments WHERE board_id = ? AND card_id = ? AND filename = ?')
      .get(card.boardId, card.id, filename) as { size: number; content_type: string | null } | undefined;
    if (!row) return null;
    return {
      size: row.size,
      ...(row.content_type ? { contentType: row.content_type } : {}),
      stream: async () => Readable.from(this.chunksOf(card, filename)),
    };
  }

  /** The blob, read when the download starts; gone by then means an empty, ended stream. */
  private *chunksOf(card: CardRef, filename: string): Generator<Buffer> {
    const row = this.db
      .prepare('SELECT data FROM kanban_attachments WHERE board_id = ? AND card_id = ? AND filename = ?')
      .get(card.boardId, card.id, filename) as { data: Buffer } | undefined;
    if (!row) return;
    for (let offset = 0; offset < row.data.length; offset += STREAM_CHUNK_BYTES) yield row.data.subarray(offset, offset + STREAM_CHUNK_BYTES);
  }

  async remove(card: CardRef, filename: string): Promise<void> {
    this.db.prepare('DELETE FROM kanban_attachments WHERE board_id = ? AND card_id = ? AND filename = ?').run(card.boardId, card.id, filename);
  }

  async removeAll(card: CardRef): Promise<void> {
    this.db.prepare('DELETE FROM kanban_attachments WHERE board_id = ? AND card_id = ?').run(card.boardId, card.id);
  }

  async move(from: CardRef, to: CardRef, filenames: string[]): Promise<void> {
    const moveOne = this.db.prepare(
      'UPDATE kanban_attachments SET board_id = ?, card_id = ? WHERE board_id = ? AND card_id = ? AND filename = ?',
    );
    const clearTarget = this.db.prepare('DELETE FROM kanban_attachments WHERE board_id = ? AND card_id = ? AND filename = ?');
    this.db.transaction(() => {
      for (const name of filenames) {
        clearTarget.run(to.boardId, to.id, name);
        moveOne.run(to.boardId, to.id, from.boardId, from.id, name);
      }
    }).immediate();
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
