import { strict as assert } from 'node:assert';
import { DEMO_CARDS, DEMO_CONFIG, seedDemoBoard, type DemoCard } from './demoBoard';
import { committedScreenshot, startUi, stopUi, type UiContext } from './uiHelpers';

/** A few more cards than the shared demo, so every column looks like a real week of work. */
const EXTRA_CARDS: DemoCard[] = [
  {
    title: 'Export a board as CSV',
    status: 'backlog',
    priority: 'medium',
    labels: ['feature'],
    assignee: 'Lena Fischer',
    dueInDays: 14,
  },
  {
    title: 'Rate-limit the webhook test button',
    status: 'in-progress',
    priority: 'critical',
    labels: ['bug', 'backend'],
    assignee: 'Ada Okafor',
    dueInDays: 1,
  },
  {
    title: 'Review the label picker colors',
    status: 'review',
    priority: 'medium',
    labels: ['frontend', 'good first issue'],
    assignee: 'Sam Rivera',
    dueInDays: 2,
  },
  { title: 'Document the token provider', status: 'done', priority: 'medium', labels: ['docs'], assignee: 'Maya Chen' },
];

describe('README screenshot of the board (Chromium)', function () {
  this.timeout(60_000);
  let ui: UiContext;

  before(async () => {
    ui = await startUi({ config: DEMO_CONFIG, viewport: { width: 1600, height: 625 } });
    const ids = await seedDemoBoard(ui.server, [...DEMO_CARDS, ...EXTRA_CARDS]);
    // Comments show as a count on the card.
    const discussed = ids.get('Drag and drop between columns');
    for (const content of ['Works with touch too?', 'Yes, pointer events cover it.']) {
      await ui.server.api('POST', `/api/tasks/${discussed}/comments`, { author: 'Maya Chen', content });
    }
    await ui.page.reload();
    await ui.page.waitForSelector('[data-testid="connection"]:has-text("Live")');
  });

  after(async () => {
    await stopUi(ui);
  });

  it('when a realistic board is open, then its screenshot shows every card with labels, priority, assignee and due date', async () => {
    const page = ui.page;
    const total = DEMO_CARDS.length + EXTRA_CARDS.length;
    await page.waitForFunction((n) => document.querySelectorAll('[data-card-id]').length === n, total);
    // Every card fits on screen: nothing of the picture is cut off.
    const viewport = page.viewportSize();
    const offScreen = await page.$$eval(
      '[data-card-id]',
      (els, size) =>
        els.filter(
          (el) => el.getBoundingClientRect().bottom > size.height || el.getBoundingClientRect().right > size.width,
        ).length,
      viewport ?? { width: 0, height: 0 },
    );
    assert.equal(offScreen, 0);
    assert.ok((await page.locator('.board .label-chip').count()) >= total);
    assert.ok((await page.locator('.board .assignee').count()) >= total - 2);
    assert.ok((await page.locator('.board .due-chip').count()) >= 8);
    assert.ok((await page.locator('.board .priority-badge').count()) === total);
    // No focus ring or hover state in the picture.
    await page.mouse.move(0, viewport?.height ?? 0);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

    await committedScreenshot(page, 'board', 'media/screenshot-board.png');
  });
});
