import { randomBytes, timingSafeEqual } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { version } from '../../package.json';
import { Dispatcher } from '../api/dispatch';
import {
  DAEMON_CALL_PATH,
  DAEMON_KEY_HEADER,
  DAEMON_STATUS_PATH,
  DAEMON_STOP_PATH,
  type DaemonAnswer,
  type DaemonCall,
  type DaemonStatus,
} from '../client/daemonApiClient';
import { log } from '../core/log';
import { FileWatcher } from '../live/fileWatcher';
import { startWebhooks } from '../live/webhooks';
import { applyExternalChanges } from '../service/external';
import { Workspace } from '../service/workspace';
import { readDaemonRecord, releaseStartLock, removeDaemonRecord, writeDaemonRecord } from './daemonRecord';

/**
 * A call body larger than this is refused. Only this folder's own commands (they hold the key)
 * reach it, and in-process they have no limit; this only bounds a runaway (attachments travel
 * inside the body, base64).
 */
const MAX_CALL_BYTES = 256 * 1024 * 1024;
/** How often the daemon looks whether it has been idle too long or was replaced. */
const LOOK_EVERY_MS = 5_000;
export const DEFAULT_IDLE_SECONDS = 900;

/**
 * `kanban daemon run`: the workspace opened once and kept in memory, with the file watcher
 * following hand edits, git and other processes, and the webhooks delivered, for the commands of
 * this folder to call (see DaemonApiClient). It listens on loopback only, answers only calls that
 * carry the key from its record, catches up with every file change before each call, and ends
 * when idle for `idleSeconds`, on SIGTERM, or when its record is removed or replaced.
 */
export async function runDaemon(root: string, idleSeconds: number): Promise<void> {
  let workspace: Workspace;
  try {
    workspace = await Workspace.open({ root });
  } finally {
    await releaseStartLock(root);
  }
  const watcher = new FileWatcher(workspace);
  await watcher.start();
  const stopFollowingStore = workspace.store.subscribe?.((change) => void applyExternalChanges(workspace, [change]));
  const webhooks = await startWebhooks(workspace);
  const dispatcher = new Dispatcher(workspace);
  const key = randomBytes(24).toString('hex');
  let lastCall = Date.now();
  let busy = 0;
  let calls = 0;
  // Set once the server listens (below); a stop request can only come after that.
  let stop: () => Promise<void> = async () => undefined;

  const server = http.createServer((request, response) => {
    lastCall = Date.now();
    busy++;
    void answer(request, response).finally(() => {
      busy--;
      lastCall = Date.now();
    });
  });

  const statusNow = (): DaemonStatus => ({ pid: process.pid, calls, cards: workspace.index.size });

  async function answer(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (!keyMatches(request.headers[DAEMON_KEY_HEADER], key)) {
      request.resume();
      return reply(403, { error: "not a call of this workspace's kanban commands" });
    }
    if (request.method === 'GET' && request.url === DAEMON_STATUS_PATH) return reply(200, statusNow());
    if (request.method === 'POST' && request.url === DAEMON_STOP_PATH) {
      request.resume();
      // Only once the answer is on its way: stopping closes every connection, this one too.
      response.once('finish', () => void stop());
      return reply(200, statusNow());
    }
    if (request.method !== 'POST' || request.url !== DAEMON_CALL_PATH) {
      request.resume();
      return reply(404, { error: `the board process answers POST ${DAEMON_CALL_PATH} and GET ${DAEMON_STATUS_PATH}` });
    }
    calls++;
    let call: DaemonCall;
    try {
      call = JSON.parse(await readBody(request)) as DaemonCall;
    } catch (error) {
      return reply(400, { error: (error as Error).message });
    }
    try {
      await watcher.catchUp();
      const result: DaemonAnswer = await dispatcher.dispatch(call);
      // What a command opening the folder itself would print on stderr (unknown keys in .kanban.json).
      if (workspace.configWarnings.length) result.configWarnings = workspace.configWarnings;
      reply(200, result);
    } catch (error) {
      log.error('kanban daemon: a call failed:', error);
      reply(500, { error: (error as Error).message });
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await writeDaemonRecord(root, {
    pid: process.pid,
    url,
    key,
    version,
    started: new Date().toISOString(),
    cards: workspace.index.size,
  });

  let stopping = false;
  stop = async () => {
    if (stopping) return;
    stopping = true;
    clearInterval(look);
    try {
      await removeDaemonRecord(root, process.pid);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      stopFollowingStore?.();
      await watcher.close();
      await webhooks.stop();
      await workspace.close();
    } catch (error) {
      // The folder may be gone (the reason to stop); the process ends either way.
      log.error('kanban daemon: stopping:', error);
    } finally {
      process.exit(0);
    }
  };
  const look = setInterval(
    () => {
      void readDaemonRecord(root).then((record) => {
        const replaced = !record || record.pid !== process.pid;
        if (replaced || (busy === 0 && Date.now() - lastCall > idleSeconds * 1000)) void stop();
      });
    },
    Math.min(LOOK_EVERY_MS, idleSeconds * 1000),
  );
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

function keyMatches(sent: string | string[] | undefined, key: string): boolean {
  if (typeof sent !== 'string' || sent.length !== key.length) return false;
  return timingSafeEqual(Buffer.from(sent), Buffer.from(key));
}

function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_CALL_BYTES) {
        reject(new Error(`a call over ${MAX_CALL_BYTES} bytes`));
        request.destroy();
      } else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
