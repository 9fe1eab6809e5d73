import type { EventMessage, HostNoticeMessage, WebviewToHostMessage } from './protocol';

/** What a page may tell the VS Code host besides API calls. */
export type PageNotice = Extract<
  WebviewToHostMessage,
  { type: 'boardShown' | 'openFile' | 'setDisplay' | 'copyText' | 'copyCardLink' }
>;

/** The answer to an API call: the HTTP status and the parsed JSON envelope (null for 204). */
export interface TransportResponse {
  status: number;
  body: unknown;
  /** The resource's version (HTTP `ETag`), when the answer names one. */
  etag?: string;
  /** What the server said beside a success (HTTP `Warning` headers): a column went over its WIP limit. */
  warnings?: string[];
}

/** Per-call options a host carries as HTTP would. */
export interface RequestOptions {
  /** As the HTTP `If-Match` header: the change applies only to this version (else 412). */
  ifMatch?: string;
}

/**
 * - `connecting`: first connection, nothing loaded yet.
 * - `online`: events flow; the revision in `hello` is the starting point.
 * - `reconnecting`: the connection dropped; the UI shows it and re-fetches after the next hello.
 */
export type ConnectionState = 'connecting' | 'online' | 'reconnecting';

export interface ConnectionListener {
  /** Called on every (re)connection with the host's current revision. */
  hello(revision: number): void;
  state(state: ConnectionState): void;
}

/**
 * Everything the board UI needs from its host. The UI talks only to this interface, so one build
 * runs in a browser (HttpTransport: fetch + `/ws`) and in the VS Code webview
 * (PostMessageTransport: the extension host answers).
 */
export interface Transport {
  /** `path` is the part after `/api`, with its query string. Never rejects for HTTP errors. */
  request(method: string, path: string, body?: unknown, options?: RequestOptions): Promise<TransportResponse>;
  /** A file (attachment) as a Blob, for previews. */
  fetchFile(path: string): Promise<Blob>;
  /** Save a file to the user's disk. */
  download(path: string, filename: string): void;
  onEvent(listener: (event: EventMessage) => void): () => void;
  /** Starts the connection; listeners get `state` and `hello` calls from then on. */
  connect(listener: ConnectionListener): void;
  /** Small UI preferences (selected board, theme) that survive a reload. */
  loadState(): Record<string, unknown>;
  saveState(state: Record<string, unknown>): void;
  /** Which host this is: styles follow the editor theme in `vscode`. */
  readonly host: 'browser' | 'vscode';
  /**
   * Hosts that carry a credential (the browser) call `ask` when the server answers 401, with the
   * server's message; `ask` resolves with a token to retry with, or null to give up.
   */
  onAuthRequired?(ask: (message: string) => Promise<string | null>): void;
  /** Only in VS Code: the host's commands, broken files and display preferences. */
  onHostNotice?(listener: (notice: HostNoticeMessage) => void): () => void;
  /** Only in VS Code: tell the host what the page shows or what the user asked of the editor. */
  notifyHost?(notice: PageNotice): void;
}

/** The shape of the global VS Code puts into webviews. */
export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare global {
  // Present only inside a VS Code webview.
  var acquireVsCodeApi: (() => VsCodeApi) | undefined;
}

export function base64ToBlob(data: string, contentType: string): Blob {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new Blob([bytes], { type: contentType });
}
