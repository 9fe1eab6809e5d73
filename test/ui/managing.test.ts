import { strict as assert } from 'node:assert';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { startDemoUi } from './demoBoard';
import { card, column, eventually, screenshot, stopUi, type UiContext } from './uiHelpers';

async function drawnColumnIds(page: Page): Promise<string[]> {
  return page.$$eval('.board-scroll > [data-drop-column]', (els) =>
    els.map((el) => (el as HTMLElement).dataset.dropColumn ?? ''),
  );
}

async function openColumnMenu(page: Page, id: string) {
  await page.click(`[data-testid="column-menu-${id}"]`);
  return page.locator('.popover .menu-form');
}

async function toastText(page: Page, pattern: RegExp): Promise<string> {
  const toast = page.locator('.toast', { hasText: pattern });
  await toast.first().waitFor();
  return (await toast.first().textContent()) ?? '';
}

describe('Board UI: managing columns, boards, labels and settings (Chromium)', function () {
  this.timeout(90_000);
  let ui: UiContext;
  let api: UiContext['server']['api'];

  before(async () => {
    ({ ui } = await startDemoUi());
    api = ui.server.api;
  });

  after(async () => {
    await stopUi(ui);
  });

  const serverColumns = async () =>
    (await api('GET', '/api/columns')).body?.data as { id: string; name: string; color: string }[];

  it('when a column is added, renamed and recolored, then the board and the server show it', async () => {
    const page = ui.page;
    await page.click('.add-column');
    await page.fill('input[aria-label="New column name"]', 'QA');
    await page.click('.add-column button[type="submit"]');
    await column(page, 'qa').waitFor();
    assert.deepEqual((await serverColumns()).map((c) => c.id).at(-1), 'qa');

    const menu = await openColumnMenu(page, 'qa');
    await menu.locator('input[aria-label="Column name"]').fill('Quality check');
    await menu.locator('button:has-text("Rename")').click();
    await page.waitForSelector('[data-drop-column="qa"] .column-name:text("Quality check")');
    await menu.locator('button[aria-label="Column color #ec4899"]').click();
    await eventually(
      async () => (await serverColumns()).find((c) => c.id === 'qa')?.color === '#ec4899',
      'the server saved the color',
    );
    // The board follows the server's answer, which may land a moment after the server saved it.
    await page.waitForFunction(
      () => {
        const dot = document.querySelector('[data-drop-column="qa"] .column-dot');
        return dot !== null && getComputedStyle(dot).backgroundColor === 'rgb(236, 72, 153)';
      },
      undefined,
      { timeout: 5000 },
    );
    assert.equal((await serverColumns()).find((c) => c.id === 'qa')?.name, 'Quality check');
    await page.keyboard.press('Escape');
  });

  it('when a column holding cards is deleted, then the server refusal is shown and the column stays; an empty one goes', async () => {
    const page = ui.page;
    let menu = await openColumnMenu(page, 'review');
    await menu.locator('button:has-text("Delete column")').click();
    await menu.locator('.confirm-inline button:has-text("Delete column")').click();
    assert.match(await toastText(page, /still holds/), /column "review" still holds 2 card\(s\)/);
    assert.ok((await drawnColumnIds(page)).includes('review'));
    await page.keyboard.press('Escape');

    menu = await openColumnMenu(page, 'qa');
    await menu.locator('button:has-text("Delete column")').click();
    await menu.locator('.confirm-inline button:has-text("Delete column")').click();
    await column(page, 'qa').waitFor({ state: 'detached' });
    assert.ok(!(await serverColumns()).some((c) => c.id === 'qa'));
  });

  it('when a column header is dragged before another column, then the columns reorder on the board and the server', async () => {
    const page = ui.page;
    const from = await page.locator('[data-column-head="done"] .column-name').boundingBox();
    const to = await column(page, 'backlog').boundingBox();
    assert.ok(from && to);
    await page.mouse.move(from.x + 10, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x - 20, from.y + from.height / 2, { steps: 4 });
    await page.mouse.move(to.x + 20, from.y + from.height / 2, { steps: 10 });
    await page.waitForSelector('[data-drop-column="backlog"].is-column-drop-before');
    await page.mouse.up();
    const expected = ['done', 'backlog', 'todo', 'in-progress', 'review'];
    await eventually(
      async () => JSON.stringify(await drawnColumnIds(page)) === JSON.stringify(expected),
      'Done is drawn first',
    );
    await eventually(
      async () => JSON.stringify((await serverColumns()).map((c) => c.id)) === JSON.stringify(expected),
      'the server saved the order',
    );
    // Dragging a header must not open a card or leave marks behind.
    assert.equal(await page.locator('.is-column-drop-before, .is-column-dragging').count(), 0);
  });

  it('when "Move right" is chosen with the keyboard in the column menu, then the column moves one place', async () => {
    const page = ui.page;
    await page.focus('[data-testid="column-menu-done"]');
    await page.keyboard.press('Enter');
    const moveRight = page.locator('.popover button:has-text("Move right")');
    await moveRight.focus();
    await page.keyboard.press('Enter');
    const expected = ['backlog', 'done', 'todo', 'in-progress', 'review'];
    await eventually(
      async () => JSON.stringify((await serverColumns()).map((c) => c.id)) === JSON.stringify(expected),
      'the server saved the order',
    );
    assert.deepEqual(await drawnColumnIds(page), expected);
    await page.keyboard.press('Escape');
    await api('PUT', '/api/columns/reorder', { columnIds: ['backlog', 'todo', 'in-progress', 'review', 'done'] });
    await eventually(async () => (await drawnColumnIds(page))[1] === 'todo', 'the order from the API shows');
  });

  it('when a column is minimized, then the server keeps it minimized across a reload', async () => {
    const page = ui.page;
    await page.click('button[aria-label="Minimize Review"]');
    await page.waitForSelector('[data-drop-column="review"].is-minimized');
    await eventually(
      async () =>
        ((await api('GET', '/api/boards/default')).body?.data.minimizedColumnIds as string[]).includes('review'),
      'saved minimized',
    );
    await page.reload();
    await page.waitForSelector('[data-drop-column="review"].is-minimized');
    await page.click('[data-drop-column="review"] .column-expand');
    await page.waitForSelector('[data-drop-column="review"]:not(.is-minimized)');
  });

  it('when a board is created, edited and deleted, then the switcher, the board and the server follow; refusals show', async () => {
    const page = ui.page;
    await page.click('[data-testid="board-switcher"]');
    await page.click('.board-list-item:has-text("New board")');
    await page.fill('[data-testid="board-panel"] input[name="name"]', 'Release train');
    await page.fill('[data-testid="board-panel"] textarea[name="description"]', 'Everything for 1.0');
    await page.click('[data-testid="board-panel"] button[type="submit"]');
    await page.waitForSelector('.board-switcher-name:text("Release train")');
    await page.waitForSelector('.board-scroll[data-board-id="release-train"]');
    assert.equal((await api('GET', '/api/boards/release-train')).body?.data.description, 'Everything for 1.0');

    await page.click('[data-testid="board-switcher"]');
    await page.click('.board-list-item:has-text("Edit this board")');
    await page.fill('[data-testid="board-panel"] input[name="name"]', 'Release train 1.0');
    const firstColumn = (await api('GET', '/api/boards/release-train')).body?.data.columns[1].id as string;
    await page.selectOption('[data-testid="board-panel"] select[name="defaultStatus"]', firstColumn);
    await page.selectOption('[data-testid="board-panel"] select[name="defaultPriority"]', 'high');
    await screenshot(page, 'board-panel');
    await page.click('[data-testid="board-panel"] button[type="submit"]');
    await page.waitForSelector('.board-switcher-name:text("Release train 1.0")');
    const saved = (await api('GET', '/api/boards/release-train')).body?.data;
    assert.deepEqual(
      [saved.name, saved.defaultStatus, saved.defaultPriority],
      ['Release train 1.0', firstColumn, 'high'],
    );

    await api('POST', '/api/boards/release-train/tasks', { content: '# Blocker\n' });
    await page.click('[data-testid="board-switcher"]');
    await page.click('.board-list-item:has-text("Edit this board")');
    await page.click('[data-testid="board-panel"] button:has-text("Delete board")');
    await page.click('[data-testid="board-panel"] .confirm-inline button:has-text("Delete board")');
    assert.match((await page.textContent('[data-testid="board-panel-error"]')) ?? '', /still holds 1 card/);

    const blocker = (await api('GET', '/api/boards/release-train/tasks')).body?.data[0].id as string;
    await api('DELETE', `/api/boards/release-train/tasks/${blocker}/permanent`);
    await page.click('[data-testid="board-panel"] button:has-text("Delete board")');
    await page.click('[data-testid="board-panel"] .confirm-inline button:has-text("Delete board")');
    await page.waitForSelector('[data-testid="board-panel"]', { state: 'detached' });
    await page.waitForSelector('.board-scroll[data-board-id="default"]');
    assert.equal((await api('GET', '/api/boards/release-train')).status, 404);
  });

  it('when the default board is deleted, then the server refusal is shown in the panel', async () => {
    const page = ui.page;
    await page.click('[data-testid="board-switcher"]');
    await page.click('.board-list-item:has-text("Edit this board")');
    await page.click('[data-testid="board-panel"] button:has-text("Delete board")');
    await page.click('[data-testid="board-panel"] .confirm-inline button:has-text("Delete board")');
    const error = page.locator('[data-testid="board-panel-error"]');
    await error.waitFor();
    assert.match((await error.textContent()) ?? '', /default/);
    await page.keyboard.press('Escape');
  });

  it('when labels are added, recolored, grouped, renamed and deleted in the labels panel, then cards and the server follow', async () => {
    const page = ui.page;
    await page.click('button[aria-label="Labels"]');
    const panel = page.locator('[data-testid="labels-panel"]');
    await panel.waitFor();
    await panel.locator('input[aria-label="New label name"]').fill('security');
    await panel.locator('input[aria-label="New label group"]').fill('type');
    await panel.locator('[data-testid="add-label"] button[type="submit"]').click();
    await panel.locator('[data-label="security"]').waitFor();
    await eventually(
      async () =>
        JSON.stringify((await api('GET', '/api/labels')).body?.data.security) ===
        JSON.stringify({ color: '#3b82f6', group: 'type' }),
      'the server saved the new label',
    );

    // Recolor "bug": a card carrying it repaints.
    await panel.locator('input[aria-label="Color of bug"]').evaluate((el: HTMLInputElement) => {
      el.value = '#111111';
      el.dispatchEvent(new Event('change', { bubbles: true }));
    });
    const crash = card(page, 'Crash when a card file has tabs in YAML');
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('.board .label-chip')).some(
        (el) => el.textContent === 'bug' && getComputedStyle(el).backgroundColor === 'rgb(17, 17, 17)',
      ),
    );
    await eventually(
      async () => (await api('GET', '/api/labels')).body?.data.bug.color === '#111111',
      'the server saved the color',
    );

    // Group "good first issue".
    const group = panel.locator('input[aria-label="Group of good first issue"]');
    await group.fill('help');
    await group.press('Enter');
    await eventually(
      async () => (await api('GET', '/api/labels')).body?.data['good first issue'].group === 'help',
      'the group is saved',
    );

    // Rename "bug" to "defect": the server rewrites the cards, the board shows the new name.
    const name = panel.locator('input[aria-label="Name of bug"]');
    await name.fill('defect');
    await name.press('Enter');
    await crash.locator('.label-chip', { hasText: 'defect' }).waitFor();
    assert.equal(await page.locator('.board .label-chip', { hasText: /^bug$/ }).count(), 0);
    const crashTask = (
      (await api('GET', '/api/tasks')).body?.data as { title: string; labels: string[]; filePath: string }[]
    ).find((t) => t.title.startsWith('Crash'));
    assert.deepEqual(crashTask?.labels.sort(), ['backend', 'defect']);
    assert.match(await readFile(path.resolve(ui.server.root, crashTask!.filePath), 'utf8'), /defect/);
    // Leaving the field after Enter must not send the rename a second time.
    await page.waitForTimeout(200);
    assert.equal(await page.locator('.toast-error', { hasText: 'bug' }).count(), 0);
    await screenshot(page, 'labels-panel');

    // Delete "docs": it leaves every card.
    const docsRow = panel.locator('[data-label="docs"]');
    await docsRow.locator('button.icon-btn').click();
    await docsRow.locator('button:has-text("Delete label")').click();
    await panel.locator('[data-label="docs"]').waitFor({ state: 'detached' });
    await page.waitForFunction(
      () => !Array.from(document.querySelectorAll('.board .label-chip')).some((el) => el.textContent === 'docs'),
    );
    await eventually(
      async () => (await api('GET', '/api/labels')).body?.data.docs === undefined,
      'the server deleted the label',
    );
    await page.keyboard.press('Escape');
  });

  it('when the settings panel opens, then it has a control for every workspace setting', async () => {
    const page = ui.page;
    await page.click('[data-testid="open-settings"]');
    const panel = page.locator('[data-testid="settings-panel"]');
    await panel.waitFor();
    for (const name of [
      'showPriorityBadges',
      'showAssignee',
      'showDueDate',
      'showLabels',
      'showFileName',
      'compactMode',
      'showDeletedColumn',
    ]) {
      assert.equal(await panel.locator(`input[type="checkbox"][name="${name}"]`).count(), 1, name);
    }
    assert.equal(await panel.locator('select[name="defaultPriority"] option').count(), 4);
    assert.ok((await panel.locator('select[name="defaultStatus"] option').count()) >= 5);
    assert.equal(await panel.locator('[aria-label="Background mode"] [role="radio"]').count(), 2);
    assert.equal(await panel.locator('[aria-label="Background preset"] [role="radio"]').count(), 11);
    await panel.locator('select[name="defaultPriority"]').selectOption('high');
    await eventually(
      async () => (await api('GET', '/api/settings')).body?.data.defaultPriority === 'high',
      'defaultPriority saved',
    );
    await page.keyboard.press('Escape');
  });
});
