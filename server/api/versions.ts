import { createHash } from 'node:crypto';
import { PreconditionFailedError } from '../core/errors';
import { resolveCard } from '../service/taskQueries';
import type { RequestContext } from './route';
import type { Card } from '../core/model';
import type { Workspace } from '../service/workspace';
import { hasLinkViews, linkViewFields } from '../service/cardLinks';
import { openBlockerCount } from '../service/dependencies';
import { canonicalJson } from '../core/canonicalJson';

/** Versions are asked for on every GET of a card: each object is hashed once (cards and configs are replaced, never changed). */
const etags = new WeakMap<object, string>();

/**
 * A strong ETag naming this exact state of a card, board, settings or label map. Hashed with sorted
 * keys, so every instance over a shared database names one state alike, whichever way its copy
 * was built (written here, or read back from the row).
 */
export function etagOf(value: object): string {
  let etag = etags.get(value);
  if (!etag) {
    etag = `"${createHash('sha1')
      .update(canonicalJson(value) ?? '')
      .digest('base64url')
      .slice(0, 22)}"`;
    etags.set(value, etag);
  }
  return etag;
}

/**
 * A card's version: its stored state, and when it has dependencies, links or a claim, their state
 * too (`blocks`, `blocked`, `openBlockers`, `children`, `related` and `duplicates` change when
 * another card moves or changes; `claim` when an agent claims, renews or releases it). Without that a client holding the card would be told 304 Not Modified and
 * keep showing it blocked after its blocker was done, or claimed after its lease ran out.
 */
export function cardEtag(ws: Workspace, card: Card): string {
  const stored = etagOf(card);
  const blocks = ws.index.blocksOf(card.id);
  const claim = ws.claims.of(card.boardId, card.id);
  const session = ws.claims.sessionOf(card.boardId, card.id);
  const links = hasLinkViews(ws, card);
  if (blocks.length === 0 && !card.blockedBy?.length && !claim && !session && !links) return stored;
  const derived = JSON.stringify([
    blocks,
    openBlockerCount(ws, card),
    claim,
    session,
    links ? linkViewFields(ws, card) : null,
  ]);
  return `"${createHash('sha1')
    .update(stored + derived)
    .digest('base64url')
    .slice(0, 22)}"`;
}

export const cardVersion = (ctx: RequestContext) => cardEtag(ctx.ws, resolveCard(ctx.ws, ctx.boardId, ctx.params.id));
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
