import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { Frame } from 'playwright-core';
import { KanbanService } from '../../extension/service/kanbanService';
import { localToday } from '../../extension/cards/overdue';
import { waitUntil as waitFor } from '../helpers/waiting';
import { kanbanOutputLines, repoRoot, startCodeServer, type TempDirs } from './helpers/codeServer';
import { kanban } from '../cli/helpers';
import { cardFileOf, toast } from './helpers/editorUi';
import { seedWorkspace, screenshotWhenFailed, useWorkbenchSession } from './helpers/session';
import { boardFrame, cardIn, runFromPalette, screenshot } from './helpers/workbench';

const waitUntil = (probe: () => Promise<boolean>, what: string, timeoutMs = 15_000) =>
  waitFor(() => probe().catch(() => false), timeoutMs, what, 200);

/** A git checkout whose user has one overdue card, beside one that is nobody's. */
async function repoWithOverdueCard(temp: TempDirs): Promise<string> {
  const folder = await temp.make('kanban-e2e-cards-');
  const service = await KanbanService.open(folder);
  const threeDaysAgo = localToday(new Date(Date.now() - 3 * 86_400_000));
  for (const body of [
    { content: '# Wire the webhook\n', status: 'todo' },
    { content: '# Late and mine\n', status: 'in-progress', assignee: 'Ada Lovelace', dueDate: threeDaysAgo },
  ]) {
    const answer = await service.dispatcher.dispatch({ method: 'POST', path: '/tasks', body });
    if (answer.status !== 201) throw new Error(`seeding failed: ${JSON.stringify(answer.body)}`);
  }
  await service.close();
  const git = promisify(execFile);
  await git('git', ['init', '-q', folder]);
  await git('git', ['config', 'user.name', 'Ada Lovelace'], { cwd: folder });
  return folder;
}

