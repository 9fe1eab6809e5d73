import * as vscode from 'vscode';
import { isFullCardId } from '../../server/core/ids';
import { titleOf } from '../../server/core/model';
import type { ExtensionParts } from '../parts';
import { SHOW_ON_BOARD } from './branchCardStatusBar';

/**
 * Commit messages (the Source Control input, and COMMIT_EDITMSG when git writes the message in an
 * editor) and Markdown: where people write card ids.
 */
export const CARD_ID_DOCUMENTS: vscode.DocumentSelector = [
  { language: 'scminput' },
  { language: 'git-commit' },
  { language: 'markdown' },
];

const WORD = /[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*/g;

/** The id-shaped word under the cursor, if any (cheap: no board is read for other words). */
export function cardIdAt(line: string, character: number): { id: string; start: number; end: number } | null {
  for (const match of line.matchAll(WORD)) {
    const start = match.index;
    const end = start + match[0].length;
    if (character < start || character > end) continue;
    const id = match[0].toLowerCase();
    return isFullCardId(id) ? { id, start, end } : null;
  }
  return null;
}

/** A card id in a commit message or a Markdown file: its title, column, assignee and "Show on Board". */
export class CardIdHovers implements vscode.HoverProvider {
  constructor(private readonly parts: Pick<ExtensionParts, 'folders' | 'services'>) {}

  async provideHover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    const line = document.lineAt(position.line).text;
    const at = cardIdAt(line, position.character);
    if (!at) return undefined;
    for (const folder of this.parts.folders.all().filter((f) => this.parts.folders.hasKanban(f))) {
      const service = await this.parts.services.get(folder).catch(() => null);
      const card = service?.workspace.index.findById(at.id);
      if (!service || !card) continue;
      const board = service.workspace.config.boards.find((b) => b.id === card.boardId);
      const column = board?.columns.find((c) => c.id === card.status)?.name ?? card.status;
      const args = encodeURIComponent(
        JSON.stringify([{ folderKey: folder.key, boardId: card.boardId, taskId: card.id }]),
      );
      const text = new vscode.MarkdownString(
        [
          `**${escape(titleOf(card.content) || card.id)}**`,
          '',
          `${escape(column)}${card.assignee ? ` · ${escape(card.assignee)}` : ' · unassigned'}`,
          '',
          `[Show on Board](command:${SHOW_ON_BOARD}?${args})`,
        ].join('\n'),
      );
      text.isTrusted = { enabledCommands: [SHOW_ON_BOARD] };
      return new vscode.Hover(text, new vscode.Range(position.line, at.start, position.line, at.end));
    }
    return undefined;
  }
}

/** Markdown's own characters in a title stay text. */
function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
