import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Card } from '../../server/core/model';
import { serializeCard } from '../../server/storage/cardFile';
import type { KanbanService } from '../service/kanbanService';
import type { BrokenFiles } from '../ui/brokenFiles';
import { type CardFileLookup, cardFilePath, serviceOfFile } from './cardOfFile';
import { isCardDocument, problemsOf, rangeOf } from './frontmatterDiagnostics';
import type { FrontmatterProblem } from './frontmatterProblems';

export const OPEN_LAST_GOOD = 'kanban.openLastGoodVersion';

function overlaps(a: vscode.Range, b: vscode.Range): boolean {
  const before = (x: vscode.Position, y: vscode.Position) =>
    x.line < y.line || (x.line === y.line && x.character < y.character);
  return !before(a.end, b.start) && !before(b.end, a.start);
}

function sameDiagnostics(context: vscode.CodeActionContext, range: vscode.Range, message: string): vscode.Diagnostic[] {
  return context.diagnostics.filter((d) => d.message === message && overlaps(d.range, range));
}

/**
 * Quick Fixes in card files: for the frontmatter warnings (the closest known value; a status its
 * folder contradicts, either way round) and for the Problems the service reports (a second copy of
 * a card: open the one served; a file that no longer parses: open the version the board kept).
 * The warnings are worked out again here rather than carried on the diagnostics, which reach a
 * provider as copies.
 */
export class CardFileFixes implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(
    private readonly lookup: CardFileLookup,
    private readonly brokenFiles: BrokenFiles,
  ) {}

  async provideCodeActions(
    document: vscode.TextDocument,
    range: vscode.Range,
    context: vscode.CodeActionContext,
  ): Promise<vscode.CodeAction[]> {
    if (!isCardDocument(document)) return [];
    const { problems } = await problemsOf(this.lookup, document);
    const actions = problems
      .filter((problem) => overlaps(rangeOf(problem), range))
      .flatMap((problem) => this.fixesOf(document, problem, context));
    return [...actions, ...(await this.brokenFileFixes(document, context))];
  }

  private fixesOf(
    document: vscode.TextDocument,
    problem: FrontmatterProblem,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const range = rangeOf(problem);
    const diagnostics = sameDiagnostics(context, range, problem.message);
    const fixes: vscode.CodeAction[] = [];
    if (problem.replacement) {
      const title =
        problem.kind === 'folder-mismatch'
          ? `Set status to "${problem.replacement}" (the file's folder)`
          : `Change to "${problem.replacement}"`;
      const fix = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
      fix.edit = new vscode.WorkspaceEdit();
      fix.edit.replace(document.uri, range, problem.replacement);
      fix.diagnostics = diagnostics;
      fix.isPreferred = true;
      fixes.push(fix);
    }
    if (problem.kind === 'folder-mismatch') {
      const move = new vscode.CodeAction(
        `Move the file to the "${problem.at.value}" folder`,
        vscode.CodeActionKind.QuickFix,
      );
      const folder = path.dirname(document.uri.fsPath);
      move.edit = new vscode.WorkspaceEdit();
      move.edit.renameFile(
        document.uri,
        vscode.Uri.file(path.join(path.dirname(folder), problem.at.value, path.basename(document.uri.fsPath))),
      );
      move.diagnostics = diagnostics;
      fixes.push(move);
    }
    return fixes;
  }

  private async brokenFileFixes(
    document: vscode.TextDocument,
    context: vscode.CodeActionContext,
  ): Promise<vscode.CodeAction[]> {
    // The service's entries (BrokenFiles) carry no code; the frontmatter warnings above always do.
    const reported = context.diagnostics.filter((d) => d.source === 'Kanban' && d.code === undefined);
    if (!reported.length) return [];
    const owner = await serviceOfFile(this.lookup, document.uri.fsPath);
    if (!owner) return [];
    const relative = path.relative(owner.service.root, document.uri.fsPath).split(path.sep).join('/');
    const broken = this.brokenFiles.filesOf(owner.folder.key).find((file) => file.path === relative);
    if (!broken) return [];
    const diagnostics = reported.filter((d) => d.message === broken.reason);
    if (broken.duplicateOf) {
      const open = new vscode.CodeAction(
        `Open ${broken.duplicateOf} (the file the card is served from)`,
        vscode.CodeActionKind.QuickFix,
      );
      open.command = {
        title: open.title,
        command: 'vscode.open',
        arguments: [
          vscode.Uri.file(path.join(owner.service.root, ...broken.duplicateOf.split('/'))),
          vscode.ViewColumn.Beside,
        ],
      };
      open.diagnostics = diagnostics;
      return [open];
    }
    if (!lastGoodCard(owner.service, document.uri.fsPath)) return [];
    const open = new vscode.CodeAction(
      'Open the last good version (as the board keeps it)',
      vscode.CodeActionKind.QuickFix,
    );
    open.command = { title: open.title, command: OPEN_LAST_GOOD, arguments: [document.uri] };
    open.diagnostics = diagnostics;
    return [open];
  }
}

/** The card the board still serves from this file, as it last parsed. */
function lastGoodCard(service: KanbanService, fsPath: string): Card | undefined {
  const card = service.workspace.index.findById(path.basename(fsPath, path.extname(fsPath)));
  return card && cardFilePath(service, card) === path.resolve(fsPath) ? card : undefined;
}

/**
 * The version of a broken card file the board keeps in memory, written out as the service would
 * write it, in an untitled editor beside: compare, copy back what was lost. Nothing on disk changes.
 */
export async function openLastGoodVersion(lookup: CardFileLookup, uri: vscode.Uri): Promise<void> {
  const owner = await serviceOfFile(lookup, uri.fsPath);
  const card = owner && lastGoodCard(owner.service, uri.fsPath);
  if (!card) {
    void vscode.window.showInformationMessage(
      `Kanban: the board keeps no earlier version of ${path.basename(uri.fsPath)}.`,
    );
    return;
  }
  const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: serializeCard(card) });
  await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: false });
}
