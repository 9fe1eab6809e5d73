import { strict as assert } from 'node:assert';
import { textContrasts } from '../helpers/contrast';
import { DEMO_CARDS, DEMO_CONFIG, seedDemoBoard } from './demoBoard';
import { backgroundCheck, offScreen, placeholderOverflow, stillScreenshot, topBarRows } from './layoutCheck';
import { nextFramesDrawn, startUi, stopUi, type UiContext } from './uiHelpers';

const WIDTHS = [1600, 1440, 1024, 390] as const;
const THEMES = ['light', 'dark'] as const;

/** The most rows the top bar may take at each width (390 px may wrap its filters, but not overflow). */
const MAX_ROWS: Record<(typeof WIDTHS)[number], number> = { 1600: 1, 1440: 2, 1024: 2, 390: 5 };

describe('Board UI: layout at 1600, 1440, 1024 and 390 px, light and dark, on the sunset background (Chromium)', function () {
  this.timeout(90_000);
  let ui: UiContext;

  before(async () => {
    ui = await startUi({
      config: { ...DEMO_CONFIG, settings: { boardBackgroundMode: 'fancy', boardBackgroundPreset: 'sunset' } },
    });
    await seedDemoBoard(ui.server, DEMO_CARDS);
    await ui.page.reload();
    await ui.page.waitForSelector('[data-card-id]');
  });

  after(async () => {
    await stopUi(ui);
  });

  async function show(theme: string, width: number): Promise<void> {
    const page = ui.page;
    await page.setViewportSize({ width, height: 800 });
    await page.evaluate((t) => (window as any).kanbanBoard.setTheme(t), theme);
    await page.waitForFunction((t) => document.documentElement.dataset.theme === t, theme);
    await nextFramesDrawn(page);
  }

  for (const theme of THEMES) {
    for (const width of WIDTHS) {
      it(`when the board is ${width} px wide in the ${theme} theme, then the top bar takes at most ${MAX_ROWS[width]} row(s), "New card" never alone, and nothing runs off the edge`, async () => {
        await show(theme, width);
        const file = await stillScreenshot(ui.page, `layout-${width}-${theme}`);
        const rows = await topBarRows(ui.page);
        assert.ok(rows.length <= MAX_ROWS[width], `${rows.length} rows: ${JSON.stringify(rows)} (see ${file})`);
        const newCardRow = rows.find((row) => row.includes('New card'));
        assert.ok(newCardRow && newCardRow.length > 1, `"New card" sits alone: ${JSON.stringify(rows)}`);
        // Two rows are the buttons, then search and its filters: never a few buttons pushed onto a row of their own.
        if (rows.length === 2 && width > 640)
          assert.equal(rows[1][0], 'Search', `the second row is not search and filters: ${JSON.stringify(rows)}`);
        assert.deepEqual(await offScreen(ui.page, '.topbar'), []);
      });

      it(`when the Labels panel is open at ${width} px in the ${theme} theme, then the "group (optional)" placeholder shows whole and the panel fits the window`, async () => {
        const page = ui.page;
        await show(theme, width);
        await page.click('button[aria-label="Labels"]');
        await page.waitForSelector('[data-testid="labels-panel"]');
        await page.locator('.sheet').evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));
        await stillScreenshot(page, `layout-labels-${width}-${theme}`);
        const overflow = await placeholderOverflow(page, 'input[aria-label="New label group"]');
        assert.ok(overflow <= 0, `the placeholder is ${overflow.toFixed(1)} px wider than its field`);
        assert.deepEqual(await offScreen(page, '.sheet'), []);
        await page.keyboard.press('Escape');
        await page.waitForSelector('[data-testid="labels-panel"]', { state: 'detached' });
      });
    }

    it(`when the sunset background is shown in the ${theme} theme, then its colours stay colourful and column text keeps a 7:1 contrast over each of them`, async () => {
      await show(theme, 1440);
      const check = await backgroundCheck(ui.page);
      assert.ok(check.worstTextContrast >= 7, `text contrast ${check.worstTextContrast.toFixed(2)}:1`);
      // A warm colour under a grey shade turns brown and olive: saturation is what it loses.
      assert.ok(check.leastSaturation >= 0.5, `least saturation ${check.leastSaturation.toFixed(2)}`);
    });

    it(`when the board is shown in the ${theme} theme, then every text on the cards (titles, priorities, due dates, labels) keeps a 4.5:1 contrast`, async () => {
      await show(theme, 1440);
      const readings = await textContrasts(
        ui.page.mainFrame(),
        '.column-head, .card-title, .priority-badge, .chip, .label-chip',
      );
      assert.ok(
        readings.some((r) => r.what.includes('is-overdue')),
        `an overdue date is among the texts: ${JSON.stringify(readings)}`,
      );
      assert.ok(readings[0].ratio >= 4.5, `lowest contrasts: ${JSON.stringify(readings.slice(0, 3))}`);
    });
  }

  it('when every width and theme has been shown, then the page reported no errors', () => {
    assert.deepEqual(ui.pageErrors, []);
  });
});
