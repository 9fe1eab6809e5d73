import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { startServer, type RunningServer } from '../../server/server';
import { startDemoUi } from './demoBoard';
import { card, column, newBoardPage, screenshot, type UiContext } from './uiHelpers';

/**
 * Wait until `title` shows on `page` without a reload. The bound only says "never came": how soon
 * it comes is measured by `npm run bench -- --only live`, not asserted here.
 */
async function shownLive(page: Page, title: string): Promise<void> {
  await page.waitForFunction(
    (t) => Array.from(document.querySelectorAll('.card-title')).some((el) => el.textContent === t),
    title,
    { timeout: 20_000, polling: 20 },
  );
}

describe('Board UI: live updates (Chromium)', function () {
  this.timeout(60_000);
  let ui: UiContext;
  let second: Page;
  let restarted: RunningServer | null = null;

  before(async () => {
    ({ ui } = await startDemoUi());
    second = await newBoardPage(ui.browser, ui.server.url);
    await second.waitForSelector('[data-testid="connection"]:has-text("Live")');
  });

  after(async () => {
    await ui.browser.close().catch(() => undefined);
    if (restarted) {
      await restarted.close();
      await fs.rm(ui.server.root, { recursive: true, force: true });
    } else {
      await ui.server.close();
    }
  });

  it('when one page adds a card, then a second page shows it without a reload', async () => {
    const page = ui.page;
    await page.click('button[aria-label="Add a card to To Do"]');
    await page.fill('[data-drop-column="todo"] .quick-add-input', 'Seen everywhere');
    await Promise.all([shownLive(second, 'Seen everywhere'), page.keyboard.press('Enter')]);
    await page.keyboard.press('Escape');
    // Quick add puts the card at the end of its column, in one request, as the API does.
    await page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll('[data-drop-column="todo"] .card-title')).at(-1)?.textContent ===
        'Seen everywhere',
      null,
      { polling: 25 },
    );
    const onServer = await ui.server.api('GET', '/api/tasks?status=todo');
    assert.equal(onServer.body?.data.at(-1).title, 'Seen everywhere');
  });

  it('when a card moves through the API, then both pages show it in its new column at its position', async () => {
    const list = await ui.server.api('GET', '/api/tasks?q=Seen everywhere');
    await ui.server.api('PATCH', `/api/tasks/${list.body?.data[0].id}/move`, { status: 'review', position: 1 });
    for (const page of [ui.page, second]) {
      // Time-based polling: a page in the background gets no animation frames to poll on.
      await page.waitForFunction(
        () =>
          document.querySelectorAll('[data-drop-column="review"] .card-title')[1]?.textContent === 'Seen everywhere',
        null,
        { polling: 25 },
      );
      assert.equal(await column(page, 'todo').locator('.card-title', { hasText: 'Seen everywhere' }).count(), 0);
    }
  });

  it('when a card file is edited by hand, then the board shows the new title without a reload', async () => {
    const list = await ui.server.api('GET', '/api/tasks?q=Atomic writes');
    const task = list.body?.data[0];
    const file = path.join(ui.server.root, '.kanban', 'boards', 'default', 'done', `${task.id}.md`);
    const text = await fs.readFile(file, 'utf8');
    await fs.writeFile(file, text.replace('# Atomic writes for card files', '# Atomic writes, edited in vim'));
    await shownLive(second, 'Atomic writes, edited in vim');
    assert.equal(await card(second, 'Atomic writes for card files').count(), 0);
  });

  it('when a card file is created by hand, then it appears in its column', async () => {
    const file = path.join(ui.server.root, '.kanban', 'boards', 'default', 'backlog', 'hand-made-2030-01-01.md');
    await fs.writeFile(file, '---\npriority: high\n---\n# Written by hand\n\nNo API involved.\n');
    await shownLive(ui.page, 'Written by hand');
    assert.equal(await column(ui.page, 'backlog').locator('.card-title', { hasText: 'Written by hand' }).count(), 1);
  });

  it('when a setting changes elsewhere, then the board follows at once', async () => {
    await ui.server.api('PUT', '/api/settings', { showAssignee: false });
    await second.waitForFunction(() => document.querySelectorAll('.assignee').length === 0, null, { polling: 25 });
    await ui.server.api('PUT', '/api/settings', { showAssignee: true });
    await second.waitForSelector('.assignee');
  });

  it('when the connection drops, then the page says it is reconnecting and resyncs everything once back', async () => {
    const page = ui.page;
    const port = ui.server.running.port;
    const root = ui.server.root;
    await ui.server.running.close();
    await page.waitForSelector('[data-testid="reconnecting"]');
    assert.match((await page.locator('[data-testid="connection"]').textContent()) ?? '', /Reconnecting/);
    await screenshot(page, 'reconnecting');
    // A change made while the page was away: it has no event to learn it from.
    await fs.writeFile(
      path.join(root, '.kanban', 'boards', 'default', 'todo', 'while-away-2030-01-01.md'),
      '---\npriority: low\n---\n# Changed while you were away\n',
    );
    restarted = await startServer({ root, port });
    await page.waitForSelector('[data-testid="reconnecting"]', { state: 'detached', timeout: 10_000 });
    await shownLive(page, 'Changed while you were away');
    assert.match((await page.locator('[data-testid="connection"]').textContent()) ?? '', /Live/);
    assert.deepEqual(ui.pageErrors, []);
  });
});
