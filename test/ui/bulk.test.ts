import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import { createTask, okData } from '../helpers/envelope';
import { RecordingSocket, wsUrl } from '../helpers/wsClient';
import { card, dragCard, eventually, screenshot, startUi, stopUi, type UiContext } from './uiHelpers';

const BAR = '[data-testid="bulk-bar"]';

async function selectedTitles(page: Page): Promise<string[]> {
  return page.locator('.card.is-selected .card-title').allTextContents();
}

async function placesOnServer(ui: UiContext): Promise<string[]> {
  return okData<any[]>(
    await ui.server.api(
      'GET',
      '/api/tasks?includeArchived=true&includeDeleted=true&fields=title,status,priority,archivedAt,position',
    ),
  ).map((t) => `${t.title}:${t.archivedAt ? 'archived' : t.status}:${t.position}:${t.priority}`);
}

/** Four cards: three in To Do (A, B, C) and one in Review (D). */
async function seed(ui: UiContext): Promise<void> {
  for (const [title, status, priority] of [
    ['Card A', 'todo', 'low'],
    ['Card B', 'todo', 'medium'],
    ['Card C', 'todo', 'high'],
    ['Card D', 'review', 'medium'],
  ]) {
    await createTask(ui.server, { title, status, priority });
  }
  await card(ui.page, 'Card D').waitFor();
}

async function undo(page: Page): Promise<void> {
  await page.locator('.toast .toast-action', { hasText: 'Undo' }).last().click();
}

