import * as http from 'node:http';
import type { ApiAnswer, ApiCall, ApiClient } from './apiClient';

/** The header that carries the daemon's key: a call without it is refused. */
export const DAEMON_KEY_HEADER = 'x-kanban-daemon-key';
/** The one path a daemon answers: a call through the route table, as JSON in both directions. */
export const DAEMON_CALL_PATH = '/call';
/** What the daemon says of itself: the calls it answered and the cards it holds. */
export const DAEMON_STATUS_PATH = '/status';
/** Asks the daemon to end (it answers first). By key, not by pid: a pid in an old record may be another process's now. */
export const DAEMON_STOP_PATH = '/stop';

export interface DaemonStatus {
  pid: number;
  calls: number;
  cards: number;
}

/** What travels to the daemon: the call, and the token and agent the command holds. */
export interface DaemonCall {
  method: string;
  path: string;
  body?: unknown;
  ifMatch?: string;
  agent?: string;
  token?: string;
}

/** The answer as in-process, and what opening the folder would have warned about. */
export type DaemonAnswer = ApiAnswer & { configWarnings?: string[] };

/** The daemon is not there (gone since its record was read): nothing was sent, the call may go elsewhere. */
export class DaemonUnreachableError extends Error {}

/**
 * The workspace's daemon (`kanban daemon`), which keeps the board open in memory: each call is one
 * small local HTTP request, answered by the same route table as in-process, so a command costs
 * what its answer costs instead of a load of the whole board. Plain node:http keeps the client's
 * own start-up small (fetch loads its HTTP stack on first use).
 */
export class DaemonApiClient implements ApiClient {
  readonly mode = 'local' as const;
  private readonly agentKeeper = new http.Agent({ keepAlive: true });

  constructor(
    readonly target: string,
    private readonly url: string,
    private readonly key: string,
    private readonly token: string | undefined,
    private readonly agent: string | undefined,
  ) {}

  call(call: ApiCall): Promise<ApiAnswer> {
    const agent = call.agent ?? this.agent;
    const sent: DaemonCall = {
      method: call.method,
      path: call.path,
      body: call.body,
      ifMatch: call.ifMatch,
      agent,
      token: this.token,
    };
    return this.request<DaemonAnswer>('POST', DAEMON_CALL_PATH, JSON.stringify(sent)).then(
      ({ configWarnings, ...answer }) => {
        this.configWarnings ??= configWarnings ?? [];
        return answer;
      },
    );
  }

  /**
   * The warnings of the first answer (unknown keys in .kanban.json), which a command opening the
   * folder would have printed on stderr; undefined before the first call.
   */
  configWarnings: string[] | undefined;

  status(): Promise<DaemonStatus> {
    return this.request('GET', DAEMON_STATUS_PATH, '');
  }

  stop(): Promise<DaemonStatus> {
    return this.request('POST', DAEMON_STOP_PATH, '');
  }

  private request<T>(method: string, path: string, payload: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const request = http.request(`${this.url}${path}`, {
        method,
        agent: this.agentKeeper,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          [DAEMON_KEY_HEADER]: this.key,
        },
      });
      request.on('error', (error: NodeJS.ErrnoException) => {
        reject(
          error.code === 'ECONNREFUSED'
            ? new DaemonUnreachableError(`the board process at ${this.url} is gone`)
            : new Error(`the board process at ${this.url} failed: ${error.message}`),
        );
      });
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            // Another process on the port of one that ended: it did nothing with the call.
            if (response.statusCode === 403)
              return reject(
                new DaemonUnreachableError(`the process at ${this.url} is not this folder's board process`),
              );
            if (response.statusCode !== 200) throw new Error(text || `status ${response.statusCode}`);
            resolve(JSON.parse(text) as T);
          } catch (error) {
            reject(new Error(`the board process at ${this.url} answered: ${(error as Error).message}`));
          }
        });
      });
      request.end(payload);
    });
  }

  async close(): Promise<void> {
    this.agentKeeper.destroy();
  }
}

/**
 * One question to a daemon about itself (status, stop), as no caller in particular: the answer, or
 * null when it does not answer. The connection is closed either way.
 */
export async function askDaemon<T>(
  target: string,
  daemon: { url: string; key: string },
  ask: (client: DaemonApiClient) => Promise<T>,
): Promise<T | null> {
  const client = new DaemonApiClient(target, daemon.url, daemon.key, undefined, undefined);
  try {
    return await ask(client);
  } catch {
    return null;
  } finally {
    await client.close();
  }
}
