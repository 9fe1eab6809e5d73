import type { EventMessage, SocketServerMessage } from './protocol';
import { loadToken, saveToken } from './tokenStore';
import type { ConnectionListener, RequestOptions, Transport, TransportResponse } from './transport';

const STATE_KEY = 'repo-kanban.ui';
const MAX_RETRY_DELAY_MS = 4000;

/** The standalone server: fetch for `/api`, the `/ws` WebSocket for events, reconnecting on loss. */
export class HttpTransport implements Transport {
  readonly host = 'browser' as const;
  private listeners = new Set<(event: EventMessage) => void>();
  private socket: WebSocket | null = null;
  private retryDelay = 250;
  private everConnected = false;
  private token: string | null = loadToken();
  private askForToken: ((message: string) => Promise<string | null>) | null = null;
  /** One prompt at a time: every request refused meanwhile waits for the same answer. */
  private pendingToken: Promise<string | null> | null = null;

  constructor(private readonly origin = window.location.origin) {}

  onAuthRequired(ask: (message: string) => Promise<string | null>): void {
    this.askForToken = ask;
  }

  private headers(): Record<string, string> {
    return this.token ? { authorization: `Bearer ${this.token}` } : {};
  }

  /** Ask the user for a token (once, however many requests were refused); true to retry. */
  private async renewToken(refusedWith: string | null, message: string): Promise<boolean> {
    if (!this.askForToken) return false;
    // Another request already got a new token while this one was in flight: just retry.
    if (this.token !== refusedWith) return true;
    if (!this.pendingToken) {
      this.pendingToken = this.askForToken(message).finally(() => (this.pendingToken = null));
    }
    const token = await this.pendingToken;
    if (!token) return false;
    this.token = token;
    saveToken(token);
    return true;
  }

  async request(
    method: string,
    path: string,
    body?: unknown,
    options: RequestOptions = {},
  ): Promise<TransportResponse> {
    for (;;) {
      const sentWith = this.token;
      const answer = await this.send(method, path, body, options);
      if (answer.status !== 401) return answer;
      const message = (answer.body as { error?: string } | null)?.error ?? 'The server asks for a token.';
      if (!(await this.renewToken(sentWith, message))) return answer;
    }
  }

  private async send(method: string, path: string, body: unknown, options: RequestOptions): Promise<TransportResponse> {
    const init: RequestInit = { method, headers: this.headers() };
    if (options.ifMatch !== undefined) (init.headers as Record<string, string>)['if-match'] = options.ifMatch;
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
    const etag = response.headers.get('etag');
    const warnings = warningTexts(response.headers.get('warning'));
    const version = { ...(etag ? { etag } : {}), ...(warnings.length ? { warnings } : {}) };
    if (!text) return { status: response.status, body: null, ...version };
    try {
      return { status: response.status, body: JSON.parse(text), ...version };
    } catch {
      return {
        status: response.status,
        body: { ok: false, error: `Unexpected answer from the server (${response.status}).` },
      };
    }
  }

  async fetchFile(path: string): Promise<Blob> {
    const response = await fetch(`${this.origin}/api${path}`, { headers: this.headers() });
    if (!response.ok) throw new Error(`The file could not be loaded (${response.status}).`);
    return response.blob();
  }

  download(path: string, filename: string): void {
    // A plain link cannot carry the Authorization header: with a token, fetch the file first.
    if (this.token) {
      void this.fetchFile(path).then((blob) => this.saveLink(URL.createObjectURL(blob), filename, true));
      return;
    }
    this.saveLink(`${this.origin}/api${path}`, filename, false);
  }

  private saveLink(href: string, filename: string, revoke: boolean): void {
    const link = document.createElement('a');
    link.href = href;
    link.download = filename;
    document.body.append(link);
    link.click();
    link.remove();
    if (revoke) setTimeout(() => URL.revokeObjectURL(href), 10_000);
  }

  onEvent(listener: (event: EventMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  connect(listener: ConnectionListener): void {
    listener.state(this.everConnected ? 'reconnecting' : 'connecting');
    const query = this.token ? `?token=${encodeURIComponent(this.token)}` : '';
    const socket = new WebSocket(this.origin.replace(/^http/, 'ws') + '/ws' + query);
    this.socket = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      this.retryDelay = 250;
      socket.send(JSON.stringify({ type: 'subscribe', boardId: '*' }));
    };
    socket.onmessage = (message) => this.receive(message.data, listener);
    socket.onclose = (close) => {
      if (this.socket !== socket) return;
      this.socket = null;
      // Not "reconnecting" before the first connection (the server may be asking for a token).
      listener.state(this.everConnected ? 'reconnecting' : 'connecting');
      // A browser hides the status of a refused upgrade; an API call tells whether the token is
      // missing or wrong (401 prompts for one) before the next attempt.
      const refused = !opened || close.code === 1008;
      const probe = refused ? this.request('GET', '/boards') : Promise.resolve(null);
      // Back off so a stopped server is not hammered, but come back quickly after a blip.
      void probe.then(() => setTimeout(() => this.connect(listener), this.retryDelay));
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

/**
 * The texts of `Warning` headers (`299 - "text"`, RFC 7234), which fetch joins with ", " when
 * there are several. The server sends only printable ASCII there, with `"` and `\\` escaped.
 */
export function warningTexts(header: string | null): string[] {
  if (!header) return [];
  return [...header.matchAll(/\d{3} \S+ "((?:[^"\\]|\\.)*)"/g)].map((match) => match[1].replace(/\\(.)/g, '$1'));
}
