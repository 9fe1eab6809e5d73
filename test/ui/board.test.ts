import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { startDemoUi } from './demoBoard';
import { card, column, eventually, screenshot, stopUi, type UiContext } from './uiHelpers';

describe('Board UI: rendering, settings and board switching (Chromium)', function () {
  this.timeout(60_000);
  let ui: UiContext;

  before(async () => {
    ({ ui } = await startDemoUi());
  });

  after(async () => {
    await stopUi(ui);
  });

  it('when the board loads, then columns appear in order with name, color and card count', async () => {
    const columns = await ui.page.$$eval('.board-scroll [data-drop-column]', (els) =>
      els.map((el) => ({
        id: (el as HTMLElement).dataset.dropColumn,
        name: el.querySelector('.column-name')?.textContent,
        count: el.querySelector('.column-count')?.textContent,
        color: getComputedStyle(el.querySelector('.column-dot') as Element).backgroundColor,
      })),
    );
    assert.deepEqual(
      columns.map((c) => [c.id, c.name, c.count]),
      [
        ['backlog', 'Backlog', '3'],
        ['todo', 'To Do', '3'],
        ['in-progress', 'In Progress', '2'],
        ['review', 'Review', '2'],
        ['done', 'Done', '2'],
      ],
    );
    assert.equal(columns[1].color, 'rgb(59, 130, 246)');
    await screenshot(ui.page, 'board');
  });

  it('when a card has fields, then it shows title, priority, assignee, due date and colored labels, overdue highlighted', async () => {
    const crash = card(ui.page, 'Crash when a card file has tabs in YAML');
    assert.equal(await crash.locator('.priority-badge').textContent(), 'critical');
    assert.equal(await crash.locator('.assignee-name').textContent(), 'Ada Okafor');
    assert.equal(await crash.locator('.due-chip.is-overdue').count(), 1);
    const bug = crash.locator('.label-chip', { hasText: 'bug' });
    assert.equal(await bug.evaluate((el) => getComputedStyle(el).backgroundColor), 'rgb(239, 68, 68)');
    const future = card(ui.page, 'Webhook retries with backoff');
    assert.equal(await future.locator('.due-chip').count(), 1);
    assert.equal(await future.locator('.due-chip.is-overdue').count(), 0);
  });

  it('when a card file with a past due date is moved into the last column by hand, then its due date shows done, not overdue', async () => {
    // As an Explorer move or a git checkout leaves it: in the done folder, with no completedAt.
    const file = path.join(ui.server.root, '.kanban/boards/default/done/moved-by-hand.md');
    await fs.writeFile(
      file,
      '---\nid: moved-by-hand\nstatus: done\npriority: medium\ndueDate: 2020-01-02\n---\n# Moved by hand\n',
    );
    const moved = card(ui.page, 'Moved by hand');
    await moved.locator('.due-chip').waitFor({ state: 'visible', timeout: 15_000 });
    assert.equal(await moved.locator('.due-chip.is-overdue').count(), 0);
    assert.equal(await moved.locator('.due-chip.is-done').count(), 1);
    assert.equal(
      await fs.readFile(file, 'utf8').then((text) => text.includes('completedAt')),
      false,
      'the file is left as it was',
    );
  });

  it('when display settings are switched off in the settings panel, then cards drop those parts', async () => {
    const page = ui.page;
    await page.click('[data-testid="open-settings"]');
    await page.waitForSelector('[data-testid="settings-panel"]');
    await screenshot(page, 'settings-panel');
    const badges = () => page.locator('.board .priority-badge').count();
    assert.ok((await badges()) > 0);
    await page.click('[data-testid="settings-panel"] input[name="showPriorityBadges"]');
    await page.waitForFunction(() => document.querySelectorAll('.board .priority-badge').length === 0);
    await eventually(
      async () => (await ui.server.api('GET', '/api/settings')).body?.data.showPriorityBadges === false,
      'the server saved showPriorityBadges: false',
    );

    await page.click('[data-testid="settings-panel"] input[name="showFileName"]');
    await page.waitForSelector('.card-file');
    assert.match((await page.locator('.card-file').first().textContent()) ?? '', /\.md$/);

    await page.click('[data-testid="settings-panel"] input[name="compactMode"]');
    await page.waitForSelector('.card.is-compact');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="settings-panel"]', { state: 'detached' });
    await ui.server.api('PUT', '/api/settings', { showPriorityBadges: true, showFileName: false, compactMode: false });
    await page.waitForFunction(() => document.querySelectorAll('.card.is-compact').length === 0);
  });

  it('when the background preset or mode changes, then every preset paints a different board', async () => {
    const page = ui.page;
    const seen = new Map<string, string>();
    for (const mode of ['fancy', 'plain']) {
      for (const preset of [
        'aurora',
        'sunset',
        'meadow',
        'nebula',
        'lagoon',
        'candy',
        'ember',
        'violet',
        'paper',
        'mist',
        'sand',
      ]) {
        await ui.server.api('PUT', '/api/settings', { boardBackgroundMode: mode, boardBackgroundPreset: preset });
        await page.waitForSelector(`.board[data-preset="${preset}"][data-mode="${mode}"]`);
        const paint = await page.$eval(
          '.board',
          (el) => `${getComputedStyle(el).backgroundImage}|${getComputedStyle(el).backgroundColor}`,
        );
        assert.ok(!seen.has(paint), `${mode}/${preset} looks like ${seen.get(paint)}`);
        seen.set(paint, `${mode}/${preset}`);
      }
    }
    await ui.server.api('PUT', '/api/settings', { boardBackgroundMode: 'fancy', boardBackgroundPreset: 'aurora' });
  });

  it('when a column is minimized, then it collapses to a narrow strip that expands again', async () => {
    const page = ui.page;
    await page.click('button[aria-label="Minimize Review"]');
    await page.waitForSelector('[data-drop-column="review"].is-minimized');
    assert.equal(await column(page, 'review').locator('[data-card-id]').count(), 0);
    assert.ok(((await column(page, 'review').boundingBox())?.width ?? 999) < 60);
    const minimized = async () =>
      JSON.stringify((await ui.server.api('GET', '/api/boards/default')).body?.data.minimizedColumnIds);
    await eventually(async () => (await minimized()) === '["review"]', 'the server saved review as minimized');
    await page.click('[data-drop-column="review"] .column-expand');
    await page.waitForSelector('[data-drop-column="review"] [data-card-id]');
  });

  it('when showDeletedColumn is on, then the hidden deleted column shows soft-deleted cards, and only then', async () => {
    const page = ui.page;
    const list = await ui.server.api('GET', '/api/tasks?q=Sketch');
    await ui.server.api('DELETE', `/api/tasks/${list.body?.data[0].id}`);
    await page.waitForFunction(() => !document.body.textContent?.includes('Sketch the onboarding flow'));
    assert.equal(await column(page, 'deleted').count(), 0);
    await ui.server.api('PUT', '/api/settings', { showDeletedColumn: true });
    await page.waitForSelector('[data-drop-column="deleted"] [data-card-id]');
    assert.equal(await column(page, 'deleted').locator('.card-title').textContent(), 'Sketch the onboarding flow');
    await ui.server.api('PUT', '/api/settings', { showDeletedColumn: false });
    await page.waitForSelector('[data-drop-column="deleted"]', { state: 'detached' });
  });

  it('when another board is chosen in the switcher, then its columns and cards replace the first', async () => {
    const page = ui.page;
    await ui.server.api('POST', '/api/boards', {
      id: 'ops',
      name: 'Operations',
      columns: [
        { id: 'inbox', name: 'Inbox' },
        { id: 'closed', name: 'Closed', color: '#22c55e' },
      ],
    });
    await ui.server.api('POST', '/api/boards/ops/tasks', { content: '# Rotate the TLS certificates', status: 'inbox' });
    await page.click('[data-testid="board-switcher"]');
    await page.click('.board-list-item:has-text("Operations")');
    await page.waitForSelector('[data-drop-column="inbox"] [data-card-id]');
    assert.equal(await page.locator('.board-switcher-name').textContent(), 'Operations');
    assert.equal(await column(page, 'todo').count(), 0);
    // The choice survives a reload.
    await page.reload();
    await page.waitForSelector('[data-drop-column="inbox"] [data-card-id]');
    await page.click('[data-testid="board-switcher"]');
    await page.click('.board-list-item:has-text("Default")');
    await page.waitForSelector('[data-drop-column="todo"] [data-card-id]');
  });

  it('when the page runs, then it reports no script errors under its strict Content-Security-Policy', async () => {
    const csp = await ui.page.$eval('meta[http-equiv="Content-Security-Policy"]', (el) => el.getAttribute('content'));
    assert.match(csp ?? '', /script-src 'self'/);
    assert.doesNotMatch(csp ?? '', /unsafe-inline|unsafe-eval/);
    assert.deepEqual(ui.pageErrors, []);
  });
});
