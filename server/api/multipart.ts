import busboy from 'busboy';
import type { NextFunction, Request, Response } from 'express';
import { PayloadTooLargeError, ValidationError } from '../core/errors';
import type { UploadedFile } from '../service/attachments';
import { sendErrorBeforeBody } from './earlyRefusal';

const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** `64mb`, `1mb`, `512kb`: the body limits the route table declares. */
export function limitInBytes(limit: string): number {
  const match = /^(\d+)\s*(b|kb|mb|gb)?$/i.exec(limit.trim());
  if (!match) throw new Error(`body limit "${limit}" is not a size such as 64mb`);
  return Number(match[1]) * UNITS[(match[2] ?? 'b').toLowerCase()];
}

const EXAMPLE = 'e.g. curl -F file=@report.csv';

/** Files of a multipart body, as `multipartBody` read them. */
export function uploadedFiles(res: Response): UploadedFile[] | undefined {
  return res.locals.files as UploadedFile[] | undefined;
}

/**
 * Read a multipart/form-data body (`curl -F file=@x.csv`) as it streams in, each file part into
 * memory, never past `limit` bytes of body: past it the answer is 413 at once and the rest is not
 * kept. Other content types go on to the JSON parser. Runs after the auth and Origin checks, like it.
 */
export function multipartBody(limit: number) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!req.is('multipart/form-data')) return next();
    const tooLarge = () => new PayloadTooLargeError(`request body is too large (limit ${limit} bytes)`);
    if (Number(req.headers['content-length'] ?? 0) > limit) return sendErrorBeforeBody(res, tooLarge());
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, defParamCharset: 'utf8', limits: { fieldSize: 64 * 1024, parts: 1000 } });
    } catch (error) {
      return sendErrorBeforeBody(
        res,
        new ValidationError(`multipart body cannot be read: ${(error as Error).message}`),
      );
    }
    const files: UploadedFile[] = [];
    let received = 0;
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      files.length = 0;
      sendErrorBeforeBody(res, error);
    };
    // Counted before the parser sees a chunk, so a body over the limit is refused before its excess is kept.
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) fail(tooLarge());
    });
    parser.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        if (!failed) chunks.push(chunk);
      });
      stream.on('end', () => {
        if (failed) return;
        if (info.filename === undefined)
          return fail(new ValidationError(`multipart part "${field}" has no file name; ${EXAMPLE}`));
        files.push({ name: info.filename, bytes: Buffer.concat(chunks), contentType: info.mimeType });
      });
    });
    parser.on('field', (field) =>
      fail(new ValidationError(`multipart part "${field}" is not a file; send files as file parts, ${EXAMPLE}`)),
    );
    parser.on('partsLimit', () => fail(new ValidationError('multipart body has more than 1000 parts')));
    parser.on('error', (error: Error) => fail(new ValidationError(`multipart body is malformed: ${error.message}`)));
    parser.on('close', () => {
      if (failed) return;
      if (files.length === 0) return fail(new ValidationError(`multipart body holds no file part; ${EXAMPLE}`));
      req.body = {};
      res.locals.files = files;
      next();
    });
    req.pipe(parser);
  };
}
