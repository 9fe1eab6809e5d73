import { Dispatcher, type DispatchResponse } from '../api/dispatch';
import { FileWatcher } from '../live/fileWatcher';
import { startWebhooks, type RunningWebhooks } from '../live/webhooks';
import type { EventListener } from '../core/events';
import type { ProgressListener, RunControl } from '../core/progress';
import { ServerEventSocket } from './eventSocket';
import { Workspace } from '../service/workspace';
import { CancelledError } from '../core/errors';

/** What one call through the route table answered, the same whichever way it travelled. */
export interface ApiAnswer {
  status: number;
  /** The envelope as HTTP sends it; null for 204. */
  body: { ok: true; data: unknown } | { ok: false; error: string } | null;
  etag?: string;
  /** For paged lists: how many match, and the cursor of the next page when there is one. */
  page?: { total: number; nextCursor?: string };
  /** What the change did that the caller should hear (a column over its WIP limit); HTTP: `Warning` headers. */
  warnings?: string[];
}

export interface ApiCall {
  method: string;
  /** Path under /api with its query string, e.g. `/tasks?status=todo&limit=50`. */
  path: string;
  body?: unknown;
  ifMatch?: string;
  /** The agent this one call acts as (X-Kanban-Agent), instead of the client's own. */
  agent?: string;
  /**
   * Follow and cancel a long operation. In-process both work; over HTTP only the signal crosses
   * (it closes the request, which the server takes as a cancel), and no progress comes back.
   */
  run?: RunControl;
}

/**
 * The route table as the command line and the MCP server reach it: in-process on a workspace
 * folder, or over HTTP to a running server. Both answer the same envelope, so the hosts above
 * never care which.
 */
export interface ApiClient {
  readonly mode: 'local' | 'http';
  /**
   * Follow the progress of long work this client starts (migration, import); only in-process,
   * where the work runs in this process. Answers a function that stops listening.
   */
  listenProgress?(listener: ProgressListener): () => void;
  /**
   * Follow every change of the board from any front end (the service's event stream): in-process,
   * its event bus, which the file watcher also feeds; over HTTP, the server's `/ws`. Answers once
   * listening, with a function that stops.
   */
  listenEvents?(listener: EventListener): Promise<() => void>;
  /** Where the answers come from, for messages: the folder or the base URL. */
  readonly target: string;
  call(call: ApiCall): Promise<ApiAnswer>;
  close(): Promise<void>;
}

/**
 * The same client, each call passed through `adjust` first (the agent it acts as, the control of
 * the run it belongs to); everything else is the client's own.
 */
export function adjustingCalls(client: ApiClient, adjust: (call: ApiCall) => ApiCall): ApiClient {
  return {
    mode: client.mode,
    target: client.target,
    ...(client.listenProgress ? { listenProgress: client.listenProgress.bind(client) } : {}),
    ...(client.listenEvents ? { listenEvents: client.listenEvents.bind(client) } : {}),
    call: (call: ApiCall) => client.call(adjust(call)),
    close: () => client.close(),
  };
}

/** The service opened in this process on a workspace folder, with its webhook delivery. */
export class LocalApiClient implements ApiClient {
  readonly mode = 'local' as const;
  private constructor(
    readonly target: string,
    private readonly workspace: Workspace,
    private readonly dispatcher: Dispatcher,
    private readonly webhooks: RunningWebhooks,
    private readonly token: string | undefined,
    private readonly watcher: FileWatcher | null,
    private readonly agent: string | undefined,
  ) {}

  /**
   * `watch`: follow edits made outside this process (a server, an editor, git), for long-lived
   * hosts such as MCP. `webhooks: false` when another process (a running server) already delivers
   * this folder's webhooks. `agent`: every call acts as this agent (X-Kanban-Agent), unless it names another.
   */
  static async open(
    root: string,
    options: { token?: string; watch?: boolean; webhooks?: boolean; agent?: string } = {},
  ): Promise<LocalApiClient> {
    const workspace = await Workspace.open({ root });
    const webhooks = options.webhooks === false ? { stop: async () => undefined } : await startWebhooks(workspace);
    const watcher = options.watch ? new FileWatcher(workspace) : null;
    await watcher?.start();
    return new LocalApiClient(
      workspace.root,
      workspace,
      new Dispatcher(workspace),
      webhooks,
      options.token,
      watcher,
      options.agent,
    );
  }

