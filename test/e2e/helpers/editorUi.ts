import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { Frame, Page } from 'playwright-core';
import { KanbanService } from '../../../extension/service/kanbanService';
import type { TempDirs } from './codeServer';
import { runFromPalette } from './workbench';

/**
 * Run a palette command and do the first step of what it asks (`answer`). A webview that moves its
 * own focus (a popover handing focus back to its button) can close a picker as it opens; the step
 * is then tried again from the palette.
 */
export async function paletteStep(page: Page, title: string, answer: () => Promise<void>, attempts = 3): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await runFromPalette(page, title);
    try {
      await answer();
      return;
    } catch (error) {
      if (attempt >= attempts) throw error;
      await page.keyboard.press('Escape');
    }
  }
}

/** A notification toast holding this text. */
export function toast(page: Page, text: string | RegExp) {
  return page.locator('.notification-toast', { hasText: text });
}

/**
 * Wait until the editor has shown a notification holding `text`. Its toast is the usual sign, but
 * the editor shows at most three toasts and hides older ones, so after the time is up the
 * notification centre (which keeps them all) is asked as well; when the text is not there either,
 * the error names every notification there is, an error from the command included.
 */
export async function waitForNotice(page: Page, text: string, timeoutMs: number): Promise<void> {
  const shown = await toast(page, text)
    .first()
    .waitFor({ state: 'visible', timeout: timeoutMs })
    .then(
      () => true,
      () => false,
    );
  if (shown) return;
  await runFromPalette(page, 'Notifications: Show Notifications');
  const rows = page.locator('.notifications-center .notification-list-item');
  await rows
    .first()
    .waitFor({ state: 'visible', timeout: 5000 })
    .catch(() => undefined);
  const texts = await rows.allInnerTexts();
  await runFromPalette(page, 'Notifications: Hide Notifications');
  if (texts.some((line) => line.includes(text))) return;
  throw new Error(`no notification says "${text}"; the editor's notifications are: ${JSON.stringify(texts)}`);
}

/** The rows the quick input (palette, pickers) offers now, as their visible text. */
export async function quickInputRows(page: Page): Promise<string[]> {
  const rows = page.locator('.quick-input-list .monaco-list-row');
  await rows.first().waitFor({ state: 'visible', timeout: 10_000 });
  return rows.allInnerTexts();
}

/** The webview frame (an iframe in an iframe) holding `selector`, once one does. */
export async function frameWith(page: Page, selector: string, timeoutMs = 30_000): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      if (
        (await frame
          .locator(selector)
          .count()
          .catch(() => 0)) > 0
      )
        return frame;
    }
    await page.waitForTimeout(250);
  }
  throw new Error(`no webview frame with ${selector} appeared`);
}

/** Replace a file whole, as an editor's atomic save or a git checkout does. */
export async function saveWhole(file: string, text: string): Promise<void> {
  await fs.writeFile(`${file}.saving`, text);
  await fs.rename(`${file}.saving`, file);
}

/**
 * A git repository with cards on two boards: the titles in Default's To Do and "Roadmap card" on
 * Roadmap, and a git user name, as a developer's checkout would have.
 */
export async function twoBoardRepo(temp: TempDirs, titles: string[], gitUser: string): Promise<string> {
  const folder = await temp.make('kanban-e2e-repo-');
  const service = await KanbanService.open(folder);
  const call = async (method: string, route: string, body: unknown) => {
    const answer = await service.dispatcher.dispatch({ method, path: route, body });
    if (answer.status >= 300) throw new Error(`seeding ${route} failed: ${JSON.stringify(answer.body)}`);
  };
  for (const title of titles) await call('POST', '/tasks', { content: `# ${title}\n`, status: 'todo' });
  await call('POST', '/boards', { id: 'roadmap', name: 'Roadmap' });
  await call('POST', '/boards/roadmap/tasks', { content: '# Roadmap card\n', status: 'todo' });
  await service.close();
  const git = promisify(execFile);
  await git('git', ['init', '-q', folder]);
  await git('git', ['config', 'user.name', gitUser], { cwd: folder });
  return folder;
}

export async function cardFileOf(folder: string, board: string, status: string, titleStart: string): Promise<string> {
  const dir = path.join(folder, '.kanban/boards', board, status);
  const name = (await fs.readdir(dir)).find((f) => f.startsWith(titleStart));
  if (!name) throw new Error(`no card file ${titleStart}* in ${dir}`);
  return path.join(dir, name);
}

/** `#1e1e1e` or `#1e1e1eff` as the `rgb(30, 30, 30)` a computed style gives. */
export function hexToRgb(hex: string): string {
  const value = hex.trim().replace(/^#/, '');
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(value.slice(i, i + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}
