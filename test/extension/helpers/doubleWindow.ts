import { promises as fs } from 'node:fs';
import {
  activeEditor,
  double,
  FakeStatusBarItem,
  FakeTreeView,
  type FakeTab,
  FakeWebviewPanel,
  type Script,
  type ShownMessage,
} from './doubleState';
import { FakeTextDocument } from './doubleEditorTypes';
import { EventEmitter, type Listener, Range, Uri } from './doubleTypes';

/** `vscode.window` of the double: messages and prompts answered by scripts, panels, views, tabs. */

function nextScript(kind: Script['kind'], offered: unknown): unknown {
  const index = double.scripts.findIndex((script) => script.kind === kind);
  // An unscripted prompt is dismissed, as a user pressing Escape would.
  if (index < 0) return undefined;
  const [script] = double.scripts.splice(index, 1);
  return script.answer(offered);
}

/** A quick-pick script's answer that types text instead of picking. */
function isTyping(answer: unknown): answer is { typed: string } {
  return typeof answer === 'object' && answer !== null && typeof (answer as { typed?: unknown }).typed === 'string';
}

export function message(kind: ShownMessage['kind']) {
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
    if (answer !== undefined && options.validateInput?.(answer))
      throw new Error(`test scripted an input the box refuses: ${answer}`);
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
   * `options` (title, placeHolder) and `active` (what Enter would take) once the pick is no longer
   * busy, as a person waits for results. A script may answer `{ typed: 'text' }`: the text is typed
   * (`value` and `onDidChangeValue`, as the editor does) and the next script answers what then shows.
   */
  createQuickPick() {
    const accepted = new EventEmitter<void>();
    const hidden = new EventEmitter<void>();
    const changedValue = new EventEmitter<string>();
    let open = false;
    const settled = async () => {
      while (pick.busy) await new Promise((resolve) => setImmediate(resolve));
    };
    const consult = async () => {
      await settled();
      if (!open) return;
      const answer = nextScript('quickPick', {
        items: pick.items,
        options: { title: pick.title, placeHolder: pick.placeholder },
        active: pick.activeItems,
      });
      if (answer === undefined) return pick.hide();
      if (isTyping(answer)) {
        pick.value = answer.typed;
        changedValue.fire(answer.typed);
        return consult();
      }
      if (!pick.items.includes(answer)) throw new Error('test picked an item that was not offered');
      pick.selectedItems = [answer];
      accepted.fire();
    };
    const pick = {
      title: undefined as string | undefined,
      placeholder: undefined as string | undefined,
      ignoreFocusOut: false,
      matchOnDescription: false,
      matchOnDetail: false,
      busy: false,
      value: '',
      items: [] as unknown[],
      activeItems: [] as unknown[],
      selectedItems: [] as unknown[],
      onDidAccept: accepted.event,
      onDidHide: hidden.event,
      onDidChangeValue: changedValue.event,
      show() {
        open = true;
        setImmediate(() => void consult());
      },
      hide() {
        if (!open) return;
        open = false;
        hidden.fire();
      },
      dispose() {
        accepted.dispose();
        hidden.dispose();
        changedValue.dispose();
      },
    };
    return pick;
  },
  async showSaveDialog(options: unknown) {
    return nextScript('save', options);
  },
  async showTextDocument(
    shown: Uri | FakeTextDocument,
    options?: { selection?: Range; viewColumn?: number; preview?: boolean },
  ) {
    const uri = shown instanceof FakeTextDocument ? shown.uri : shown;
    double.shownIn.push({ path: uri.fsPath, viewColumn: options?.viewColumn });
    if (uri.scheme === 'untitled') return {};
    await fs.access(uri.fsPath);
    double.openedDocuments.push(uri.fsPath);
    double.openedAt.push({ path: uri.fsPath, line: options?.selection?.startLine });
    double.openEditor(uri.fsPath, { viewColumn: options?.viewColumn, preview: options?.preview });
    return {};
  },
  get activeTextEditor() {
    return activeEditor();
  },
  onDidChangeActiveTextEditor: (listener: Listener<unknown>) => double.activeEditorChanged.event(listener),
  tabGroups: {
    get all() {
      const columns = [...new Set(double.tabs.map((t) => t.group.viewColumn))];
      return columns.map((viewColumn) => ({
        viewColumn,
        tabs: double.tabs.filter((t) => t.group.viewColumn === viewColumn),
      }));
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
    const channel = {
      name,
      lines: [] as string[],
      appendLine: (line: string) => void channel.lines.push(line),
      dispose: () => undefined,
    };
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
  registerWebviewPanelSerializer(
    viewType: string,
    serializer: { deserializeWebviewPanel(panel: FakeWebviewPanel, state: unknown): Promise<void> },
  ) {
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
