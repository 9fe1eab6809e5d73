import * as path from 'node:path';
import type { FakeTextDocument, ProviderRegistration, WorkspaceEdit } from './doubleEditorTypes';
import { ConfigurationTarget, type Diagnostic, EventEmitter, type Range, Uri } from './doubleTypes';

/** What the vscode double records and what the tests arrange: panels, tabs, status items, secrets, scripts. */

/** A diagnostic collection as the Problems panel reads it: diagnostics per file path. */
export class FakeDiagnosticCollection {
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

/** A tree view as a test sees it: its provider, what it shows above the rows, and its visibility. */
export class FakeTreeView {
  message: string | undefined;
  description: string | undefined;
  title: string | undefined;
  visible = true;
  private readonly visibility = new EventEmitter<{ visible: boolean }>();
  readonly onDidChangeVisibility = this.visibility.event;
  constructor(
    readonly id: string,
    readonly options: { treeDataProvider: any; dragAndDropController?: any },
  ) {}
  dispose(): void {
    double.treeViews.delete(this.id);
  }
}

export interface ShownMessage {
  kind: 'info' | 'warning' | 'error';
  text: string;
  items: string[];
}

/** One scripted answer to the next prompt of that kind; a function sees what was offered. */
export type Script = { kind: 'message' | 'input' | 'quickPick' | 'save'; answer: (offered: any) => unknown };

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
    // A webview receives a structured clone, never the host's object. An answer sent as UTF-8 JSON
    // gets its body parsed here, as the page's transport does, so tests read every answer alike.
    // The editor carries only a plain typed array as bytes (a Node Buffer would cross as a JSON
    // array of numbers), which a clone would not show: the kind sent is kept beside the copy.
    const sent = (message as { utf8?: unknown }).utf8;
    const copy = structuredClone(message) as { type?: string; utf8?: unknown; utf8Kind?: string; body?: unknown };
    if (copy?.type === 'response' && copy.utf8 instanceof Uint8Array) {
      copy.utf8Kind = (sent as object).constructor.name;
      copy.body = JSON.parse(new TextDecoder().decode(copy.utf8));
    }
    this.posted.push(copy);
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
  /** The tab's icon, as the extension set it. */
  iconPath?: unknown;
  private readonly disposeEmitter = new EventEmitter<void>();
  private readonly viewState = new EventEmitter<unknown>();
  readonly onDidDispose = this.disposeEmitter.event;
  readonly onDidChangeViewState = this.viewState.event;
  constructor(
    readonly viewType: string,
    public title: string,
    readonly options: Record<string, unknown>,
  ) {}
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
  /** What is selected in the tab's editor, if a test selected something. */
  selection?: Range;
}

export class FakeStatusBarItem {
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
  fileWatchers: [] as { pattern: string; created: EventEmitter<Uri>; deleted: EventEmitter<Uri> }[],
  activeEditorChanged: new EventEmitter<unknown>(),
  /** `workspace.isTrusted`: false is Restricted Mode; grantTrust() is the user trusting the folder. */
  trusted: true,
  trustGranted: new EventEmitter<void>(),
  /** MCP server definition providers registered through `lm`, by id. */
  mcpProviders: new Map<string, { provideMcpServerDefinitions(token: unknown): Promise<object[]> }>(),
  /** Language model tools registered through `lm.registerTool`, by name. */
  lmTools: new Map<string, FakeLanguageModelTool>(),
  /** Chat participants, by id. */
  chatParticipants: new Map<string, { id: string; handler: FakeChatHandler }>(),
  /** Completion, code action and CodeLens providers, in the order registered. */
  providers: [] as ProviderRegistration[],
  /** Text documents opened through the double (openDocument, openTextDocument), in order. */
  documents: [] as FakeTextDocument[],
  /** Edits given to `workspace.applyEdit`, in order. */
  appliedEdits: [] as WorkspaceEdit[],
  /** Other extensions' exports by id (the git extension's, for one), as `extensions.getExtension` finds them. */
  extensions: new Map<string, unknown>(),
  /** Where each showTextDocument put its editor (undefined: the active group). */
  shownIn: [] as { path: string; viewColumn: number | undefined }[],

  reset(): void {
    this.providers = [];
    this.documents = [];
    this.appliedEdits = [];
    this.shownIn = [];
    this.extensions.clear();
    this.trusted = true;
    this.trustGranted.dispose();
    this.mcpProviders.clear();
    this.lmTools.clear();
    this.chatParticipants.clear();
    this.tabs = [];
    this.treeViews.clear();
    this.contexts.clear();
    this.fileWatchers = [];
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
  /** As the editor does once the user trusts the folder: isTrusted turns true, then the event. */
  grantTrust(): void {
    this.trusted = true;
    this.trustGranted.fire();
  },
  setFolders(paths: string[]): void {
    this.folders = paths.map((p, index) => ({ uri: Uri.file(p), name: path.basename(p), index }));
  },
  /** Change a setting as the Settings editor would: the value, then the change event. */
  setSetting(key: string, value: unknown): void {
    this.settings.set(key, value);
    this.configChanged.fire({
      affectsConfiguration: (section: string) => key === section || key.startsWith(`${section}.`),
    });
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
    const tab: FakeTab = {
      input: new TabInputText(Uri.file(fsPath)),
      isPreview: options.preview ?? false,
      isActive: true,
      dirty: options.dirty ?? false,
      group: { viewColumn, isActive: true },
    };
    this.tabs = [
      ...this.tabs.filter((t) => !(t.input.uri.fsPath === tab.input.uri.fsPath && t.group.viewColumn === viewColumn)),
      tab,
    ];
    this.activeEditorChanged.fire(activeEditor());
    return tab;
  },
  statusItem(id: string): FakeStatusBarItem | undefined {
    return this.statusItems.filter((item) => item.id === id && !item.disposed).at(-1);
  },
};

export function documentOf(tab: FakeTab) {
  return { uri: tab.input.uri, isDirty: tab.dirty };
}

/** The active editor as `window.activeTextEditor` answers it: the active tab of the active group. */
export function activeEditor() {
  const tab = double.tabs.find((t) => t.isActive && t.group.isActive);
  if (!tab) return undefined;
  // A document opened through the double has text; a tab's file alone has only its name and state.
  const opened = double.documents.find((d) => d.uri.fsPath === tab.input.uri.fsPath);
  return { document: opened ?? documentOf(tab), selection: tab.selection };
}

/** A language model tool as the extension registers it (the editor's LanguageModelTool). */
export interface FakeLanguageModelTool {
  prepareInvocation?(options: { input: object }, token: unknown): unknown;
  invoke(options: { input: object }, token: unknown): Promise<{ content: { value: string }[] }>;
}

/** A chat request handler: (request, context, stream, token). */
export type FakeChatHandler = (request: object, context: object, stream: object, token: unknown) => unknown;
