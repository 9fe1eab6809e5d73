import { strict as assert } from 'node:assert';
import type { Browser, Page } from 'playwright-core';
import { generateCards, labelDefinitions } from '../../bench/dataset';
import { seedMarkdownFiles } from '../../bench/seed';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { eventually } from '../helpers/waiting';
import { ensureUiBuilt, launchChromium } from './uiHelpers';

const CARDS = 10_000;

/** The column's card ids in board order, as the page holds them. */
function orderOf(page: Page, status: string): Promise<string[]> {
  return page.evaluate((s) => (window as any).kanbanBoard.state.order[s] as string[], status);
}

/** The id of the drawn card at (or just below) the middle of a column's visible box. */
function cardInMiddle(page: Page, status: string): Promise<string> {
  return page.$eval(`[data-column-cards="${status}"]`, (list) => {
    const box = list.getBoundingClientRect();
    const middle = box.top + box.height / 2;
    const card = Array.from(list.querySelectorAll<HTMLElement>('[data-card-id]')).find(
      (el) => el.getBoundingClientRect().bottom > middle,
    );
    return card?.dataset.cardId ?? '';
  });
}

/** Scrolls a column to `top` and waits until its visible box is filled with drawn cards. */
async function scrollColumn(page: Page, status: string, top: number): Promise<void> {
  await page.$eval(`[data-column-cards="${status}"]`, (list, y) => (list.scrollTop = y), top);
  await page.waitForFunction(
    (s) => {
      const list = document.querySelector(`[data-column-cards="${s}"]`) as HTMLElement;
      const box = list.getBoundingClientRect();
      const cards = Array.from(list.querySelectorAll('[data-card-id]')).map((el) => el.getBoundingClientRect());
      return cards.length > 0 && cards[0].top <= box.top + 12 && cards[cards.length - 1].bottom >= box.bottom - 20;
    },
    status,
    { polling: 'raf', timeout: 20_000 },
  );
}

