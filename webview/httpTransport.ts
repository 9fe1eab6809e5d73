import type { EventMessage, SocketServerMessage } from './protocol';
import type { ConnectionListener, Transport, TransportResponse } from './transport';

const STATE_KEY = 'repo-kanban.ui';
const MAX_RETRY_DELAY_MS = 4000;

/** The standalone server: fetch for `/api`, the `/ws` WebSocket for events, reconnecting on loss. */
export class HttpTransport implements Transport {
  readonly host = 'browser' as const;
  private listeners = new Set<(event: EventMessage) => void>();
  private socket: WebSocket | null = null;
  private retryDelay = 250;
  private everConnected = false;

  constructor(private readonly origin = window.location.origin) {}

  async request(method: string, path: string, body?: unknown): Promise<TransportResponse> {
    const init: RequestInit = { method, headers: {} };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    let response: Response;
    try {
      response = await fetch(`${this.origin}/api${path}`, init);
    } catch {
      return { status: 0, body: { ok: false, error: 'The server cannot be reached. Is it still running?' } };
    }
    const text = await response.text();
    if (!text) return { status: response.status, body: null };
    try {
      return { status: response.status, body: JSON.parse(text) };
    } catch {
      return { status: response.status, body: { ok: false, error: `Unexpected answer from the server (${response.status}).` } };
    }
  }

  async fetchFile(path: string): Promise<Blob> {
    const response = await fetch(`${this.origin}/api${path}`);
    if (!response.ok) throw new Error(`The file could not be loaded (${response.status}).`);
    return response.blob();
  }

  download(path: string, filename: string): void {
    const link = document.createElement('a');
    link.href = `${this.origin}/api${path}`;
    link.download = filename;
    document.body.append(link);
    link.click();
    link.remove();
  }

  onEvent(listener: (event: EventMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  connect(listener: ConnectionListener): void {
    listener.state(this.everConnected ? 'reconnecting' : 'connecting');
    const url = this.origin.replace(/^http/, 'ws') + '/ws';
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => {
      this.retryDelay = 250;
      socket.send(JSON.stringify({ type: 'subscribe', boardId: '*' }));
    };
    socket.onmessage = (message) => this.receive(message.data, listener);
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      listener.state('reconnecting');
      // Back off so a stopped server is not hammered, but come back quickly after a blip.
      setTimeout(() => this.connect(listener), this.retryDelay);
      this.retryDelay = Math.min(this.retryDelay * 2, MAX_RETRY_DELAY_MS);
    };
  }

  private receive(raw: unknown, listener: ConnectionListener): void {
    let message: SocketServerMessage;
    try {
      message = JSON.parse(String(raw));
    } catch {
      return;
    }
    if (message.type === 'hello') {
      this.everConnected = true;
      listener.state('online');
      listener.hello(message.revision);
    } else if (message.type === 'event') {
      for (const eventListener of this.listeners) eventListener(message);
    }
  }

  loadState(): Record<string, unknown> {
    try {
      return JSON.parse(window.localStorage.getItem(STATE_KEY) ?? '{}');
    } catch {
      return {};
    }
  }

  saveState(state: Record<string, unknown>): void {
    try {
      window.localStorage.setItem(STATE_KEY, JSON.stringify(state));
    } catch {
      // Private mode or a full quota: preferences simply do not persist.
    }
  }
}
