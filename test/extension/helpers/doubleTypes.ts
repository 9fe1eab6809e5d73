import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The vscode double's plain API values: events, URIs, ranges, diagnostics, tree items and enums. */

export type Listener<T> = (value: T) => unknown;

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
  private constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query = '',
  ) {}
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
    return this.scheme === 'file'
      ? pathToFileURL(this.path).href
      : `${this.scheme}://${this.authority}${this.path}${this.query ? `?${this.query}` : ''}`;
  }
}

export enum StatusBarAlignment {
  Left = 1,
  Right = 2,
}
export enum DiagnosticSeverity {
  Error = 0,
  Warning = 1,
  Information = 2,
  Hint = 3,
}
export enum ConfigurationTarget {
  Global = 1,
  Workspace = 2,
  WorkspaceFolder = 3,
}

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

export class Range {
  constructor(
    readonly startLine: number,
    readonly startCharacter: number,
    readonly endLine: number,
    readonly endCharacter: number,
  ) {}
  get start() {
    return new Position(this.startLine, this.startCharacter);
  }
  get end() {
    return new Position(this.endLine, this.endCharacter);
  }
}

export class Diagnostic {
  source?: string;
  code?: string | number;
  constructor(
    readonly range: Range,
    readonly message: string,
    readonly severity: DiagnosticSeverity,
  ) {}
}

export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}

export class TreeItem {
  id?: string;
  description?: string;
  tooltip?: unknown;
  contextValue?: string;
  iconPath?: unknown;
  command?: { title: string; command: string; arguments?: unknown[] };
  constructor(
    readonly label: string,
    readonly collapsibleState: TreeItemCollapsibleState,
  ) {}
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

export enum ViewColumn {
  Active = -1,
  Beside = -2,
  One = 1,
}
export enum ProgressLocation {
  SourceControl = 1,
  Window = 10,
  Notification = 15,
}

export class LanguageModelTextPart {
  constructor(readonly value: string) {}
}

export class LanguageModelToolResult {
  constructor(readonly content: LanguageModelTextPart[]) {}
}

export class LanguageModelChatMessage {
  private constructor(
    readonly role: 'user' | 'assistant',
    readonly content: string,
  ) {}
  static User(content: string): LanguageModelChatMessage {
    return new LanguageModelChatMessage('user', content);
  }
}
