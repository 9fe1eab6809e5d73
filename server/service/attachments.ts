import { promises as fs } from 'node:fs';
import { NotFoundError, NotImplementedError, ValidationError } from '../core/errors';
import type { Card } from '../core/model';
import type { AttachmentPayload } from '../storage/attachmentStore';
import { resolveCard } from './taskQueries';
import { saveCard } from './tasks';
import { taskView } from './views';
import type { Workspace } from './workspace';
import { log } from '../core/log';
import type { UploadBody } from '../core/shapes/requests/cardNotes';

/** A name that is safe as one path segment on every OS and in a header. */
export function checkAttachmentName(name: string): string {
  const problem =
    name.trim() === ''
      ? 'is empty'
      : Buffer.byteLength(name) > 255
        ? 'is longer than 255 bytes'
        : /[\/\\]/.test(name)
          ? 'contains / or \\'
          : name.includes('..')
            ? 'contains ..'
            : /[\u0000-\u001f\u007f]/.test(name)
              ? 'contains control characters'
              : name.startsWith('.')
                ? 'starts with a dot'
                : /[<>:"|?*]/.test(name)
                  ? 'contains one of < > : " | ? *'
                  : null;
  if (problem) throw new ValidationError(`attachment name ${JSON.stringify(name)} ${problem}`);
  return name;
}

/** `type/subtype`, optionally with a charset: the shapes a download header can carry as they are. */
const CONTENT_TYPE = /^[\w.+-]+\/[\w.+-]+(?:;\s*charset=[\w-]+)?$/;

function checkContentType(contentType: string | undefined, name: string): string | undefined {
  if (contentType === undefined) return undefined;
  if (contentType.length > 200 || !CONTENT_TYPE.test(contentType)) {
    throw new ValidationError(
      `contentType of "${name}" must be a MIME type such as image/png or text/plain; charset=utf-8 (got ${JSON.stringify(contentType.slice(0, 200))})`,
    );
  }
  return contentType.toLowerCase();
}

/**
 * Strict base64 (whitespace and a `data:...;base64,` prefix tolerated): the canonical re-encoding
 * must give the text back, which rejects stray characters, bad padding and non-zero pad bits.
 * (A regular expression over the whole text overflows the stack on files of a few megabytes.)
 */
export function decodeBase64(data: string, name: string): Buffer {
  const body = data.replace(/^data:[^,]*;base64,/, '').replace(/\s+/g, '');
  const bytes = Buffer.from(body, 'base64');
  if (body.length % 4 !== 0 || bytes.toString('base64') !== body)
    throw new ValidationError(`data of "${name}" is not valid base64`);
  return bytes;
}

/** A file of an upload as bytes: decoded from base64 JSON, or read from a multipart part. */
export interface UploadedFile {
  name: string;
  bytes: Buffer;
  contentType?: string;
}

/** Upload files sent as base64 in JSON. */
export async function uploadAttachments(
  ws: Workspace,
  boardId: string,
  idish: string,
  files: UploadBody['files'],
  actor: string,
) {
  return storeAttachments(ws, boardId, idish, files, (file) => decodeBase64(file.data, file.name), actor);
}

/** Upload files already read as bytes (a multipart/form-data body). */
export async function uploadFiles(ws: Workspace, boardId: string, idish: string, files: UploadedFile[], actor: string) {
  return storeAttachments(ws, boardId, idish, files, (file) => file.bytes, actor);
}

async function storeAttachments<F extends { name: string; contentType?: string }>(
  ws: Workspace,
  boardId: string,
  idish: string,
  files: F[],
  bytesOf: (file: F) => Buffer,
  actor: string,
) {
  return ws.mutate(async () => {
    const previous = resolveCard(ws, boardId, idish);
    if (files.length === 0) throw new ValidationError('files must hold at least one file');
    const seen = new Set<string>();
    // Check every file before storing any, so a bad one leaves nothing half-uploaded.
    const decoded = files.map((file) => {
      checkAttachmentName(file.name);
      if (seen.has(file.name)) throw new ValidationError(`"${file.name}" appears twice in files`);
      seen.add(file.name);
      return { name: file.name, bytes: bytesOf(file), contentType: checkContentType(file.contentType, file.name) };
    });
    const names = decoded.map((f) => f.name);
    // Payloads this upload replaces are kept aside, so a failure half-way can put them back.
    const replaced = await readPayloads(
      ws,
      previous,
      names.filter((name) => previous.attachments.includes(name)),
    );
    const stored: string[] = [];
    const card: Card = {
      ...previous,
      attachments: [...new Set([...previous.attachments, ...names])],
      modified: new Date().toISOString(),
    };
    try {
      for (const file of decoded) {
        stored.push(file.name);
        await ws.attachments.put(previous, file.name, file.bytes, file.contentType);
      }
      await saveCard(ws, card, previous);
    } catch (error) {
      await undoPuts(ws, previous, stored, replaced);
      throw error;
    }
    await ws.cardStates.recordActivity(card, actor);
    ws.emit('attachment.added', boardId, { taskId: card.id, files: names }, card);
    return taskView(ws, card, { withComments: true, actor });
  });
}

interface SavedPayload {
  bytes: Buffer;
  contentType?: string;
}

async function readPayloads(ws: Workspace, card: Card, names: string[]): Promise<Map<string, SavedPayload>> {
  const saved = new Map<string, SavedPayload>();
  for (const name of names) {
    const payload = await ws.attachments.get(card, name);
    if (!payload || (!payload.path && !payload.stream)) continue; // nothing to read back, nothing to restore
    const bytes = payload.stream ? await collect(await payload.stream()) : await fs.readFile(payload.path as string);
    saved.set(name, { bytes, contentType: payload.contentType });
  }
  return saved;
}

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** Undo a failed upload: new files go, replaced ones get their old bytes back. Best effort. */
async function undoPuts(
  ws: Workspace,
  card: Card,
  names: string[],
  replaced: Map<string, SavedPayload>,
): Promise<void> {
  for (const name of names) {
    const old = replaced.get(name);
    const undo = old ? ws.attachments.put(card, name, old.bytes, old.contentType) : ws.attachments.remove(card, name);
    await undo.catch((error) =>
      log.error(`kanban: could not undo the upload of "${name}" on card "${card.id}":`, error),
    );
  }
}

export async function getAttachment(
  ws: Workspace,
  boardId: string,
  idish: string,
  filename: string,
): Promise<AttachmentPayload & { name: string }> {
  // A hand-edited card may list any name; only a safe one may reach the provider.
  checkAttachmentName(filename);
  const card = resolveCard(ws, boardId, idish);
  if (!card.attachments.includes(filename))
    throw new NotFoundError(`card "${card.id}" has no attachment "${filename}"`);
  const payload = await ws.attachments.get(card, filename);
  if (!payload)
    throw new NotFoundError(`the file of attachment "${filename}" is missing from ${ws.attachments.provider} storage`);
  if (!payload.path && !payload.stream)
    throw new NotImplementedError(
      `the ${ws.attachments.provider} attachment provider exposes no local file and cannot stream`,
    );
  return { ...payload, name: filename };
}

export async function deleteAttachment(ws: Workspace, boardId: string, idish: string, filename: string, actor: string) {
  return ws.mutate(async () => {
    checkAttachmentName(filename);
    const previous = resolveCard(ws, boardId, idish);
    if (!previous.attachments.includes(filename))
      throw new NotFoundError(`card "${previous.id}" has no attachment "${filename}"`);
    await ws.attachments.remove(previous, filename);
    const card: Card = {
      ...previous,
      attachments: previous.attachments.filter((a) => a !== filename),
      modified: new Date().toISOString(),
    };
    await saveCard(ws, card, previous);
    ws.emit('attachment.removed', boardId, { taskId: card.id, file: filename }, card);
    return taskView(ws, card, { withComments: true, actor });
  });
}
