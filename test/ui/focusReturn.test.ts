import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import { startDemoUi } from './demoBoard';
import { card, eventually, focusedCardTitle, stopUi, type UiContext } from './uiHelpers';

/** What holds keyboard focus: a card's title, else the element's test id, aria-label or tag. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    const title = el?.closest('[data-card-id]')?.querySelector('.card-title')?.textContent;
    if (title) return `card:${title}`;
    return el?.dataset.testid ?? el?.getAttribute('aria-label') ?? el?.tagName ?? 'nothing';
  });
}

async function focusSettlesOn(page: Page, expected: string): Promise<void> {
  let last = '';
  await eventually(async () => (last = await focused(page)) === expected, `focus on ${expected} (was ${last})`, 5000);
}

describe('Board UI: focus returns after every keyboard action (Chromium)', function () {
  this.timeout(60_000);
  let ui: UiContext;

  before(async () => {
    ({ ui } = await startDemoUi());
  });

  after(async () => {
    await stopUi(ui);
  });

  it('when a card is added with n and the box closed with Escape, then focus is back on the card it was opened from', async () => {
    const page = ui.page;
    await card(page, 'Keyboard shortcuts cheat sheet').focus();
    await page.keyboard.press('n');
    await page.waitForSelector('[data-drop-column="todo"] .quick-add-input:focus');
    await page.keyboard.type('Focus keeps its place');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-drop-column="todo"] .card-title:text("Focus keeps its place")');
    await page.keyboard.press('Escape');
    await page.waitForSelector('.quick-add-input', { state: 'detached' });
    await focusSettlesOn(page, 'card:Keyboard shortcuts cheat sheet');
  });

  it("when the quick-add box opened from a column's add button is left with Escape, then focus is on that button", async () => {
    const page = ui.page;
    await page.focus('[data-add-card="done"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-drop-column="done"] .quick-add-input:focus');
    await page.keyboard.press('Escape');
    await focusSettlesOn(page, 'Add a card to Done');
  });

  it('when a card is moved with Alt+Arrow, then it keeps focus in its new column', async () => {
    const page = ui.page;
    await card(page, 'Webhook retries with backoff').focus();
    await page.keyboard.press('Alt+ArrowRight');
    await page.waitForSelector('[data-drop-column="in-progress"] .card-title:text("Webhook retries with backoff")');
    await focusSettlesOn(page, 'card:Webhook retries with backoff');
  });

  it('when the description is saved with Ctrl+Enter, then focus is on its Edit button, and Escape gives it back to the card', async () => {
    const page = ui.page;
    await card(page, 'Dark theme contrast pass').focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="card-drawer"]');
    await page.focus('[data-testid="edit-content"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.drawer-editor:focus');
    await page.keyboard.press('End');
    await page.keyboard.type('\n\nChecked with the keyboard only.');
    await page.keyboard.press('Control+Enter');
    await page.waitForSelector('.drawer-editor', { state: 'detached' });
    await focusSettlesOn(page, 'edit-content');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="card-drawer"]', { state: 'detached' });
    await focusSettlesOn(page, 'card:Dark theme contrast pass');
  });

  it('when a card is deleted with Delete, then focus goes to the next card, else the one before, else the column', async () => {
    const page = ui.page;
    await card(page, 'Sketch the onboarding flow').focus();
    await page.keyboard.press('Delete');
    await focusSettlesOn(page, 'card:Evaluate SQLite for large workspaces');
    await card(page, 'Write a migration guide for v2 config').focus();
    await page.keyboard.press('Delete');
    await focusSettlesOn(page, 'card:Evaluate SQLite for large workspaces');
    await page.keyboard.press('Delete');
    await focusSettlesOn(page, 'Add a card to Backlog');
  });

  it('when another board is chosen from the switcher with the keyboard, then focus is on its first card, or on the switcher when it has none', async () => {
    const page = ui.page;
    await ui.server.api('POST', '/api/boards', {
      id: 'ops',
      name: 'Operations',
      columns: [{ id: 'inbox', name: 'Inbox' }],
    });
    await ui.server.api('POST', '/api/boards', {
      id: 'zero',
      name: 'Zero cards',
      columns: [{ id: 'todo', name: 'To do' }],
    });
    await ui.server.api('POST', '/api/boards/ops/tasks', { content: '# Rotate the TLS certificates', status: 'inbox' });
    await page.focus('[data-testid="board-switcher"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.board-list-item:has-text("Operations")');
    await page.keyboard.type('op');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-drop-column="inbox"] [data-card-id]');
    await focusSettlesOn(page, 'card:Rotate the TLS certificates');
    await page.focus('[data-testid="board-switcher"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.board-list-item:has-text("Zero cards")');
    await page.keyboard.type('z');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.board-switcher-name:text("Zero cards")');
    await focusSettlesOn(page, 'board-switcher');
    assert.equal(await focusedCardTitle(page), null);
  });
});
