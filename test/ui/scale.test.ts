import { strict as assert } from 'node:assert';
import type { Browser, Page } from 'playwright-core';
import { generateCards, labelDefinitions } from '../../bench/dataset';
import { seedMarkdownFiles } from '../../bench/seed';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { ensureUiBuilt, launchChromium } from './uiHelpers';

const CARDS = 1_000;

/** Where a card is on screen (its top edge), or null when it is not drawn. */
async function topOf(page: Page, id: string): Promise<number | null> {
  return page.$eval(`[data-card-id="${id}"]`, (el) => el.getBoundingClientRect().top).catch(() => null);
}

/**
 * Waits until layout is at rest: cards that scroll into view are laid out a frame or two later
 * (content-visibility), and the browser's scroll anchoring follows. At rest = no change in the
 * column's scroll position and the card's place over three frames.
 */
async function settle(page: Page, id: string): Promise<void> {
  await page.waitForFunction(
    (cardId) =>
      new Promise<boolean>((resolve) => {
        // No named inner functions: the test runner's compiler would wrap them in a helper the page lacks.
        const list = document.querySelector('[data-column-cards="todo"]');
        const card = document.querySelector(`[data-card-id="${cardId}"]`);
        const first = `${list?.scrollTop}|${card?.getBoundingClientRect().top}`;
        requestAnimationFrame(() =>
          requestAnimationFrame(() =>
            requestAnimationFrame(() => resolve(`${list?.scrollTop}|${card?.getBoundingClientRect().top}` === first)),
          ),
        );
      }),
    id,
    { polling: 100 },
  );
}

describe('Board UI at 1,000 cards (Chromium)', function () {
  this.timeout(90_000);
  let server: TestServer;
  let browser: Browser;
  let page: Page;

  before(async () => {
    ensureUiBuilt();
    const root = await makeTempDir('kanban-scale-');
    await seedMarkdownFiles(root, generateCards(CARDS));
    server = await startTestServer({ root, config: { version: 2, labels: labelDefinitions() } });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(server.url);
    await page.waitForSelector('[data-testid="connection"]:has-text("Live")');
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await server?.close();
  });

  it('when the board holds 1,000 cards, then every card is counted on the board and each column scrolls on its own', async () => {
    const listed = ((await server.api('GET', '/api/tasks')).body?.data as unknown[]).length;
    assert.equal(listed, CARDS);
    await page.waitForFunction((n) => Object.keys((window as any).kanbanBoard.state.tasks).length === n, CARDS);
    const counts = await page.$$eval('.board-scroll > [data-drop-column] .column-count', (els) =>
      els.map((el) => Number(el.textContent)),
    );
    assert.equal(
      counts.reduce((a, b) => a + b, 0),
      CARDS,
    );
    const list = page.locator('[data-column-cards="todo"]');
    const [scrollHeight, clientHeight] = await list.evaluate((el) => [el.scrollHeight, el.clientHeight]);
    assert.ok(scrollHeight > clientHeight * 5, `the column scrolls (${scrollHeight} > 5 x ${clientHeight})`);
    const pageScroll = await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight + 1);
    assert.ok(pageScroll, 'the page itself does not grow with the cards');
  });

  it('when cards change above, beside and at the top of the one being looked at, then it stays where it is on screen', async () => {
    const list = page.locator('[data-column-cards="todo"]');
    await list.evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
    await settle(page, '');
    // The card in the middle of the column's visible area is the one the user is looking at.
    const watched = await list.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const under = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return (under?.closest('[data-card-id]') as HTMLElement | null)?.dataset.cardId ?? '';
    });
    assert.ok(watched, 'a card is under the middle of the column');
    await settle(page, watched);
    const before = await topOf(page, watched);
    // The column's order as the page holds it: a long column draws only the cards near the view.
    const order = await page.evaluate(() => (window as any).kanbanBoard.state.order.todo as string[]);
    const index = order.indexOf(watched);
    // Above the view, in the drawn margin: its new height moves the cards below it.
    const above = order[index - 8];
    const first = order[0];
    const beside = await page.$eval(
      '[data-column-cards="backlog"] [data-card-id]',
      (el) => (el as HTMLElement).dataset.cardId ?? '',
    );

    // A longer title on a card above it, a new card at the top, a card from another column moved in
    // at the top, and an edit in the next column.
    const long = 'A much longer title that wraps onto several lines of the card so that its height changes noticeably';
    assert.equal((await server.api('PUT', `/api/tasks/${above}`, { content: `# ${long}\n` })).status, 200);
    const created = await server.api('POST', '/api/tasks', { content: '# Arrived at the top\n', status: 'todo' });
    await server.api('PATCH', `/api/tasks/${created.body?.data.id}/move`, { status: 'todo', position: 0 });
    await server.api('PUT', `/api/tasks/${beside}`, { content: `# ${long}\n` });
    await server.api('PUT', `/api/tasks/${first}`, { priority: 'critical', labels: ['bug', 'frontend', 'security'] });

    await page.waitForFunction(
      ([aboveId, besideId, title]) => {
        const { tasks, order: columns } = (window as any).kanbanBoard.state;
        return (
          tasks[aboveId].title === title &&
          tasks[besideId].title === title &&
          tasks[columns.todo[0]].title === 'Arrived at the top'
        );
      },
      [above, beside, long] as const,
    );
    await settle(page, watched);
    const after = await topOf(page, watched);
    assert.ok(before !== null && after !== null);
    assert.ok(Math.abs(after - before) <= 1, `the watched card moved from ${before} to ${after} px`);
  });
});
