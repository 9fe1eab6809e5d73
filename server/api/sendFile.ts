import { createReadStream } from 'node:fs';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { AttachmentPayload } from '../storage/attachmentStore';
import { RawResponse } from './route';

const TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.json': 'application/json',
  '.csv': 'text/csv; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.zip': 'application/zip',
  '.mp4': 'video/mp4',
  '.mp3': 'audio/mpeg',
  '.log': 'text/plain; charset=utf-8',
};

/**
 * Types a browser shows without running anything. Every other type (HTML, SVG, XML, scripts, ...)
 * could run as a page of this origin, so it is always sent as a download, never inline.
 */
const PASSIVE_TYPES =
  /^(image\/(png|jpeg|gif|webp|avif|bmp)|application\/pdf|text\/(plain|markdown|csv)|application\/json|video\/[\w.+-]+|audio\/[\w.+-]+)(;|$)/;

export function contentTypeOf(name: string, stored?: string): string {
  if (stored && /^[\w.+-]+\/[\w.+-]+(;\s*charset=[\w-]+)?$/.test(stored)) return stored.toLowerCase();
  return TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream';
}

/** RFC 5987 ext-value: encodeURIComponent leaves ' ( ) * unescaped, but they are not attr-chars. */
function extValue(name: string): string {
  return encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** RFC 6266: an ASCII fallback name plus the exact UTF-8 name. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${extValue(name)}`;
}

async function openPayload(payload: AttachmentPayload): Promise<NodeJS.ReadableStream> {
  return payload.stream ? payload.stream() : createReadStream(payload.path as string);
}

export function sendAttachment(payload: AttachmentPayload & { name: string }, forceDownload: boolean): RawResponse {
  return new RawResponse(
    async (res) => {
      const type = contentTypeOf(payload.name, payload.contentType);
      const kind = forceDownload || !PASSIVE_TYPES.test(type) ? 'attachment' : 'inline';
      res.status(200);
      res.setHeader('Content-Type', type);
      res.setHeader('Content-Disposition', contentDisposition(kind, payload.name));
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
      if (payload.size !== undefined) res.setHeader('Content-Length', String(payload.size));
      try {
        await pipeline(await openPayload(payload), res);
      } catch (error) {
        // A client that hangs up mid-download (or once it has every byte) is not a server fault.
        if ((error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') throw error;
      }
    },
    async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of await openPayload(payload)) chunks.push(Buffer.from(chunk));
      return {
        name: payload.name,
        contentType: contentTypeOf(payload.name, payload.contentType),
        data: Buffer.concat(chunks),
      };
    },
  );
}
