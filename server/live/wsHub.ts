import type * as http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ServiceEvent } from '../core/events';
import { isValidSlugId } from '../core/ids';
import { isAllowedHost } from '../api/hostGuard';
import { OriginPolicy } from '../api/originGuard';
import type { Workspace } from '../service/workspace';
import { bearerCredential, lookUp } from '../auth/gate';
import { currentIdentityProvider } from '../auth/currentProvider';
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

  constructor(private readonly httpServer: http.Server, private readonly ws: Workspace, options: WsHubOptions) {
    this.allowed = new Set(options.allowedHosts.map((h) => h.toLowerCase()));
    this.origins = new OriginPolicy(options.allowedOrigins ?? [], ws);
    this.server = new WebSocketServer({ noServer: true, maxPayload: options.maxMessageBytes ?? 16 * 1024 });
    httpServer.on('upgrade', this.onUpgrade);
    this.unsubscribe = ws.events.on((event) => this.broadcast(event));
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
    void this.admit(request, url).then((credential) => {
      if (credential === false) return refuse(socket, 401, 'Unauthorized');
      this.server.handleUpgrade(request, socket, head, (upgraded) => this.onConnection(upgraded, url, credential));
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
    const credential: Credential | null = fromQuery ? { token: fromQuery, source: 'query' } : bearerCredential(request.headers.authorization);
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
    if (!client.credential) return client.socket.close(1008, 'authentication is now required; reconnect with ?token=<token>');
    const { identity, unavailable } = await lookUp(provider, client.credential, this.ws.authHealth);
    // A provider outage is not a revocation: the socket stays until the provider says no.
    if (!identity && !unavailable) client.socket.close(1008, 'the token is no longer accepted; reconnect with a valid one');
  }

  private onConnection(socket: WebSocket, url: URL, credential: Credential | null): void {
    const requested = url.searchParams.get('boardId');
    const client: Client = { socket, boardId: requested && isValidSlugId(requested) ? requested : '*', alive: true, credential };
    this.clients.add(client);
    socket.on('pong', () => (client.alive = true));
    socket.on('message', (data, isBinary) => this.onMessage(client, data.toString(), isBinary));
    socket.on('close', () => this.clients.delete(client));
    socket.on('error', () => this.clients.delete(client));
    this.send(client, { type: 'hello', revision: this.ws.events.revision, boardId: client.boardId });
  }

  private onMessage(client: Client, text: string, isBinary: boolean): void {
    if (isBinary) return client.socket.close(1003, 'binary messages are not accepted; send JSON text');
    let message: { type?: unknown; boardId?: unknown };
    try {
      message = JSON.parse(text);
    } catch {
      return client.socket.close(1007, 'messages must be JSON such as {"type":"subscribe","boardId":"default"}');
    }
    if (message?.type === 'ping') return this.send(client, { type: 'pong', revision: this.ws.events.revision });
    if (message?.type === 'subscribe' && typeof message.boardId === 'string' && (message.boardId === '*' || isValidSlugId(message.boardId))) {
      client.boardId = message.boardId;
      return this.send(client, { type: 'subscribed', boardId: client.boardId, revision: this.ws.events.revision });
    }
    client.socket.close(1008, 'unknown message; send {"type":"subscribe","boardId":"<id>|*"} or {"type":"ping"}');
  }

  private broadcast(event: ServiceEvent): void {
    const message = JSON.stringify({ type: 'event', event: event.event, boardId: event.boardId, data: event.data, card: event.card, revision: event.revision, timestamp: event.timestamp });
    for (const client of this.clients) {
      if (client.boardId !== '*' && event.boardId !== null && event.boardId !== client.boardId) continue;
      this.sendText(client, message);
    }
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

/** Answer an upgrade with a plain HTTP error (and the JSON envelope when there is a reason to give). */
function refuse(socket: Duplex, status: number, text: string, reason?: string): void {
  const body = reason === undefined ? '' : JSON.stringify({ ok: false, error: reason });
  const type = reason === undefined ? '' : 'Content-Type: application/json; charset=utf-8\r\n';
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\n${type}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}
