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
    return {
      rows: rows.length,
      lastTitle: inView[inView.length - 1]?.querySelector('.table-title')?.textContent ?? null,
    };
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
    const [scrollHeight, rowHeight] = await page.$eval(`${TABLE} .table-scroll`, (box) => [
      box.scrollHeight,
      (box.querySelector('.table-body .table-row') as HTMLElement).offsetHeight,
    ]);
    assert.ok(
      scrollHeight >= CARDS * rowHeight,
      `the scroll height ${scrollHeight} covers ${CARDS} rows of ${rowHeight} px`,
    );
    assert.equal(await page.locator('.board-scroll').count(), 0);
  });

  it('when the table is scrolled down in wheel-sized steps, then the rows in view are drawn within a frame or two and each sits at index x row height (no jumps)', async () => {
    const result = await page.$eval(`${TABLE} .table-scroll`, async (box) => {
      const body = box.querySelector('.table-body') as HTMLElement;
      const header = (box.querySelector('.table-head') as HTMLElement).offsetHeight;
      const rowHeight = (body.querySelector('.table-row') as HTMLElement).offsetHeight;
      // No named inner functions here: the test runner's compiler would wrap them in a helper the page lacks.
      let worstFrames = 0;
      let misplaced = 0;
      const start = performance.now();
      for (let step = 0; step < 60; step++) {
        box.scrollTop = 2_000 + step * 360;
        let frames = 0;
        for (;;) {
          await new Promise<number>((resolve) => requestAnimationFrame(resolve));
          frames++;
          const rows = Array.from(body.querySelectorAll<HTMLElement>('.table-row'));
          const indexes = rows.map((row) => Number(row.getAttribute('aria-rowindex')) - 2);
          const firstInView = Math.floor(Math.max(0, box.scrollTop - header) / rowHeight);
          const lastInView = Math.floor((box.scrollTop + box.clientHeight - header - 1) / rowHeight);
          if (Math.min(...indexes) <= firstInView && Math.max(...indexes) >= lastInView) {
            const bodyTop = body.getBoundingClientRect().top;
            misplaced += rows.filter(
              (row, i) => Math.abs(row.getBoundingClientRect().top - bodyTop - indexes[i] * rowHeight) > 0.5,
            ).length;
            break;
          }
          if (frames > 120) throw new Error(`rows ${firstInView}-${lastInView} not drawn after 120 frames`);
        }
        worstFrames = Math.max(worstFrames, frames);
      }
      return { worstFrames, misplaced, msPerStep: (performance.now() - start) / 60 };
    });
    console.log(
      `      10,000 rows, 60 scroll steps of 360 px: rows in view drawn after at most ${result.worstFrames} frame(s), ${result.msPerStep.toFixed(1)} ms per step on average`,
    );
    assert.equal(result.misplaced, 0, 'every drawn row sits at its index x row height');
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
        return rows.some(
          (row) =>
            row.querySelector('.table-title')?.textContent === title &&
            Math.abs(row.getBoundingClientRect().bottom - bottom) < 3,
        );
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
