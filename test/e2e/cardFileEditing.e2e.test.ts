import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { waitUntil as waitFor } from '../helpers/waiting';
import { kanbanOutputLines, startCodeServer } from './helpers/codeServer';
import { cardFileOf } from './helpers/editorUi';
import { seedWorkspace, screenshotWhenFailed, useWorkbenchSession } from './helpers/session';
import { quickOpenFile, screenshot } from './helpers/workbench';

const waitUntil = (probe: () => Promise<boolean>, what: string, timeoutMs = 15_000) =>
  waitFor(() => probe().catch(() => false), timeoutMs, what, 200);

/** The text of the editor's line that starts with `start` (Monaco draws spaces as no-break spaces). */
async function editorLine(page: Page, start: string): Promise<string | undefined> {
  const lines = await page.locator('.editor-group-container .monaco-editor .view-line').allInnerTexts();
  return lines.map((line) => line.replace(/\u00a0/g, ' ')).find((line) => line.startsWith(start));
}

/** Put the cursor at the end of the file's line `line` (1-based) through Go to Line. */
async function cursorAtEndOf(page: Page, line: number): Promise<void> {
  await page.keyboard.press('Control+G');
  await page.keyboard.type(String(line));
  await page.keyboard.press('Enter');
  await page.keyboard.press('End');
}

describe('the extension in a real VS Code: a card file as a document (completion, Quick Fix)', function () {
  this.timeout(180_000);
  let cardName: string;

  const session = useWorkbenchSession(async (temp) => {
    const folder = await seedWorkspace(temp, ['Fix the login'], 'kanban-e2e-frontmatter-');
    cardName = path.basename(await cardFileOf(folder, 'default', 'todo', 'fix-the-login-'));
    return startCodeServer(await temp.make('kanban-e2e-frontmatter-cs-'), folder, { 'files.autoSave': 'off' });
  });
  screenshotWhenFailed(session, 'vscode-failed-frontmatter');

  it("when `status:` is retyped in a card file, then completion offers the board's columns and the picked one is written", async () => {
    const page = session.page;
    await waitUntil(
      async () => (await kanbanOutputLines(session.server)).some((l) => /activated in/.test(l)),
      'activation',
      60_000,
    );
    await quickOpenFile(page, cardName);
    await page.locator('.tabs-container .tab.active', { hasText: cardName }).waitFor({ timeout: 15_000 });
    await page.locator('.editor-group-container .monaco-editor .view-lines').first().click();
    // Line 3 is `status: todo` in a file the service wrote.
    await cursorAtEndOf(page, 3);
    // The blank after the colon is a trigger character of the provider: typing it opens the list.
    for (let i = 0; i < ' todo'.length; i++) await page.keyboard.press('Backspace');
    await page.keyboard.type(' ');
    const suggestions = page.locator('.suggest-widget .monaco-list-row');
    await suggestions.filter({ hasText: 'in-progress' }).waitFor({ state: 'visible', timeout: 15_000 });
    const labels = (await suggestions.allInnerTexts()).map((t) => t.split('\n')[0].trim());
    assert.deepEqual(labels.slice(0, 5), ['backlog', 'todo', 'in-progress', 'review', 'done']);
    await suggestions.filter({ hasText: 'review' }).click();
    await waitUntil(async () => (await editorLine(page, 'status:')) === 'status: review', 'status: review written');
  });

  it('when a priority is mistyped, then it is squiggled and its Quick Fix writes the closest priority', async () => {
    const page = session.page;
    // Line 4 is `priority: medium`.
    await cursorAtEndOf(page, 4);
    for (let i = 0; i < 'medium'.length; i++) await page.keyboard.press('Backspace');
    await page.keyboard.type('hihg');
    await page.keyboard.press('Escape');
    await page.locator('.monaco-editor .squiggly-warning').first().waitFor({ state: 'attached', timeout: 15_000 });
    await page.keyboard.press('Control+.');
    const fix = page.locator('.action-widget .action-item, .action-widget .monaco-list-row', {
      hasText: 'Change to "high"',
    });
    await fix.first().waitFor({ state: 'visible', timeout: 15_000 });
    await screenshot(page, 'vscode-frontmatter-quick-fix');
    // The menu focuses the preferred fix; a click would land on the menu's pointer guard.
    await page.keyboard.press('Enter');
    await waitUntil(async () => (await editorLine(page, 'priority:')) === 'priority: high', 'priority: high written');
  });
});
