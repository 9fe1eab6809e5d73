import * as path from 'node:path';
import { HttpApiClient, LocalApiClient, type ApiAnswer, type ApiClient } from '../client/apiClient';
import { askDaemon, DaemonApiClient, DaemonUnreachableError } from '../client/daemonApiClient';
import { version } from '../../package.json';
import { findLiveDaemon } from './daemonRecord';
import { AUTO_MIN_CARDS, daemonMode, startDaemon } from './daemonStart';
import type { Output } from './output';
import { findLiveServer, type ServerRecord } from '../live/serverRecord';
import { CliError } from './usage';
import { checkAgentName } from '../core/claims';
import { nearestWorkspaceRoot } from '../config/workspaceRoot';

/** The flags every command takes. */
export interface GlobalOptions {
  dir?: string;
  board?: string;
  json: boolean;
  url?: string;
  token?: string;
  agent?: string;
}

/**
 * The workspace a command acts on: --dir, else KANBAN_WORKSPACE, else the nearest folder at or
 * above the current one that holds `.kanban.json` or `.kanban/` (as git finds its repository),
 * else the current folder.
 */
export function workspaceDir(options: GlobalOptions, env: NodeJS.ProcessEnv, cwd = process.cwd()): string {
  if (options.dir) return path.resolve(options.dir);
  if (env.KANBAN_WORKSPACE) return path.resolve(env.KANBAN_WORKSPACE);
  return nearestWorkspaceRoot(cwd) ?? path.resolve(cwd);
}

export interface CallOptions {
  body?: unknown;
  ifMatch?: string;
  /** Query parameters; undefined values are left out, arrays repeat the name. */
  query?: Record<string, string | number | boolean | (string | number)[] | undefined>;
}

export interface Answer<T = any> {
  status: number;
  data: T;
  etag?: string;
  page?: ApiAnswer['page'];
}

export class Context {
  private client: ApiClient | null = null;
  private liveServer: ServerRecord | null | undefined;
  private noted = false;

  constructor(
    readonly options: GlobalOptions,
    readonly output: Output,
    readonly env: NodeJS.ProcessEnv,
  ) {}

  get json(): boolean {
    return this.options.json;
  }

  get url(): string | undefined {
    return this.options.url ?? (this.env.KANBAN_URL || undefined);
  }

  get token(): string | undefined {
    return this.options.token ?? (this.env.KANBAN_TOKEN || undefined);
  }

  /** The agent every call acts as (X-Kanban-Agent): --agent, else KANBAN_AGENT; none for a person. */
  get agent(): string | undefined {
    const agent = this.options.agent ?? (this.env.KANBAN_AGENT || undefined);
    if (agent === undefined) return undefined;
    try {
      return checkAgentName(agent, this.options.agent === undefined ? 'KANBAN_AGENT' : '--agent');
    } catch (error) {
      throw new CliError((error as Error).message);
    }
  }

  get dir(): string {
    return workspaceDir(this.options, this.env);
  }

  /** `/tasks` on the default board, or `/boards/<board>/tasks` with --board. */
  boardPath(suffix: string): string {
    return this.options.board ? `/boards/${encodeURIComponent(this.options.board)}${suffix}` : suffix;
  }

  /**
   * In-process, a server already serving the folder would write the same files at the same time:
   * a change is refused (with the way through that server), a read goes ahead with a note.
   */
  async checkMode(writes: boolean): Promise<void> {
    if (this.url) return;
    this.liveServer ??= await findLiveServer(this.dir);
    const live = this.liveServer;
    if (!live) return;
    if (writes) {
      throw new CliError(
        `a kanban server (pid ${live.pid}) is serving ${this.dir} at ${live.url}; changing the files from here too could overwrite its changes. Rerun with --url ${live.url} to make the change through it`,
      );
    }
    if (!this.noted) {
      this.noted = true;
      this.output.err(
        `kanban: note: a kanban server (pid ${live.pid}) is serving this folder at ${live.url}; reading the files directly (add --url ${live.url} to go through it)`,
      );
    }
  }

  async api(): Promise<ApiClient> {
    if (this.client) return this.client;
    if (this.url) this.client = new HttpApiClient(this.url, this.token, this.agent);
    else {
      await this.checkMode(false);
      const daemon = await this.liveDaemon();
      this.client = daemon
        ? new DaemonApiClient(this.dir, daemon.url, daemon.key, this.token, this.agent)
        : await this.openLocal();
    }
    return this.client;
  }

