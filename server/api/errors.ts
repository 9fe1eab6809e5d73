import type { NextFunction, Request, Response } from 'express';
import { ServiceError } from '../core/errors';

/** Errors thrown by body parsing and Express itself carry `type` or `status`. */
interface HttpishError {
  type?: string;
  status?: number;
  statusCode?: number;
  limit?: number;
  message?: string;
}

export function describeError(error: unknown): { status: number; message: string } {
  if (error instanceof ServiceError) return { status: error.status, message: error.message };
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
  if (typeof status === 'number' && status >= 400 && status < 500) return { status, message: e.message ?? 'bad request' };
  return { status: 500, message: 'internal error; the server log has the details' };
}

export function sendError(res: Response, error: unknown): void {
  const { status, message } = describeError(error);
  if (status >= 500 && status !== 501) console.error('kanban: unexpected error:', error);
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
