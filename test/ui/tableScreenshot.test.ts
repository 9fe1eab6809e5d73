import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import { DEMO_CARDS, DEMO_CONFIG, seedDemoBoard } from './demoBoard';
import { committedScreenshot, screenshot, startUi, stopUi, type UiContext } from './uiHelpers';

const TABLE = '[data-testid="table-view"]';

/** Nothing of a row sticks out of the window sideways unless the table scrolls it. */
function pageOverflows(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
}

describe('README screenshot of the table view, light and dark, 1440/1024/390 px (Chromium)', function () {
  this.timeout(90_000);
  let ui: UiContext;

  before(async () => {
    ui = await startUi({ config: DEMO_CONFIG, viewport: { width: 1440, height: 720 } });
    const ids = await seedDemoBoard(ui.server, DEMO_CARDS);
    // A checklist and a blocker, so those columns are in the picture.
    const drag = ids.get('Drag and drop between columns') as string;
    await ui.server.api('PUT', `/api/tasks/${drag}`, {
      content: '# Drag and drop between columns\n\n- [x] Pointer events\n- [x] Drop gap\n- [ ] Touch\n',
    });
    await ui.server.api('PUT', `/api/tasks/${ids.get('Release notes for 0.1')}`, {
      blockedBy: [ids.get('Crash when a card file has tabs in YAML')],
    });
    await ui.page.evaluate(() =>
      window.localStorage.setItem('repo-kanban.ui', JSON.stringify({ layout: 'table', theme: 'light' })),
    );
    await ui.page.reload();
    await ui.page.waitForSelector('[data-testid="connection"]:has-text("Live")');
    await ui.page.waitForSelector(`${TABLE} .table-body .table-row`);
  });

  after(async () => {
    await stopUi(ui);
  });

  it('when the demo board is shown as a table, then every card, the checklist and blocked columns fit a 1440 px window', async () => {
    const page = ui.page;
    assert.equal(await page.locator(`${TABLE} .table-body .table-row`).count(), DEMO_CARDS.length);
    assert.equal(await page.locator(`${TABLE} [data-testid="checklist-chip"]`).count(), 1);
    assert.equal(await page.locator(`${TABLE} [data-testid="blocked-badge"]`).count(), 1);
    assert.equal(await pageOverflows(page), false);
    const sideways = await page.$eval(`${TABLE} .table-scroll`, (box) => box.scrollWidth > box.clientWidth + 1);
    assert.equal(sideways, false, 'every column fits at 1440 px');
    await page.mouse.move(0, 719);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await committedScreenshot(page, 'table', 'media/screenshots/table.png');
  });

  it('when the window is dark, 1024 px or a phone, then the table stays inside the window and scrolls its own columns', async () => {
    const page = ui.page;
    await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
    await screenshot(page, 'table-dark');
    for (const width of [1024, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 800 : 720 });
      await page.waitForFunction((w) => window.innerWidth === w, width);
      assert.equal(await pageOverflows(page), false, `no page overflow at ${width} px`);
      await screenshot(page, `table-${width}`);
    }
  });
});
