import * as vscode from 'vscode';
import { titleOf } from '../../server/core/model';
import type { ServiceEvent } from '../../server/core/events';
import { cardOfFile, looksLikeCardFile, type CardFileLookup } from './cardOfFile';

export const MOVE_CARD_COMMAND = 'kanban.moveCardOfFile';

/**
 * While a card file is the active editor, the status bar says which column its card is in; a click
 * offers the columns to move it to. Follows moves made anywhere (the board, the API, git).
 */
export class CardStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('kanban.cardStatus', vscode.StatusBarAlignment.Left, 49);
  private readonly disposables: vscode.Disposable[] = [];
  private stopEvents: (() => void) | null = null;
  /** Bumped by every refresh, so an older lookup that answers late does not win. */
  private generation = 0;
  private shown = false;

  constructor(private readonly lookup: CardFileLookup) {
    this.item.name = 'Kanban Card Status';
    this.disposables.push(vscode.window.onDidChangeActiveTextEditor(() => void this.refresh()));
    void this.refresh();
  }

  /** For the tests and the e2e: what the item shows now ('' when hidden). */
  get text(): string {
    return this.shown ? this.item.text : '';
  }

  async refresh(): Promise<void> {
    const mine = ++this.generation;
    const document = vscode.window.activeTextEditor?.document;
    const file = document?.uri.scheme === 'file' && looksLikeCardFile(document.uri.fsPath) ? document.uri.fsPath : null;
    const found = file ? await cardOfFile(this.lookup, file) : undefined;
    if (mine !== this.generation) return;
    this.stopEvents?.();
    this.stopEvents = null;
    if (!found) {
      this.hide();
      return;
    }
    const { target, card } = found;
    const board = target.service.workspace.config.boards.find((b) => b.id === card.boardId);
    const column = board?.columns.find((c) => c.id === card.status)?.name ?? card.status;
    this.item.text = `$(project) ${column}`;
    this.item.tooltip = `Kanban: "${titleOf(card.content) || card.id}" is in ${column}${board ? ` on ${board.name}` : ''}. Click to move it to another column.`;
    this.item.command = { title: 'Move Card to Column', command: MOVE_CARD_COMMAND, arguments: [document!.uri] };
    this.item.show();
    this.shown = true;
    // The card may move or be renamed while its file is shown: look again after its own changes.
    this.stopEvents = target.service.workspace.events.on((event: ServiceEvent) => {
      if (event.event.startsWith('task.') && 'taskId' in event.data && event.data.taskId === card.id)
        void this.refresh();
      else if (event.event.startsWith('column.') || event.event === 'board.updated') void this.refresh();
    });
  }

  dispose(): void {
    this.stopEvents?.();
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
    this.item.dispose();
  }

  private hide(): void {
    this.item.hide();
    this.shown = false;
  }
}
