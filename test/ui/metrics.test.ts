import { strict as assert } from 'node:assert';
import { copyFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { shortDuration } from '../../server/core/metricsText';
import { okData } from '../helpers/envelope';
import { RANGE } from '../helpers/flowHistory';
import type { TestServer } from '../helpers/testServer';
import { DRAWER } from './drawerHelpers';
import { useMetricsBoard } from './metricsBoard';
import { eventually, screenshot } from './uiHelpers';

const VIEW = '[data-testid="metrics-view"]';
const DOCS_IMAGE = path.resolve(__dirname, '..', '..', 'docs', 'images', 'metrics-panel.png');

/**
 * What a chart's canvas shows: how many pixels are not transparent (something is drawn), and a
 * digest of them all (to tell that it was drawn again differently).
 */
function canvasFigures(page: Page, chart: string): Promise<{ drawn: number; digest: number }> {
  return page.$eval(`[data-testid="${chart}"] canvas`, (canvas) => {
    const { data } = (canvas as HTMLCanvasElement)
      .getContext('2d')!
      .getImageData(0, 0, (canvas as HTMLCanvasElement).width, (canvas as HTMLCanvasElement).height);
    let drawn = 0;
    let digest = 0;
    for (let i = 0; i < data.length; i += 1) {
      if (i % 4 === 3 && data[i] > 0) drawn++;
      digest = (digest * 31 + data[i]) | 0;
    }
    return { drawn, digest };
  });
}

const drawnPixels = async (page: Page, chart: string) => (await canvasFigures(page, chart)).drawn;
const canvasDigest = async (page: Page, chart: string) => (await canvasFigures(page, chart)).digest;

/** Clicks the point a chart drew for `cardId`, where the chart says it drew it. */
async function clickPoint(page: Page, chart: string, cardId: string): Promise<void> {
  const canvas = page.locator(`[data-testid="${chart}"] canvas`);
  const points: { id: string; x: number; y: number }[] = JSON.parse((await canvas.getAttribute('data-points')) ?? '[]');
  const point = points.find((p) => p.id === cardId);
  assert.ok(point, `${chart} drew ${cardId}: ${JSON.stringify(points)}`);
  await canvas.click({ position: { x: point.x, y: point.y } });
}

async function pickRange(page: Page): Promise<void> {
  await page.locator('[data-testid="metrics-from"]').fill(RANGE.from);
  await page.locator('[data-testid="metrics-to"]').fill(RANGE.to);
  // The 13 days of the range, for each of the 5 columns: the answer for both dates is drawn.
  await page.waitForFunction(
    (expected) =>
      document.querySelector('[data-testid="metrics-cumulative-flow"] canvas')?.getAttribute('data-count') === expected,
    String(5 * 13),
  );
}

describe('the flow metrics panel (Chromium)', function () {
  this.timeout(90_000);
  const board = useMetricsBoard();
  let server: TestServer;
  let page: Page;

  beforeEach(async () => {
    ({ server, page } = board);
    await page.goto(`${server.url}/?layout=metrics`);
    await page.waitForSelector(`${VIEW} [data-testid="metrics-cycle-p50"]`);
    await pickRange(page);
  });

  afterEach(() => {
    assert.deepEqual(board.errors.splice(0), [], 'no script error or CSP violation');
  });

  it('when the page opens with ?layout=metrics and a range, then the headline figures are the API answer in days and hours', async () => {
    const api = okData(await server.api('GET', `/api/metrics?from=${RANGE.from}&to=${RANGE.to}`));
    const shown = async (key: string) => (await page.locator(`[data-testid="metrics-${key}"]`).textContent())?.trim();
    assert.equal(await shown('cycle-p50'), shortDuration(api.cycleTime.p50Ms));
    assert.equal(await shown('cycle-p85'), shortDuration(api.cycleTime.p85Ms));
    assert.equal(await shown('cycle-p95'), shortDuration(api.cycleTime.p95Ms));
    assert.equal(await shown('lead-p50'), shortDuration(api.leadTime.p50Ms));
    assert.equal(await shown('cycle-p50'), '2d 6h');
    assert.equal(await shown('lead-p50'), '3d 6h');
    assert.equal(await page.locator('[data-testid="layout-metrics"]').getAttribute('aria-pressed'), 'true');
    assert.match(
      (await page.locator('[data-testid="metrics-history-note"]').textContent()) ?? '',
      /1 finished card has no recorded start, so no cycle time \(delta-2026-02-28\)/,
    );
  });

  it('when the charts are drawn, then each canvas has its data, a title and a summary for screen readers', async () => {
    const counts: Record<string, string> = {
      'metrics-cumulative-flow': String(5 * 13),
      'metrics-cycle-time': '3',
      'metrics-throughput': '2',
      'metrics-aging': '1',
    };
    for (const [chart, count] of Object.entries(counts)) {
      const figure = page.locator(`[data-testid="${chart}"]`);
      assert.equal(await figure.locator('canvas').getAttribute('data-count'), count, chart);
      assert.ok((await drawnPixels(page, chart)) > 500, `${chart} is drawn`);
      assert.ok((await figure.locator('h3').textContent())?.trim(), `${chart} has a title`);
      assert.equal(await figure.locator('canvas').getAttribute('role'), 'img');
      assert.ok(
        ((await figure.locator('canvas').getAttribute('aria-label')) ?? '').length > 20,
        `${chart} is summarized`,
      );
    }
    assert.match(
      (await page.locator('[data-testid="metrics-cycle-time"] canvas').getAttribute('aria-label')) ?? '',
      /3 cards finished with a cycle time; p50 2d 6h, p85 7d 0h, p95 7d 0h/,
    );
    assert.match(
      (await page.locator('[data-testid="metrics-throughput"] canvas').getAttribute('aria-label')) ?? '',
      /4 cards finished over 2 weeks; the most in 2026-W10 \(3\)/,
    );
  });

  it('when a point of the cycle-time scatter or of the aging WIP is clicked, then that card opens in the drawer', async () => {
    await clickPoint(page, 'metrics-cycle-time', 'charlie-2026-03-02');
    await page.waitForSelector(`${DRAWER}:has-text("Charlie")`);
    await page.keyboard.press('Escape');
    await page.waitForSelector(DRAWER, { state: 'detached' });
    await clickPoint(page, 'metrics-aging', 'echo-2026-03-02');
    await page.waitForSelector(`${DRAWER}:has-text("Echo")`);
  });

  it('when the view switcher is used, then the board and the metrics take turns, and a dark theme redraws the charts', async () => {
    await page.locator('[data-testid="layout-metrics"]').click();
    await page.waitForSelector('.board-scroll [data-drop-column]');
    assert.equal(await page.locator(VIEW).count(), 0);
    await page.locator('[data-testid="layout-metrics"]').click();
    await page.waitForSelector(`${VIEW} [data-testid="metrics-cycle-p50"]`);
    await pickRange(page);
    await page.mouse.move(0, 999);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const file = await screenshot(page, 'metrics-panel');
    assert.ok(statSync(file).size < 400_000, 'small enough for the docs');
    if (process.env.UPDATE_DOCS_SCREENSHOT === '1') copyFileSync(file, DOCS_IMAGE);

    const light = await canvasDigest(page, 'metrics-throughput');
    await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
    await eventually(
      async () => (await canvasDigest(page, 'metrics-throughput')) !== light,
      'the chart is drawn in dark colours',
    );
    assert.ok((await drawnPixels(page, 'metrics-throughput')) > 500);
  });
});
