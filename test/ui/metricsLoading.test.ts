import { strict as assert } from 'node:assert';
import type { Page, Route } from 'playwright-core';
import { boardHtml } from '../../extension/webview/boardHtml';
import type { TestServer } from '../helpers/testServer';
import { useMetricsBoard } from './metricsBoard';
import { eventually } from './uiHelpers';

/*
 * Chart.js is a chunk of its own that the board fetches only when the metrics are first shown
 * (webview/components/metrics/loadCharts.ts). These tests watch it the way the network sees it.
 */

const VIEW = '[data-testid="metrics-view"]';
const STATUS = '[data-testid="metrics-charts-status"]';
/** The chunk esbuild names after charts.ts, the module the metrics import when first shown. */
const CHART_CHUNK = /\/chunks\/charts-[A-Z0-9]+\.js$/;
const CHARTS = ['metrics-cumulative-flow', 'metrics-cycle-time', 'metrics-throughput', 'metrics-aging'];

/** Every chart canvas says what it plots once Chart.js has drawn it (MetricsChart.tsx). */
function chartsDrawn(page: Page): Promise<void> {
  return page
    .waitForFunction(
      (ids) => ids.every((id) => document.querySelector(`[data-testid="${id}"] canvas`)?.hasAttribute('data-count')),
      CHARTS,
    )
    .then(() => undefined);
}

/** Pixels the chart has drawn: some are not transparent. */
function drawnPixels(page: Page, chart: string): Promise<number> {
  return page.$eval(`[data-testid="${chart}"] canvas`, (element) => {
    const canvas = element as HTMLCanvasElement;
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    let drawn = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) drawn++;
    return drawn;
  });
}

/**
 * A line only Chart.js holds (an error message of its Chart class, kept by the minifier), to tell
 * by its contents, not its name, which script carries it.
 */
const CHART_JS_MARK = 'Canvas is already in use';

/** The scripts the page fetched, in order, and which of them carry Chart.js. */
function scriptLog(page: Page): () => Promise<{ path: string; chartJs: boolean }[]> {
  const fetched: Promise<{ path: string; chartJs: boolean }>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    const path = new URL(response.url()).pathname;
    fetched.push(response.text().then((text) => ({ path, chartJs: text.includes(CHART_JS_MARK) })));
  });
  return () => Promise.all(fetched);
}

const withChartJs = (scripts: { path: string; chartJs: boolean }[]) => scripts.filter((s) => s.chartJs);

/** A string, not a function: compiled test functions may call helpers that the page does not have. */
const FAKE_VSCODE_HOST = `
(() => {
  const post = (message) => window.postMessage(message, '*');
  window.acquireVsCodeApi = () => ({
    getState: () => ({}),
    setState: () => undefined,
    postMessage: (message) => {
      if (message.type === 'ready') return post({ type: 'hello', revision: 0 });
      if (message.type !== 'request') return;
      void window.kanbanTestHost(message.method, message.path, message.body).then((answer) =>
        post({ type: 'response', id: message.id, ...answer }),
      );
    },
  });
})();
`;

/**
 * The page as the VS Code webview builds it (boardHtml, its nonce policy with no network), with a
 * stand-in for the extension host: the page's requests reach the real server through a Playwright
 * binding, which the policy cannot see, as the host's postMessage bridge is outside it too.
 */
async function openAsWebview(page: Page, server: TestServer): Promise<void> {
  await page.exposeFunction('kanbanTestHost', async (method: string, path: string, body?: unknown) => {
    const answer = await server.api(method, `/api${path}`, body);
    return { status: answer.status, body: answer.body, etag: answer.headers.get('etag') ?? undefined };
  });
  await page.addInitScript({ content: FAKE_VSCODE_HOST });
  const address = `${server.url}/vscode-webview.html`;
  const html = boardHtml({
    cspSource: server.url,
    scriptUri: `${server.url}/main.js`,
    styleUri: `${server.url}/main.css`,
    iconStyleUri: `${server.url}/codicon.css`,
    title: 'Board',
  });
  await page.route(address, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: html }));
  await page.goto(address);
  await page.waitForSelector('.board-scroll [data-drop-column]');
}

