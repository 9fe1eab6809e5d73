/**
 * A small test double of the `vscode` module: the parts the extension uses, behaving as the
 * editor documents them (a command id registers once, a disposed panel fires onDidDispose once, a
 * configuration change fires onDidChangeConfiguration with affectsConfiguration). Prompts are
 * answered by scripts the test queues, and everything shown to the user is recorded.
 */
import * as path from 'node:path';
import { promises as fs } from 'node:fs';
import { pathToFileURL } from 'node:url';

type Listener<T> = (value: T) => unknown;

export class EventEmitter<T> {
  private listeners = new Set<Listener<T>>();
  readonly event = (listener: Listener<T>) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };
  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }
  get listenerCount(): number {
    return this.listeners.size;
  }
  dispose(): void {
    this.listeners.clear();
  }
}

export class Uri {
  private constructor(readonly scheme: string, readonly authority: string, readonly path: string, readonly query = '') {}
  static file(fsPath: string): Uri {
    return new Uri('file', '', path.resolve(fsPath));
  }
  static parse(value: string): Uri {
    const match = /^([a-z][\w+.-]*):(?:\/\/([^/?]*))?([^?]*)(?:\?(.*))?$/i.exec(value);
    if (!match) throw new Error(`not a URI: ${value}`);
    return new Uri(match[1], match[2] ?? '', decodeURIComponent(match[3]), match[4] ?? '');
  }
  static joinPath(base: Uri, ...segments: string[]): Uri {
    return new Uri(base.scheme, base.authority, path.posix.join(base.path, ...segments));
  }
  get fsPath(): string {
    return this.path;
  }
  with(change: { path?: string }): Uri {
    return new Uri(this.scheme, this.authority, change.path ?? this.path);
  }
  toString(): string {
    return this.scheme === 'file' ? pathToFileURL(this.path).href : `${this.scheme}://${this.authority}${this.path}${this.query ? `?${this.query}` : ''}`;
  }
}

export enum StatusBarAlignment { Left = 1, Right = 2 }
export enum DiagnosticSeverity { Error = 0, Warning = 1, Information = 2, Hint = 3 }
export enum ConfigurationTarget { Global = 1, Workspace = 2, WorkspaceFolder = 3 }

export class Range {
  constructor(readonly startLine: number, readonly startCharacter: number, readonly endLine: number, readonly endCharacter: number) {}
  get start() {
    return { line: this.startLine, character: this.startCharacter };
  }
}

export class Diagnostic {
  source?: string;
  constructor(readonly range: Range, readonly message: string, readonly severity: DiagnosticSeverity) {}
}

/** A diagnostic collection as the Problems panel reads it: diagnostics per file path. */
class FakeDiagnosticCollection {
  readonly byPath = new Map<string, Diagnostic[]>();
  constructor(readonly name: string) {}
  set(uri: Uri, diagnostics: Diagnostic[]): void {
    this.byPath.set(uri.fsPath, diagnostics);
  }
  delete(uri: Uri): void {
    this.byPath.delete(uri.fsPath);
  }
  clear(): void {
    this.byPath.clear();
  }
  dispose(): void {
    this.byPath.clear();
    double.diagnostics.delete(this.name);
  }
}
export enum TreeItemCollapsibleState { None = 0, Collapsed = 1, Expanded = 2 }

export class TreeItem {
  id?: string;
  description?: string;
  tooltip?: unknown;
  contextValue?: string;
  iconPath?: unknown;
  command?: { title: string; command: string; arguments?: unknown[] };
  constructor(readonly label: string, readonly collapsibleState: TreeItemCollapsibleState) {}
}

export class ThemeIcon {
  constructor(readonly id: string) {}
}

export class MarkdownString {
  constructor(readonly value: string) {}
}

export class DataTransferItem {
  constructor(readonly value: unknown) {}
}

export class DataTransfer {
  private readonly items = new Map<string, DataTransferItem>();
  get(mime: string): DataTransferItem | undefined {
    return this.items.get(mime);
  }
  set(mime: string, item: DataTransferItem): void {
    this.items.set(mime, item);
  }
}

/** A tree view as a test sees it: its provider, what it shows above the rows, and its visibility. */
export class FakeTreeView {
  message: string | undefined;
  description: string | undefined;
  title: string | undefined;
  visible = true;
  private readonly visibility = new EventEmitter<{ visible: boolean }>();
  readonly onDidChangeVisibility = this.visibility.event;
  constructor(readonly id: string, readonly options: { treeDataProvider: any; dragAndDropController?: any }) {}
  dispose(): void {
    double.treeViews.delete(this.id);
  }
}

