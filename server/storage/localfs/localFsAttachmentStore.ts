import { createReadStream, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../../core/atomicFile';
import type { AttachmentPayload, AttachmentStore, CardRef } from '../attachmentStore';

const CONTENT_TYPES_FILE = '.content-types.json';

/** Attachments as plain files: `.kanban/boards/<boardId>/attachments/<cardId>/<filename>`. */
export class LocalFsAttachmentStore implements AttachmentStore {
  readonly provider = 'localfs';

  constructor(readonly kanbanDir: string) {}

  /** Callers pass only validated names (no separators, no dot-dot); this is the second line of defence. */
  folderOf(card: CardRef): string {
    return this.inside(path.join(this.kanbanDir, 'boards', card.boardId, 'attachments', card.id));
  }

  private inside(target: string): string {
    const resolved = path.resolve(target);
    if (!resolved.startsWith(path.resolve(this.kanbanDir) + path.sep))
      throw new Error(`attachment path escapes the workspace: ${target}`);
    return resolved;
  }

  private fileOf(card: CardRef, filename: string): string {
    return this.inside(path.join(this.folderOf(card), filename));
  }

  /** The cards of `boardId` with a folder of files here: one listing, whatever the number of cards. */
  async cardsWithFiles(boardId: string): Promise<Set<string>> {
    const folder = this.inside(path.join(this.kanbanDir, 'boards', boardId, 'attachments'));
    return new Set(await fs.readdir(folder).catch(() => [] as string[]));
  }

  async put(card: CardRef, filename: string, data: Buffer, contentType?: string): Promise<void> {
    await writeFileAtomic(this.fileOf(card, filename), data);
    await this.setContentType(card, filename, contentType);
  }

  async get(card: CardRef, filename: string): Promise<AttachmentPayload | null> {
    const file = this.fileOf(card, filename);
    const stat = await fs.stat(file).catch(() => null);
    if (!stat?.isFile()) return null;
    const contentType = (await this.readContentTypes(card))[filename];
    return {
      path: file,
      size: stat.size,
      stream: async () => createReadStream(file),
      ...(contentType ? { contentType } : {}),
    };
  }

  async remove(card: CardRef, filename: string): Promise<void> {
    await fs.rm(this.fileOf(card, filename), { force: true });
    await this.setContentType(card, filename, undefined);
    await fs.rmdir(this.folderOf(card)).catch(() => undefined); // only when now empty
  }

  /**
   * A plain file keeps no MIME type, so types given at upload live in a sidecar in the card folder.
   * Its leading dot keeps it apart from attachments, whose names may not start with one.
   */
  private typesFileOf(card: CardRef): string {
    return path.join(this.folderOf(card), CONTENT_TYPES_FILE);
  }

  /** File name to type, in a prototype-free object: `constructor` or `__proto__` are plain names here. */
  private async readContentTypes(card: CardRef): Promise<Record<string, string>> {
    const types: Record<string, string> = Object.create(null);
    const text = await fs.readFile(this.typesFileOf(card), 'utf8').catch(() => null);
    if (text === null) return types;
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        for (const [name, type] of Object.entries(parsed)) if (typeof type === 'string') types[name] = type;
      }
    } catch {
      // An unreadable sidecar only loses the stated types; file names still give one.
    }
    return types;
  }

  private async setContentType(card: CardRef, filename: string, contentType: string | undefined): Promise<void> {
    const types = await this.readContentTypes(card);
    if (types[filename] === contentType) return;
    if (contentType === undefined) delete types[filename];
    else types[filename] = contentType;
    const file = this.typesFileOf(card);
    if (Object.keys(types).length === 0) await fs.rm(file, { force: true });
    else await writeFileAtomic(file, JSON.stringify(types, null, 1) + '\n');
  }

  async removeAll(card: CardRef): Promise<void> {
    await fs.rm(this.folderOf(card), { recursive: true, force: true });
  }

  async move(from: CardRef, to: CardRef, filenames: string[]): Promise<void> {
    if (filenames.length === 0) return;
    const source = this.folderOf(from);
    const target = this.folderOf(to);
    const exists = await fs.stat(source).then(
      () => true,
      () => false,
    );
    if (!exists) return;
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.rename(source, target);
  }

  async close(): Promise<void> {}
}
