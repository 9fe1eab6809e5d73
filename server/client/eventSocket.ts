import WebSocket from 'ws';
import type { EventListener, ServiceEvent } from '../core/events';

/** After an unexpected close, the socket is opened again after this, doubling up to the maximum. */
const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 5000;

/**
 * A running server's event stream (its `/ws` WebSocket) as listeners in this process see it: one
 * socket for all of them, opened for the first listener and closed when the last one leaves, so a
 * client that never listens never holds a connection.
 */
export class ServerEventSocket {
  private readonly listeners = new Set<EventListener>();
  private socket: WebSocket | null = null;
  /** Settles when the server's `hello` arrived: from then on no event of the server is missed. */
  private opened: Promise<void> | null = null;
  private retryMs = RETRY_FIRST_MS;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly baseUrl: string,
    private readonly token: string | undefined,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  /** Answers once the socket is live, so a change made after it resolves is heard; the function stops listening. */
  async listen(listener: EventListener): Promise<() => void> {
    this.listeners.add(listener);
    const stop = () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.shut();
    };
    try {
      await (this.opened ??= this.open());
    } catch (error) {
      stop();
      throw error;
    }
    return stop;
  }

  private open(): Promise<void> {
    const url = `${this.baseUrl.replace(/^http/, 'ws')}/ws`;
    const socket = new WebSocket(url, { headers: this.token ? { authorization: `Bearer ${this.token}` } : {} });
    this.socket = socket;
    return new Promise<void>((resolve, reject) => {
      let greeted = false;
      socket.on('message', (data) => {
        const message = parse(data.toString());
        if (message?.type === 'hello' && !greeted) {
          greeted = true;
          this.retryMs = RETRY_FIRST_MS;
          resolve();
        }
        if (message?.type === 'event') this.deliver(message as unknown as ServiceEvent);
      });
      socket.on('error', (error) => {
        if (!greeted) reject(new Error(`cannot follow the events of ${this.baseUrl}: ${error.message}`));
      });
      socket.on('close', () => {
        if (!greeted) reject(new Error(`cannot follow the events of ${this.baseUrl}: the socket closed`));
        if (this.socket === socket) this.reopenLater();
      });
    });
  }

  /** A server restart or a dropped network ends the socket; the listeners keep listening on a new one. */
  private reopenLater(): void {
    this.socket = null;
    this.opened = null;
    if (this.listeners.size === 0 || this.retryTimer) return;
    this.log(`the event socket of ${this.baseUrl} closed; opening it again in ${this.retryMs} ms`);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.listeners.size === 0) return;
      this.opened = this.open();
      this.opened.catch(() => this.reopenLater());
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
  }

  private deliver(event: ServiceEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.log(`an event listener failed: ${(error as Error).stack ?? String(error)}`);
      }
    }
  }

  private shut(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const socket = this.socket;
    this.socket = null;
    this.opened = null;
    socket?.close();
  }

  close(): void {
    this.listeners.clear();
    this.shut();
  }
}

function parse(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' ? value : null;
  } catch {
    return null;
  }
}
