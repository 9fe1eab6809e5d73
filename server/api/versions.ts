import { createHash } from 'node:crypto';
import { PreconditionFailedError } from '../core/errors';
import { resolveCard } from '../service/taskQueries';
import type { RequestContext } from './route';

/** Versions are asked for on every GET of a card: each object is hashed once (cards and configs are replaced, never changed). */
const etags = new WeakMap<object, string>();

/** A strong ETag naming this exact state of a card, board, settings or label map. */
export function etagOf(value: object): string {
  let etag = etags.get(value);
  if (!etag) {
    etag = `"${createHash('sha1').update(JSON.stringify(value)).digest('base64url').slice(0, 22)}"`;
    etags.set(value, etag);
  }
  return etag;
}

export const cardVersion = (ctx: RequestContext) => etagOf(resolveCard(ctx.ws, ctx.boardId, ctx.params.id));
export const boardVersion = (ctx: RequestContext) => etagOf(ctx.ws.board(ctx.boardId));
export const settingsVersion = (ctx: RequestContext) => etagOf(ctx.ws.config.settings);
export const labelsVersion = (ctx: RequestContext) => etagOf(ctx.ws.config.labels);

/** If-Match (RFC 9110 13.1.1): `*` or a list of tags, one of which must be the current one. */
export function checkIfMatch(header: string, current: string, what: string): void {
  if (header.trim() === '*') return;
  const tags = header.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  if (tags.includes(current)) return;
  throw new PreconditionFailedError(
    `${what} changed since you read it (If-Match ${header.trim()}, now ${current}); nothing was written. Read it again, then apply your change to the newer version.`,
  );
}
