import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { Frame } from 'playwright-core';
import { findFreePort } from '../../extension/server/freePort';
import { waitUntil as waitFor } from '../helpers/waiting';
import { kanbanOutputLines, startCodeServer } from './helpers/codeServer';
import {
  cardFileOf,
  frameWith,
  hexToRgb,
  paletteStep,
  quickInputRows,
  saveWhole,
  toast,
  twoBoardRepo,
  waitForNotice,
} from './helpers/editorUi';
import { seedWorkspace, screenshotWhenFailed, useWorkbenchSession } from './helpers/session';
import {
  boardFrame,
  cardIn,
  clickTabUntilShown,
  quickOpenFile,
  runFromPalette,
  screenshot,
  webviewShown,
} from './helpers/workbench';

async function closeDrawer(board: Frame): Promise<void> {
  const drawer = board.locator('[data-testid="card-drawer"]');
  await drawer.locator('.sheet-head button[aria-label="Close"]').click();
  await drawer.waitFor({ state: 'detached', timeout: 10_000 });
}

const curl = async (...args: string[]) =>
  (await promisify(execFile)('curl', ['-sS', '--max-time', '10', ...args])).stdout;
const waitUntil = (probe: () => Promise<boolean>, what: string, timeoutMs = 15_000) =>
  waitFor(() => probe().catch(() => false), timeoutMs, what, 200);