  /** The service opened in this process on the folder. */
  private async openLocal(): Promise<ApiClient> {
    const dir = this.dir;
    // A large board's first open after a clone reads every file: say so rather than look stuck.
    const slow = process.stderr.isTTY
      ? setTimeout(
          () =>
            this.output.err(
              "kanban: reading the board's card files (once: what this builds makes the next commands quick)",
            ),
          1000,
        )
      : undefined;
    try {
      // With a server running, it delivers the webhooks; a second queue here would send them twice.
      this.client = await LocalApiClient.open(dir, {
        token: this.token,
        webhooks: !this.liveServer,
        agent: this.agent,
      });
    } catch (error) {
      throw new CliError(`cannot open the workspace ${dir}: ${(error as Error).message}`);
    } finally {
      clearTimeout(slow);
    }
    return this.client;
  }

  /**
   * The board process of this folder (see daemonHost.ts), when one of this version is running and
   * no server serves the folder. One of another version is asked to stop: a command of this
   * version then starts its own.
   */
  private async liveDaemon() {
    if (this.liveServer || daemonMode(this.env) === 'never') return null;
    const daemon = await findLiveDaemon(this.dir);
    if (!daemon || daemon.version === version) return daemon;
    await askDaemon(this.dir, daemon, (other) => other.stop());
    return null;
  }

  /**
   * After a command that opened a large board in-process: start the board process, so the next
   * commands call it instead of reading the whole board again (KANBAN_DAEMON, daemonStart.ts).
   * Call after close(): the folder's card index is then written, and the process starts from it.
   */
  private async offerDaemon(cards: number): Promise<void> {
    const mode = daemonMode(this.env);
    if (mode === 'never' || (mode === 'auto' && cards < AUTO_MIN_CARDS)) return;
    const pid = await startDaemon(this.dir, this.env).catch(() => null);
    if (pid !== null && process.stderr.isTTY) {
      this.output.err(
        `kanban: started a board process (pid ${pid}) that keeps these ${cards.toLocaleString('en-US')} cards in memory, so the next commands answer at once; it ends after 15 idle minutes (kanban daemon stop; KANBAN_DAEMON=never turns this off)`,
      );
    }
  }

  /** One call through the route table; an error answer becomes a CliError carrying the API's message. */
  async call<T = any>(method: string, apiPath: string, options: CallOptions = {}): Promise<Answer<T>> {
    if (method.toLowerCase() !== 'get') await this.checkMode(true);
    const call = { method, path: apiPath + queryString(options.query), body: options.body, ifMatch: options.ifMatch };
    const answer = await (await this.api()).call(call).catch(async (error: Error) => {
      // The board process ended since its record was read; nothing was sent, so open the folder here.
      if (!(error instanceof DaemonUnreachableError)) throw new CliError(error.message);
      await this.client?.close();
      this.client = null;
      return (await this.openLocal()).call(call);
    });
    this.printDaemonConfigWarnings();
    if (answer.body && answer.body.ok === false) throw new CliError(answer.body.error, answer.status);
    if (answer.status >= 400) throw new CliError(`the API answered ${answer.status}`, answer.status);
    // The change went ahead, but the user should hear what it did (a column over its WIP limit).
    for (const warning of answer.warnings ?? []) this.output.err(`kanban: warning: ${warning}`);
    const data = (answer.body && answer.body.ok ? answer.body.data : null) as T;
    return { status: answer.status, data, etag: answer.etag, page: answer.page };
  }

  /** Once per command, as opening the folder in-process logs them. */
  private printDaemonConfigWarnings(): void {
    const client = this.client;
    if (!(client instanceof DaemonApiClient) || this.configWarningsShown || client.configWarnings === undefined) return;
    this.configWarningsShown = true;
    for (const warning of client.configWarnings) this.output.err(`kanban: ${warning}`);
  }

  private configWarningsShown = false;

  get<T = any>(apiPath: string, query?: CallOptions['query']): Promise<Answer<T>> {
    return this.call<T>('GET', apiPath, { query });
  }

  /** What --json prints: exactly the REST data (nothing for a 204). */
  printJson(answer: Answer): void {
    if (answer.status !== 204) this.output.out(JSON.stringify(answer.data, null, 2));
  }

  /** `succeeded`: the command did its work, so a large board opened in-process may get its board process. */
  async close(succeeded = false): Promise<void> {
    const client = this.client;
    this.client = null;
    const opened = client instanceof LocalApiClient && !this.liveServer ? client.cardCount() : null;
    await client?.close();
    if (succeeded && opened !== null) await this.offerDaemon(opened);
  }
}

export function queryString(query: CallOptions['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) params.append(key, String(one));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