describe('Board at 10,000 cards (Chromium)', function () {
  this.timeout(240_000);
  let server: TestServer;
  let browser: Browser;
  let page: Page;

  before(async () => {
    // Each phase timed: on a loaded machine this hook is slow, and the log says which part is.
    const phases: string[] = [];
    let mark = Date.now();
    const phase = (name: string) => {
      phases.push(`${name} ${((Date.now() - mark) / 1000).toFixed(1)} s`);
      mark = Date.now();
    };
    ensureUiBuilt();
    phase('build');
    const root = await makeTempDir('kanban-board-scale-');
    await seedMarkdownFiles(root, generateCards(CARDS));
    phase('seed');
    server = await startTestServer({ root, config: { version: 2, labels: labelDefinitions() } });
    phase('server start');
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    phase('browser');
    await page.goto(server.url);
    await page.waitForSelector('[data-testid="connection"]:has-text("Live")', { timeout: 120_000 });
    await page.waitForSelector('[data-column-cards="todo"] [data-card-id]', { timeout: 120_000 });
    phase('board shown');
    console.log(`      before: ${phases.join(', ')}`);
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await server?.close();
  });

  it('when the board holds 10,000 cards, then each column counts all its cards but only those in view and a margin are in the page', async () => {
    const counts = await page.$$eval('.board-scroll > [data-drop-column] .column-count', (els) =>
      els.map((el) => Number(el.textContent)),
    );
    assert.equal(
      counts.reduce((a, b) => a + b, 0),
      CARDS,
    );
    const drawn = await page.$$eval('[data-card-id]', (els) => els.length);
    assert.ok(drawn > 20 && drawn < 600, `${drawn} cards in the page for ${CARDS}`);
    const [scrollHeight, clientHeight] = await page.$eval('[data-column-cards="todo"]', (el) => [
      el.scrollHeight,
      el.clientHeight,
    ]);
    assert.ok(scrollHeight > clientHeight * 100, `the column's scroll bar spans all its cards (${scrollHeight} px)`);
  });

  it('when a column is scrolled from top to bottom a screen at a time, then every card of it is drawn on the way and the cards in view never jump', async () => {
    const ids = await orderOf(page, 'review');
    const result = await page.$eval('[data-column-cards="review"]', async (list) => {
      // No named inner functions: the test runner's compiler would wrap them in a helper the page lacks.
      const seen = new Set<string>();
      const jumps: string[] = [];
      const box = list.getBoundingClientRect();
      const step = Math.floor(list.clientHeight * 0.8);
      for (let guard = 0; guard < 5_000; guard++) {
        const cards = Array.from(list.querySelectorAll<HTMLElement>('[data-card-id]'));
        for (const el of cards) {
          const r = el.getBoundingClientRect();
          if (r.bottom > box.top && r.top < box.bottom) seen.add(el.dataset.cardId as string);
        }
        if (list.scrollTop + list.clientHeight >= list.scrollHeight - 1) break;
        // The lowest card fully in view must be `step` px higher once the column has scrolled.
        const watched = cards.filter((el) => el.getBoundingClientRect().bottom <= box.bottom).pop() as HTMLElement;
        const before = watched.getBoundingClientRect().top;
        const from = list.scrollTop;
        list.scrollTop = from + step;
        // Until the view is filled again and two frames in a row agree (a measured card may move the rest once).
        let last = '';
        for (let frames = 0; ; frames++) {
          await new Promise((resolve) => requestAnimationFrame(resolve));
          const drawn = Array.from(list.querySelectorAll('[data-card-id]')).map((el) => el.getBoundingClientRect());
          const filled =
            drawn.length > 0 && drawn[0].top <= box.top + 12 && drawn[drawn.length - 1].bottom >= box.bottom - 20;
          const now = `${list.scrollTop}|${watched.isConnected ? watched.getBoundingClientRect().top : 'gone'}`;
          if (filled && now === last) break;
          last = now;
          if (frames > 120) throw new Error(`column not filled at scrollTop ${list.scrollTop}`);
        }
        const moved = list.scrollTop - from;
        const after = watched.isConnected ? watched.getBoundingClientRect().top : NaN;
        if (Math.abs(before - moved - after) > 1)
          jumps.push(`${watched.dataset.cardId} at ${before} expected ${before - moved}, is ${after}`);
      }
      return { seen: [...seen], jumps };
    });
    const missing = ids.filter((id) => !result.seen.includes(id));
    assert.deepEqual(missing.slice(0, 5), [], `${missing.length} of ${ids.length} cards never drawn in view`);
    assert.deepEqual(result.jumps.slice(0, 5), [], `${result.jumps.length} jumps`);
  });

  it('when a card is dropped above a card deep in a long column, then it is drawn there and the server stores it there', async () => {
    await scrollColumn(page, 'todo', 60_000);
    const target = await cardInMiddle(page, 'todo');
    const order = await orderOf(page, 'todo');
    const before = order[order.indexOf(target) - 1];
    const dragged = (await orderOf(page, 'backlog'))[0];
    const source = await page.locator(`[data-card-id="${dragged}"]`).boundingBox();
    const onto = await page.locator(`[data-card-id="${target}"]`).boundingBox();
    assert.ok(source && onto);
    await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2);
    await page.mouse.down();
    await page.mouse.move(source.x + source.width / 2 + 12, source.y + source.height / 2 + 12, { steps: 3 });
    await page.mouse.move(onto.x + onto.width / 2, onto.y + 6, { steps: 8 });
    // The gap opened on the way in moves the cards: aim again at the target where it is now, as a
    // person would, until the gap is right above it.
    const now = await page.locator(`[data-card-id="${target}"]`).boundingBox();
    assert.ok(now);
    await page.mouse.move(now.x + now.width / 2, now.y + 6, { steps: 2 });
    await page.waitForSelector(`[data-drop-column="todo"] .drop-gap + [data-card-id="${target}"]`);
    await page.mouse.up();

    const next = await page.waitForFunction(
      (id) => {
        const el = document.querySelector(`[data-column-cards="todo"] [data-card-id="${id}"]`);
        return el && (el.nextElementSibling as HTMLElement | null)?.dataset.cardId;
      },
      dragged,
      { timeout: 10_000 },
    );
    assert.equal(await next.jsonValue(), target, 'drawn right above the card it was dropped on');
    await eventually(async () => {
      const [moved, above, below] = await Promise.all(
        [dragged, before, target].map((id) => server.api('GET', `/api/tasks/${id}`)),
      );
      assert.equal(moved.body?.data.status, 'todo');
      const positions = [above, moved, below].map((answer) => answer.body?.data.position as number);
      assert.deepEqual(
        positions.map((p) => p - positions[0]),
        [0, 1, 2],
        `stored between its neighbours (positions ${positions.join(', ')})`,
      );
    });
  });

  it('when ArrowRight is pressed on a card deep in a column, then focus lands on the card at that place in the next column, drawn and in view', async () => {
    await scrollColumn(page, 'todo', 0);
    await scrollColumn(page, 'backlog', 90_000);
    const from = await cardInMiddle(page, 'backlog');
    const index = (await orderOf(page, 'backlog')).indexOf(from);
    const expected = (await orderOf(page, 'todo'))[index];
    assert.equal(await page.locator(`[data-card-id="${expected}"]`).count(), 0, 'the card to go to is not drawn yet');
    await page.locator(`[data-card-id="${from}"]`).focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(
      (id) => {
        const el = document.activeElement as HTMLElement | null;
        if (el?.dataset.cardId !== id) return false;
        const list = el.closest('[data-column-cards]') as HTMLElement;
        const r = el.getBoundingClientRect();
        const box = list.getBoundingClientRect();
        return r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
      },
      expected,
      { polling: 100, timeout: 10_000 },
    );
  });

  it('when the board is grouped into lanes, then each lane counts all its cards, only those near the view are in the page, and scrolling fills the view', async () => {
    await page.selectOption('[data-testid="group-by"]', 'priority');
    await page.waitForSelector('.board-scroll[data-group-by="priority"] .lane-row [data-card-id]', { timeout: 30_000 });
    const counts = await page.$$eval('[data-testid="lane-count"]', (els) => els.map((el) => Number(el.textContent)));
    assert.equal(
      counts.reduce((a, b) => a + b, 0),
      CARDS,
      `lane counts ${counts.join(', ')}`,
    );
    const drawn = await page.$$eval('[data-card-id]', (els) => els.length);
    assert.ok(drawn > 20 && drawn < 600, `${drawn} cards in the page for ${CARDS} in lanes`);
    // Halfway down, then to the end: wherever a cell's cards reach into the board's view, drawn
    // cards fill that part of the view (a short cell may end above it).
    for (const share of [0.5, 1]) {
      await page.$eval(
        '.board-scroll',
        (board, at) => (board.scrollTop = (board.scrollHeight - board.clientHeight) * at),
        share,
      );
      await page.waitForFunction(
        () => {
          const board = document.querySelector('.board-scroll') as HTMLElement;
          const view = board.getBoundingClientRect();
          let cellsInView = 0;
          for (const list of Array.from(board.querySelectorAll<HTMLElement>('.lane-row [data-column-cards]'))) {
            const first = list.firstElementChild?.getBoundingClientRect();
            const last = list.lastElementChild?.getBoundingClientRect();
            if (!first || !last) continue;
            const top = Math.max(first.top, view.top);
            const bottom = Math.min(last.bottom, view.bottom);
            if (bottom - top < 40) continue;
            cellsInView++;
            const cards = Array.from(list.querySelectorAll('[data-card-id]')).map((el) => el.getBoundingClientRect());
            if (cards.length === 0 || cards[0].top > top + 12 || cards[cards.length - 1].bottom < bottom - 20)
              return false;
          }
          return cellsInView > 0;
        },
        undefined,
        { polling: 'raf', timeout: 20_000 },
      );
    }
    const afterScroll = await page.$$eval('[data-card-id]', (els) => els.length);
    assert.ok(afterScroll < 600, `${afterScroll} cards in the page after scrolling the lanes`);
    await page.selectOption('[data-testid="group-by"]', '');
    await page.waitForSelector('.board-scroll:not([data-group-by]) [data-column-cards="todo"] [data-card-id]');
  });
});
