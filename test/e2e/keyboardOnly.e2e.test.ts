import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { waitUntil as waitFor } from '../helpers/waiting';
import { kanbanOutputLines, startCodeServer } from './helpers/codeServer';
import { seedWorkspace, screenshotWhenFailed, useWorkbenchSession } from './helpers/session';
import { boardFrame, cardIn, runFromPalette } from './helpers/workbench';

const waitUntil = (probe: () => Promise<boolean>, what: string, timeoutMs = 15_000) =>
  waitFor(() => probe().catch(() => false), timeoutMs, what, 200);

/** What holds the webview's keyboard focus: a card's title, else the element's test id, aria-label or tag. */
function focused(board: Frame): Promise<string> {
  return board.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    const title = el?.closest('[data-card-id]')?.querySelector('.card-title')?.textContent;
    if (title) return `card:${title}`;
    return el?.dataset.testid ?? el?.getAttribute('aria-label') ?? el?.getAttribute('name') ?? el?.tagName ?? 'nothing';
  });
}

async function focusSettlesOn(board: Frame, expected: string): Promise<void> {
  let last = '';
  await waitUntil(async () => (last = await focused(board)) === expected, `focus on ${expected} (was ${last})`, 10_000);
}

/** Tab forward, as a person would, until the focus reaches `expected`. */
async function tabTo(board: Frame, expected: string): Promise<void> {
  const page = board.page();
  for (let presses = 0; presses < 150; presses++) {
    if ((await focused(board)) === expected) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${expected} (focus on ${await focused(board)})`);
}

/** The column folder the card with this title is filed under, or null when no file has it. */
async function columnOnDisk(folder: string, title: string): Promise<string | null> {
  const boardDir = path.join(folder, '.kanban', 'boards', 'default');
  for (const status of await fs.readdir(boardDir).catch(() => [] as string[])) {
    const dir = path.join(boardDir, status);
    if (!(await fs.stat(dir)).isDirectory()) continue;
    for (const name of await fs.readdir(dir)) {
      if (name.endsWith('.md') && (await fs.readFile(path.join(dir, name), 'utf8')).includes(`# ${title}\n`))
        return status;
    }
  }
  return null;
}

async function fileText(folder: string, title: string): Promise<string> {
  const status = await columnOnDisk(folder, title);
  const dir = path.join(folder, '.kanban', 'boards', 'default', status ?? '');
  for (const name of await fs.readdir(dir)) {
    const text = await fs.readFile(path.join(dir, name), 'utf8');
    if (text.includes(`# ${title}\n`)) return text;
  }
  return '';
}

