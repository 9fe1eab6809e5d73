import * as vscode from 'vscode';
import type { EventMessage, FilePayload, WebviewToHostMessage } from '../../webview/protocol';
import type { ServiceEvent } from '../../server/core/events';
import type { FolderAccess } from '../auth/folderAccess';
import type { FolderRef, FolderServices } from '../service/folderServices';
import type { KanbanService } from '../service/kanbanService';
import { parseWebviewMessage, type OutgoingMessage } from './hostMessages';

type RequestMessage = Extract<WebviewToHostMessage, { type: 'request' }>;

/**
 * Connects one webview (panel or sidebar) to its folder's shared service. The webview holds no
 * data of its own: its API calls run through the in-process Dispatcher (the same route table as
 * HTTP) and every service event is forwarded, after the `ready` -> `hello` handshake. Calls carry
 * the folder's stored API token; with auth on, events reach only a webview whose token identifies
 * someone, as the WebSocket refuses a connection without one.
 */
export class WebviewBridge implements vscode.Disposable {
  private service: KanbanService | null = null;
  private unsubscribe: (() => void) | null = null;
  private ready = false;
  private disposed = false;
  private readonly disposables: vscode.Disposable[] = [];
  /** Commands asked for before the UI was ready (Switch Board right after Open Board). */
  private pendingCommands: OutgoingMessage[] = [];

  constructor(
    private readonly webview: vscode.Webview,
    readonly folder: FolderRef,
    private readonly services: FolderServices,
    private readonly access: FolderAccess,
  ) {
    this.disposables.push(webview.onDidReceiveMessage((raw) => void this.receive(raw)));
    this.disposables.push(access.tokens.onDidChange((key) => key === folder.key && void this.tokenChanged()));
    const stopListening = services.onDidReplace((replaced, next) => {
      if (replaced.key === folder.key) void this.serviceReplaced(next);
    });
    this.disposables.push({ dispose: stopListening });
  }

  /** Host-initiated requests (show a board, open a card); queued until the UI is ready. */
  command(message: OutgoingMessage): void {
    if (this.ready) this.post(message);
    else this.pendingCommands.push(message);
  }

  dispose(): void {
    this.disposed = true;
    this.detach();
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }

  private async receive(raw: unknown): Promise<void> {
    const message = parseWebviewMessage(raw);
    if (!message || this.disposed) return;
    if (message.type === 'ready') await this.handshake();
    else if (message.type === 'request') await this.answer(message);
    else await this.download(message.path, message.filename);
  }

  /** Also runs when the page reloads (a hidden sidebar comes back): each ready gets a new hello. */
  private async handshake(): Promise<void> {
    this.ready = false;
    let service: KanbanService;
    try {
      service = await this.services.get(this.folder);
    } catch (error) {
      void vscode.window.showErrorMessage(`Kanban: cannot open the board in ${this.folder.name}: ${(error as Error).message}`);
      return;
    }
    const watch = await this.mayWatch(service);
    if (this.disposed) return;
    this.attach(service, watch);
    this.ready = true;
    this.post({ type: 'hello', revision: service.revision });
    for (const message of this.pendingCommands.splice(0)) this.post(message);
  }

  /** Without auth anyone may; with auth only a token that identifies a subject (any role). */
  private async mayWatch(service: KanbanService): Promise<boolean> {
    const check = await this.access.check(service, this.folder).catch(() => null);
    return check !== null && (!check.authEnabled || check.role !== null);
  }

  private attach(service: KanbanService, watch: boolean): void {
    this.detach();
    this.service = service;
    // Subscribed before hello is posted and synchronous: no event can fall between the two.
    if (watch) this.unsubscribe = service.workspace.events.on((event) => this.post(toEventMessage(event)));
  }

  private detach(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.service = null;
  }

  private async serviceReplaced(next: KanbanService | null): Promise<void> {
    if (this.disposed) return;
    this.detach();
    this.post({ type: 'disconnected' });
    if (next && this.ready) await this.reconnect(next);
  }

  /** A token was set or cleared: the UI reloads as the new subject (or meets the 401 again). */
  private async tokenChanged(): Promise<void> {
    if (this.disposed || !this.ready) return;
    const service = this.service ?? (await this.services.get(this.folder).catch(() => null));
    if (!service) return;
    this.post({ type: 'disconnected' });
    await this.reconnect(service);
  }

  private async reconnect(service: KanbanService): Promise<void> {
    const watch = await this.mayWatch(service);
    if (this.disposed) return;
    this.attach(service, watch);
    this.post({ type: 'hello', revision: service.revision });
  }

  private async answer(message: RequestMessage): Promise<void> {
    const service = this.service ?? (await this.services.get(this.folder).catch(() => null));
    if (!service) {
      this.post({ type: 'response', id: message.id, status: 503, body: { ok: false, error: 'The kanban service is not running for this folder.' } });
      return;
    }
    const answer = await this.access.dispatch(service, this.folder, { method: message.method, path: message.path, body: message.body, ifMatch: message.ifMatch });
    let body: unknown = answer.body;
    if (message.responseType === 'base64') body = answer.status === 200 ? toFilePayload(answer.body) : null;
    this.post({ type: 'response', id: message.id, status: answer.status, body, ...(answer.etag ? { etag: answer.etag } : {}) });
  }

  private async download(path: string, filename: string): Promise<void> {
    const service = this.service ?? (await this.services.get(this.folder).catch(() => null));
    if (!service) return;
    const answer = await this.access.dispatch(service, this.folder, { method: 'GET', path });
    const file = answer.status === 200 ? toFilePayload(answer.body) : null;
    if (!file) {
      const reason = answer.body && answer.body.ok === false ? answer.body.error : `status ${answer.status}`;
      void vscode.window.showErrorMessage(`Kanban: cannot download ${filename}: ${reason}`);
      return;
    }
    const safeName = filename.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_') || 'attachment';
    const target = await vscode.window.showSaveDialog({ defaultUri: vscode.Uri.joinPath(vscode.Uri.file(this.folder.fsPath), safeName) });
    if (!target) return;
    await vscode.workspace.fs.writeFile(target, Buffer.from(file.data, 'base64'));
  }

  private post(message: OutgoingMessage): void {
    if (this.disposed) return;
    // A hidden or closing webview may refuse; the next hello re-syncs it, so nothing is lost.
    void Promise.resolve(this.webview.postMessage(message)).catch(() => undefined);
  }
}

function toEventMessage(event: ServiceEvent): EventMessage {
  return { type: 'event', event: event.event, boardId: event.boardId, data: event.data, card: event.card, revision: event.revision };
}

/** The Dispatcher answers a file as `{name, contentType, base64}`; the UI wants a FilePayload. */
function toFilePayload(body: unknown): FilePayload | null {
  const data = (body as { ok?: boolean; data?: { contentType?: unknown; base64?: unknown } } | null)?.data;
  if (!data || typeof data.base64 !== 'string' || typeof data.contentType !== 'string') return null;
  return { contentType: data.contentType, data: data.base64 };
}
