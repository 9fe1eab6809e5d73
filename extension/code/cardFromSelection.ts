import * as path from 'node:path';
import * as vscode from 'vscode';
import { cardFilePath } from '../cards/cardOfFile';
import { chooseColumnAndPriority, columnChoices } from '../commands/cardCommands';
import { currentBoardId, pickService, type FolderService } from '../commands/pickService';
import type { ExtensionParts } from '../parts';
import { callApi, type TaskSummary } from '../service/callApi';

/** Where a card's text came from: a file and a line range (1-based, inclusive). */
export interface SourceLines {
  fsPath: string;
  first: number;
  last: number;
}

/**
 * The card's Markdown: the first non-empty line is the title, the rest the description, and a last
 * line links to the lines it came from. The link is relative to the card's own file (whose depth
 * under the root does not change when it moves column), so it opens from the card file and the board.
 */
export function cardFromText(text: string, source: SourceLines, linkFrom: string): { title: string; content: string } {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const start = lines.findIndex((line) => line.trim());
  const title = lines[start]?.trim() ?? '';
  const description = dedent(lines.slice(start + 1))
    .join('\n')
    .trim();
  const target = path.relative(linkFrom, source.fsPath).split(path.sep).join('/');
  const range = source.first === source.last ? `${source.first}` : `${source.first}-${source.last}`;
  const anchor = source.first === source.last ? `L${source.first}` : `L${source.first}-L${source.last}`;
  const name = path.basename(source.fsPath);
  const link = `From [${name}:${range}](${encodeURI(target)}#${anchor})`;
  return { title, content: `# ${title}\n\n${description ? `${description}\n\n` : ''}${link}\n` };
}

/** Code pasted into a description keeps its shape but loses the indentation it had in the file. */
function dedent(lines: string[]): string[] {
  const indents = lines.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)![0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return lines.map((line) => line.slice(cut));
}

/** The directory a new card's file would sit in (any column: they are all at the same depth). */
function cardDirectory({ service }: FolderService, boardId: string, status: string): string {
  const file = cardFilePath(service, { id: 'card', boardId, status });
  return file ? path.dirname(file) : service.root;
}

/** Create Card from Selection: the selected text becomes a card, with a link back to its lines. */
export async function createCardFromSelection(parts: ExtensionParts): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  const selection = editor?.selection;
  const text = selection ? editor.document.getText(selection) : '';
  if (!editor || !selection || !text.trim()) {
    void vscode.window.showInformationMessage('Kanban: select the text the card should hold first.');
    return;
  }
  const target = await pickService(parts, 'Add the card to which folder?');
  if (!target) return;
  const boardId = currentBoardId(parts, target);
  const choices = await columnChoices(target, boardId);
  // A selection that ends at the start of a line does not take that line.
  const last =
    selection.end.character === 0 && selection.end.line > selection.start.line
      ? selection.end.line
      : selection.end.line + 1;
  const source = { fsPath: editor.document.uri.fsPath, first: selection.start.line + 1, last };
  const { title } = cardFromText(text, source, target.service.root);
  const place = await chooseColumnAndPriority(choices, title);
  if (!place) return;
  const { content } = cardFromText(text, source, cardDirectory(target, boardId, place.status.id));
  const created = await callApi<TaskSummary>(target, 'POST', `/boards/${encodeURIComponent(boardId)}/tasks`, {
    content,
    status: place.status.id,
    priority: place.priority,
  });
  void vscode.window.showInformationMessage(`Kanban: added "${created.title}" to ${place.status.label}.`);
}
