import type { NextFunction, Request, Response } from 'express';
import { isDiskFull, ServiceError } from '../core/errors';
import { log } from '../core/log';

/** Errors thrown by body parsing and Express itself carry `type` or `status`. */
interface HttpishError {
  type?: string;
  status?: number;
  statusCode?: number;
  limit?: number;
  message?: string;
}

/** What Node's fs and system calls attach to their errors. */
interface ErrnoError {
  code?: unknown;
  syscall?: unknown;
  path?: unknown;
}

/** A path as an answer may quote it: a request can make one hundreds of kilobytes long. */
function shownPath(path: unknown): string {
  if (typeof path !== 'string') return 'a file';
  return path.length > 160 ? `"${path.slice(0, 80)}...${path.slice(-40)}" (${path.length} characters)` : `"${path}"`;
}

/**
 * The environment refusing a file operation: a full disk, or a path from the request that the file
 * system cannot hold. Decided by the errno code, never the message.
 */
function describeEnvironmentError(error: unknown): { status: number; message: string } | null {
  const e = (error ?? {}) as ErrnoError;
  if (isDiskFull(error))
    return e.code === 'SQLITE_FULL'
      ? { status: 507, message: 'disk full: the SQLite database could not grow; free some space, then try again' }
      : { status: 507, message: `disk full: could not write ${shownPath(e.path)}; free some space, then try again` };
  switch (e.code) {
    case 'ENAMETOOLONG':
      return {
        status: 400,
        message: `path too long: ${shownPath(e.path)} is longer than the file system allows; use a shorter name or path`,
      };
    case 'EINVAL':
      // Only a file-system call about a path: EINVAL elsewhere is the server's own mistake.
      if (typeof e.syscall === 'string' && typeof e.path === 'string')
        return { status: 400, message: `invalid path: the file system does not accept ${shownPath(e.path)}` };
  }
  return null;
}

export function describeError(error: unknown): { status: number; message: string } {
  if (error instanceof ServiceError) return { status: error.status, message: error.message };
  const environment = describeEnvironmentError(error);
  if (environment) return environment;
  const e = (error ?? {}) as HttpishError;
  switch (e.type) {
    case 'entity.parse.failed':
      return { status: 400, message: `request body is not valid JSON: ${e.message ?? 'parse error'}` };
    case 'entity.too.large':
      return { status: 413, message: `request body is too large (limit ${e.limit ?? '?'} bytes)` };
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return { status: 415, message: 'request body must be UTF-8 JSON' };
    case 'request.aborted':
      return { status: 400, message: 'request was aborted by the client' };
  }
  const status = e.status ?? e.statusCode;
  if (error instanceof URIError || (status === 400 && /decode/i.test(e.message ?? ''))) {
    return { status: 400, message: 'the URL holds a malformed percent-encoding' };
  }
  if (typeof status === 'number' && status >= 400 && status < 500)
    return { status, message: e.message ?? 'bad request' };
  return { status: 500, message: 'internal error; the server log has the details' };
}

export function sendError(res: Response, error: unknown): void {
  const { status, message } = describeError(error);
  // A full disk or a database that is away is the machine's state, not a fault of the server: one line, no stack.
  if (status === 507 || status === 503) log.warn(`kanban: ${message}`);
  else if (status >= 500 && status !== 501) log.error('kanban: unexpected error:', error);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.status(status).json({ ok: false, error: message });
}

/** The one place errors become HTTP answers. */
export function errorHandler(error: unknown, _req: Request, res: Response, _next: NextFunction): void {
  sendError(res, error);
}