describe('Board UI: bulk edits (Chromium)', function () {
  this.timeout(90_000);
  let ui: UiContext;

  beforeEach(async () => {
    ui = await startUi();
    await seed(ui);
  });
  afterEach(async () => stopUi(ui));

  it('when cards are Ctrl-clicked, Shift-clicked and Shift+arrowed, then they are highlighted and counted, and Escape clears them', async () => {
    const { page } = ui;
    await card(page, 'Card A').click({ modifiers: ['Control'] });
    await card(page, 'Card D').click({ modifiers: ['Control'] });
    await page.locator('[data-testid="bulk-count"]', { hasText: '2 selected' }).waitFor();
    assert.deepEqual(await selectedTitles(page), ['Card A', 'Card D']);
    assert.equal(await page.locator('.drawer').count(), 0, 'a Ctrl-click does not open the card');
    await card(page, 'Card D').click({ modifiers: ['Control'] });
    assert.deepEqual(await selectedTitles(page), ['Card A']);
    await card(page, 'Card C').click({ modifiers: ['Shift'] });
    await eventually(
      async () => (await selectedTitles(page)).join() === 'Card A,Card B,Card C',
      'Shift-click selects A to C',
    );
    await page.keyboard.press('Escape');
    await page.locator(BAR).waitFor({ state: 'detached' });
    assert.deepEqual(await selectedTitles(page), []);
    await card(page, 'Card B').focus();
    await page.keyboard.press('Shift+ArrowDown');
    await eventually(async () => (await selectedTitles(page)).join() === 'Card B,Card C', 'Shift+Down selects B and C');
    assert.equal(
      await page.evaluate(() => document.activeElement?.querySelector('.card-title')?.textContent),
      'Card C',
      'focus follows',
    );
    assert.deepEqual(ui.pageErrors, []);
  });

  it('when selected cards are moved with "Move to" and the toast\'s Undo is pressed, then they go to the column and all come back to their places', async () => {
    const { page } = ui;
    const before = await placesOnServer(ui);
    await card(page, 'Card A').click({ modifiers: ['Control'] });
    await card(page, 'Card C').click({ modifiers: ['Control'] });
    await card(page, 'Card D').click({ modifiers: ['Control'] });
    await page.selectOption('[data-testid="bulk-move"]', 'done');
    await eventually(
      async () =>
        (await page.locator('[data-drop-column="done"] .card-title').allTextContents()).join() ===
        'Card A,Card C,Card D',
      'the three cards in Done',
    );
    const moved = okData<any[]>(await ui.server.api('GET', '/api/tasks?status=done&fields=title')).map((t) => t.title);
    assert.deepEqual(moved, ['Card A', 'Card C', 'Card D']);
    await screenshot(page, 'bulk-moved');
    await undo(page);
    await eventually(
      async () => (await placesOnServer(ui)).join() === before.join(),
      'every card back in its column and place',
    );
    await eventually(
      async () =>
        (await page.locator('[data-drop-column="todo"] .card-title').allTextContents()).join() ===
        'Card A,Card B,Card C',
      'the board shows them back',
    );
  });

  it('when a priority is set and then the selection archived, each with Undo, then the server follows each step', async () => {
    const { page } = ui;
    const before = await placesOnServer(ui);
    await card(page, 'Card A').click({ modifiers: ['Control'] });
    await card(page, 'Card B').click({ modifiers: ['Control'] });
    await page.selectOption('[data-testid="bulk-priority"]', 'critical');
    await eventually(
      async () => (await page.locator('.card.is-selected.priority-critical').count()) === 2,
      'both drawn critical',
    );
    const priorities = okData<any[]>(await ui.server.api('GET', '/api/tasks?status=todo&fields=title,priority')).map(
      (t) => `${t.title}:${t.priority}`,
    );
    assert.deepEqual(priorities, ['Card A:critical', 'Card B:critical', 'Card C:high']);
    await undo(page);
    await eventually(
      async () => (await placesOnServer(ui)).join() === before.join(),
      'the old priorities (low, medium) are back',
    );

    await page.click('[data-testid="bulk-archive"]');
    await card(page, 'Card A').waitFor({ state: 'detached' });
    await page.locator(BAR).waitFor({ state: 'detached' });
    assert.deepEqual(
      okData<any[]>(await ui.server.api('GET', '/api/tasks?archived=only&fields=title')).map((t) => t.title),
      ['Card A', 'Card B'],
    );
    await undo(page);
    await eventually(
      async () => (await placesOnServer(ui)).join() === before.join(),
      'both cards back from the archive, in place',
    );
    await card(page, 'Card A').waitFor();
  });

  it('when an archive of two cards is undone, then a WebSocket client hears task.restored for each (no task.moved) and both are back in their places', async () => {
    const { page } = ui;
    const before = await placesOnServer(ui);
    await card(page, 'Card A').click({ modifiers: ['Control'] });
    await card(page, 'Card C').click({ modifiers: ['Control'] });
    await page.click('[data-testid="bulk-archive"]');
    await card(page, 'Card C').waitFor({ state: 'detached' });
    const socket = await RecordingSocket.connect(wsUrl(ui.server.url));
    try {
      await undo(page);
      await socket.waitFor((m) => m.event === 'task.restored' && m.card?.title === 'Card C', 10_000);
      await eventually(
        async () => (await placesOnServer(ui)).join() === before.join(),
        'both cards back from the archive, in place',
      );
      const heard = socket.events().map((m) => `${m.event}:${m.card?.title}`);
      assert.deepEqual(
        heard.filter((e) => e.startsWith('task.')),
        ['task.restored:Card A', 'task.restored:Card C'],
      );
    } finally {
      socket.close();
    }
    await eventually(
      async () =>
        (await page.locator('[data-drop-column="todo"] .card-title').allTextContents()).join() ===
        'Card A,Card B,Card C',
      'the board shows them back in place',
    );
  });

  it('when the selection is deleted and then restored with Undo, then the cards leave the board and come back', async () => {
    const { page } = ui;
    const before = await placesOnServer(ui);
    await card(page, 'Card B').click({ modifiers: ['Control'] });
    await card(page, 'Card D').click({ modifiers: ['Control'] });
    await page.click('[data-testid="bulk-delete"]');
    await card(page, 'Card D').waitFor({ state: 'detached' });
    assert.deepEqual(
      okData<any[]>(await ui.server.api('GET', '/api/tasks?status=deleted&fields=title')).map((t) => t.title),
      ['Card B', 'Card D'],
    );
    await page.locator('.toast', { hasText: '2 cards moved to Deleted.' }).waitFor();
    await undo(page);
    await eventually(async () => (await placesOnServer(ui)).join() === before.join(), 'both back in place');
    await card(page, 'Card D').waitFor();
  });

  it('when a selected card is dragged to another column, then every selected card moves with it', async () => {
    const { page } = ui;
    await card(page, 'Card A').click({ modifiers: ['Control'] });
    await card(page, 'Card B').click({ modifiers: ['Control'] });
    await dragCard(page, 'Card B', { column: 'review', above: 'Card D' });
    await eventually(
      async () =>
        (await page.locator('[data-drop-column="review"] .card-title').allTextContents()).join() ===
        'Card A,Card B,Card D',
      'A and B above D',
    );
    const review = okData<any[]>(await ui.server.api('GET', '/api/tasks?status=review&fields=title')).map(
      (t) => t.title,
    );
    assert.deepEqual(review, ['Card A', 'Card B', 'Card D']);
  });

  it('when cards are selected in light and dark themes, then the bar and the highlight are drawn (screenshots)', async () => {
    const { page } = ui;
    await card(page, 'Card A').click({ modifiers: ['Control'] });
    await card(page, 'Card D').click({ modifiers: ['Control'] });
    await page.locator(BAR).waitFor();
    await screenshot(page, 'bulk-bar-light');
    await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
    await screenshot(page, 'bulk-bar-dark');
    await page.setViewportSize({ width: 390, height: 800 });
    await screenshot(page, 'bulk-bar-390');
    const bar = await page.locator(BAR).boundingBox();
    assert.ok(bar && bar.x >= 0 && bar.x + bar.width <= 390, `the bar fits a phone: ${JSON.stringify(bar)}`);
  });
});