  /** How many cards the opened board holds (all boards, archived included). */
  cardCount(): number {
    return this.workspace.index.size;
  }

  listenProgress(listener: ProgressListener): () => void {
    return this.workspace.progress.listen(listener);
  }

  async listenEvents(listener: EventListener): Promise<() => void> {
    return this.workspace.live.on(listener);
  }

  async call(call: ApiCall): Promise<ApiAnswer> {
    const agent = call.agent ?? this.agent;
    const answer: DispatchResponse & { page?: ApiAnswer['page'] } = await this.dispatcher.dispatch({
      ...call,
      token: this.token,
      ...(agent === undefined ? {} : { agent }),
    });
    return answer;
  }

  async close(): Promise<void> {
    await this.watcher?.close();
    await this.webhooks.stop();
    await this.workspace.close();
  }
}

/** A running server reached at its base URL (`http://host:port`, with or without `/api`). */
export class HttpApiClient implements ApiClient {
  readonly mode = 'http' as const;
  readonly target: string;
  private events: ServerEventSocket | undefined;

  /** `agent`: every call acts as this agent (X-Kanban-Agent), unless it names another. */
  constructor(
    baseUrl: string,
    private readonly token?: string,
    private readonly agent?: string,
  ) {
    this.target = baseUrl.replace(/\/+$/, '').replace(/\/api$/, '');
  }

  listenEvents(listener: EventListener): Promise<() => void> {
    return (this.events ??= new ServerEventSocket(this.target, this.token)).listen(listener);
  }

  async call(call: ApiCall): Promise<ApiAnswer> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (call.ifMatch) headers['if-match'] = call.ifMatch;
    const agent = call.agent ?? this.agent;
    if (agent !== undefined) headers['x-kanban-agent'] = agent;
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(`${this.target}/api${call.path}`, {
        method: call.method.toUpperCase(),
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal: call.run?.signal,
      });
    } catch (error) {
      if (call.run?.signal?.aborted)
        throw new CancelledError(`${call.method.toUpperCase()} ${call.path} was cancelled`);
      throw new Error(
        `cannot reach the server at ${this.target}: ${(error as Error & { cause?: Error }).cause?.message ?? (error as Error).message}`,
      );
    }
    const contentType = response.headers.get('content-type') ?? '';
    // A file (an attachment download, an export): the same shape the in-process dispatcher gives.
    // A JSON file is told from a JSON answer by its Content-Disposition.
    if (response.ok && contentType && (!/json/i.test(contentType) || response.headers.has('content-disposition'))) {
      const name = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(response.headers.get('content-disposition') ?? '')?.[1];
      const data = Buffer.from(await response.arrayBuffer());
      return {
        status: response.status,
        body: {
          ok: true,
          data: {
            name: decodeURIComponent(name ?? call.path.split('?')[0].split('/').pop() ?? ''),
            contentType,
            base64: data.toString('base64'),
          },
        },
      };
    }
    const text = await response.text();
    let body: ApiAnswer['body'] = null;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = {
          ok: false,
          error: `the server at ${this.target} answered ${response.status} with something that is not JSON`,
        };
      }
    }
    const warnings = warningsOf(response.headers);
    return {
      status: response.status,
      body,
      etag: response.headers.get('etag') ?? undefined,
      page: pageOf(response.headers),
      ...(warnings.length ? { warnings } : {}),
    };
  }

  async close(): Promise<void> {
    this.events?.close();
  }
}

/** The texts of `Warning: 299 - "..."` headers (several arrive joined by commas). */
function warningsOf(headers: Headers): string[] {
  const texts: string[] = [];
  for (const match of (headers.get('warning') ?? '').matchAll(/\d{3} \S+ "((?:[^"\\]|\\.)*)"/g))
    texts.push(match[1].replace(/\\(.)/g, '$1'));
  return texts;
}

function pageOf(headers: Headers): ApiAnswer['page'] {
  const total = headers.get('x-total-count');
  if (total === null) return undefined;
  const next = /<([^>]+)>\s*;\s*rel="?next"?/.exec(headers.get('link') ?? '')?.[1];
  const nextCursor = next ? (new URL(next, 'http://x').searchParams.get('cursor') ?? undefined) : undefined;
  return { total: Number(total), ...(nextCursor ? { nextCursor } : {}) };
}
