import { strict as assert } from 'node:assert';
import type { Frame } from 'playwright-core';
import { KanbanService } from '../../extension/service/kanbanService';
import { waitUntil as waitFor } from '../helpers/waiting';
import { kanbanOutputLines, startCodeServer, type TempDirs } from './helpers/codeServer';
import { textContrasts } from '../helpers/contrast';
import { hexToRgb, paletteStep } from './helpers/editorUi';
import { screenshotWhenFailed, useWorkbenchSession } from './helpers/session';
import { boardFrame, cardIn, runFromPalette, screenshot } from './helpers/workbench';

const waitUntil = (probe: () => Promise<boolean>, what: string, timeoutMs = 15_000) =>
  waitFor(() => probe().catch(() => false), timeoutMs, what, 200);

/** VS Code's own themes, one of each kind, and the class each gives the webview's body. */
const THEMES = [
  { name: 'Default Light Modern', bodyClass: 'vscode-light' },
  { name: 'Default Dark Modern', bodyClass: 'vscode-dark' },
  { name: 'Default High Contrast', bodyClass: 'vscode-high-contrast' },
  { name: 'Default High Contrast Light', bodyClass: 'vscode-high-contrast-light' },
];

/** WCAG AA for body text. */
const READABLE = 4.5;

/** Cards with every priority, a label and a due date: each kind of text the board draws. */
async function colourfulWorkspace(temp: TempDirs): Promise<string> {
  const folder = await temp.make('kanban-e2e-themes-');
  const service = await KanbanService.open(folder);
  const cards = [
    { content: '# Critical outage\n', status: 'todo', priority: 'critical', labels: ['bug'] },
    { content: '# High stakes\n', status: 'todo', priority: 'high', dueDate: '2020-01-01' },
    { content: '# Medium effort\n', status: 'in-progress', priority: 'medium' },
    { content: '# Low hanging fruit\n', status: 'done', priority: 'low' },
  ];
  for (const body of cards) {
    const answer = await service.dispatcher.dispatch({ method: 'POST', path: '/tasks', body });
    if (answer.status !== 201) throw new Error(`seeding failed: ${JSON.stringify(answer.body)}`);
  }
  await service.close();
  return folder;
}

describe('the extension in a real VS Code: the board in light, dark and high-contrast themes', function () {
  this.timeout(180_000);
  let board: Frame;

  const session = useWorkbenchSession(async (temp) => {
    const folder = await colourfulWorkspace(temp);
    return startCodeServer(await temp.make('kanban-e2e-themes-cs-'), folder, {
      'workbench.colorTheme': 'Default Dark Modern',
    });
  });
  screenshotWhenFailed(session);

  /** As a user does: Preferences: Color Theme, then a click on the theme (its id is the row's description). */
  async function chooseTheme(name: string): Promise<void> {
    const page = session.page;
    await paletteStep(page, 'Preferences: Color Theme', async () => {
      const row = page
        .locator('.quick-input-list .monaco-list-row')
        .filter({ has: page.locator('.label-description', { hasText: new RegExp(`^${name}$`) }) });
      await row.click({ timeout: 10_000 });
    });
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
  }

  const bodyClasses = () => board.evaluate(() => Array.from(document.body.classList));

  /** What the webview's console said while the board loaded: a refused font is reported there. */
  const refusals: string[] = [];

  before(async () => {
    await waitUntil(
      async () => (await kanbanOutputLines(session.server)).some((l) => /activated in/.test(l)),
      'activation',
      60_000,
    );
    session.page.on('console', (message) => {
      if (/Content Security Policy|codicon/i.test(message.text())) refusals.push(message.text());
    });
    await runFromPalette(session.page, 'Kanban: Open Board');
    board = await boardFrame(session.page);
    await cardIn(board, 'Low hanging fruit').waitFor({ state: 'visible', timeout: 15_000 });
  });

  it('when the board is open, then its Settings button shows its gear from the codicon font, which the policy let load', async () => {
    const icon = await board.getByRole('button', { name: 'Settings', exact: true }).evaluate(async (button) => {
      await document.fonts.ready;
      const glyph = button.querySelector('.codicon')!;
      return {
        font: [...document.fonts].find((f) => f.family.replace(/["']/g, '') === 'codicon')?.status,
        family: getComputedStyle(glyph).fontFamily,
        content: getComputedStyle(glyph, '::before').content,
      };
    });
    assert.equal(icon.font, 'loaded', `the codicon font in the webview: ${JSON.stringify(icon)}`);
    assert.match(icon.family, /codicon/);
    assert.notEqual(icon.content, 'none');
    assert.deepEqual(refusals, [], 'nothing refused by the webview policy');
  });

  for (const theme of THEMES) {
    it(`when the editor's theme is ${theme.name}, then the board takes its background and every text on the board and in the card menu is readable`, async () => {
      await chooseTheme(theme.name);
      await waitUntil(
        async () =>
          (await bodyClasses()).includes(theme.bodyClass) &&
          (theme.bodyClass !== 'vscode-high-contrast' || !(await bodyClasses()).includes('vscode-high-contrast-light')),
        `the board in ${theme.name}`,
      );
      const look = await board.evaluate(() => ({
        background: getComputedStyle(document.querySelector('.board')!).backgroundColor,
        editor: getComputedStyle(document.documentElement).getPropertyValue('--vscode-editor-background'),
      }));
      assert.equal(look.background, hexToRgb(look.editor), "the board is drawn on the editor's background");

      const boardText = await textContrasts(board, '.column-head, .card-title, .priority-badge, .chip, .label-chip');
      assert.ok(boardText.length >= 8, `the board's texts were found: ${JSON.stringify(boardText)}`);
      assert.ok(
        boardText[0].ratio >= READABLE,
        `lowest contrast on the board in ${theme.name}: ${JSON.stringify(boardText.slice(0, 3))}`,
      );

      await cardIn(board, 'Critical outage').click({ button: 'right' });
      const menu = board.locator('[data-testid="card-menu"]');
      await menu.waitFor({ state: 'visible', timeout: 10_000 });
      // The menu fades in; read and photograph it as it stays.
      await menu.evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)).then(() => undefined));
      const menuText = await textContrasts(board, '[data-testid="card-menu"] [role="menuitem"]');
      assert.equal(menuText.length, 6, `the menu's six entries: ${JSON.stringify(menuText)}`);
      assert.ok(
        menuText[0].ratio >= READABLE,
        `lowest contrast in the card menu in ${theme.name}: ${JSON.stringify(menuText.slice(0, 3))}`,
      );
      await screenshot(session.page, `vscode-theme-${theme.bodyClass}`);
      await session.page.keyboard.press('Escape');
      await menu.waitFor({ state: 'detached', timeout: 10_000 });
    });
  }
});