describe('the extension in a real VS Code: cards and files linked both ways, status bar, sidebar', function () {
  this.timeout(180_000);
  let folder: string;
  let board: Frame;

  const session = useWorkbenchSession(async (temp) => {
    folder = await repoWithOverdueCard(temp);
    return startCodeServer(await temp.make('kanban-e2e-13b-'), folder, { 'files.autoSave': 'off' });
  });
  screenshotWhenFailed(session);

  const statusItem = (text: string | RegExp) => session.page.locator('.statusbar-item', { hasText: text });
  const row = (text: string) => session.page.locator('.quick-input-list .monaco-list-row', { hasText: text });

  it('when the git user has an overdue card, then the status bar names the board and counts it, and its list opens the card on the board', async () => {
    const page = session.page;
    await waitUntil(
      async () => (await kanbanOutputLines(session.server)).some((l) => /activated in/.test(l)),
      'activation',
      60_000,
    );
    const overdue = statusItem('1 overdue');
    await overdue.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await overdue.innerText(), /Default/);
    await overdue.click();
    await row('Late and mine').click({ timeout: 10_000 });
    board = await boardFrame(page);
    await board
      .locator('[data-testid="card-drawer"][aria-label="Late and mine"]')
      .waitFor({ state: 'visible', timeout: 15_000 });
    await board.locator('[data-testid="card-drawer"] .sheet-head button[aria-label="Close"]').click();
  });

  it('when a card is right-clicked on the board, then "Open file" opens its Markdown file and the status bar shows its column', async () => {
    const page = session.page;
    await cardIn(board, 'Wire the webhook').click({ button: 'right' });
    const menu = board.locator('[data-testid="card-menu"]');
    await menu.waitFor({ state: 'visible', timeout: 10_000 });
    assert.deepEqual(
      (await menu.locator('[role="menuitem"]').allInnerTexts()).map((t) => t.trim()),
      ['Open file', 'Copy link', 'Copy Markdown link', 'Copy id', 'Move to', 'Delete'],
    );
    await menu.locator('[data-menu-item="open-file"]').click();
    await page.locator('.tabs-container .tab.active', { hasText: 'wire-the-webhook-' }).waitFor({ timeout: 15_000 });
    await statusItem('To Do').waitFor({ state: 'visible', timeout: 15_000 });
    // Beside the board, which stays in view in its own group.
    assert.equal(await page.locator('.editor-group-container').count(), 2);
    assert.equal(
      await page.locator('.editor-group-container', { has: page.locator('.tab', { hasText: 'Default' }) }).count(),
      1,
    );
  });

  it('when the card is moved from the status bar, then its editor follows the file to the new column, with no deleted tab left behind', async () => {
    const page = session.page;
    const oldFile = await cardFileOf(folder, 'default', 'todo', 'wire-the-webhook-');
    // The cursor on line 3, at its end: where the user was is where the moved file opens.
    await page.locator('.editor-group-container .monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+Home');
    for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    await statusItem(/Ln 3, Col 13/).waitFor({ state: 'visible', timeout: 10_000 });
    await statusItem('To Do').click();
    await row('Review').click({ timeout: 10_000 });
    await waitUntil(
      async () => existsSync(oldFile.replace('/todo/', '/review/')) && !existsSync(oldFile),
      'the file in review/',
    );
    await statusItem('Review').waitFor({ state: 'visible', timeout: 15_000 });
    // The tab now holds the new path (the breadcrumbs name its folder), and only one tab has the name.
    await page
      .locator('.breadcrumbs-control .monaco-breadcrumb-item', { hasText: 'review' })
      .waitFor({ timeout: 10_000 });
    assert.equal(await page.locator('.tabs-container .tab', { hasText: 'wire-the-webhook-' }).count(), 1);
    assert.equal(await page.locator('.tabs-container .tab.deleted').count(), 0);
    await statusItem(/Ln 3, Col 13/).waitFor({ state: 'visible', timeout: 10_000 });
    await cardIn(board, 'Wire the webhook').waitFor({ state: 'visible' });
    assert.equal(
      await board
        .locator('[data-drop-column="review"]')
        .locator('.card-title', { hasText: 'Wire the webhook' })
        .count(),
      1,
    );
  });

  it('when "Show on Board" is clicked in the card file\'s editor title, then the board shows the card, and its file name there opens the file again', async () => {
    const page = session.page;
    await page.locator('.editor-actions .action-label[aria-label="Show on Board"]').click({ timeout: 10_000 });
    const drawer = board.locator('[data-testid="card-drawer"][aria-label="Wire the webhook"]');
    await drawer.waitFor({ state: 'visible', timeout: 15_000 });
    await drawer.locator('[data-testid="drawer-open-file"]').click();
    await page.locator('.tabs-container .tab.active', { hasText: 'wire-the-webhook-' }).waitFor({ timeout: 15_000 });
  });

  it('when a card is moved on the board while its file has unsaved changes, then the move is refused naming them and nothing is written; once saved, the move goes ahead', async () => {
    const page = session.page;
    const reviewFile = await cardFileOf(folder, 'default', 'review', 'wire-the-webhook-');
    const onDisk = await fs.readFile(reviewFile, 'utf8');
    await page.locator('.editor-group-container .monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('A note not saved yet.');
    await page.locator('.tabs-container .tab.dirty', { hasText: 'wire-the-webhook-' }).waitFor({ timeout: 10_000 });

    // Moved on the board from the keyboard: the card focused, Shift+F10, Move to, Done.
    const moveToDone = async () => {
      await page.locator('.tabs-container .tab', { hasText: 'Default' }).first().click();
      const drawer = board.locator('[data-testid="card-drawer"]');
      if (await drawer.count()) await drawer.locator('.sheet-head button[aria-label="Close"]').click();
      await drawer.waitFor({ state: 'detached', timeout: 10_000 });
      await cardIn(board, 'Wire the webhook').focus();
      await page.keyboard.press('Shift+F10');
      const menu = board.locator('[data-testid="card-menu"]');
      await menu.waitFor({ state: 'visible', timeout: 10_000 });
      await menu.locator('[data-menu-item="move"]').click();
      await menu.locator('[data-move-to="done"]').click();
    };
    await moveToDone();
    const refusal = board.locator('.toast-error', { hasText: 'unsaved changes in the editor' });
    await refusal.waitFor({ state: 'visible', timeout: 15_000 });
    assert.equal(await fs.readFile(reviewFile, 'utf8'), onDisk, 'nothing was written under the unsaved editor');
    await board
      .locator('[data-drop-column="review"] .card-title', { hasText: 'Wire the webhook' })
      .waitFor({ timeout: 10_000 });
    await refusal.locator('.toast-close').click();

    await page.locator('.tabs-container .tab.dirty', { hasText: 'wire-the-webhook-' }).click();
    await page.keyboard.press('Control+S');
    await page
      .locator('.tabs-container .tab.dirty', { hasText: 'wire-the-webhook-' })
      .waitFor({ state: 'detached', timeout: 10_000 });
    await moveToDone();
    await board
      .locator('[data-drop-column="done"] .card-title', { hasText: 'Wire the webhook' })
      .waitFor({ timeout: 15_000 });
    const doneFile = reviewFile.replace('/review/', '/done/');
    await waitUntil(async () => existsSync(doneFile) && !existsSync(reviewFile), 'the file in done/');
    assert.match(await fs.readFile(doneFile, 'utf8'), /A note not saved yet\./, 'the saved note went along');
    await page
      .locator('.breadcrumbs-control .monaco-breadcrumb-item', { hasText: 'done' })
      .waitFor({ timeout: 10_000 });
  });

  it('when the Kanban view is opened, then it lists the columns with counts and cards as rows, and a row opens its card on the board', async () => {
    const page = session.page;
    await page.locator('.activitybar .action-item a[aria-label^="Kanban"]').click();
    const sidebar = page.locator('.part.sidebar');
    const column = sidebar.locator('.monaco-list-row', { hasText: 'In Progress' });
    await column.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await column.innerText(), /In Progress\s*1/);
    await sidebar.locator('.monaco-list-row', { hasText: 'Review' }).waitFor();
    const card = sidebar.locator('.monaco-list-row', { hasText: 'Late and mine' });
    await card.waitFor({ state: 'visible' });
    // The activity bar's hover label would sit over the list in the picture.
    await page.mouse.move(900, 500);
    await page
      .locator('.hover-widget, .monaco-hover')
      .waitFor({ state: 'hidden', timeout: 5000 })
      .catch(() => undefined);
    const shot = path.join(repoRoot, 'test-output/screenshots/vscode-sidebar.png');
    mkdirSync(path.dirname(shot), { recursive: true });
    // The list's own height, not the empty pane below it.
    const box = (await sidebar.boundingBox())!;
    await page.screenshot({ path: shot, clip: { x: box.x, y: box.y, width: box.width, height: 230 } });
    // The README shows it; refreshed on request only, so a test run leaves the tracked file alone.
    if (process.env.UPDATE_README_SCREENSHOT === '1')
      copyFileSync(shot, path.join(repoRoot, 'media/screenshots/vscode-sidebar.png'));
    await card.click();
    await board
      .locator('[data-testid="card-drawer"][aria-label="Late and mine"]')
      .waitFor({ state: 'visible', timeout: 15_000 });
    await board.locator('[data-testid="card-drawer"] .sheet-head button[aria-label="Close"]').click();
  });

  it('when a card row is dragged onto another column in the Kanban view, then its file moves there and the board and the counts follow', async () => {
    const page = session.page;
    const sidebar = page.locator('.part.sidebar');
    const inProgressFile = await cardFileOf(folder, 'default', 'in-progress', 'late-and-mine-');
    const card = sidebar.locator('.monaco-list-row', { hasText: 'Late and mine' });
    const review = sidebar.locator('.monaco-list-row', { hasText: 'Review' });
    await card.dragTo(review);
    await waitUntil(
      async () => existsSync(inProgressFile.replace('/in-progress/', '/review/')) && !existsSync(inProgressFile),
      'the file in review/',
    );
    await waitUntil(async () => /Review\s*1/.test(await review.innerText()), 'Review counting one card');
    await waitUntil(
      async () =>
        /In Progress\s*0/.test(await sidebar.locator('.monaco-list-row', { hasText: 'In Progress' }).innerText()),
      'In Progress counting none',
    );
    await board
      .locator('[data-drop-column="review"] .card-title', { hasText: 'Late and mine' })
      .waitFor({ state: 'visible', timeout: 15_000 });
  });

  it('when the window is 1600 x 900 with the Explorer open, then every column of the board, Done included, is in view', async () => {
    const page = session.page;
    await page.setViewportSize({ width: 1600, height: 900 });
    await page.locator('.activitybar .action-item a[aria-label^="Explorer"]').click();
    await page.locator('.part.sidebar .pane-header', { hasText: /kanban-e2e-cards/i }).waitFor({ timeout: 10_000 });
    await page.locator('.tabs-container .tab', { hasText: 'Default' }).first().click();
    // Card files opened from the board sit in a group beside it: the board alone is what is measured.
    await runFromPalette(page, 'View: Close Editors in Other Groups');
    await page.locator('.editor-group-container').nth(1).waitFor({ state: 'detached', timeout: 10_000 });
    const webview = await (board.parentFrame() ?? board).frameElement();
    await waitUntil(async () => {
      const area = await webview.boundingBox();
      const done = await board.locator('[data-drop-column="done"]').boundingBox();
      // Frame boxes are in page coordinates: Done must end inside the webview, not past its edge.
      return Boolean(area && done && done.width >= 190 && done.x + done.width <= area.x + area.width + 1);
    }, 'the Done column wholly in view');
    await screenshot(page, 'vscode-board-1600-explorer');
  });

  it("when an agent on the command line asks the git user for input, then the status bar counts it and the notification's Open Card shows the card", async () => {
    const page = session.page;
    const asked = await kanban([
      'report',
      'late-and-mine',
      'awaitingInput',
      '--note',
      'Which webhook secret?',
      '--agent',
      'e2e-agent',
      '--dir',
      folder,
    ]);
    assert.equal(asked.code, 0, asked.stderr);
    await statusItem('1 awaiting input').waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await statusItem('1 awaiting input').innerText(), /1 agent/);
    const notice = toast(page, 'agent e2e-agent needs your input on "Late and mine"');
    await notice.waitFor({ state: 'visible', timeout: 30_000 });
    await notice.locator('.monaco-button', { hasText: 'Open Card' }).click();
    await board
      .locator('[data-testid="card-drawer"][aria-label="Late and mine"]')
      .waitFor({ state: 'visible', timeout: 15_000 });
    await board.locator('[data-testid="card-drawer"] .sheet-head button[aria-label="Close"]').click();
  });

  it('when each step of the Getting Started walkthrough is selected, then its picture is shown, loaded and described', async () => {
    const page = session.page;
    const manifest = JSON.parse(await fs.readFile(path.join(repoRoot, 'package.json'), 'utf8'));
    const steps = manifest.contributes.walkthroughs[0].steps as { title: string; media: { altText: string } }[];
    await runFromPalette(page, 'Welcome: Open Walkthrough...');
    await page
      .locator('.quick-input-list .monaco-list-row', { hasText: 'Get Started with Repo Kanban' })
      .click({ timeout: 15_000 });
    const walkthrough = page.locator('.gettingStartedContainer');
    assert.equal(steps.length, 5);
    for (const step of steps) {
      const button = walkthrough.locator('.getting-started-step', { hasText: step.title }).first();
      await button.waitFor({ state: 'visible', timeout: 15_000 });
      // The first step opens already selected; a click on it would only fold it.
      if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
      const picture = walkthrough.getByAltText(step.media.altText, { exact: true });
      await picture.waitFor({ state: 'visible', timeout: 15_000 });
      // Loaded, not a broken-image box: the file came from the installed extension.
      await waitUntil(
        () => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
        `the picture of "${step.title}" loaded`,
      );
      await screenshot(page, `vscode-walkthrough-${step.title.replace(/\W+/g, '-').toLowerCase()}`);
    }
  });
});

