/**
 * A small test double of the `vscode` module: the parts the extension uses, behaving as the
 * editor documents them (a command id registers once, a disposed panel fires onDidDispose once, a
 * configuration change fires onDidChangeConfiguration with affectsConfiguration). Prompts are
 * answered by scripts the test queues, and everything shown to the user is recorded.
 *
 * Split by concern (doubleTypes, doubleState, doubleWindow, doubleWorkspace); this module is what
 * `require('vscode')` loads (installVscodeDouble.ts), so it re-exports exactly what it always had.
 */
export {
  EventEmitter,
  Uri,
  StatusBarAlignment,
  DiagnosticSeverity,
  ConfigurationTarget,
  Range,
  Diagnostic,
  TreeItemCollapsibleState,
  TreeItem,
  ThemeIcon,
  MarkdownString,
  DataTransferItem,
  DataTransfer,
  ViewColumn,
  ProgressLocation,
  LanguageModelTextPart,
  LanguageModelToolResult,
  LanguageModelChatMessage,
  Position,
} from './doubleTypes';
export {
  CompletionItem,
  CompletionItemKind,
  CodeAction,
  CodeActionKind,
  CodeLens,
  Hover,
  WorkspaceEdit,
  FakeTextDocument,
} from './doubleEditorTypes';
export { languages, openDocument, editDocument, documentEvents } from './doubleLanguages';
export { FakeTreeView, FakeWebviewPanel, TabInputText, FakeSecretStorage, double } from './doubleState';
export type { ShownMessage, FakeTab } from './doubleState';
export { window } from './doubleWindow';
export {
  workspace,
  commands,
  env,
  lm,
  chat,
  extensions,
  McpStdioServerDefinition,
  McpHttpServerDefinition,
  fakeExtensionContext,
} from './doubleWorkspace';
