import type { PageInfo } from '../core/listPaging';
import type { SerializedAnswer } from './route';

/**
 * What a list answer says in its headers, for Express and for the fast lane alike, so both send
 * the same: the total and the next page, and whether the body goes gzip-compressed.
 */

/** Below this, compressing costs more than sending. */
export const GZIP_MIN_BYTES = 8 * 1024;

/** Headers a page of another origin may read: a list's total and next page, and change warnings. */
export const EXPOSED_HEADERS = ['X-Total-Count', 'Link', 'Warning'];

/**
 * A list's total in `X-Total-Count`, and its next page in `Link` as the URL just requested (its
 * path, so a board-scoped list keeps its path) with the next cursor in place of the old one.
 */
export function pageHeaders(requestUrl: string, page: PageInfo): Record<string, string> {
  const headers: Record<string, string> = { 'X-Total-Count': String(page.total) };
  if (page.nextCursor === undefined) return headers;
  const cut = requestUrl.indexOf('?');
  const [pathname, query] = cut < 0 ? [requestUrl, ''] : [requestUrl.slice(0, cut), requestUrl.slice(cut + 1)];
  const kept = query.split('&').filter((part) => part !== '' && part.split('=', 1)[0] !== 'cursor');
  headers.Link = `<${pathname}?${[...kept, `cursor=${encodeURIComponent(page.nextCursor)}`].join('&')}>; rel="next"`;
  return headers;
}

/**
 * Whether an `Accept-Encoding` header takes gzip over the plain body (RFC 9110 12.5.3): gzip's
 * weight, named or through `*`, is above zero and not below identity's. Identity not named (nor
 * `*`) ranks last, with the lowest weight named, as Express's negotiation has it. Equal weights go
 * to gzip, the smaller answer.
 */
export function prefersGzip(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [token, ...params] = part.trim().toLowerCase().split(';');
    if (!token) continue;
    const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(p)).find(Boolean);
    weights.set(token.trim(), q ? Number(q[1]) : 1);
  }
  const star = weights.get('*');
  const gzip = weights.get('gzip') ?? weights.get('x-gzip') ?? star ?? 0;
  if (weights.size === 0) return false;
  const identity = weights.get('identity') ?? star ?? Math.min(...weights.values());
  return gzip > 0 && gzip >= identity;
}

/** Each encoding is its own representation, with its own ETag. */
export function encodedEtag(etag: string, gzipped: boolean): string {
  return gzipped ? `${etag.slice(0, -1)}-gzip"` : etag;
}

/**
 * How a kept answer goes out to a client with this `Accept-Encoding`: gzip-compressed when it can
 * be and is worth it, under the ETag of that encoding. One decision for Express and the fast lane.
 */
export function encodingFor(
  answer: SerializedAnswer,
  acceptEncoding: string | undefined,
): { gzip: boolean; etag: string } {
  const gzip = answer.gzipped !== undefined && answer.body.length >= GZIP_MIN_BYTES && prefersGzip(acceptEncoding);
  return { gzip, etag: encodedEtag(answer.etag, gzip) };
}
