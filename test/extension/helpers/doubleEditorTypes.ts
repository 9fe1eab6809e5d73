import { type Position, type Range, Uri } from './doubleTypes';

/** The double's language-feature values: completion items, code actions, lenses, edits, documents. */

export enum CompletionItemKind {
  Value = 11,
  EnumMember = 19,
  User = 25,
}

export class CompletionItem {
  detail?: string;
  range?: Range;
  sortText?: string;
  constructor(
    readonly label: string,
    readonly kind?: CompletionItemKind,
  ) {}
}

export class CodeActionKind {
  static readonly QuickFix = new CodeActionKind('quickfix');
  private constructor(readonly value: string) {}
}

type Command = { title: string; command: string; arguments?: unknown[] };

export class WorkspaceEdit {
  readonly replacements: { uri: Uri; range: Range; text: string }[] = [];
  readonly renames: { from: Uri; to: Uri }[] = [];
  replace(uri: Uri, range: Range, text: string): void {
    this.replacements.push({ uri, range, text });
  }
  renameFile(from: Uri, to: Uri): void {
    this.renames.push({ from, to });
  }
}

export class CodeAction {
  edit?: WorkspaceEdit;
  command?: Command;
  diagnostics?: unknown[];
  isPreferred?: boolean;
  constructor(
    readonly title: string,
    readonly kind?: CodeActionKind,
  ) {}
}

export class CodeLens {
  constructor(
    readonly range: Range,
    readonly command?: Command,
  ) {}
}

export class FakeTextDocument {
  version = 1;
  constructor(
    readonly uri: Uri,
    private text: string,
    readonly languageId = uri.path.endsWith('.md') ? 'markdown' : 'plaintext',
  ) {}
  getText(range?: Range): string {
    if (!range) return this.text;
    return this.text.slice(this.offset(range.start), this.offset(range.end));
  }
  get lineCount(): number {
    return this.text.split('\n').length;
  }
  lineAt(line: number): { text: string } {
    return { text: (this.text.split('\n')[line] ?? '').replace(/\r$/, '') };
  }
  get isDirty(): boolean {
    return this.version > 1;
  }
  /** Replace a range, as typing or an applied edit does: a new version. */
  replace(range: Range, text: string): void {
    this.text = this.text.slice(0, this.offset(range.start)) + text + this.text.slice(this.offset(range.end));
    this.version++;
  }
  private offset(at: Position): number {
    const lines = this.text.split('\n');
    return lines.slice(0, at.line).reduce((sum, l) => sum + l.length + 1, 0) + at.character;
  }
}

export class Hover {
  constructor(
    readonly contents: { value: string },
    readonly range?: Range,
  ) {}
}

export type ProviderRegistration = {
  kind: 'completion' | 'codeActions' | 'codeLens' | 'hover';
  selector: unknown;
  provider: any;
  triggers?: string[];
  metadata?: unknown;
};