export enum ViewColumn { Active = -1, Beside = -2, One = 1 }
export enum ProgressLocation { SourceControl = 1, Window = 10, Notification = 15 }

export interface ShownMessage {
  kind: 'info' | 'warning' | 'error';
  text: string;
  items: string[];
}

/** One scripted answer to the next prompt of that kind; a function sees what was offered. */
type Script = { kind: 'message' | 'input' | 'quickPick' | 'save'; answer: (offered: any) => unknown };

class FakeWebview {
  html = '';
  options: { enableScripts?: boolean; localResourceRoots?: Uri[] } = {};
  readonly cspSource = 'https://file+.vscode-resource.test';
  readonly posted: any[] = [];
  private readonly received = new EventEmitter<unknown>();
  readonly onDidReceiveMessage = this.received.event;
  asWebviewUri(uri: Uri): Uri {
    return Uri.parse(`https://file+.vscode-resource.test${uri.path}`);
  }
  postMessage(message: unknown): Promise<boolean> {
    // A webview receives a structured clone, never the host's object.
    this.posted.push(structuredClone(message));
    return Promise.resolve(true);
  }
  /** The page posts a message to the host. */
  send(message: unknown): void {
    this.received.fire(message);
  }
}

export class FakeWebviewPanel {
  readonly webview = new FakeWebview();
  active = true;
  visible = true;
  disposed = false;
  revealed = 0;
  private readonly disposeEmitter = new EventEmitter<void>();
  private readonly viewState = new EventEmitter<unknown>();
  readonly onDidDispose = this.disposeEmitter.event;
  readonly onDidChangeViewState = this.viewState.event;
  constructor(readonly viewType: string, public title: string, readonly options: Record<string, unknown>) {}
  reveal(): void {
    this.revealed++;
    this.active = true;
  }
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.disposeEmitter.fire();
  }
}

/** A text editor tab: the file, whether it has unsaved changes, and where it sits. */
export class TabInputText {
  constructor(readonly uri: Uri) {}
}

export interface FakeTab {
  input: TabInputText;
  isPreview: boolean;
  isActive: boolean;
  /** Unsaved changes in the tab's document. */
  dirty: boolean;
  group: { viewColumn: number; isActive: boolean };
}

class FakeStatusBarItem {
  text = '';
  tooltip: string | undefined;
  command: string | { command: string; arguments?: unknown[] } | undefined;
  name: string | undefined;
  visible = false;
  disposed = false;
  constructor(readonly id: string) {}
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  dispose(): void {
    this.disposed = true;
    this.visible = false;
  }
}

/**
 * SecretStorage as the editor offers it: string values only, per extension, and onDidChange fired
 * for every store and delete (this extension's own too), after the call and not inside it, since
 * in the editor the event travels back from another process.
 */
export class FakeSecretStorage {
  readonly values = new Map<string, string>();
  private readonly changes = new EventEmitter<{ key: string }>();
  readonly onDidChange = this.changes.event;
  /** Every key operation, to prove a read went through the storage (not a copy elsewhere). */
  readonly calls: { op: 'get' | 'store' | 'delete'; key: string }[] = [];
  async get(key: string): Promise<string | undefined> {
    this.calls.push({ op: 'get', key });
    return this.values.get(key);
  }
  async store(key: string, value: string): Promise<void> {
    if (typeof value !== 'string') throw new TypeError('SecretStorage.store takes a string value');
    this.calls.push({ op: 'store', key });
    this.values.set(key, value);
    setImmediate(() => this.changes.fire({ key }));
  }
  async delete(key: string): Promise<void> {
    this.calls.push({ op: 'delete', key });
    this.values.delete(key);
    setImmediate(() => this.changes.fire({ key }));
  }
  /** Another window of the same workspace changed a secret. */
  storeFromElsewhere(key: string, value: string | undefined): void {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
    this.changes.fire({ key });
  }
}