describe('the extension in a real VS Code: broken files, palette commands, native look', function () {
  this.timeout(180_000);
  let folder: string;
  let apiPort: number;
  let board: Frame;

  const session = useWorkbenchSession(async (temp) => {
    folder = await twoBoardRepo(temp, ['Write the docs', 'Fix the login bug'], 'Ada Lovelace');
    apiPort = await findFreePort('127.0.0.1');
    // Auto-save off, as in a desktop VS Code: the schema test types into .kanban.json and reverts.
    return startCodeServer(await temp.make('kanban-e2e-13-'), folder, {
      'kanban.server.port': apiPort,
      'files.autoSave': 'off',
    });
  });
  screenshotWhenFailed(session);

  it('when the Add Card and Open Board keys are pressed, then the Add Card box and the board open', async () => {
    const page = session.page;
    // The extension's keybindings exist once it has activated (the folder holds a board, so it does at start).
    await waitUntil(
      async () => (await kanbanOutputLines(session.server)).some((l) => /activated in/.test(l)),
      'activation',
      60_000,
    );
    await page.locator('.statusbar').click();
    await page.keyboard.press('Control+Alt+Shift+N');
    await page
      .locator('.quick-input-widget', { hasText: 'Add Card to Default' })
      .waitFor({ state: 'visible', timeout: 10_000 });
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+Alt+Shift+K');
    board = await boardFrame(page);
    await cardIn(board, 'Write the docs').waitFor({ state: 'visible', timeout: 15_000 });
  });

  it('when a card file is saved broken, then Problems lists it at its line, a notification and a board notice appear, and the Kanban log says it; once fixed all clear', async () => {
    const page = session.page;
    const file = await cardFileOf(folder, 'default', 'todo', 'fix-the-login-bug-');
    const relative = path.relative(folder, file).split(path.sep).join('/');
    const good = await fs.readFile(file, 'utf8');
    await saveWhole(file, good.replace(/^priority: .*$/m, 'priority: [unclosed'));

    const notification = toast(page, 'does not parse');
    await notification.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await notification.innerText(), new RegExp(path.basename(file).replace(/\./g, '\\.')));
    await board.locator(`[data-testid="broken-files"] [data-broken-file="${relative}"]`).waitFor({ timeout: 10_000 });
    await notification.locator('.monaco-button', { hasText: 'Show Problems' }).click();
    const entry = page.locator('.markers-panel .monaco-list-row', { hasText: 'not valid YAML' });
    await entry.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await entry.innerText(), /Kanban/);
    assert.match(await entry.innerText(), /Ln \d+/);
    await waitUntil(
      async () =>
        (await kanbanOutputLines(session.server)).some((l) => l.includes(relative) && /no longer parses/.test(l)),
      'the warning in the Kanban channel',
    );
    await screenshot(page, 'vscode-broken-file-problems');

    await saveWhole(file, good);
    await entry.waitFor({ state: 'detached', timeout: 15_000 });
    await board.locator('[data-testid="broken-files"]').waitFor({ state: 'detached', timeout: 10_000 });
  });

  it('when Switch Board picks Roadmap, then the panel shows it and the picker calls the shown board current; Search Cards opens a card on the other board', async () => {
    const page = session.page;
    await paletteStep(page, 'Kanban: Switch Board', () =>
      page.locator('.quick-input-list .monaco-list-row', { hasText: 'Roadmap' }).click({ timeout: 5000 }),
    );
    await cardIn(board, 'Roadmap card').waitFor({ state: 'visible', timeout: 10_000 });
    // Back to Default with the board's own switcher: the palette must know what is on screen.
    await board.locator('[data-testid="board-switcher"]').click();
    await board.locator('.board-list-item', { hasText: 'Default' }).click();
    await cardIn(board, 'Write the docs').waitFor({ state: 'visible', timeout: 10_000 });
    let rows: string[] = [];
    await paletteStep(page, 'Kanban: Switch Board', async () => {
      rows = await quickInputRows(page);
    });
    assert.match(
      rows.find((r) => r.startsWith('Default'))!,
      /current/,
    );
    assert.doesNotMatch(
      rows.find((r) => r.startsWith('Roadmap'))!,
      /current/,
    );
    await page.keyboard.press('Escape');

    await paletteStep(page, 'Kanban: Search Cards', async () => {
      await page
        .locator('.quick-input-widget input[placeholder="Search titles, descriptions, labels and assignees"]')
        .waitFor({ state: 'visible', timeout: 10_000 });
      await page.keyboard.type('Roadmap card');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Roadmap card' }).click({ timeout: 5000 });
    });
    await board
      .locator('[data-testid="card-drawer"][aria-label="Roadmap card"]')
      .waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await board.locator('.board-switcher-name').innerText(), 'Roadmap');
    await closeDrawer(board);
  });

  it('when Add Card runs while Roadmap is shown, then it names Roadmap, lists priorities by urgency with the default highlighted, and the card lands on Roadmap', async () => {
    const page = session.page;
    await paletteStep(page, 'Kanban: Add Card', async () => {
      await page
        .locator('.quick-input-widget', { hasText: 'Add Card to Roadmap' })
        .waitFor({ state: 'visible', timeout: 10_000 });
      await page.keyboard.type('Plan the next quarter');
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'To Do' }).click({ timeout: 5000 });
    });
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'critical' }).waitFor({ timeout: 10_000 });
    const rows = await quickInputRows(page);
    assert.deepEqual(
      rows.map((r) => /^(critical|high|medium|low)/.exec(r)?.[1]),
      ['critical', 'high', 'medium', 'low'],
    );
    assert.match(await page.locator('.quick-input-list .monaco-list-row.focused').innerText(), /medium/);
    await page.keyboard.press('Enter');
    await cardIn(board, 'Plan the next quarter').waitFor({ state: 'visible', timeout: 10_000 });
    await waitUntil(
      async () =>
        (await fs.readdir(path.join(folder, '.kanban/boards/roadmap/todo'))).some((f) =>
          f.startsWith('plan-the-next-quarter-'),
        ),
      'the card file on roadmap',
    );
  });

  it('when Open Card File lists the cards, then they show column names; a card drawer offers the git user as comment author', async () => {
    const page = session.page;
    let rows: string[] = [];
    await paletteStep(page, 'Kanban: Open Card File', async () => {
      rows = await quickInputRows(page);
    });
    assert.ok(
      rows.some((r) => r.includes('Write the docs') && r.includes('To Do')),
      rows.join(' | '),
    );
    assert.ok(!rows.some((r) => /\btodo\b/.test(r)), `a column id is shown: ${rows.join(' | ')}`);
    await page.keyboard.press('Escape');
    await cardIn(board, 'Plan the next quarter').click();
    const author = board.locator('.comment-author-input');
    await author.waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await author.inputValue(), 'Ada Lovelace');
    await closeDrawer(board);
  });

  it("when the board opens in VS Code, then its background is the editor's own, and a choice for me lands in VS Code settings, not .kanban.json", async () => {
    const look = () =>
      board.evaluate(() => {
        const el = document.querySelector<HTMLElement>('.board')!;
        return {
          mode: el.dataset.mode,
          background: getComputedStyle(el).backgroundColor,
          editor: getComputedStyle(document.documentElement).getPropertyValue('--vscode-editor-background'),
        };
      });
    const native = await look();
    assert.equal(native.mode, 'native');
    assert.equal(native.background, hexToRgb(native.editor));
    await screenshot(session.page, 'vscode-board-native');
    const shared = await fs.readFile(path.join(folder, '.kanban.json'), 'utf8');

    await board.locator('[data-testid="open-settings"]').click();
    await board.locator('[data-testid="background-section"] button', { hasText: 'Fancy' }).click();
    await waitUntil(async () => (await look()).mode === 'fancy', 'the fancy background');
    const userSettings = path.join(session.server.dirs.userData, 'User', 'settings.json');
    await waitUntil(
      async () => /"kanban\.board\.background":\s*"fancy"/.test(await fs.readFile(userSettings, 'utf8')),
      'the VS Code user setting',
    );
    assert.equal(await fs.readFile(path.join(folder, '.kanban.json'), 'utf8'), shared, 'the shared file is untouched');
    await board.locator('[data-testid="background-section"] button', { hasText: 'Editor' }).click();
    await waitUntil(async () => (await look()).mode === 'native', 'back to native');
    await board.locator('[data-testid="settings-panel"] .sheet-head button[aria-label="Close"]').click();
  });

  it('when Open API Docs runs, then the docs open at the forwarded /api/docs address and render; the server root is the board', async () => {
    const page = session.page;
    await runFromPalette(page, 'Kanban: Start API Server');
    await waitUntil(
      async () => (await curl(`http://127.0.0.1:${apiPort}/api/boards`)).includes('Roadmap'),
      'the API server',
    );
    assert.match(await curl(`http://127.0.0.1:${apiPort}/`), /<div id="app"><\/div>/);
    const opened = page.context().waitForEvent('page', { timeout: 20_000 });
    await runFromPalette(page, 'Kanban: Open API Docs');
    // The editor may ask before opening a link; say yes.
    const confirm = page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Open$/ });
    await confirm.click({ timeout: 5000 }).catch(() => undefined);
    const docs = await opened;
    await docs.waitForLoadState();
    assert.match(docs.url(), new RegExp(`/proxy/${apiPort}/api/docs$`));
    await docs.locator('.opblock').first().waitFor({ state: 'visible', timeout: 30_000 });
    await docs.close();
  });

  it("when the storage migrations run, then the cards move into SQLite inside the editor (on SQLite's WebAssembly build) and back to Markdown, and Markdown then says it is already Markdown without asking", async () => {
    const page = session.page;
    const confirm = page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Migrate$/ });
    await runFromPalette(page, 'Kanban: Migrate Storage to SQLite');
    await confirm.click({ timeout: 10_000 });
    await waitForNotice(page, 'to SQLite storage', 30_000);
    // The API server started above reaches the same in-process service.
    const storage = JSON.parse(await curl(`http://127.0.0.1:${apiPort}/api/storage`)).data;
    assert.deepEqual([storage.card.provider, storage.card.driver], ['sqlite', 'wasm']);
    await cardIn(board, 'Roadmap card').waitFor({ state: 'visible', timeout: 10_000 });

    await runFromPalette(page, 'Kanban: Migrate Storage to Markdown');
    await confirm.click({ timeout: 10_000 });
    await waitForNotice(page, 'to Markdown storage', 30_000);
    await runFromPalette(page, 'Kanban: Migrate Storage to Markdown');
    await waitForNotice(page, 'already stored as Markdown', 10_000);
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'no confirmation was asked');
  });

  it('when the user switches to another editor tab and back, then the search, the open card and the unsaved comment are still there at once, and a reload brings back the card, the search and the comment', async () => {
    const page = session.page;
    await board.locator('#search-input').fill('Roadmap');
    await cardIn(board, 'Roadmap card').click();
    const drawer = board.locator('[data-testid="card-drawer"][aria-label="Roadmap card"]');
    await drawer.waitFor({ state: 'visible', timeout: 10_000 });
    await drawer.locator('textarea[name="comment"]').fill('Half-written, not sent yet');

    await runFromPalette(page, 'File: New Untitled Text File');
    await page.locator('.tabs-container .tab.active', { hasText: 'Untitled' }).waitFor({ timeout: 10_000 });
    await webviewShown(board, false);
    // The board's tab is titled with the board it shows.
    const ms = await clickTabUntilShown(page, board, /Default|Roadmap/);
    console.log(`      board back with its drawer ${ms} ms after the press on its tab`);
    assert.equal(await drawer.locator('textarea[name="comment"]').inputValue(), 'Half-written, not sent yet');
    assert.equal(await board.locator('#search-input').inputValue(), 'Roadmap');

    // A reload of the page (as after a window reload) brings back the open card, the search and the unsaved comment.
    await runFromPalette(page, 'Developer: Reload Webviews');
    const before = board;
    await waitUntil(async () => before.isDetached(), 'the old page to go');
    board = await frameWith(page, '[data-testid="card-drawer"][aria-label="Roadmap card"]');
    assert.equal(await board.locator('#search-input').inputValue(), 'Roadmap');
    const reloaded = board.locator('[data-testid="card-drawer"][aria-label="Roadmap card"] textarea[name="comment"]');
    assert.equal(await reloaded.inputValue(), 'Half-written, not sent yet');
    await reloaded.fill('');
    await board.locator('#search-input').fill('');
    await closeDrawer(board);
    await page.locator('.tabs-container .tab', { hasText: 'Untitled' }).click();
    await runFromPalette(page, 'View: Close Editor');
  });

  it('when .kanban.json is edited by hand, then the editor completes its keys from the schema', async () => {
    const page = session.page;
    await quickOpenFile(page, '.kanban.json');
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await editor.waitFor({ state: 'visible', timeout: 10_000 });
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('"');
    // The JSON language service loads the schema in the background: ask again until it has.
    const suggestion = page.locator('.suggest-widget .monaco-list-row', { hasText: 'minimizedColumnIds' });
    await waitUntil(
      async () => {
        await page.keyboard.press('Control+Space');
        const shown = await suggestion.waitFor({ state: 'visible', timeout: 2000 }).then(
          () => true,
          () => false,
        );
        if (!shown) await page.keyboard.press('Escape');
        return shown;
      },
      'a completion from the schema',
      30_000,
    );
    await page.keyboard.press('Escape');
    await runFromPalette(page, 'File: Revert File');
    await runFromPalette(page, 'View: Close Editor');
  });
});