describe('the extension in a real VS Code: the board with the keyboard only, in the workbench look', function () {
  this.timeout(180_000);
  let folder: string;
  let board: Frame;

  const session = useWorkbenchSession(async (temp) => {
    folder = await seedWorkspace(temp, ['First by keyboard', 'Second by keyboard'], 'kanban-e2e-keys-');
    return startCodeServer(await temp.make('kanban-e2e-keys-cs-'), folder, {
      'workbench.colorTheme': 'Default Dark Modern',
    });
  });
  screenshotWhenFailed(session);

  before(async () => {
    await waitUntil(
      async () => (await kanbanOutputLines(session.server)).some((l) => /activated in/.test(l)),
      'activation',
      60_000,
    );
    await runFromPalette(session.page, 'Kanban: Open Board');
    board = await boardFrame(session.page);
    await cardIn(board, 'Second by keyboard').waitFor({ state: 'visible', timeout: 15_000 });
  });

  it('when a card is added, moved, edited and deleted with the keyboard only, then after each step the focus is where the next key needs it', async () => {
    const keys = session.page.keyboard;
    await cardIn(board, 'First by keyboard').focus();

    // Add: n opens the box in the focused card's column; Escape gives the focus back to the card.
    await keys.press('n');
    await board.waitForSelector('[data-drop-column="todo"] .quick-add-input:focus', { timeout: 10_000 });
    await keys.type('Made by keys');
    await keys.press('Enter');
    await waitUntil(async () => (await columnOnDisk(folder, 'Made by keys')) === 'todo', 'the new card in To Do');
    await keys.press('Escape');
    await focusSettlesOn(board, 'card:First by keyboard');

    // Move: arrows walk to the new card, Alt+Right takes it to the next column and the focus with it.
    await keys.press('ArrowDown');
    await focusSettlesOn(board, 'card:Second by keyboard');
    await keys.press('ArrowDown');
    await focusSettlesOn(board, 'card:Made by keys');
    await keys.press('Alt+ArrowRight');
    await waitUntil(async () => (await columnOnDisk(folder, 'Made by keys')) === 'in-progress', 'moved to In Progress');
    await focusSettlesOn(board, 'card:Made by keys');

    // Edit: Enter opens it, Tab reaches Edit, Ctrl+Enter saves; Escape closes and the card has the focus.
    await keys.press('Enter');
    await board.waitForSelector('[data-testid="card-drawer"]', { timeout: 10_000 });
    await tabTo(board, 'edit-content');
    await keys.press('Enter');
    await board.waitForSelector('.drawer-editor:focus', { timeout: 10_000 });
    await keys.press('Control+End');
    await keys.type('\n\nWritten without a mouse.');
    await keys.press('Control+Enter');
    await waitUntil(async () => (await fileText(folder, 'Made by keys')).includes('Written without a mouse.'), 'saved');
    await focusSettlesOn(board, 'edit-content');
    await keys.press('Escape');
    await board.waitForSelector('[data-testid="card-drawer"]', { state: 'detached', timeout: 10_000 });
    await focusSettlesOn(board, 'card:Made by keys');

    // Delete: the card goes to Deleted; alone in its column, the focus goes to the column's add button.
    await keys.press('Delete');
    await waitUntil(async () => (await columnOnDisk(folder, 'Made by keys')) === 'deleted', 'moved to Deleted');
    await focusSettlesOn(board, 'Add a card to In Progress');

    // And Ctrl+Z on the board takes the delete back, as the message's Undo would.
    await keys.press('Control+z');
    await waitUntil(async () => (await columnOnDisk(folder, 'Made by keys')) === 'in-progress', 'back in In Progress');
    await board.locator('.toast:has-text("moved to Deleted")').waitFor({ state: 'detached', timeout: 10_000 });
  });

  it("when a field is at rest it has no focus ring; focused from the keyboard it has the workbench's focus border, in the workbench's font size", async () => {
    await cardIn(board, 'First by keyboard').focus();
    await session.page.keyboard.press('Enter');
    await board.waitForSelector('[data-testid="card-drawer"]', { timeout: 10_000 });
    const look = () =>
      board.evaluate(() => {
        const input = document.querySelector<HTMLElement>('[data-testid="card-drawer"] input[name="assignee"]')!;
        const probe = document.createElement('div');
        // Theme variables are colours as written (#hex): a probe turns them into computed rgb().
        probe.style.color = 'var(--vscode-focusBorder)';
        document.body.append(probe);
        const focusBorder = getComputedStyle(probe).color;
        probe.remove();
        const style = getComputedStyle(input);
        return {
          focusBorder,
          border: style.borderTopColor,
          outlineStyle: style.outlineStyle,
          outlineColor: style.outlineColor,
          bodyFont: getComputedStyle(document.body).fontSize,
          cardTitleFont: getComputedStyle(document.querySelector('.card-title')!).fontSize,
          workbenchFont: getComputedStyle(document.documentElement).getPropertyValue('--vscode-font-size').trim(),
        };
      });
    const atRest = await look();
    assert.notEqual(
      atRest.border,
      atRest.focusBorder,
      `at rest the border is not the focus colour: ${JSON.stringify(atRest)}`,
    );
    assert.equal(atRest.outlineStyle, 'none', 'no ring at rest');
    assert.equal(atRest.bodyFont, atRest.workbenchFont, "the board's text is in the workbench's font size");
    // Sizes are fractions of it: a card title, 13.5px of 14 in the browser, keeps that proportion.
    const titleShare = parseFloat(atRest.cardTitleFont) / parseFloat(atRest.workbenchFont);
    assert.ok(Math.abs(titleShare - 13.5 / 14) < 0.01, `card titles scale with it: ${JSON.stringify(atRest)}`);

    await tabTo(board, 'Assignee');
    const withFocus = await look();
    assert.equal(withFocus.outlineStyle, 'solid', `a ring with the focus: ${JSON.stringify(withFocus)}`);
    assert.equal(withFocus.outlineColor, withFocus.focusBorder, "the ring is the workbench's focus border");
    await session.page.keyboard.press('Escape');
    await session.page.keyboard.press('Escape');
    await board.waitForSelector('[data-testid="card-drawer"]', { state: 'detached', timeout: 10_000 });
  });

  it("when the board is shown, then its editor title bar offers Add Card, Search Cards and Switch Board, and Add Card asks for this board's new card", async () => {
    const page = session.page;
    const action = (name: string) => page.locator(`.editor-actions .action-label[aria-label*="${name}"]`).first();
    for (const name of ['Add Card', 'Search Cards', 'Switch Board'])
      await action(name).waitFor({ state: 'visible', timeout: 15_000 });
    await action('Add Card').click();
    const prompt = page.locator('.quick-input-widget .quick-input-title');
    await prompt.filter({ hasText: 'Add Card to Default' }).waitFor({ timeout: 15_000 });
    await page.keyboard.press('Escape');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
  });

  it('when the board is renamed in the page, then the editor tab is titled with the new name', async () => {
    const tab = session.page.locator('.tabs-container .tab');
    await tab.filter({ hasText: 'Default' }).first().waitFor({ timeout: 10_000 });
    await board.click('[data-testid="board-switcher"]');
    await board.click('.board-list-item:has-text("Edit this board")');
    await board.fill('[data-testid="board-panel"] input[name="name"]', 'Keyboard plans');
    await board.click('[data-testid="board-panel"] button:has-text("Save board")');
    await tab.filter({ hasText: 'Keyboard plans' }).waitFor({ timeout: 15_000 });
    assert.equal(await tab.filter({ hasText: /^Default$/ }).count(), 0, 'no tab keeps the old name');
  });
});
