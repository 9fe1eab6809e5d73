import * as path from 'node:path';
import type * as vscode from 'vscode';
import { titleOf } from '../../server/core/model';
import type { ExtensionParts } from '../parts';
import { boardCommitMessage, onlyBoardChanges, type BoardChange } from './boardCommitMessage';
import { gitApi, type GitChange, type GitRepository } from './gitExtension';

const ADDED = new Set([1, 7, 9]);
const DELETED = new Set([2, 6]);
const RENAMED = 3;

/** Git's changes as board changes, relative to the kanban root (anything outside it stays outside). */
function boardChangesOf(repository: GitRepository, root: string): BoardChange[] {
  const relative = (uri: vscode.Uri) => path.relative(root, uri.fsPath).split(path.sep).join('/');
  const of = (change: GitChange): BoardChange[] => {
    if (change.status === RENAMED && change.renameUri)
      return [
        { path: relative(change.originalUri), kind: 'deleted' },
        { path: relative(change.renameUri), kind: 'added' },
      ];
    const kind = ADDED.has(change.status) ? 'added' : DELETED.has(change.status) ? 'deleted' : 'modified';
    return [{ path: relative(change.uri), kind }];
  };
  const all = [...repository.state.indexChanges, ...repository.state.workingTreeChanges].flatMap(of);
  // A file both staged and changed again is one change to the card.
  return all.filter((change, i) => all.findIndex((c) => c.path === change.path && c.kind === change.kind) === i);
}

/**
 * Suggests a commit message in the Source Control input when the only changes are the board's:
 * "Board: move 'Fix login' to Done; add 'Write docs'". Never writes over what a person typed: only
 * an empty input, or one still holding the last suggestion, gets a new one.
 */
export class BoardCommitSuggestion implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private suggested = '';
  private disposed = false;

  constructor(private readonly parts: Pick<ExtensionParts, 'folders' | 'services'>) {
    void this.start();
  }

  /** Looks at the repository's changes now (the repository's change event calls this). */
  async suggest(repository: GitRepository): Promise<void> {
    const input = repository.inputBox;
    if (input.value !== '' && input.value !== this.suggested) return;
    const folder = this.parts.folders.primary();
    if (!folder || !this.parts.folders.hasKanban(folder)) return;
    const root = this.parts.folders.rootOf(folder);
    const changes = boardChangesOf(repository, root);
    if (!onlyBoardChanges(changes)) return;
    const service = await this.parts.services.get(folder).catch(() => null);
    if (!service) return;
    const { index, config } = service.workspace;
    const message = boardCommitMessage(changes, {
      title: (id) => {
        const card = index.findById(id);
        return card ? titleOf(card.content) || undefined : undefined;
      },
      columnName: (boardId, status) =>
        config.boards.find((b) => b.id === boardId)?.columns.find((c) => c.id === status)?.name ?? status,
    });
    // Checked again: the person may have typed while the board was read.
    if (input.value !== '' && input.value !== this.suggested) return;
    input.value = message;
    this.suggested = message;
  }

  dispose(): void {
    this.disposed = true;
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }

  private async start(): Promise<void> {
    const api = await gitApi();
    if (!api || this.disposed) return;
    // The listener hands back the suggestion's promise: the editor ignores it, a caller that fires
    // the event can wait for the suggestion to settle.
    const follow = (repository: GitRepository) =>
      this.disposables.push(repository.state.onDidChange(() => this.suggest(repository)));
    for (const repository of api.repositories) follow(repository);
    this.disposables.push(api.onDidOpenRepository(follow));
  }
}
