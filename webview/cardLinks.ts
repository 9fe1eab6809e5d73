import type { BoardController } from './state/controller';
import type { TaskView } from './types';

/** Inside VS Code the card's Markdown file can be opened in an editor; a browser has no editor. */
export function canOpenCardFile(ctrl: BoardController, task: Pick<TaskView, 'filePath'>): boolean {
  return ctrl.transport.host === 'vscode' && Boolean(ctrl.transport.notifyHost) && Boolean(task.filePath);
}

export function openCardFile(ctrl: BoardController, task: Pick<TaskView, 'filePath'>): void {
  if (task.filePath) ctrl.transport.notifyHost?.({ type: 'openFile', path: task.filePath });
}

/**
 * In a browser, the page's own URL with the card open (deep links): whoever opens it sees
 * the same board and card. Inside VS Code the host makes a vscode:// link (it knows the editor's
 * URI scheme and the extension's id), so the webview asks it; see `copyCardLink`.
 */
export function cardPageLink(
  task: Pick<TaskView, 'id' | 'boardId'>,
  location: Pick<Location, 'origin' | 'pathname'> = window.location,
): string {
  const params = new URLSearchParams({ board: task.boardId, card: task.id });
  return `${location.origin}${location.pathname}?${params}`;
}

/** Copy a link that opens the card: the page URL in a browser, a vscode:// URI inside VS Code. */
export async function copyCardLink(ctrl: BoardController, task: Pick<TaskView, 'id' | 'boardId'>): Promise<void> {
  if (ctrl.transport.host === 'vscode' && ctrl.transport.notifyHost) {
    ctrl.transport.notifyHost({ type: 'copyCardLink', boardId: task.boardId, taskId: task.id });
    return;
  }
  await copyText(ctrl, cardPageLink(task), 'link to the card');
}

/**
 * A Markdown link to the card that works where people paste it (a pull request, a commit message, a
 * README): a Markdown link to its file, relative to the repository root the board lives in.
 * Without a file (SQL storage) the id is the only stable name.
 */
export function cardLink(task: Pick<TaskView, 'id' | 'title' | 'filePath'>): string {
  const label = (task.title || task.id).replace(/[[\]]/g, '\\$&');
  return task.filePath ? `[${label}](${encodeURI(task.filePath)})` : task.id;
}

/** Copy text and say so. In VS Code the editor's clipboard takes it (a webview's may be refused). */
export async function copyText(ctrl: BoardController, text: string, what: string): Promise<void> {
  if (ctrl.transport.host === 'vscode' && ctrl.transport.notifyHost) {
    ctrl.transport.notifyHost({ type: 'copyText', text });
  } else if (!(await writeToPageClipboard(text))) {
    ctrl.toast('error', `Could not copy the ${what}: the browser refused the clipboard.`);
    return;
  }
  ctrl.toast('info', `Copied the ${what}.`);
}

async function writeToPageClipboard(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Plain HTTP on another host than localhost has no clipboard API; the old way still works there.
    const area = document.createElement('textarea');
    area.value = text;
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const done = document.execCommand('copy');
    area.remove();
    return done;
  }
}
