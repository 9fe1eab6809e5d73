import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { startDemoUi } from './demoBoard';
import {
  card,
  column,
  dragCard,
  eventually,
  focusedCardTitle,
  nextFramesDrawn,
  screenshot,
  stopUi,
  type UiContext,
} from './uiHelpers';

describe('Board UI: moving and adding cards (Chromium)', function () {
  this.timeout(60_000);
  let ui: UiContext;
  let ids: Map<string, string>;

  async function titlesOf(status: string): Promise<string[]> {
    const answer = await ui.server.api('GET', `/api/tasks?status=${status}`);
    return answer.body?.data.map((t: { title: string }) => t.title);
  }

  /** Waits until the server's order of a column passes `check`: the board shows a move at once, the save lands a moment later. */
  async function serverOrder(status: string, check: (titles: string[]) => boolean, what: string): Promise<void> {
    await eventually(async () => check(await titlesOf(status)), what, 10_000);
  }

  async function shownTitles(status: string): Promise<string[]> {
    return column(ui.page, status).locator('.card-title').allTextContents();
  }

  function cardFile(status: string, title: string): string {
    return path.join(ui.server.root, '.kanban', 'boards', 'default', status, `${ids.get(title)}.md`);
  }

  before(async () => {
    ({ ui, ids } = await startDemoUi());
  });

  after(async () => {
    await stopUi(ui);
  });

  it('when a card is dragged onto another column above a card, then it lands exactly there and its file moves', async () => {
    const title = 'Sketch the onboarding flow';
    assert.ok(existsSync(cardFile('backlog', title)));
    await dragCard(ui.page, title, { column: 'review', above: 'Dark theme contrast pass' });
    await screenshot(ui.page, 'after-drag');
    assert.deepEqual(await shownTitles('review'), [
      'Fuzzy search ranks exact hits first',
      title,
      'Dark theme contrast pass',
    ]);
    await ui.page.waitForFunction(() => !document.querySelector('.drop-gap'));
    // The server agrees: same order, and the Markdown file sits in the new status folder.
    const expected = JSON.stringify(['Fuzzy search ranks exact hits first', title, 'Dark theme contrast pass']);
    await serverOrder(
      'review',
      (titles) => JSON.stringify(titles) === expected,
      'the server has the card in review at the drop position',
    );
    assert.ok(existsSync(cardFile('review', title)));
    assert.ok(!existsSync(cardFile('backlog', title)));
  });

  it('when a card is dragged, then the pointer shows the grabbing hand wherever it goes, and the usual one after', async () => {
    const page = ui.page;
    /** The cursor the user sees: that of the element under the pointer. */
    const cursorAt = (x: number, y: number) =>
      page.evaluate(
        ([px, py]) => {
          const under = document.elementFromPoint(px, py);
          return under ? getComputedStyle(under).cursor : 'none';
        },
        [x, y],
      );
    await card(page, 'Webhook retries with backoff').hover();
    const source = (await card(page, 'Webhook retries with backoff').boundingBox())!;
    const over = (await card(page, 'Dark theme contrast pass').boundingBox())!;
    const start = { x: source.x + source.width / 2, y: source.y + source.height / 2 };
    assert.equal(await cursorAt(start.x, start.y), 'pointer', 'a card shows the pointing hand before a drag');
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    await page.mouse.move(start.x + 12, start.y + 12, { steps: 3 });
    await page.locator('.drag-ghost').waitFor();
    assert.equal(await cursorAt(start.x + 12, start.y + 12), 'grabbing', 'where the drag began');
    await page.mouse.move(over.x + over.width / 2, over.y + 6, { steps: 8 });
    await page.waitForSelector('[data-drop-column="review"] .drop-gap');
    assert.equal(await cursorAt(over.x + over.width / 2, over.y + 6), 'grabbing', 'over a card of another column');
    // Escape puts the card back: nothing moved, and the page shows its usual cursor again.
    await page.keyboard.press('Escape');
    await page.mouse.up();
    await page.locator('.drag-ghost').waitFor({ state: 'detached' });
    const back = (await card(page, 'Webhook retries with backoff').boundingBox())!;
    assert.equal(await cursorAt(back.x + back.width / 2, back.y + back.height / 2), 'pointer');
    assert.ok((await shownTitles('todo')).includes('Webhook retries with backoff'), 'the card stayed in its column');
  });

  it('when a card is dragged within its column, then the order changes to the drop position', async () => {
    await dragCard(ui.page, 'Webhook retries with backoff', {
      column: 'todo',
      above: 'Keyboard shortcuts cheat sheet',
    });
    const expected = [
      'Webhook retries with backoff',
      'Keyboard shortcuts cheat sheet',
      'Crash when a card file has tabs in YAML',
    ];
    assert.deepEqual(await shownTitles('todo'), expected);
    await serverOrder(
      'todo',
      (titles) => JSON.stringify(titles) === JSON.stringify(expected),
      'the server saved the new order',
    );
  });

  it('when a card is dragged to the end of a column, then it becomes the last card there', async () => {
    await dragCard(ui.page, 'Release notes for 0.1', { column: 'backlog' });
    assert.equal((await shownTitles('backlog')).at(-1), 'Release notes for 0.1');
    await serverOrder(
      'backlog',
      (titles) => titles.at(-1) === 'Release notes for 0.1',
      'the server has the card last in backlog',
    );
  });

  it('when the server refuses a move, then the card goes back and the refusal is shown', async () => {
    const page = ui.page;
    // Stage a stale view: a column that another client already removed, still on this screen.
    await page.evaluate(() => {
      const ctrl = (window as any).kanbanBoard;
      const board = ctrl.state.board;
      ctrl.store.set({
        board: { ...board, columns: [...board.columns, { id: 'archive', name: 'Archive', color: '#64748b' }] },
      });
    });
    await page.waitForSelector('[data-drop-column="archive"]');
    await dragCard(page, 'Atomic writes for card files', { column: 'archive' });
    await page.waitForSelector('.toast-error');
    const message = await page.locator('.toast-error').textContent();
    assert.match(message ?? '', /could not be moved/i);
    assert.match(message ?? '', /archive/);
    await page.waitForFunction(() =>
      document.querySelector('[data-drop-column="done"]')?.textContent?.includes('Atomic writes for card files'),
    );
    assert.equal(await column(page, 'archive').locator('[data-card-id]').count(), 0);
    assert.deepEqual(await titlesOf('done'), ['Atomic writes for card files']);
    await page.click('.toast-error .toast-close');
    await page.evaluate(() => (window as any).kanbanBoard.refreshBoard());
    await page.waitForSelector('[data-drop-column="archive"]', { state: 'detached' });
  });

  it('when a focused card gets Alt+Arrow keys, then it moves between and within columns', async () => {
    const page = ui.page;
    const title = 'Evaluate SQLite for large workspaces';
    await card(page, title).focus();
    await page.keyboard.press('Alt+ArrowRight');
    await page.waitForFunction(
      (t) => document.querySelector('[data-drop-column="todo"]')?.textContent?.includes(t),
      title,
    );
    await serverOrder('todo', (titles) => titles.includes(title), 'the server has the card in todo');
    // Focus follows the card, so the next key moves it again.
    await page.waitForFunction((t) => (document.activeElement as HTMLElement)?.textContent?.includes(t), title);
    // The next key moves the card from where the board shows it: wait until that is where the
    // server has it (the board draws a move at once; the server's answer can place it otherwise).
    await eventually(
      async () => JSON.stringify(await shownTitles('todo')) === JSON.stringify(await titlesOf('todo')),
      'the board shows the server order of To Do',
      10_000,
    );
    const before = (await titlesOf('todo')).indexOf(title);
    assert.ok(before < (await titlesOf('todo')).length - 1, `${title} is not last in To Do, so it can move down`);
    // Redrawn in its server place, the card still has the focus, so the next key moves it again.
    await page.waitForFunction((t) => (document.activeElement as HTMLElement)?.textContent?.includes(t), title);
    await page.keyboard.press('Alt+ArrowDown');
    await page.waitForFunction(
      ([t, i]) =>
        Array.from(document.querySelectorAll('[data-drop-column="todo"] .card-title')).findIndex(
          (el) => el.textContent === t,
        ) === i,
      [title, before + 1] as const,
    );
    await serverOrder(
      'todo',
      (titles) => titles.indexOf(title) === before + 1,
      'the server has the card one place down',
    );
    assert.match((await page.locator('#live-region').textContent()) ?? '', /Moved to To Do, position/);
  });

  it('when arrow keys are pressed on a focused card, then focus moves to the neighbouring card', async () => {
    const page = ui.page;
    const first = (await shownTitles('in-progress'))[0];
    await card(page, first).focus();
    await page.keyboard.press('ArrowDown');
    assert.equal(
      await page.evaluate(() => document.activeElement?.querySelector('.card-title')?.textContent),
      (await shownTitles('in-progress'))[1],
    );
    await page.keyboard.press('ArrowRight');
    assert.equal(
      await page.evaluate(() =>
        (document.activeElement as HTMLElement).closest('[data-drop-column]')?.getAttribute('data-drop-column'),
      ),
      'review',
    );
  });

  it('when focus moves on while a keyboard move waits for the server, then the refusal puts the card back and leaves focus where it is', async () => {
    const page = ui.page;
    const title = 'Drag and drop between columns';
    // Hold the server's answer until focus has moved on, then refuse, as a busy server that says no would.
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    await page.route('**/move', async (route) => {
      await answered;
      await route.fulfill({ status: 409, json: { ok: false, error: 'the column is locked' } });
    });
    try {
      await card(page, title).focus();
      await page.keyboard.press('Alt+ArrowRight');
      await column(page, 'review').locator('.card-title', { hasText: title }).waitFor();
      await card(page, 'Keyboard shortcuts cheat sheet').focus();
      answer();
      assert.match(
        (await page.locator('.toast-error').textContent()) ?? '',
        /could not be moved: the column is locked/,
      );
      await column(page, 'in-progress').locator('.card-title', { hasText: title }).waitFor();
      await nextFramesDrawn(page);
      assert.equal(await focusedCardTitle(page), 'Keyboard shortcuts cheat sheet');
    } finally {
      await page.unroute('**/move');
    }
    await page.click('.toast-error .toast-close');
  });

  it('when n is pressed and a title typed, then the new card appears at the end of the column and on the server', async () => {
    const page = ui.page;
    await page.locator('body').click({ position: { x: 5, y: 880 } });
    await card(page, 'Keyboard shortcuts cheat sheet').focus();
    await page.keyboard.press('n');
    await page.waitForSelector('[data-drop-column="todo"] .quick-add-input');
    await page.keyboard.type('Ship the board UI');
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll('[data-drop-column="todo"] .card-title')).at(-1)?.textContent ===
        'Ship the board UI',
    );
    // Where the API puts a new card too: one request, no move afterwards.
    await serverOrder(
      'todo',
      (titles) => titles.at(-1) === 'Ship the board UI',
      'the server has the new card last in todo',
    );
    // The box stays open for the next card; Escape closes it.
    assert.equal(await page.locator('.quick-add-input').count(), 1);
    await page.keyboard.press('Escape');
    await page.waitForSelector('.quick-add-input', { state: 'detached' });
  });

  it('when the column + button is used, then the card is added to that column', async () => {
    const page = ui.page;
    await page.click('button[aria-label="Add a card to Done"]');
    await page.fill('[data-drop-column="done"] .quick-add-input', 'Celebrate');
    await page.click('[data-drop-column="done"] button:has-text("Add card")');
    await page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll('[data-drop-column="done"] .card-title')).at(-1)?.textContent ===
        'Celebrate',
    );
    assert.deepEqual(ui.pageErrors, []);
  });
});
