import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startServer, type RunningServer, type ServerOptions } from '../../server/server';

export interface ApiAnswer<T = any> {
  status: number;
  body: { ok: boolean; data?: T; error?: string } | null;
  headers: Headers;
}

export interface TestServer {
  root: string;
  url: string;
  running: RunningServer;
  api<T = any>(
    method: string,
    urlPath: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiAnswer<T>>;
  /** Sends a raw string body, for malformed-input tests. */
  raw(method: string, urlPath: string, body: string, headers?: Record<string, string>): Promise<ApiAnswer>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function makeTempDir(prefix = 'kanban-test-'): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), prefix));
}

async function answer(response: Response): Promise<ApiAnswer> {
  const text = await response.text();
  let body = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = { ok: false, error: `non-JSON answer: ${text.slice(0, 200)}` };
  }
  return { status: response.status, body, headers: response.headers };
}

/** The real server on port 0 over a fresh temporary workspace (optionally with a .kanban.json and server options). */
export async function startTestServer(
  options: { config?: unknown; root?: string; server?: Partial<ServerOptions> } = {},
): Promise<TestServer> {
  const root = options.root ?? (await makeTempDir());
  if (options.config !== undefined) {
    const text = typeof options.config === 'string' ? options.config : JSON.stringify(options.config, null, 2);
    await fs.writeFile(path.join(root, '.kanban.json'), text);
  }
  let running = await startServer({ root, port: 0, ...options.server });
  const server: TestServer = {
    root,
    get url() {
      return running.url;
    },
    get running() {
      return running;
    },
    async api(method, urlPath, body, headers = {}) {
      const init: RequestInit = { method, headers: { ...headers } };
      if (body !== undefined) {
        init.body = JSON.stringify(body);
        (init.headers as Record<string, string>)['content-type'] = 'application/json';
      }
      return answer(await fetch(running.url + urlPath, init));
    },
    async raw(method, urlPath, body, headers = {}) {
      return answer(await fetch(running.url + urlPath, { method, body, headers }));
    },
    async restart() {
      await running.close();
      running = await startServer({ root, port: 0, ...options.server });
    },
    async close() {
      await running.close();
      await fs.rm(root, { recursive: true, force: true });
    },
  };
  return server;
}

/** Every file under a folder, relative, sorted. */
export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(current: string) {
    for (const entry of await fs.readdir(current, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) await walk(full);
      else out.push(path.relative(dir, full));
    }
  }
  await walk(dir);
  return out.sort();
}
