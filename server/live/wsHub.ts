import type * as http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ServiceEvent } from '../core/events';
import { isValidSlugId } from '../core/ids';
import { isAllowedHost } from './hostNames';
import { OriginPolicy } from './originPolicy';
import type { Workspace } from '../service/workspace';
import { bearerCredential, lookUp } from '../auth/gate';
import { currentIdentityProvider } from '../service/currentIdentity';
import type { Credential } from '../auth/identity';

export interface WsHubOptions {
  allowedHosts: string[];
  /** Web origins besides the server's own that may open a socket (`--allow-origin`). */
  allowedOrigins?: string[];
  /** How often dead connections are looked for (a client missing one ping is dropped). */
  heartbeatMs?: number;
  /** Largest client message accepted; a larger one closes that socket with 1009. */
  maxMessageBytes?: number;
}

interface Client {
  socket: WebSocket;
  /** Board the client follows, or '*' for every board. */
  boardId: string;
  alive: boolean;
  /** What the socket was admitted with, when auth is on. */
  credential: Credential | null;
  /** Events at or below this revision were replayed or are known to the client: not sent again. */
  after: number;
  /** Live events that arrive while a reconnecting client's missed events are read; null once sent. */
  held: ServiceEvent[] | null;
}

/** A slow reader with this much unsent data is dropped instead of growing server memory. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/** WebSocket at /ws: `hello` with the revision, then one message per event of the stream. */
export class WsHub {
  private server: WebSocketServer;
  private clients = new Set<Client>();
  private heartbeat: NodeJS.Timeout;
  private unsubscribe: () => void;
  private allowed: Set<string>;
  private origins: OriginPolicy;

  constructor(
    private readonly httpServer: http.Server,
    private readonly ws: Workspace,
    options: WsHubOptions,
  ) {
    this.allowed = new Set(options.allowedHosts.map((h) => h.toLowerCase()));
    this.origins = new OriginPolicy(options.allowedOrigins ?? [], ws);
    this.server = new WebSocketServer({ noServer: true, maxPayload: options.maxMessageBytes ?? 16 * 1024 });
    httpServer.on('upgrade', this.onUpgrade);
    this.unsubscribe = ws.live.on((event) => this.broadcast(event));
    this.heartbeat = setInterval(() => this.checkAlive(), options.heartbeatMs ?? 30_000);
    this.heartbeat.unref();
  }

  get connectionCount(): number {
    return this.clients.size;
  }