/** State the tests arrange and inspect; reset() between tests. */
export const double = {
  messages: [] as ShownMessage[],
  scripts: [] as Script[],
  commands: new Map<string, (...args: unknown[]) => unknown>(),
  settings: new Map<string, unknown>(),
  panels: [] as FakeWebviewPanel[],
  statusItems: [] as FakeStatusBarItem[],
  outputs: [] as { name: string; lines: string[] }[],
  serializers: new Map<string, { deserializeWebviewPanel(panel: FakeWebviewPanel, state: unknown): Promise<void> }>(),
  viewProviders: new Map<string, { resolveWebviewView(view: unknown): void }>(),
  openedDocuments: [] as string[],
  openedAt: [] as { path: string; line: number | undefined }[],
  diagnostics: new Map<string, FakeDiagnosticCollection>(),
  /** Settings written through `update`, with the target, in order. */
  settingUpdates: [] as { key: string; value: unknown; target: ConfigurationTarget }[],
  clipboard: '',
  /** Every text written to the clipboard, in order. */
  clipboardWrites: [] as string[],
  openedExternal: [] as string[],
  /** The extension's vscode:// URI handler, as registerUriHandler got it. */
  uriHandler: null as { handleUri(uri: Uri): unknown } | null,
  executed: [] as { id: string; args: unknown[] }[],
  configChanged: new EventEmitter<{ affectsConfiguration(section: string): boolean }>(),
  foldersChanged: new EventEmitter<{ added: unknown[]; removed: { uri: Uri }[] }>(),
  folders: [] as { uri: Uri; name: string; index: number }[],
  secrets: new FakeSecretStorage(),
  /** Open text editor tabs, in every group; the active one is the active text editor. */
  tabs: [] as FakeTab[],
  treeViews: new Map<string, FakeTreeView>(),
  contexts: new Map<string, unknown>(),
  activeEditorChanged: new EventEmitter<unknown>(),

  reset(): void {
    this.tabs = [];
    this.treeViews.clear();
    this.contexts.clear();
    this.activeEditorChanged.dispose();
    this.secrets = new FakeSecretStorage();
    this.messages = [];
    this.scripts = [];
    this.commands.clear();
    this.settings.clear();
    this.panels = [];
    this.statusItems = [];
    this.outputs = [];
    this.serializers.clear();
    this.viewProviders.clear();
    this.openedDocuments = [];
    this.openedAt = [];
    this.diagnostics.clear();
    this.settingUpdates = [];
    this.clipboard = '';
    this.clipboardWrites = [];
    this.openedExternal = [];
    this.uriHandler = null;
    this.executed = [];
    this.configChanged.dispose();
    this.foldersChanged.dispose();
    this.folders = [];
  },
  setFolders(paths: string[]): void {
    this.folders = paths.map((p, index) => ({ uri: Uri.file(p), name: path.basename(p), index }));
  },
  /** Change a setting as the Settings editor would: the value, then the change event. */
  setSetting(key: string, value: unknown): void {
    this.settings.set(key, value);
    this.configChanged.fire({ affectsConfiguration: (section: string) => key === section || key.startsWith(`${section}.`) });
  },
  /** Queue the answer to the next prompt of a kind (a value, or a function of what was offered). */
  answer(kind: Script['kind'], answer: unknown): void {
    this.scripts.push({ kind, answer: typeof answer === 'function' ? (answer as Script['answer']) : () => answer });
  },
  /** Open a file in an editor tab, as the user would, and make it the active editor. */
  openEditor(fsPath: string, options: { dirty?: boolean; viewColumn?: number; preview?: boolean } = {}): FakeTab {
    const viewColumn = options.viewColumn ?? 1;
    for (const tab of this.tabs) {
      tab.isActive = false;
      tab.group.isActive = tab.group.viewColumn === viewColumn;
    }
    const tab: FakeTab = { input: new TabInputText(Uri.file(fsPath)), isPreview: options.preview ?? false, isActive: true, dirty: options.dirty ?? false, group: { viewColumn, isActive: true } };
    this.tabs = [...this.tabs.filter((t) => !(t.input.uri.fsPath === tab.input.uri.fsPath && t.group.viewColumn === viewColumn)), tab];
    this.activeEditorChanged.fire(window.activeTextEditor);
    return tab;
  },
  statusItem(id: string): FakeStatusBarItem | undefined {
    return this.statusItems.filter((item) => item.id === id && !item.disposed).at(-1);
  },
};

function nextScript(kind: Script['kind'], offered: unknown): unknown {
  const index = double.scripts.findIndex((script) => script.kind === kind);
  // An unscripted prompt is dismissed, as a user pressing Escape would.
  if (index < 0) return undefined;
  const [script] = double.scripts.splice(index, 1);
  return script.answer(offered);
}