describe('the extension in a real VS Code: a broken .kanban.json at start', function () {
  this.timeout(180_000);
  let folder: string;

  const session = useWorkbenchSession(async (temp) => {
    folder = await seedWorkspace(temp, ['Survives the merge']);
    await fs.writeFile(
      path.join(folder, '.kanban.json'),
      '{\n  "version": 2,\n<<<<<<< HEAD\n  "defaultBoard": "default"\n=======\n}\n',
    );
    return startCodeServer(await temp.make('kanban-e2e-13-config-'), folder, {});
  });

  it('when .kanban.json has a conflict marker, then Problems and the board say so; after the fix, Retry loads the board and it follows later edits', async () => {
    const page = session.page;
    await runFromPalette(page, 'Kanban: Open Board');
    await toast(page, '.kanban.json does not parse').waitFor({ state: 'visible', timeout: 30_000 });
    const board = await frameWith(page, '.banner-error');
    assert.match(await board.locator('.banner-error').innerText(), /\.kanban\.json is invalid.*line 3/);
    await board.locator('[data-broken-file=".kanban.json"]').waitFor({ timeout: 10_000 });
    await runFromPalette(page, 'View: Focus Problems');
    await page
      .locator('.markers-panel .monaco-list-row', { hasText: 'git conflict marker' })
      .waitFor({ state: 'visible', timeout: 10_000 });
    await screenshot(page, 'vscode-broken-config');

    await saveWhole(
      path.join(folder, '.kanban.json'),
      `${JSON.stringify({ version: 2, defaultBoard: 'default' }, null, 2)}\n`,
    );
    await board.locator('.banner-error button', { hasText: 'Retry' }).click();
    await cardIn(board, 'Survives the merge').waitFor({ state: 'visible', timeout: 15_000 });
    await page
      .locator('.markers-panel .monaco-list-row', { hasText: 'git conflict marker' })
      .waitFor({ state: 'detached', timeout: 10_000 });
    const file = await cardFileOf(folder, 'default', 'todo', 'survives-the-merge-');
    await saveWhole(
      file,
      (await fs.readFile(file, 'utf8')).replace('# Survives the merge', '# Survives the merge, then an edit'),
    );
    await cardIn(board, 'Survives the merge, then an edit').waitFor({ state: 'visible', timeout: 15_000 });
  });
});