  private onUpgrade = (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== '/ws') return refuse(socket, 404, 'Not Found');
    if (!isAllowedHost(request.headers.host, this.allowed)) return refuse(socket, 403, 'Forbidden');
    // Browsers let any page open a WebSocket anywhere; the board's events are not for every page.
    const foreign = this.origins.refusal(request.headers);
    if (foreign !== null) return refuse(socket, 403, 'Forbidden', foreign);
    const since = sinceOf(url);
    if (since === false)
      return refuse(
        socket,
        400,
        'Bad Request',
        'since must be a revision: a whole number of 0 or more, e.g. /ws?since=42',
      );
    void this.admit(request, url).then((credential) => {
      if (credential === false) return refuse(socket, 401, 'Unauthorized');
      this.server.handleUpgrade(request, socket, head, (upgraded) =>
        this.onConnection(upgraded, url, credential, since),
      );
    });
  };

  /**
   * With auth on, a socket needs a token of any role (?token= or Authorization: Bearer): false to
   * refuse, else the credential to check again at each heartbeat (null when auth is off).
   */
  private async admit(request: http.IncomingMessage, url: URL): Promise<Credential | null | false> {
    const provider = currentIdentityProvider(this.ws);
    if (!provider) return null;
    const fromQuery = url.searchParams.get('token');
    const credential: Credential | null = fromQuery
      ? { token: fromQuery, source: 'query' }
      : bearerCredential(request.headers.authorization);
    if (!credential) return false;
    return (await lookUp(provider, credential, this.ws.authHealth)).identity ? credential : false;
  }

  /**
   * A token revoked or rotated after its socket opened, or auth turned on since, ends the
   * subscription at the next heartbeat.
   */
  private async recheck(client: Client): Promise<void> {
    const provider = currentIdentityProvider(this.ws);
    if (!provider) return;
    if (!client.credential)
      return client.socket.close(1008, 'authentication is now required; reconnect with ?token=<token>');
    const { identity, unavailable } = await lookUp(provider, client.credential, this.ws.authHealth);
    // A provider outage is not a revocation: the socket stays until the provider says no.
    if (!identity && !unavailable)
      client.socket.close(1008, 'the token is no longer accepted; reconnect with a valid one');
  }

  private onConnection(socket: WebSocket, url: URL, credential: Credential | null, since: number | null): void {
    const requested = url.searchParams.get('boardId');
    const boardId = requested && isValidSlugId(requested) ? requested : '*';
    const client: Client = { socket, boardId, alive: true, credential, after: 0, held: since === null ? null : [] };
    this.clients.add(client);
    socket.on('pong', () => (client.alive = true));
    socket.on('message', (data, isBinary) => this.onMessage(client, data.toString(), isBinary));
    socket.on('close', () => this.clients.delete(client));
    socket.on('error', () => this.clients.delete(client));
    if (since === null)
      return this.send(client, { type: 'hello', revision: this.ws.live.revision, boardId: client.boardId });
    void this.resume(client, since);
  }

  /**
   * A client back with `?since=<revision>`: hello at that revision and the events it missed, then
   * the live ones; or, when they are no longer known, hello at the current revision with
   * `refetch: true` (read the board again).
   */
  private async resume(client: Client, since: number): Promise<void> {
    let missed: ServiceEvent[] | null;
    try {
      missed = await this.ws.live.replay(since);
    } catch {
      missed = null;
    }
    const held = client.held ?? [];
    client.held = null;
    if (missed === null) {
      this.send(client, { type: 'hello', revision: this.ws.live.revision, boardId: client.boardId, refetch: true });
      client.after = this.ws.live.revision;
      return;
    }
    this.send(client, { type: 'hello', revision: since, boardId: client.boardId, resumed: true });
    client.after = since;
    for (const event of [...missed, ...held]) this.deliver(client, event, eventMessage(event));
  }

  private onMessage(client: Client, text: string, isBinary: boolean): void {
    if (isBinary) return client.socket.close(1003, 'binary messages are not accepted; send JSON text');
    let message: { type?: unknown; boardId?: unknown };
    try {
      message = JSON.parse(text);
    } catch {
      return client.socket.close(1007, 'messages must be JSON such as {"type":"subscribe","boardId":"default"}');
    }
    if (message?.type === 'ping') return this.send(client, { type: 'pong', revision: this.ws.live.revision });
    if (
      message?.type === 'subscribe' &&
      typeof message.boardId === 'string' &&
      (message.boardId === '*' || isValidSlugId(message.boardId))
    ) {
      client.boardId = message.boardId;
      return this.send(client, { type: 'subscribed', boardId: client.boardId, revision: this.ws.live.revision });
    }
    client.socket.close(1008, 'unknown message; send {"type":"subscribe","boardId":"<id>|*"} or {"type":"ping"}');
  }

  private broadcast(event: ServiceEvent): void {
    const message = eventMessage(event);
    for (const client of this.clients) {
      if (client.held) client.held.push(event);
      else this.deliver(client, event, message);
    }
  }

  private deliver(client: Client, event: ServiceEvent, message: string): void {
    if (event.revision <= client.after) return;
    client.after = event.revision;
    if (client.boardId !== '*' && event.boardId !== null && event.boardId !== client.boardId) return;
    this.sendText(client, message);
  }

  private send(client: Client, message: unknown): void {
    this.sendText(client, JSON.stringify(message));
  }

  private sendText(client: Client, text: string): void {
    if (client.socket.readyState !== client.socket.OPEN) return;
    if (client.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      client.socket.terminate();
      this.clients.delete(client);
      return;
    }
    client.socket.send(text);
  }

  private checkAlive(): void {
    for (const client of this.clients) {
      if (!client.alive) {
        client.socket.terminate();
        this.clients.delete(client);
        continue;
      }
      client.alive = false;
      client.socket.ping();
      void this.recheck(client);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    this.unsubscribe();
    this.httpServer.off('upgrade', this.onUpgrade);
    for (const client of this.clients) client.socket.terminate();
    this.clients.clear();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function eventMessage(event: ServiceEvent): string {
  return JSON.stringify({
    type: 'event',
    event: event.event,
    boardId: event.boardId,
    data: event.data,
    card: event.card,
    revision: event.revision,
    timestamp: event.timestamp,
  });
}

/** `?since=` of a reconnecting client: null when absent, false when it is not a revision. */
function sinceOf(url: URL): number | null | false {
  const text = url.searchParams.get('since');
  if (text === null) return null;
  if (!/^\d{1,15}$/.test(text)) return false;
  return Number(text);
}

/** Answer an upgrade with a plain HTTP error (and the JSON envelope when there is a reason to give). */
function refuse(socket: Duplex, status: number, text: string, reason?: string): void {
  const body = reason === undefined ? '' : JSON.stringify({ ok: false, error: reason });
  const type = reason === undefined ? '' : 'Content-Type: application/json; charset=utf-8\r\n';
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\n${type}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