describe('the extension in a real VS Code with two folders: the sidebar names its folder and switches', function () {
  this.timeout(180_000);
  let first: string;
  let second: string;

  const session = useWorkbenchSession(async (temp) => {
    first = await seedWorkspace(temp, ['Card of the first folder'], 'kanban-e2e-first-');
    second = await seedWorkspace(temp, ['Card of the second folder'], 'kanban-e2e-second-');
    const scratch = await temp.make('kanban-e2e-13c-');
    const workspaceFile = path.join(scratch, 'two.code-workspace');
    await fs.writeFile(workspaceFile, JSON.stringify({ folders: [{ path: first }, { path: second }] }));
    return startCodeServer(scratch, workspaceFile, {});
  });
  screenshotWhenFailed(session, 'vscode-failed-multi');

  it('when the Kanban view opens, then its title names the folder it lists, and Switch Sidebar Folder lists the other one', async () => {
    const page = session.page;
    await waitUntil(
      async () => (await kanbanOutputLines(session.server)).some((l) => /activated in/.test(l)),
      'activation',
      60_000,
    );
    await page.locator('.activitybar .action-item a[aria-label^="Kanban"]').click();
    const sidebar = page.locator('.part.sidebar');
    await sidebar
      .locator('.monaco-list-row', { hasText: 'Card of the first folder' })
      .waitFor({ state: 'visible', timeout: 20_000 });
    await sidebar
      .locator('.title-label', { hasText: new RegExp(path.basename(first), 'i') })
      .waitFor({ timeout: 10_000 });

    await sidebar
      .locator('.title-actions .action-label[aria-label="Switch Sidebar Folder"]')
      .click({ timeout: 10_000 });
    await page
      .locator('.quick-input-list .monaco-list-row', { hasText: path.basename(second) })
      .click({ timeout: 10_000 });
    await sidebar
      .locator('.monaco-list-row', { hasText: 'Card of the second folder' })
      .waitFor({ state: 'visible', timeout: 15_000 });
    await sidebar
      .locator('.title-label', { hasText: new RegExp(path.basename(second), 'i') })
      .waitFor({ timeout: 10_000 });
    assert.equal(await sidebar.locator('.monaco-list-row', { hasText: 'Card of the first folder' }).count(), 0);
  });
});