function message(kind: ShownMessage['kind']) {
  return async (text: string, ...rest: unknown[]) => {
    const items = rest.filter((item): item is string => typeof item === 'string');
    double.messages.push({ kind, text, items });
    return nextScript('message', { text, items });
  };
}

export const window = {
  showInformationMessage: message('info'),
  showWarningMessage: message('warning'),
  showErrorMessage: message('error'),
  async showInputBox(options: { value?: string; validateInput?: (value: string) => string | null | undefined }) {
    const answer = nextScript('input', options) as string | undefined;
    // The real input box does not accept a value its validator refuses.
    if (answer !== undefined && options.validateInput?.(answer)) throw new Error(`test scripted an input the box refuses: ${answer}`);
    return answer;
  },
  async showQuickPick(items: unknown[] | Promise<unknown[]>, options?: unknown) {
    const resolved = await items;
    const answer = nextScript('quickPick', { items: resolved, options });
    if (answer === undefined) return undefined;
    if (!resolved.includes(answer)) throw new Error('test picked an item that was not offered');
    return answer;
  },
  /**
   * A quick pick built by hand: answered by the next 'quickPick' script, which sees `items`,
   * `options` (title, placeHolder) and `active` (what Enter would take).
   */
  createQuickPick() {
    const accepted = new EventEmitter<void>();
    const hidden = new EventEmitter<void>();
    let open = false;
    const pick = {
      title: undefined as string | undefined,
      placeholder: undefined as string | undefined,
      ignoreFocusOut: false,
      items: [] as unknown[],
      activeItems: [] as unknown[],
      selectedItems: [] as unknown[],
      onDidAccept: accepted.event,
      onDidHide: hidden.event,
      show() {
        open = true;
        setImmediate(() => {
          const answer = nextScript('quickPick', { items: pick.items, options: { title: pick.title, placeHolder: pick.placeholder }, active: pick.activeItems });
          if (answer === undefined) return pick.hide();
          if (!pick.items.includes(answer)) throw new Error('test picked an item that was not offered');
          pick.selectedItems = [answer];
          accepted.fire();
        });
      },
      hide() {
        if (!open) return;
        open = false;
        hidden.fire();
      },
      dispose() {
        accepted.dispose();
        hidden.dispose();
      },
    };
    return pick;
  },
  async showSaveDialog(options: unknown) {
    return nextScript('save', options);
  },
  async showTextDocument(uri: Uri, options?: { selection?: Range; viewColumn?: number; preview?: boolean }) {
    await fs.access(uri.fsPath);
    double.openedDocuments.push(uri.fsPath);
    double.openedAt.push({ path: uri.fsPath, line: options?.selection?.startLine });
    double.openEditor(uri.fsPath, { viewColumn: options?.viewColumn, preview: options?.preview });
    return {};
  },
  get activeTextEditor() {
    const tab = double.tabs.find((t) => t.isActive && t.group.isActive);
    return tab ? { document: documentOf(tab) } : undefined;
  },
  onDidChangeActiveTextEditor: (listener: Listener<unknown>) => double.activeEditorChanged.event(listener),
  tabGroups: {
    get all() {
      const columns = [...new Set(double.tabs.map((t) => t.group.viewColumn))];
      return columns.map((viewColumn) => ({ viewColumn, tabs: double.tabs.filter((t) => t.group.viewColumn === viewColumn) }));
    },
    async close(closing: FakeTab | FakeTab[]) {
      const tabs = Array.isArray(closing) ? closing : [closing];
      const wasActive = tabs.some((t) => t.isActive);
      double.tabs = double.tabs.filter((t) => !tabs.includes(t));
      if (wasActive) double.activeEditorChanged.fire(window.activeTextEditor);
      return true;
    },
  },
  async withProgress<T>(_options: unknown, task: () => Promise<T>): Promise<T> {
    return task();
  },
  createOutputChannel(name: string) {
    const channel = { name, lines: [] as string[], appendLine: (line: string) => void channel.lines.push(line), dispose: () => undefined };
    double.outputs.push(channel);
    return channel;
  },
  createStatusBarItem(id: string) {
    const item = new FakeStatusBarItem(id);
    double.statusItems.push(item);
    return item;
  },
  createWebviewPanel(viewType: string, title: string, _column: unknown, options: Record<string, unknown>) {
    for (const other of double.panels) other.active = false;
    const panel = new FakeWebviewPanel(viewType, title, options);
    double.panels.push(panel);
    return panel;
  },
  registerUriHandler(handler: { handleUri(uri: Uri): unknown }) {
    if (double.uriHandler) throw new Error('a URI handler is already registered');
    double.uriHandler = handler;
    return { dispose: () => (double.uriHandler = null) };
  },
  registerWebviewPanelSerializer(viewType: string, serializer: { deserializeWebviewPanel(panel: FakeWebviewPanel, state: unknown): Promise<void> }) {
    if (double.serializers.has(viewType)) throw new Error(`a serializer for ${viewType} is already registered`);
    double.serializers.set(viewType, serializer);
    return { dispose: () => double.serializers.delete(viewType) };
  },
  createTreeView(id: string, options: { treeDataProvider: unknown; dragAndDropController?: unknown }) {
    if (double.treeViews.has(id)) throw new Error(`a tree view ${id} already exists`);
    const view = new FakeTreeView(id, options as FakeTreeView['options']);
    double.treeViews.set(id, view);
    return view;
  },
  registerWebviewViewProvider(viewId: string, provider: { resolveWebviewView(view: unknown): void }) {
    if (double.viewProviders.has(viewId)) throw new Error(`a provider for ${viewId} is already registered`);
    double.viewProviders.set(viewId, provider);
    return { dispose: () => double.viewProviders.delete(viewId) };
  },
};

