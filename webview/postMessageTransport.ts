import type {
  EventMessage,
  FilePayload,
  HostNoticeMessage,
  HostToWebviewMessage,
  ResponseType,
  WebviewToHostMessage,
} from './protocol';
import {
  base64ToBlob,
  type ConnectionListener,
  type PageNotice,
  type RequestOptions,
  type Transport,
  type TransportResponse,
  type VsCodeApi,
} from './transport';

/** A request the host never answers (e.g. the extension host restarted) fails instead of hanging. */
const REQUEST_TIMEOUT_MS = 30_000;
/** Reads the answers the host sends as UTF-8 bytes (see the `response` message). */
const utf8Text = new TextDecoder();

interface Pending {
  resolve(response: TransportResponse): void;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * The VS Code webview: every API call goes to the extension host as a `request` message and comes
 * back as a `response` with the same id; events arrive as `event` messages.
 */
export class PostMessageTransport implements Transport {
  readonly host = 'vscode' as const;
  private listeners = new Set<(event: EventMessage) => void>();
  private noticeListeners = new Set<(notice: HostNoticeMessage) => void>();
  /** Notices that came before anyone listened (the host answers `ready` quickly). */
  private earlyNotices: HostNoticeMessage[] = [];
  private pending = new Map<number, Pending>();
  private nextId = 1;
  private connection: ConnectionListener | null = null;

  constructor(private readonly vscode: VsCodeApi) {
    window.addEventListener('message', (message: MessageEvent) => this.receive(message.data as HostToWebviewMessage));
  }

  request(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<TransportResponse> {
    return this.send(method, path, body, 'json', options.ifMatch);
  }

  async fetchFile(path: string): Promise<Blob> {
    const response = await this.send('GET', path, undefined, 'base64');
    const payload = response.body as FilePayload | null;
    if (response.status !== 200 || !payload || typeof payload.data !== 'string') {
      throw new Error(`The file could not be loaded (${response.status}).`);
    }
    return base64ToBlob(payload.data, payload.contentType);
  }

  download(path: string, filename: string): void {
    this.post({ type: 'download', path, filename });
  }

  onEvent(listener: (event: EventMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onHostNotice(listener: (notice: HostNoticeMessage) => void): () => void {
    this.noticeListeners.add(listener);
    for (const notice of this.earlyNotices.splice(0)) listener(notice);
    return () => this.noticeListeners.delete(listener);
  }

  notifyHost(notice: PageNotice): void {
    this.post(notice);
  }

  connect(listener: ConnectionListener): void {
    this.connection = listener;
    listener.state('connecting');
    this.post({ type: 'ready' });
  }

  loadState(): Record<string, unknown> {
    const state = this.vscode.getState();
    return state && typeof state === 'object' ? (state as Record<string, unknown>) : {};
  }

  saveState(state: Record<string, unknown>): void {
    this.vscode.setState(state);
  }

  private send(
    method: string,
    path: string,
    body: unknown,
    responseType: ResponseType,
    ifMatch?: string,
  ): Promise<TransportResponse> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve({ status: 0, body: { ok: false, error: 'The extension did not answer. Try reopening the board.' } });
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(id, { resolve, timer });
      this.post({
        type: 'request',
        id,
        method,
        path,
        body,
        ...(responseType === 'base64' ? { responseType } : {}),
        ...(ifMatch !== undefined ? { ifMatch } : {}),
      });
    });
  }

  private post(message: WebviewToHostMessage): void {
    this.vscode.postMessage(message);
  }

  private receive(message: HostToWebviewMessage): void {
    if (!message || typeof message !== 'object') return;
    switch (message.type) {
      case 'response': {
        const pending = this.pending.get(message.id);
        if (!pending) return;
        this.pending.delete(message.id);
        clearTimeout(pending.timer);
        pending.resolve({
          status: message.status,
          body: message.utf8 !== undefined ? JSON.parse(utf8Text.decode(message.utf8)) : message.body,
          ...(message.etag ? { etag: message.etag } : {}),
          ...(message.warnings?.length ? { warnings: message.warnings } : {}),
        });
        return;
      }
      case 'event':
        for (const listener of this.listeners) listener(message);
        return;
      case 'hello':
        this.connection?.state('online');
        this.connection?.hello(message.revision);
        return;
      case 'disconnected':
        this.connection?.state('reconnecting');
        return;
      case 'showBoard':
      case 'openTask':
      case 'invalidFiles':
      case 'display':
      case 'identity':
      case 'readOnly':
        if (this.noticeListeners.size === 0) this.earlyNotices.push(message);
        for (const listener of this.noticeListeners) listener(message);
        return;
    }
  }
}
