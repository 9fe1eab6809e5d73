import { Readable } from 'node:stream';
import type { AttachmentPayload, AttachmentStore, CardRef } from '../attachmentStore';
import { SqliteFileStore, openSqliteWithSchema } from './sqliteFileStore';
import type { SqliteLocation } from './sqliteCardStore';
import { deleteChunks, insertChunks, readChunks } from './sqliteBlobChunks';

const WHERE_FILE = 'board_id = ? AND card_id = ? AND filename = ?';

/**
 * `attachment.storage: sqlite`: one row per card and file name, whose payload is stored in pieces
 * (sqliteBlobChunks.ts), so a download holds one piece at a time, never the whole file. Several
 * processes may share the file (WAL); each change is one transaction.
 */
export class SqliteAttachmentStore extends SqliteFileStore implements AttachmentStore {
  static async open(location: SqliteLocation): Promise<SqliteAttachmentStore> {
    return new SqliteAttachmentStore(await openSqliteWithSchema(location, 'attachments'), location);
  }

  async put(card: CardRef, filename: string, data: Buffer, contentType?: string): Promise<void> {
    this.db
      .transaction(() => {
        const replaced = this.blobIds(
          `SELECT data FROM kanban_attachments WHERE ${WHERE_FILE}`,
          card.boardId,
          card.id,
          filename,
        );
        const blobId = insertChunks(this.db, data);
        this.db
          .prepare(
            'INSERT OR REPLACE INTO kanban_attachments (board_id, card_id, filename, content_type, size, data) VALUES (?, ?, ?, ?, ?, ?)',
          )
          .run(card.boardId, card.id, filename, contentType ?? null, data.length, blobId);
        deleteChunks(this.db, replaced);
      })
      .immediate();
  }

  async get(card: CardRef, filename: string): Promise<AttachmentPayload | null> {
    const row = this.db
      .prepare(`SELECT size, content_type FROM kanban_attachments WHERE ${WHERE_FILE}`)
      .get(card.boardId, card.id, filename) as { size: number; content_type: string | null } | undefined;
    if (!row) return null;
    return {
      size: row.size,
      ...(row.content_type ? { contentType: row.content_type } : {}),
      stream: async () => Readable.from(this.chunksOf(card, filename)),
    };
  }

  /** The payload as it is when the download starts; gone by then means an empty, ended stream. */
  private *chunksOf(card: CardRef, filename: string): Generator<Buffer> {
    const row = this.db
      .prepare(`SELECT size, data AS blobId FROM kanban_attachments WHERE ${WHERE_FILE}`)
      .get(card.boardId, card.id, filename) as { size: number; blobId: string } | undefined;
    if (!row) return;
    yield* readChunks(this.db, row.blobId, row.size);
  }

  /** The payload ids of the rows a query selects (`data` holds each row's payload id). */
  private blobIds(query: string, ...params: string[]): string[] {
    return this.db
      .prepare(query)
      .pluck()
      .all(...params) as string[];
  }

  async remove(card: CardRef, filename: string): Promise<void> {
    this.db
      .transaction(() => {
        const gone = this.blobIds(
          `SELECT data FROM kanban_attachments WHERE ${WHERE_FILE}`,
          card.boardId,
          card.id,
          filename,
        );
        this.db.prepare(`DELETE FROM kanban_attachments WHERE ${WHERE_FILE}`).run(card.boardId, card.id, filename);
        deleteChunks(this.db, gone);
      })
      .immediate();
  }

  async removeAll(card: CardRef): Promise<void> {
    this.db
      .transaction(() => {
        const gone = this.blobIds(
          'SELECT data FROM kanban_attachments WHERE board_id = ? AND card_id = ?',
          card.boardId,
          card.id,
        );
        this.db.prepare('DELETE FROM kanban_attachments WHERE board_id = ? AND card_id = ?').run(card.boardId, card.id);
        deleteChunks(this.db, gone);
      })
      .immediate();
  }

  async move(from: CardRef, to: CardRef, filenames: string[]): Promise<void> {
    const moveOne = this.db.prepare(`UPDATE kanban_attachments SET board_id = ?, card_id = ? WHERE ${WHERE_FILE}`);
    const clearTarget = this.db.prepare(`DELETE FROM kanban_attachments WHERE ${WHERE_FILE}`);
    this.db
      .transaction(() => {
        for (const name of filenames) {
          deleteChunks(
            this.db,
            this.blobIds(`SELECT data FROM kanban_attachments WHERE ${WHERE_FILE}`, to.boardId, to.id, name),
          );
          clearTarget.run(to.boardId, to.id, name);
          moveOne.run(to.boardId, to.id, from.boardId, from.id, name);
        }
      })
      .immediate();
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
