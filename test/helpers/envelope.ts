import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { ApiAnswer, TestServer } from './testServer';

/** The answer is a success envelope with this status; returns its data. */
export function okData<T = any>(answer: ApiAnswer<T>, status = 200): T {
  assert.equal(answer.status, status, `expected ${status}, got ${answer.status}: ${JSON.stringify(answer.body)}`);
  assert.equal(answer.body?.ok, true, JSON.stringify(answer.body));
  assert.ok(answer.body && 'data' in answer.body, 'success envelope has no data');
  return answer.body.data as T;
}

/** The answer is a failure envelope `{ok:false, error}` with this status and a message matching `message`. */
export function failsWith(answer: ApiAnswer, status: number, message?: RegExp): string {
  assert.equal(answer.status, status, `expected ${status}, got ${answer.status}: ${JSON.stringify(answer.body)}`);
  assert.equal(answer.body?.ok, false, JSON.stringify(answer.body));
  assert.equal(typeof answer.body?.error, 'string', 'failure envelope has no error message');
  assert.ok((answer.body?.error ?? '').length > 0);
  if (message) assert.match(answer.body?.error ?? '', message);
  return answer.body?.error ?? '';
}

/** Create a task and return its read model. */
export async function createTask(
  server: TestServer,
  fields: Record<string, unknown> | string,
  boardId?: string,
): Promise<any> {
  const body = typeof fields === 'string' ? { content: `# ${fields}\n` } : fields;
  return okData(await server.api('POST', boardId ? `/api/boards/${boardId}/tasks` : '/api/tasks', body), 201);
}

/** Ids of a task list, in the order the API gives them. */
export async function listIds(server: TestServer, query = '', boardId?: string): Promise<string[]> {
  const base = boardId ? `/api/boards/${boardId}/tasks` : '/api/tasks';
  return okData<any[]>(await server.api('GET', `${base}${query}`)).map((t) => t.id);
}

export async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

/** Path of a card file in the workspace: `.kanban/boards/<board>/<status>/<id>.md`. */
export function cardFile(server: TestServer, boardId: string, status: string, id: string): string {
  return path.join(server.root, '.kanban', 'boards', boardId, status, `${id}.md`);
}

export async function readConfig(server: TestServer): Promise<any> {
  return JSON.parse(await fs.readFile(path.join(server.root, '.kanban.json'), 'utf8'));
}

export function configPath(server: TestServer): string {
  return path.join(server.root, '.kanban.json');
}

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: any;
}

/**
 * A request sent exactly as written, through node:http: fetch would normalize `%2e%2e` and `..`
 * in the path and refuses to set Host, which the hostile-input tests need.
 */
export function rawRequest(
  server: TestServer,
  method: string,
  urlPath: string,
  options: { headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port: server.running.port, method, path: urlPath, headers: options.headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: any = null;
          try {
            body = text ? JSON.parse(text) : null;
          } catch {
            body = undefined;
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, body });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

/** A raw answer as an ApiAnswer, for okData/failsWith. */
export function asApiAnswer(raw: RawAnswer): ApiAnswer {
  return {
    status: raw.status,
    body: raw.body ?? { ok: false, error: `non-JSON answer: ${raw.text.slice(0, 200)}` },
    headers: new Headers(),
  };
}
