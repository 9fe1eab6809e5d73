import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { AttachmentPayload, AttachmentStore, CardRef } from '../attachmentStore';
import type { SqlDatabase, SqlTransaction } from './sqlDatabase';

/**
 * Pieces of 256 KiB: a download holds one at a time, and a file of a few MB costs a handful of
 * round trips instead of one per 64 KiB (a network database, unlike SQLite, pays per query).
 */
export const SQL_CHUNK_BYTES = 256 * 1024;
/** Two instances replacing one file at once: the loser of the key race tries again, a few times. */
const PUT_ATTEMPTS = 4;

const WHERE_FILE = 'board_id = ? AND card_id = ? AND filename = ?';

/**
 * Attachments in the card database (MySQL, PostgreSQL), so every instance over it serves the same
 * files. As in the SQLite store, a row per card and file name points at its payload's pieces by a
 * fresh id: a replacement writes new pieces, so a download already running never mixes old and new
 * bytes (it fails instead, when its pieces are deleted under it).
 */
export class SqlAttachmentStore implements AttachmentStore {
  constructor(
    private readonly db: SqlDatabase,
    readonly provider: string,
    private readonly details: Record<string, unknown> = {},
  ) {}

  async put(card: CardRef, filename: string, data: Buffer, contentType?: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.db.transaction(async (tx) => {
          const blobId = await insertChunks(tx, data);
          const replaced = await blobIdsOf(tx, WHERE_FILE, [card.boardId, card.id, filename]);
          await tx.run(`DELETE FROM kanban_attachments WHERE ${WHERE_FILE}`, [card.boardId, card.id, filename]);
          await tx.run(
            'INSERT INTO kanban_attachments (board_id, card_id, filename, content_type, size, blob_id) VALUES (?, ?, ?, ?, ?, ?)',
            [card.boardId, card.id, filename, contentType ?? null, data.length, blobId],
          );
          await deleteChunks(tx, replaced);
        });
        return;
      } catch (error) {
        if (!this.db.isDuplicateKey(error) || attempt >= PUT_ATTEMPTS) throw error;
      }
    }
  }

  async get(card: CardRef, filename: string): Promise<AttachmentPayload | null> {
    const [row] = await this.db.all<{ size: number; content_type: string | null; blob_id: string }>(
      `SELECT size, content_type, blob_id FROM kanban_attachments WHERE ${WHERE_FILE}`,
      [card.boardId, card.id, filename],
    );
    if (!row) return null;
    const size = Number(row.size);
    return {
      size,
      ...(row.content_type ? { contentType: row.content_type } : {}),
      // A byte stream: what it may buffer ahead is counted in bytes (one piece), not in pieces.
      stream: async () =>
        Readable.from(this.chunksOf(row.blob_id, size), { objectMode: false, highWaterMark: SQL_CHUNK_BYTES }),
    };
  }

  /** The pieces of one payload in order, each read only when the consumer asks for it. */
  private async *chunksOf(blobId: string, size: number): AsyncGenerator<Buffer> {
    let sent = 0;
    for (let seq = 0; sent < size; seq++) {
      const [piece] = await this.db.all<{ data: Buffer }>(
        'SELECT data FROM kanban_attachment_chunks WHERE blob_id = ? AND seq = ?',
        [blobId, seq],
      );
      if (!piece) throw new Error('the attachment was replaced or removed during the download');
      sent += piece.data.length;
      yield piece.data;
    }
  }

  async remove(card: CardRef, filename: string): Promise<void> {
    await this.removeWhere(WHERE_FILE, [card.boardId, card.id, filename]);
  }

  async removeAll(card: CardRef): Promise<void> {
    await this.removeWhere('board_id = ? AND card_id = ?', [card.boardId, card.id]);
  }

  private async removeWhere(where: string, params: string[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      const gone = await blobIdsOf(tx, where, params);
      await tx.run(`DELETE FROM kanban_attachments WHERE ${where}`, params);
      await deleteChunks(tx, gone);
    });
  }

  async move(from: CardRef, to: CardRef, filenames: string[]): Promise<void> {
    // Clearing the target first would delete the very files to move.
    if (from.boardId === to.boardId && from.id === to.id) return;
    await this.db.transaction(async (tx) => {
      for (const name of filenames) {
        const target = [to.boardId, to.id, name];
        const replaced = await blobIdsOf(tx, WHERE_FILE, target);
        await tx.run(`DELETE FROM kanban_attachments WHERE ${WHERE_FILE}`, target);
        await deleteChunks(tx, replaced);
        await tx.run(`UPDATE kanban_attachments SET board_id = ?, card_id = ? WHERE ${WHERE_FILE}`, [
          to.boardId,
          to.id,
          from.boardId,
          from.id,
          name,
        ]);
      }
    });
  }

  describe(): Record<string, unknown> {
    return this.details;
  }

  /** The database belongs to the card store, which closes it. */
  async close(): Promise<void> {}
}

/** Write `data` as pieces of a new payload id, inside the caller's transaction. */
async function insertChunks(tx: SqlTransaction, data: Buffer): Promise<string> {
  const blobId = randomUUID();
  for (let seq = 0, offset = 0; offset < data.length || seq === 0; seq++, offset += SQL_CHUNK_BYTES) {
    await tx.run('INSERT INTO kanban_attachment_chunks (blob_id, seq, data) VALUES (?, ?, ?)', [
      blobId,
      seq,
      data.subarray(offset, offset + SQL_CHUNK_BYTES),
    ]);
  }
  return blobId;
}

async function blobIdsOf(tx: SqlTransaction, where: string, params: string[]): Promise<string[]> {
  const rows = await tx.all<{ blob_id: string }>(`SELECT blob_id FROM kanban_attachments WHERE ${where}`, params);
  return rows.map((row) => row.blob_id);
}

async function deleteChunks(tx: SqlTransaction, blobIds: string[]): Promise<void> {
  for (const blobId of blobIds) await tx.run('DELETE FROM kanban_attachment_chunks WHERE blob_id = ?', [blobId]);
}
