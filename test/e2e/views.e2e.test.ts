import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import type { Frame } from 'playwright-core';
import { waitUntil as waitFor } from '../helpers/waiting';
import { kanbanOutputLines, startCodeServer } from './helpers/codeServer';
import { cardFileOf, frameWith } from './helpers/editorUi';
import { seedWorkspace, screenshotWhenFailed, useWorkbenchSession } from './helpers/session';
import { boardFrame, cardIn, runFromPalette, screenshot } from './helpers/workbench';

const waitUntil = (probe: () => Promise<boolean>, what: string, timeoutMs = 15_000) =>
  waitFor(() => probe().catch(() => false), timeoutMs, what, 200);

const TABLE = '[data-testid="table-view"]';

function row(frame: Frame, title: string) {
  return frame.locator(`${TABLE} .table-row`, { has: frame.locator('.table-title', { hasText: title }) });
}

function header(frame: Frame, field: string) {
  return frame.locator(`${TABLE} [role="columnheader"][data-field="${field}"]`);
}

/** The card file's text once it exists in that column's folder (a move renames it across folders). */
async function fileIn(folder: string, status: string, titleStart: string): Promise<string> {
  let text = '';
  await waitUntil(async () => {
    text = await fs.readFile(await cardFileOf(folder, 'default', status, titleStart), 'utf8');
    return true;
  }, `${titleStart}* in ${status}/`);
  return text;
}

describe('the extension in a real VS Code: selection, bulk edits and the table view in the webview', function () {
  this.timeout(180_000);
  let folder: string;
  let board: Frame;

  const session = useWorkbenchSession(async (temp) => {
    folder = await seedWorkspace(temp, ['Card A', 'Card B', 'Card C', 'Card D'], 'kanban-e2e-15-');
    return startCodeServer(await temp.make('kanban-e2e-15-vs-'), folder, {});
  });
  screenshotWhenFailed(session);

  before(async () => {
    const page = session.page;
    await waitUntil(
      async () => (await kanbanOutputLines(session.server)).some((l) => /activated in/.test(l)),
      'activation',
      60_000,
    );
    await page.locator('.statusbar').click();
    await page.keyboard.press('Control+Alt+Shift+K');
    board = await boardFrame(page);
    await cardIn(board, 'Card D').waitFor({ state: 'visible', timeout: 15_000 });
  });

  it('when cards are Ctrl-clicked and Shift-clicked, then they are selected, the bulk bar counts them, and its Move to moves their files', async () => {
    await cardIn(board, 'Card A').click({ modifiers: ['Control'] });
    await board.locator('[data-testid="bulk-count"]', { hasText: '1 selected' }).waitFor({ timeout: 10_000 });
    await cardIn(board, 'Card C').click({ modifiers: ['Shift'] });
    await board.locator('[data-testid="bulk-count"]', { hasText: '3 selected' }).waitFor({ timeout: 10_000 });
    assert.deepEqual(await board.locator('.card.is-selected .card-title').allTextContents(), [
      'Card A',
      'Card B',
      'Card C',
    ]);
    assert.equal(
      await board.locator('[data-testid="card-drawer"]').count(),
      0,
      'a modified click does not open the card',
    );
    await screenshot(session.page, 'vscode-bulk-selection');

    await board.selectOption('[data-testid="bulk-move"]', 'done');
    for (const start of ['card-a-', 'card-b-', 'card-c-'])
      assert.match(await fileIn(folder, 'done', start), /^status: done$/m);
    await waitUntil(
      async () =>
        (await board.locator('[data-drop-column="done"] .card-title').allTextContents()).join() ===
        'Card A,Card B,Card C',
      'the three cards drawn in Done',
    );
    assert.match(await fileIn(folder, 'todo', 'card-d-'), /^status: todo$/m, 'the card not selected stays');
  });

  it("when the table is chosen and a row's priority is changed inline, then the card file has the new priority", async () => {
    await board.click('[data-testid="layout-table"]');
    await board.waitForSelector(`${TABLE} .table-body .table-row`, { timeout: 10_000 });
    assert.equal(await board.locator('.board-scroll').count(), 0, 'the board is not drawn under the table');
    await row(board, 'Card D').locator('select[name="priority"]').selectOption('critical');
    await waitUntil(
      async () =>
        /^priority: critical$/m.test(await fs.readFile(await cardFileOf(folder, 'default', 'todo', 'card-d-'), 'utf8')),
      'priority: critical in the card file',
    );
    assert.equal(await row(board, 'Card D').locator('select[name="priority"]').inputValue(), 'critical');
  });

  it('when the webview is reloaded, then the table layout, the grouping and the sort order are still chosen', async () => {
    const page = session.page;
    await board.selectOption('[data-testid="group-by"]', 'priority');
    await header(board, 'title').locator('button').click();
    await header(board, 'title').locator('button').click();
    await waitUntil(
      async () => (await header(board, 'title').getAttribute('aria-sort')) === 'descending',
      'rows sorted by title, descending',
    );

    await runFromPalette(page, 'Developer: Reload Webviews');
    const before = board;
    await waitUntil(async () => before.isDetached(), 'the old page to go');
    board = await frameWith(page, `${TABLE} .table-body .table-row`);
    assert.equal(await board.getAttribute('[data-testid="layout-table"]', 'aria-pressed'), 'true');
    await waitUntil(
      async () => (await header(board, 'title').getAttribute('aria-sort')) === 'descending',
      'the sort by title, descending, kept',
    );
    assert.equal(await board.locator('[data-testid="group-by"]').inputValue(), 'priority');

    // Back on the board, the kept grouping draws its lanes.
    await board.click('[data-testid="layout-table"]');
    await board.waitForSelector('.board-scroll.has-lanes .lane[data-lane="critical"]', { timeout: 10_000 });
  });

  it("when the flow metrics are chosen, then Chart.js arrives (a chunk under the webview's policy) and the charts draw", async () => {
    await board.click('[data-testid="layout-metrics"]');
    // data-count is written once Chart.js has drawn the canvas (MetricsChart.tsx).
    await board.waitForSelector('[data-testid="metrics-throughput"] canvas[data-count]', { timeout: 20_000 });
    assert.equal(await board.locator('[data-testid="metrics-charts-status"]').count(), 0, 'no loading or failure line');
    const drawn = await board.$eval('[data-testid="metrics-throughput"] canvas', (element) => {
      const canvas = element as HTMLCanvasElement;
      const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
      return data.some((value, i) => i % 4 === 3 && value > 0);
    });
    assert.ok(drawn, 'the throughput chart has pixels');
    await screenshot(session.page, 'vscode-metrics');
  });
});
