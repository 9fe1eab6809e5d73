import { randomBytes } from 'node:crypto';
import { format } from 'node:util';
import { startTestServer, type TestServer } from '../../helpers/testServer';

export type Caller = 'none' | 'bad' | 'viewer' | 'editor' | 'admin';
export const CALLERS: Caller[] = ['none', 'bad', 'viewer', 'editor', 'admin'];

/** The viewer's token reaches the server only through this environment variable (a ${ENV} reference). */
export const VIEWER_TOKEN_ENV = 'KANBAN_TEST_VIEWER_TOKEN';

/** Fresh random tokens per suite, so a scan for them can only find what the server leaked. */
export function makeTokens(): Record<Exclude<Caller, 'none'>, string> {
  const token = (who: string) => `tok-${who}-${randomBytes(18).toString('hex')}`;
  return { viewer: token('viewer'), editor: token('editor'), admin: token('admin'), bad: token('unknown') };
}

export const SUBJECTS = { viewer: 'vera', editor: 'eddie', admin: 'ada' } as const;

/** A `.kanban.json` with the token provider (viewer token by ${ENV}), two boards, a form, a label. */
export function authConfig(tokens: ReturnType<typeof makeTokens>, extra: Record<string, unknown> = {}) {
  return {
    version: 2,
    boards: [
      { id: 'default', name: 'Default', actions: { deploy: 'Deploy' } },
      { id: 'ops', name: 'Operations', actions: { deploy: 'Deploy' } },
    ],
    labels: { urgent: { color: '#ef4444' } },
    forms: { bug: { schema: { type: 'object', properties: { steps: { type: 'string' } } } } },
    plugins: {
      'auth.identity': {
        provider: 'token',
        options: {
          tokens: [
            { token: `\${${VIEWER_TOKEN_ENV}}`, subject: SUBJECTS.viewer, role: 'viewer' },
            { token: tokens.editor, subject: SUBJECTS.editor, role: 'editor' },
            { token: tokens.admin, subject: SUBJECTS.admin, role: 'admin' },
          ],
        },
      },
    },
    ...extra,
  };
}

export function bearer(token: string | undefined): Record<string, string> {
  return token === undefined ? {} : { authorization: `Bearer ${token}` };
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
  body: any;
}

/** One HTTP request; keeps the raw text and headers so they can be scanned for secrets. */
export async function send(
  server: TestServer,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<Answer> {
  const headers: Record<string, string> = bearer(options.token);
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(server.url + path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let body: any = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: Object.fromEntries(response.headers), text, body };
}

/** Everything written to the console while it runs, instead of the terminal. */
export class ConsoleCapture {
  readonly lines: string[] = [];
  private saved: Partial<Record<'log' | 'info' | 'warn' | 'error' | 'debug', (...args: unknown[]) => void>> = {};

  start(): this {
    for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      this.saved[level] = console[level];
      console[level] = (...args: unknown[]) => void this.lines.push(`${level}: ${format(...args)}`);
    }
    return this;
  }

  stop(): void {
    for (const [level, original] of Object.entries(this.saved)) (console as any)[level] = original;
    this.saved = {};
  }
}

/** Places in `haystacks` where any of the secrets occurs, as "label: secret" lines (empty when clean). */
export function findSecrets(haystacks: { label: string; text: string }[], secrets: string[]): string[] {
  const found: string[] = [];
  for (const { label, text } of haystacks)
    for (const secret of secrets) if (text.includes(secret)) found.push(`${label} contains ${secret.slice(0, 8)}...`);
  return found;
}

/** A server with the token provider on; the viewer's token lives in the environment, as in real set-ups. */
export async function startAuthServer(tokens: ReturnType<typeof makeTokens>): Promise<TestServer> {
  process.env[VIEWER_TOKEN_ENV] = tokens.viewer;
  return startTestServer({ config: authConfig(tokens) });
}

export async function stopAuthServer(server: TestServer | undefined): Promise<void> {
  await server?.close();
  delete process.env[VIEWER_TOKEN_ENV];
}
