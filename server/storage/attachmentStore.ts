import type { Readable } from 'node:stream';

/** Which card an attachment belongs to. */
export interface CardRef {
  boardId: string;
  id: string;
}

/** How a provider hands back a stored file: a local path, a stream, or neither (then 501). */
export interface AttachmentPayload {
  path?: string;
  stream?: () => Promise<Readable>;
  size?: number;
  contentType?: string;
}

/**
 * Where attachment bytes live (`attachment.storage`). The card record keeps the file names; the
 * store keeps the payloads, one folder or prefix per card.
 */
export interface AttachmentStore {
  readonly provider: string;
  put(card: CardRef, filename: string, data: Buffer, contentType?: string): Promise<void>;
  /** null when the payload does not exist. */
  get(card: CardRef, filename: string): Promise<AttachmentPayload | null>;
  remove(card: CardRef, filename: string): Promise<void>;
  /** Remove every payload of a card (permanent delete). */
  removeAll(card: CardRef): Promise<void>;
  /** Carry payloads to another card location (transfer between boards). */
  move(from: CardRef, to: CardRef, filenames: string[]): Promise<void>;
  /** Provider details for /api/storage (database file, bucket, endpoint...), never secrets. */
  describe?(): Record<string, unknown>;
  close(): Promise<void>;
}