function documentOf(tab: FakeTab) {
  return { uri: tab.input.uri, isDirty: tab.dirty };
}

export const languages = {
  createDiagnosticCollection(name: string) {
    const collection = new FakeDiagnosticCollection(name);
    double.diagnostics.set(name, collection);
    return collection;
  },
};

export const workspace = {
  get workspaceFolders() {
    return double.folders.length ? double.folders : undefined;
  },
  get textDocuments() {
    return double.tabs.map(documentOf);
  },
  getConfiguration(section: string) {
    return {
      get<T>(key: string): T | undefined {
        return double.settings.get(`${section}.${key}`) as T | undefined;
      },
      inspect(key: string) {
        return { key: `${section}.${key}`, globalValue: double.settings.get(`${section}.${key}`) };
      },
      async update(key: string, value: unknown, target: ConfigurationTarget) {
        double.settingUpdates.push({ key: `${section}.${key}`, value, target });
        double.setSetting(`${section}.${key}`, value);
      },
    };
  },
  onDidChangeConfiguration: (listener: Listener<{ affectsConfiguration(section: string): boolean }>) => double.configChanged.event(listener),
  onDidChangeWorkspaceFolders: (listener: Listener<{ added: unknown[]; removed: { uri: Uri }[] }>) => double.foldersChanged.event(listener),
  fs: {
    async writeFile(uri: Uri, bytes: Uint8Array) {
      await fs.writeFile(uri.fsPath, bytes);
    },
  },
};

export const commands = {
  registerCommand(id: string, run: (...args: unknown[]) => unknown) {
    if (double.commands.has(id)) throw new Error(`command '${id}' already exists`);
    double.commands.set(id, run);
    return { dispose: () => double.commands.delete(id) };
  },
  async executeCommand(id: string, ...args: unknown[]) {
    double.executed.push({ id, args });
    if (id === 'setContext') return void double.contexts.set(args[0] as string, args[1]);
    const run = double.commands.get(id);
    if (run) return run(...args);
    if (id.startsWith('workbench.')) return undefined;
    throw new Error(`command '${id}' not found`);
  },
};

export const env = {
  uriScheme: 'vscode',
  clipboard: {
    async writeText(text: string) {
      double.clipboard = text;
      double.clipboardWrites.push(text);
    },
  },
  async openExternal(uri: Uri) {
    double.openedExternal.push(uri.toString());
    return true;
  },
  /** As on a desktop: a local address is reachable as it is. */
  async asExternalUri(uri: Uri) {
    return uri;
  },
};

/** What activate() receives. */
export function fakeExtensionContext(extensionPath: string) {
  const state = new Map<string, unknown>();
  return {
    extensionUri: Uri.file(extensionPath),
    extension: { id: 'repo-kanban.kanban-board-service' },
    extensionPath,
    secrets: double.secrets,
    subscriptions: [] as { dispose(): unknown }[],
    workspaceState: {
      get: <T>(key: string) => state.get(key) as T | undefined,
      update: async (key: string, value: unknown) => void state.set(key, value),
    },
  };
}
