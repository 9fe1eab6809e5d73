import { randomUUID } from 'node:crypto';
import type { SqliteConnection } from './sqliteConnection';

/**
 * Attachment payloads as numbered pieces. SQLite reads a column whole: even `substr(data, ?, ?)`
 * of a 20 MB blob loads all 20 MB (once per call), so the only way to hand a download out piece by
 * piece without holding the whole file is to store it in pieces. Each payload gets a fresh id, and
 * its attachment row points at it: a replacement writes new pieces, so a download already running
 * never mixes old and new bytes (it fails instead, when its pieces are deleted under it).
 */
export const CHUNK_BYTES = 64 * 1024;

/** Write `data` as pieces of a new payload id; the caller runs this inside its transaction. */
export function insertChunks(db: SqliteConnection, data: Buffer): string {
  const blobId = randomUUID();
  const insert = db.prepare('INSERT INTO kanban_attachment_chunks (blob_id, seq, data) VALUES (?, ?, ?)');
  for (let seq = 0, offset = 0; offset < data.length || seq === 0; seq++, offset += CHUNK_BYTES) {
    insert.run(blobId, seq, data.subarray(offset, offset + CHUNK_BYTES));
  }
  return blobId;
}

export function deleteChunks(db: SqliteConnection, blobIds: Iterable<string>): void {
  const remove = db.prepare('DELETE FROM kanban_attachment_chunks WHERE blob_id = ?');
  for (const blobId of blobIds) remove.run(blobId);
}

/** The pieces of one payload in order, each read only when the consumer asks for it. */
export function* readChunks(db: SqliteConnection, blobId: string, size: number): Generator<Buffer> {
  const select = db.prepare('SELECT data FROM kanban_attachment_chunks WHERE blob_id = ? AND seq = ?').pluck();
  let sent = 0;
  for (let seq = 0; sent < size; seq++) {
    const piece = select.get(blobId, seq) as Buffer | undefined;
    if (!piece) throw new Error('the attachment was replaced or removed during the download');
    sent += piece.length;
    yield piece;
  }
}

/** Schema 1 kept each payload whole in `data`: move every one into pieces, one payload in memory at a time. */
export function chunkLegacyAttachments(db: SqliteConnection): void {
  const legacy = db
    .prepare("SELECT rowid FROM kanban_attachments WHERE typeof(data) = 'blob'")
    .pluck()
    .all() as number[];
  const read = db.prepare('SELECT data FROM kanban_attachments WHERE rowid = ?').pluck();
  const point = db.prepare('UPDATE kanban_attachments SET data = ? WHERE rowid = ?');
  for (const rowid of legacy) point.run(insertChunks(db, read.get(rowid) as Buffer), rowid);
}