describe('the metrics charts load when first shown (Chromium)', function () {
  this.timeout(90_000);
  const board = useMetricsBoard();
  let server: TestServer;
  let page: Page;

  beforeEach(() => {
    ({ server, page } = board);
  });

  it('when the board opens in another layout, then Chart.js is not loaded; when Metrics is opened, then its charts draw', async () => {
    const scripts = scriptLog(page);
    await page.goto(server.url);
    await page.waitForSelector('.board-scroll [data-drop-column]');
    await page.locator('[data-testid="layout-table"]').click();
    await page.waitForSelector('[data-testid="table-view"]');
    const opening = await scripts();
    assert.ok(
      opening.some((s) => s.path === '/main.js'),
      `the board script was fetched: ${JSON.stringify(opening)}`,
    );
    assert.deepEqual(withChartJs(opening), [], 'no script with Chart.js yet');

    await page.locator('[data-testid="layout-metrics"]').click();
    await page.waitForSelector(`${VIEW} [data-testid="metrics-cycle-p50"]`);
    await chartsDrawn(page);
    for (const chart of CHARTS) assert.ok((await drawnPixels(page, chart)) > 500, `${chart} is drawn`);
    const shown = await scripts();
    assert.equal(withChartJs(shown).length, 1, `Chart.js, once: ${JSON.stringify(shown)}`);
    assert.equal(await page.locator(STATUS).count(), 0, 'no loading line once drawn');

    await page.locator('[data-testid="layout-metrics"]').click(); // pressed again: back to the board
    await page.waitForSelector('.board-scroll [data-drop-column]');
    await page.locator('[data-testid="layout-metrics"]').click();
    await chartsDrawn(page);
    assert.equal((await scripts()).length, shown.length, 'a second showing fetches nothing again');
    assert.deepEqual(board.errors, []);
  });

  it('while the chart chunk is on its way, then the panel says "Loading charts…" and the figures do not move when it lands', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(CHART_CHUNK, async (route: Route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${server.url}/?layout=metrics`);
    await page.waitForSelector(`${VIEW} [data-testid="metrics-cycle-p50"]`);
    const status = page.locator(STATUS);
    assert.equal((await status.textContent())?.trim(), 'Loading charts…');
    assert.equal(await status.getAttribute('role'), 'status');
    const places = () =>
      page.$$eval('.metrics-chart', (figures) => figures.map((f) => JSON.stringify(f.getBoundingClientRect())));
    const before = await places();
    assert.equal(before.length, 4, 'the four figures stand while their charts load');

    release();
    await chartsDrawn(page);
    assert.equal(await status.count(), 0);
    assert.deepEqual(await places(), before);
  });

  it('when the chart chunk cannot be fetched, then the panel says so, still shows the figures in words, and Try again draws the charts once the network is back', async () => {
    let refused = 0;
    await page.route(CHART_CHUNK, (route) => (refused++ === 0 ? route.abort() : route.continue()));
    await page.goto(`${server.url}/?layout=metrics`);
    const status = page.locator(`${STATUS}[role="alert"]`);
    await status.waitFor();
    assert.match((await status.textContent()) ?? '', /The charts could not be loaded .*Try again/);
    assert.ok((await page.locator('[data-testid="metrics-cycle-p50"]').textContent())?.trim());
    assert.ok(((await page.locator('[data-testid="metrics-throughput"] figcaption').textContent()) ?? '').length > 20);

    await page.locator('[data-testid="metrics-charts-retry"]').click();
    await chartsDrawn(page);
    assert.equal(await page.locator(STATUS).count(), 0, 'the error line is gone');
    assert.equal(refused, 2, 'the chunk was fetched again');
  });

  it("when the board runs under the VS Code webview's nonce policy, then the chart chunk loads and the charts draw", async () => {
    const scripts = scriptLog(page);
    await openAsWebview(page, server);
    assert.deepEqual(withChartJs(await scripts()), [], 'no script with Chart.js yet');
    await page.locator('[data-testid="layout-metrics"]').click();
    await chartsDrawn(page);
    assert.ok((await drawnPixels(page, 'metrics-aging')) > 500, 'the aging chart is drawn');
    assert.equal(withChartJs(await scripts()).length, 1);
    assert.deepEqual(board.errors, [], 'no script error or policy violation');
  });

  it('when a script has no nonce, then the webview policy refuses it (the policy above is in force)', async () => {
    await openAsWebview(page, server);
    const ran = await page.evaluate(
      () =>
        new Promise<boolean>((resolve) => {
          const script = document.createElement('script');
          script.src = new URL('main.js', location.href).href + '?again';
          script.onload = () => resolve(true);
          script.onerror = () => resolve(false);
          document.head.append(script);
        }),
    );
    assert.equal(ran, false);
    await eventually(async () => board.errors.some((line) => /Content Security Policy/.test(line)), 'a CSP report');
  });
});
