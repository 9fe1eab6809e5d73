import { promises as fs } from 'node:fs';
import { FakeTextDocument } from './doubleEditorTypes';
import { applyEdit, onDocument } from './doubleLanguages';
import { documentOf, double, type FakeChatHandler, type FakeLanguageModelTool } from './doubleState';
import { ConfigurationTarget, EventEmitter, type Listener, Uri } from './doubleTypes';

/** `vscode.languages`, `workspace`, `commands`, `env` of the double, and the extension context. */

export const workspace = {
  ...onDocument,
  applyEdit,
  /** An untitled document with this content, as `openTextDocument({ content })` makes one. */
  async openTextDocument(options: { content: string; language?: string }) {
    const count = double.documents.length + 1;
    const document = new FakeTextDocument(Uri.parse(`untitled:Untitled-${count}`), options.content, options.language);
    double.documents.push(document);
    return document;
  },
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
  onDidChangeConfiguration: (listener: Listener<{ affectsConfiguration(section: string): boolean }>) =>
    double.configChanged.event(listener),
  get isTrusted() {
    return double.trusted;
  },
  onDidGrantWorkspaceTrust: (listener: Listener<void>) => double.trustGranted.event(listener),
  onDidChangeWorkspaceFolders: (listener: Listener<{ added: unknown[]; removed: { uri: Uri }[] }>) =>
    double.foldersChanged.event(listener),
  /** A watcher whose events a test fires (double.fileWatchers), as the editor would on a disk change. */
  createFileSystemWatcher(pattern: string) {
    const watcher = {
      pattern,
      created: new EventEmitter<Uri>(),
      deleted: new EventEmitter<Uri>(),
      changed: new EventEmitter<Uri>(),
      onDidCreate: (listener: Listener<Uri>) => watcher.created.event(listener),
      onDidDelete: (listener: Listener<Uri>) => watcher.deleted.event(listener),
      onDidChange: (listener: Listener<Uri>) => watcher.changed.event(listener),
      dispose: () => void (double.fileWatchers = double.fileWatchers.filter((w) => w !== watcher)),
    };
    double.fileWatchers.push(watcher);
    return watcher;
  },
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

/**
 * `vscode.lm` of editors with the MCP server definition API (1.101+); registrations are recorded.
 * invokeTool runs a registered tool as the editor does once the person confirmed (prepareInvocation
 * is the test's to call).
 */
export const lm = {
  registerTool(name: string, tool: FakeLanguageModelTool) {
    if (double.lmTools.has(name)) throw new Error(`tool '${name}' already registered`);
    double.lmTools.set(name, tool);
    return { dispose: () => double.lmTools.delete(name) };
  },
  async invokeTool(name: string, options: { input: object; toolInvocationToken?: unknown }) {
    const tool = double.lmTools.get(name);
    if (!tool) throw new Error(`no tool '${name}'`);
    return tool.invoke(options, {});
  },
  registerMcpServerDefinitionProvider(
    id: string,
    provider: { provideMcpServerDefinitions(token: unknown): Promise<object[]> },
  ) {
    if (double.mcpProviders.has(id)) throw new Error(`MCP provider '${id}' already registered`);
    double.mcpProviders.set(id, provider);
    return { dispose: () => double.mcpProviders.delete(id) };
  },
};

export class McpStdioServerDefinition {
  constructor(
    readonly label: string,
    readonly command: string,
    readonly args: string[] = [],
    readonly env: Record<string, string | number | null> = {},
    readonly version?: string,
  ) {}
}

export class McpHttpServerDefinition {
  constructor(
    readonly label: string,
    readonly uri: { toString(): string },
    readonly headers?: Record<string, string>,
    readonly version?: string,
  ) {}
}

/** `vscode.chat`: a participant is recorded with its handler, which tests call as the chat view would. */
export const chat = {
  createChatParticipant(id: string, handler: FakeChatHandler) {
    if (double.chatParticipants.has(id)) throw new Error(`participant '${id}' already exists`);
    const participant = {
      id,
      handler,
      iconPath: undefined as unknown,
      dispose: () => double.chatParticipants.delete(id),
    };
    double.chatParticipants.set(id, participant);
    return participant;
  },
};

/** Other extensions, as `getExtension` finds them: only those a test put in `double.extensions`. */
export const extensions = {
  getExtension(id: string) {
    const exports = double.extensions.get(id);
    return exports === undefined ? undefined : { id, isActive: true, exports, activate: async () => exports };
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
