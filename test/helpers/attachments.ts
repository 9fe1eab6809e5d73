import * as path from 'node:path';
import type { TestServer } from './testServer';

// What the attachment suites (test/api/attachment*.test.ts) share: files to send, where they land
// and how to fetch them back.

/** A 1x1 PNG: its signature alone holds 0x89, CR LF, 0x1A and LF, which text handling would break. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

export function attachmentDir(server: TestServer, boardId: string, cardId: string): string {
  return path.join(server.root, '.kanban', 'boards', boardId, 'attachments', cardId);
}

/** One entry of an upload's `files`. */
export function file(name: string, bytes: Buffer, contentType?: string) {
  return { name, data: bytes.toString('base64'), ...(contentType ? { contentType } : {}) };
}

export interface Download {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

export async function download(server: TestServer, urlPath: string): Promise<Download> {
  const response = await fetch(server.url + urlPath);
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}
