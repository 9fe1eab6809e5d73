import { request as httpRequest } from 'node:http';
import { allRoutes } from '../../server/api/routes';
import { mountedPaths } from '../../server/api/openapi';
import type { TestServer } from './testServer';
import type { Scope } from '../auth/helpers/routeRequests';

/** Every operation of the route table as the document names it, with the board its twin acts on. */
export const MOUNTED = allRoutes.flatMap((route) =>
  mountedPaths(route).map((mounted) => ({
    route,
    key: `${route.method.toUpperCase()} ${mounted}`,
    path: mounted,
    requestKey: `${route.method.toUpperCase()} ${route.path}`,
    scope: (mounted === route.path
      ? { board: 'default', prefix: '/api' }
      : { board: 'ops', prefix: '/api/boards/ops' }) as Scope,
  })),
);

export type Mounted = (typeof MOUNTED)[number];

export interface RawCall {
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

/** One request through node:http, which (unlike fetch) sends a Host header as given. */
export function call(server: TestServer, raw: RawCall): Promise<{ status: number; text: string; etag?: string }> {
  const url = new URL(server.url + raw.path);
  const headers: Record<string, string> = { ...raw.headers };
  if (raw.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = String(Buffer.byteLength(raw.body));
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method: raw.method, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
            etag: res.headers.etag,
          }),
        );
      },
    );
    // A server may answer (413, 403) before it reads the whole body and close the socket.
    req.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error),
    );
    req.end(raw.body);
  });
}
