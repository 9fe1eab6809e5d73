import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import { startDemoUi } from './demoBoard';
import { card, focusedCardTitle, stopUi, type UiContext } from './uiHelpers';

/** The text of the focused element, trimmed (a menu item's label). */
function focusedText(page: Page): Promise<string> {
  return page.evaluate(() => (document.activeElement?.textContent ?? '').trim());
}

/**
 * Waits for the pause that ends a menu's type-ahead search: the menu shows the letters typed so far
 * (`data-type-ahead`) until the search ends.
 */
async function typeAheadEnded(page: Page, menu: string, typed: string): Promise<void> {
  assert.equal(await page.locator(menu).getAttribute('data-type-ahead'), typed);
  await page.locator(`${menu}:not([data-type-ahead])`).waitFor();
}

/** The board switcher's menu and the card menu share one keyboard model (useMenuKeys). */
describe('Board UI: menus from the keyboard (Chromium)', function () {
  this.timeout(60_000);
  let ui: UiContext;

  before(async () => {
    ({ ui } = await startDemoUi());
    await ui.server.api('POST', '/api/boards', {
      id: 'ops',
      name: 'Operations',
      columns: [{ id: 'inbox', name: 'Inbox' }],
    });
    await ui.server.api('POST', '/api/boards', { id: 'ideas', name: 'Ideas', columns: [{ id: 'new', name: 'New' }] });
  });

  after(async () => {
    await stopUi(ui);
  });

  it('when the board switcher is opened with Enter, then arrows, Home, End and typed letters walk it and Escape gives focus back to it', async () => {
    const page = ui.page;
    await page.focus('[data-testid="board-switcher"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.board-list');
    // The menu opens on the board shown.
    assert.match(await focusedText(page), /^Default/);
    await page.keyboard.press('ArrowDown');
    assert.match(await focusedText(page), /^(Ideas|Operations)/);
    await page.keyboard.press('End');
    assert.equal(await focusedText(page), 'Edit this board');
    await page.keyboard.press('ArrowDown');
    assert.match(await focusedText(page), /^Default/, 'Down from the last item wraps to the first');
    await page.keyboard.press('ArrowUp');
    assert.equal(await focusedText(page), 'Edit this board', 'Up from the first item wraps to the last');
    await page.keyboard.press('Home');
    assert.match(await focusedText(page), /^Default/);
    await page.keyboard.type('op');
    assert.match(await focusedText(page), /^Operations/);
    // A letter that no item starts with leaves focus where it is, and reaches no board shortcut.
    await typeAheadEnded(page, '.board-list', 'op');
    await page.keyboard.press('n');
    assert.equal(await page.locator('.quick-add-input').count(), 0);
    await page.keyboard.press('Escape');
    await page.waitForSelector('.board-list', { state: 'detached' });
    assert.equal(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.testid), 'board-switcher');
  });

  it('when a card menu is opened with Shift+F10, then Home, End and typed letters walk it and Escape gives focus back to the card', async () => {
    const page = ui.page;
    await card(page, 'Webhook retries with backoff').focus();
    await page.keyboard.press('Shift+F10');
    await page.getByTestId('card-menu').waitFor();
    assert.equal(await focusedText(page), 'Copy link');
    await page.keyboard.press('End');
    assert.equal(await focusedText(page), 'Delete');
    await page.keyboard.press('Home');
    assert.equal(await focusedText(page), 'Copy link');
    await page.keyboard.press('ArrowUp');
    assert.equal(await focusedText(page), 'Delete', 'Up from the first item wraps to the last');
    await page.keyboard.type('c');
    assert.equal(await focusedText(page), 'Copy link');
    await page.keyboard.type('c');
    assert.equal(
      await focusedText(page),
      'Copy Markdown link',
      'the same letter again goes to the next item it starts',
    );
    // After a pause a letter starts a new search.
    await typeAheadEnded(page, '[data-testid="card-menu"]', 'cc');
    await page.keyboard.press('m');
    assert.equal(await focusedText(page), 'Move to');
    await page.keyboard.press('Escape');
    await page.getByTestId('card-menu').waitFor({ state: 'detached' });
    assert.equal(await focusedCardTitle(page), 'Webhook retries with backoff');
  });
});
