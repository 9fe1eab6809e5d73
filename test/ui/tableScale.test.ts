import { strict as assert } from 'node:assert';
import type { Browser, Page } from 'playwright-core';
import { generateCards, labelDefinitions } from '../../bench/dataset';
import { seedMarkdownFiles } from '../../bench/seed';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { ensureUiBuilt, launchChromium } from './uiHelpers';

const CARDS = 10_000;
const TABLE = '[data-testid="table-view"]';

/** How many rows are in the page, and the title of the lowest one in view. */
function drawn(page: Page): Promise<{ rows: number; lastTitle: string | null }> {
  return page.$eval(`${TABLE} .table-scroll`, (box) => {
    const bottom = box.getBoundingClientRect().bottom;
    const rows = Array.from(box.querySelectorAll('.table-body .table-row'));
    const inView = rows.filter((row) => row.getBoundingClientRect().bottom <= bottom + 1);
    inView.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
    return { rows: rows.length, lastTitle: inView[inView.length - 1]?.querySelector('.table-title')?.textContent ?? null };
  });
}

describe('Table view at 10,000 cards (Chromium)', function () {
  this.timeout(180_000);
  let server: TestServer;
  let browser: Browser;
  let page: Page;

  before(async () => {
    ensureUiBuilt();
    const root = await makeTempDir('kanban-table-scale-');
    await seedMarkdownFiles(root, generateCards(CARDS));
    server = await startTestServer({ root, config: { version: 2, labels: labelDefinitions() } });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    // The table chosen last time: the 10,000-card board is never drawn as columns first.
    await page.addInitScript(() => window.localStorage.setItem('repo-kanban.ui', JSON.stringify({ layout: 'table' })));
    await page.goto(server.url);
    await page.waitForSelector(`${TABLE} .table-body[data-row-count="${CARDS}"]`, { timeout: 120_000 });
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await server?.close();
  });

  it('when the table holds 10,000 cards, then only the rows in view (and a margin) are in the page, and the scroll bar spans them all', async () => {
    const { rows } = await drawn(page);
    assert.ok(rows > 10 && rows < 80, `${rows} rows in the page for ${CARDS} cards`);
    const [scrollHeight, rowHeight] = await page.$eval(`${TABLE} .table-scroll`, (box) => [box.scrollHeight, (box.querySelector('.table-body .table-row') as HTMLElement).offsetHeight]);
    assert.ok(scrollHeight >= CARDS * rowHeight, `the scroll height ${scrollHeight} covers ${CARDS} rows of ${rowHeight} px`);
    assert.equal(await page.locator('.board-scroll').count(), 0);
  });

  it('when the table is scrolled to the end, then the last card of the last column shows at the bottom, with few rows in the page', async () => {
    const expected = await page.evaluate(() => {
      const state = (window as any).kanbanBoard.state;
      const columns = state.board.columns as { id: string }[];
      const ids = state.order[columns[columns.length - 1].id] as string[];
      return state.tasks[ids[ids.length - 1]].title as string;
    });
    await page.$eval(`${TABLE} .table-scroll`, (box) => (box.scrollTop = box.scrollHeight));
    await page.waitForFunction(
      ([selector, title]) => {
        const box = document.querySelector(selector) as HTMLElement;
        const rows = Array.from(box.querySelectorAll('.table-body .table-row'));
        const bottom = box.getBoundingClientRect().bottom;
        return rows.some((row) => row.querySelector('.table-title')?.textContent === title && Math.abs(row.getBoundingClientRect().bottom - bottom) < 3);
      },
      [`${TABLE} .table-scroll`, expected] as const,
      { polling: 100, timeout: 20_000 },
    );
    const { rows, lastTitle } = await drawn(page);
    assert.equal(lastTitle, expected);
    assert.ok(rows < 80, `${rows} rows in the page at the end`);
  });

  it('when End is pressed on a focused row, then focus lands on the last row, drawn and in view', async () => {
    await page.$eval(`${TABLE} .table-scroll`, (box) => (box.scrollTop = 0));
    await page.locator(`${TABLE} .table-body .table-row[tabindex="0"]`).focus();
    await page.keyboard.press('End');
    await page.waitForFunction(
      () => {
        const focused = document.activeElement as HTMLElement | null;
        return focused?.classList.contains('table-row') && focused.getAttribute('aria-rowindex') === String(10_000 + 1);
      },
      undefined,
      { polling: 100, timeout: 20_000 },
    );
  });
});
