import * as vscode from 'vscode';
import type { EventMessage, FilePayload, WebviewToHostMessage } from '../../webview/protocol';
import type { ServiceEvent } from '../../server/core/events';
import { InvalidConfigFileError } from '../../server/service/workspace';
import type { FolderAccess } from '../auth/folderAccess';
import type { BridgeHost } from './bridgeHost';
import type { FolderRef, FolderServices } from '../service/folderServices';
import type { KanbanService } from '../service/kanbanService';
import { parseWebviewMessage, type OutgoingMessage } from './hostMessages';
import { onTrustGranted, RESTRICTED_NOTICE, workspaceTrusted } from '../trust';

type RequestMessage = Extract<WebviewToHostMessage, { type: 'request' }>;
type SetDisplayMessage = Extract<WebviewToHostMessage, { type: 'setDisplay' }>;

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
  /** Why the folder's service did not open at the last handshake; null when it did (or none ran). */
  private openError: string | null = null;
  /** The board the page shows, as it last reported. */
  shownBoardId: string | null = null;
  private readonly boardsChanged = new vscode.EventEmitter<void>();
  /** A board was renamed, added or removed: whatever names the panel after its board looks again. */
  readonly onDidChangeBoards = this.boardsChanged.event;

  constructor(
    private readonly webview: vscode.Webview,
    readonly folder: FolderRef,
    private readonly services: FolderServices,
    private readonly access: FolderAccess,
    private readonly host: BridgeHost,
  ) {
    this.disposables.push(
      webview.onDidReceiveMessage((raw) => void this.receive(raw)),
      this.boardsChanged,
    );
    // Before the handshake the page hears nothing; the handshake sends the list as it is then.
    this.disposables.push(
      host.brokenFiles.onDidChange(
        (key, files) => key === folder.key && this.ready && this.post({ type: 'invalidFiles', files }),
      ),
    );
    this.disposables.push(host.onDisplayChange(() => this.post({ type: 'display', display: host.display(folder) })));
    this.disposables.push(access.tokens.onDidChange((key) => key === folder.key && void this.tokenChanged()));
    const stopListening = services.onDidReplace((replaced, next) => {
      if (replaced.key === folder.key) void this.serviceReplaced(next);
    });
    this.disposables.push({ dispose: stopListening });
    // A board that could not open read-only (a plugin provider) opens now; an open one is reopened
    // by FolderServices and reconnects through serviceReplaced.
    this.disposables.push(onTrustGranted(() => this.openError !== null && void this.handshake()));
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
    switch (message.type) {
      case 'ready':
        return this.handshake();
      case 'request':
        return this.answer(message);
      case 'download':
        return this.download(message.path, message.filename);
      case 'boardShown':
        this.shownBoardId = message.boardId;
        this.host.boardShown(this.folder, message.boardId);
        return;
      case 'openFile':
        // Beside the board: the board stays in view in its own group.
        return this.host.brokenFiles.open(this.folder.key, message.path, message.line, vscode.ViewColumn.Beside);
      case 'setDisplay':
        return this.setDisplay(message);
      case 'copyText':
        return vscode.env.clipboard.writeText(message.text);
      case 'copyCardLink':
        return this.host.copyCardLink(this.folder, message.boardId, message.taskId);
    }
  }

  /** Also runs when the page reloads (a hidden sidebar comes back): each ready gets a new hello. */
  private async handshake(): Promise<void> {
    this.ready = false;
    // Asked at once (git runs while the service opens), so the page gets it with hello.
    const identity = this.host.identity(this.folder).catch(() => '');
    let service: KanbanService;
    try {
      service = await this.services.get(this.folder);
    } catch (error) {
      this.openError = `Cannot open the board of ${this.folder.name}: ${(error as Error).message}. Fix it, then press Retry.`;
      // A .kanban.json that does not parse is announced with its line (Problems, a notification).
      if (!(error instanceof InvalidConfigFileError))
        void vscode.window.showErrorMessage(
          `Kanban: cannot open the board in ${this.folder.name}: ${(error as Error).message}`,
        );
      this.post({ type: 'invalidFiles', files: this.host.brokenFiles.filesOf(this.folder.key) });
      return;
    }
    this.openError = null;
    const [watch, name] = await Promise.all([this.mayWatch(service), identity]);
    if (this.disposed) return;
    this.attach(service, watch);
    this.ready = true;
    this.post({ type: 'hello', revision: service.revision });
    this.postReadOnly(service);
    this.post({ type: 'invalidFiles', files: this.host.brokenFiles.filesOf(this.folder.key) });
    this.post({ type: 'display', display: this.host.display(this.folder) });
    if (name) this.post({ type: 'identity', name });
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
    if (watch) this.unsubscribe = service.workspace.events.on((event) => this.forward(event));
  }

  private forward(event: ServiceEvent): void {
    this.post(toEventMessage(event));
    if (event.event === 'board.updated' || event.event === 'board.created' || event.event === 'board.deleted')
      this.boardsChanged.fire();
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
    this.postReadOnly(service);
  }

  /** Restricted Mode: the page says the board is read-only (the host refuses its writes). */
  private postReadOnly(service: KanbanService): void {
    const readOnly = service.readOnly || !workspaceTrusted();
    this.post({ type: 'readOnly', notice: readOnly ? RESTRICTED_NOTICE : null });
  }

  private async answer(message: RequestMessage): Promise<void> {
    const service = this.service ?? (await this.services.get(this.folder).catch(() => null));
    if (!service) {
      const error = this.openError ?? 'The kanban service is not running for this folder.';
      this.post({ type: 'response', id: message.id, status: 503, body: { ok: false, error } });
      return;
    }
    // The service opens now where it could not at the handshake (the file was fixed, Retry was
    // pressed): connect properly, so the page goes online and follows later edits.
    if (this.openError !== null && !this.ready) {
      this.openError = null;
      void this.handshake();
    }
    const answer = await this.access.dispatch(service, this.folder, {
      method: message.method,
      path: message.path,
      body: message.body,
      ifMatch: message.ifMatch,
      asJson: message.responseType !== 'base64',
    });
    let body: unknown = answer.body;
    if (message.responseType === 'base64') body = answer.status === 200 ? toFilePayload(answer.body) : null;
    this.post({
      type: 'response',
      id: message.id,
      status: answer.status,
      body,
      // A plain Uint8Array of its own: the editor carries a typed array's whole ArrayBuffer, and
      // sends a Node Buffer (a pooled slice, named Buffer) as a JSON array of numbers.
      ...(answer.json !== undefined ? { utf8: new Uint8Array(answer.json) } : {}),
      ...(answer.etag ? { etag: answer.etag } : {}),
      ...(answer.warnings?.length ? { warnings: answer.warnings } : {}),
    });
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
    const target = await vscode.window.showSaveDialog({
      defaultUri: vscode.Uri.joinPath(vscode.Uri.file(this.folder.fsPath), safeName),
    });
    if (!target) return;
    await vscode.workspace.fs.writeFile(target, Buffer.from(file.data, 'base64'));
  }

  /** A display choice from the board's settings: the user's own (VS Code settings) or the team's. */
  private async setDisplay(message: SetDisplayMessage): Promise<void> {
    if (message.scope === 'me') {
      await this.host.saveDisplay(this.folder, message.background, message.preset);
      return;
    }
    if (message.background === 'native') {
      void vscode.window.showWarningMessage(
        'Kanban: "native" follows each person\'s editor, so it cannot be the team\'s background; pick Plain or Fancy to change it for everyone.',
      );
      return;
    }
    const service = this.service ?? (await this.services.get(this.folder).catch(() => null));
    if (!service) return;
    const body = { boardBackgroundMode: message.background, boardBackgroundPreset: message.preset };
    const answer = await this.access.dispatch(service, this.folder, { method: 'PUT', path: '/settings', body });
    if (answer.status >= 400) {
      const reason = answer.body && answer.body.ok === false ? answer.body.error : `status ${answer.status}`;
      void vscode.window.showErrorMessage(`Kanban: the team's board background was not changed: ${reason}`);
      return;
    }
    // The user now sees what the team sees.
    await this.host.saveDisplay(this.folder, 'shared');
  }

  private post(message: OutgoingMessage): void {
    if (this.disposed) return;
    // A hidden or closing webview may refuse; the next hello re-syncs it, so nothing is lost.
    void Promise.resolve(this.webview.postMessage(message)).catch(() => undefined);
  }
}

function toEventMessage(event: ServiceEvent): EventMessage {
  return { type: 'event', ...event };
}

/** The Dispatcher answers a file as `{name, contentType, base64}`; the UI wants a FilePayload. */
function toFilePayload(body: unknown): FilePayload | null {
  const data = (body as { ok?: boolean; data?: { contentType?: unknown; base64?: unknown } } | null)?.data;
  if (!data || typeof data.base64 !== 'string' || typeof data.contentType !== 'string') return null;
  return { contentType: data.contentType, data: data.base64 };
}
