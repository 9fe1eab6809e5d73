import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import { startDemoUi } from './demoBoard';
import { eventually, stopUi, type UiContext } from './uiHelpers';

const TABLE = '[data-testid="table-view"]';

/** The titles of the rows drawn, top to bottom. */
function rowTitles(page: Page): Promise<string[]> {
  return page.$$eval(`${TABLE} .table-body .table-row`, (rows) =>
    rows
      .map((row) => ({
        top: row.getBoundingClientRect().top,
        title: row.querySelector('.table-title')?.textContent ?? '',
      }))
      .sort((a, b) => a.top - b.top)
      .map((row) => row.title),
  );
}

function row(page: Page, title: string) {
  return page.locator(`${TABLE} .table-row`, { has: page.locator('.table-title', { hasText: title }) });
}

async function cardOf(ui: UiContext, id: string): Promise<Record<string, unknown>> {
  return (await ui.server.api('GET', `/api/tasks/${id}`)).body?.data;
}

describe('Table view: sorting, inline edits and the filter (Chromium)', function () {
  this.timeout(60_000);
  let ui: UiContext;
  let ids: Map<string, string>;

  before(async () => {
    ({ ui, ids } = await startDemoUi());
    await ui.page.click('[data-testid="layout-table"]');
    await ui.page.waitForSelector(`${TABLE} .table-body .table-row`);
  });

  after(async () => {
    await stopUi(ui);
  });

  it('when the table opens, then every card is a row in board order with its fields, and the choice survives a reload', async () => {
    const page = ui.page;
    const titles = await rowTitles(page);
    assert.equal(titles.length, 12);
    assert.deepEqual(titles.slice(0, 3), [
      'Sketch the onboarding flow',
      'Evaluate SQLite for large workspaces',
      'Write a migration guide for v2 config',
    ]);
    const crash = row(page, 'Crash when a card file has tabs in YAML');
    assert.equal(await crash.locator('select[name="status"]').inputValue(), 'todo');
    assert.equal(await crash.locator('select[name="priority"]').inputValue(), 'critical');
    assert.equal(await crash.locator('input[name="assignee"]').inputValue(), 'Ada Okafor');
    assert.equal(await crash.locator('input[name="dueDate"].is-overdue').count(), 1);
    assert.deepEqual(await crash.locator('.label-chip').allTextContents(), ['bug', 'backend']);
    assert.equal(await page.getAttribute('[data-testid="layout-table"]', 'aria-pressed'), 'true');

    await page.reload();
    await page.waitForSelector(`${TABLE} .table-body .table-row`);
    assert.equal(await page.locator('.board-scroll').count(), 0, 'the board is not drawn under the table');
  });

  it('when a column header is clicked, then rows sort by it, and a second click reverses the order', async () => {
    const page = ui.page;
    const header = (field: string) => page.locator(`${TABLE} [role="columnheader"][data-field="${field}"]`);
    await header('title').locator('button').click();
    await eventually(async () => (await rowTitles(page))[0] === 'Atomic writes for card files', 'title ascending');
    assert.equal(await header('title').getAttribute('aria-sort'), 'ascending');
    assert.equal(
      await page.evaluate(() => (window as any).kanbanBoard.state.sort),
      'title',
      'a list-route sort value in the view state',
    );
    await header('title').locator('button').click();
    await eventually(
      async () => (await rowTitles(page))[0] === 'Write a migration guide for v2 config',
      'title descending',
    );
    assert.equal(await page.evaluate(() => (window as any).kanbanBoard.state.sort), '-title');

    await header('priority').locator('button').click();
    await eventually(
      async () => (await rowTitles(page))[0] === 'Crash when a card file has tabs in YAML',
      'critical first',
    );
    const priorities = await page.$$eval(`${TABLE} .table-body select[name="priority"]`, (els) =>
      els
        .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)
        .map((el) => (el as HTMLSelectElement).value),
    );
    assert.deepEqual(
      priorities,
      [...priorities].sort(
        (a, b) => ['critical', 'high', 'medium', 'low'].indexOf(a) - ['critical', 'high', 'medium', 'low'].indexOf(b),
      ),
    );

    // Due: the earliest first; cards without a due date last, in both directions.
    await header('due').locator('button').click();
    await eventually(async () => (await rowTitles(page))[0] === 'Release notes for 0.1', 'earliest due first');
    await header('due').locator('button').click();
    await eventually(async () => (await rowTitles(page))[0] === 'Webhook retries with backoff', 'latest due first');
    const last = (await rowTitles(page)).slice(-1)[0];
    assert.ok(
      [
        'Sketch the onboarding flow',
        'Evaluate SQLite for large workspaces',
        'Write a migration guide for v2 config',
        'Fuzzy search ranks exact hits first',
        'Atomic writes for card files',
      ].includes(last),
      `no due date sorts last (${last})`,
    );

    // Assignee has no list-route value: sorted here, and the view state keeps the board order.
    await header('assignee').locator('button').click();
    await eventually(async () => (await rowTitles(page))[0] === 'Crash when a card file has tabs in YAML', 'Ada first');
    assert.equal(await page.evaluate(() => (window as any).kanbanBoard.state.sort), '');
    assert.equal(await header('assignee').getAttribute('aria-sort'), 'ascending');
  });

  it('when status, priority, assignee, due date and labels are edited in a row, then each is saved to the card', async () => {
    const page = ui.page;
    const title = 'Keyboard shortcuts cheat sheet';
    const id = ids.get(title) as string;
    const target = row(page, title);

    await target.locator('select[name="status"]').selectOption('review');
    await eventually(async () => (await cardOf(ui, id)).status === 'review', 'status saved');
    await target.locator('select[name="priority"]').selectOption('high');
    await eventually(async () => (await cardOf(ui, id)).priority === 'high', 'priority saved');
    await target.locator('input[name="assignee"]').fill('Lena Fischer');
    await target.locator('input[name="assignee"]').press('Enter');
    await eventually(async () => (await cardOf(ui, id)).assignee === 'Lena Fischer', 'assignee saved');
    await target.locator('input[name="dueDate"]').fill('2031-05-06');
    await eventually(async () => String((await cardOf(ui, id)).dueDate).startsWith('2031-05-06'), 'due date saved');

    await target.locator('[data-testid="table-labels"]').click();
    const editor = page.locator('[data-testid="table-label-editor"]');
    await editor.locator('input[value="bug"]').check();
    await eventually(async () => ((await cardOf(ui, id)).labels as string[]).includes('bug'), 'label added');
    await editor.locator('input[value="docs"]').uncheck();
    await eventually(
      async () => JSON.stringify((await cardOf(ui, id)).labels) === JSON.stringify(['frontend', 'bug']),
      'label removed',
    );
    await page.keyboard.press('Escape');
    await editor.waitFor({ state: 'detached' });
    assert.deepEqual(await target.locator('.label-chip').allTextContents(), ['frontend', 'bug']);
    // Nothing was refused along the way.
    assert.equal(await page.locator('.toast', { hasText: 'changed elsewhere' }).count(), 0);
  });

  it('when the row is behind the card (changed elsewhere), then the edit is refused with the conflict message and the newer card shows', async () => {
    const page = ui.page;
    const title = 'Dark theme contrast pass';
    const id = ids.get(title) as string;
    const target = row(page, title);
    // Hold the table's read of the card until the card has changed elsewhere: the row is then behind.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/api/boards/default/tasks/${id}`, async (route) => {
      if (route.request().method() === 'GET') await held;
      await route.continue();
    });
    await target.locator('select[name="priority"]').selectOption('critical');
    const answer = await ui.server.api('PUT', `/api/tasks/${id}`, { priority: 'high' });
    assert.equal(answer.status, 200);
    release();
    await page.locator('.toast', { hasText: 'This card was changed elsewhere' }).waitFor();
    await eventually(
      async () => (await target.locator('select[name="priority"]').inputValue()) === 'high',
      'the newer priority shows',
    );
    assert.equal((await cardOf(ui, id)).priority, 'high', 'nothing was overwritten');
    await page.unroute(`**/api/boards/default/tasks/${id}`);
  });

  it('when the board filter is set, then the table lists only the matching cards', async () => {
    const page = ui.page;
    await page.selectOption('[data-testid="filter-assignee"]', 'Ada Okafor');
    const ada = [
      'Atomic writes for card files',
      'Crash when a card file has tabs in YAML',
      'Webhook retries with backoff',
    ];
    await eventually(
      async () => JSON.stringify((await rowTitles(page)).sort()) === JSON.stringify(ada),
      "only Ada's cards",
    );
    await page.fill('#search-input', 'webhook');
    await eventually(
      async () => JSON.stringify(await rowTitles(page)) === JSON.stringify(['Webhook retries with backoff']),
      'text and assignee together',
    );
    await page.click('.filters button:has-text("Clear")');
    await page.fill('#search-input', '');
    await eventually(async () => (await rowTitles(page)).length === 12, 'all rows back');
  });

  it('when a row has focus, then arrows move the focus and Enter opens the card; a click opens it too', async () => {
    const page = ui.page;
    const titles = await rowTitles(page);
    await row(page, titles[0]).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const focused = () =>
      page.evaluate(
        () => document.activeElement?.closest('.table-row')?.querySelector('.table-title')?.textContent ?? null,
      );
    await eventually(async () => (await focused()) === titles[2], 'focus two rows down');
    await page.keyboard.press('ArrowUp');
    await eventually(async () => (await focused()) === titles[1], 'focus one row up');
    await page.keyboard.press('Enter');
    await page.waitForSelector(`[data-testid="card-drawer"] [data-task-id="${ids.get(titles[1])}"]`);
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="card-drawer"]', { state: 'detached' });

    await row(page, titles[3]).locator('.table-title').click();
    await page.waitForSelector(`[data-testid="card-drawer"] [data-task-id="${ids.get(titles[3])}"]`);
    await page.keyboard.press('Escape');
  });

  it('when New card is used in the table, then the card is created at the end of the default column and its row appears', async () => {
    const page = ui.page;
    await page.click('button.new-card');
    await page.fill('[data-testid="table-quick-add"] input', 'Added from the table');
    await page.keyboard.press('Enter');
    await row(page, 'Added from the table').waitFor();
    const listed = (await ui.server.api('GET', '/api/tasks?q=Added%20from%20the%20table')).body?.data as {
      status: string;
    }[];
    assert.equal(listed.length, 1);
    assert.equal(listed[0].status, 'backlog');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="table-quick-add"]', { state: 'detached' });
  });

  it('when a card changes elsewhere, then its row shows the change at once, and Board shows the columns again', async () => {
    const page = ui.page;
    const id = ids.get('Fuzzy search ranks exact hits first') as string;
    assert.equal((await ui.server.api('PUT', `/api/tasks/${id}`, { assignee: 'Someone Else' })).status, 200);
    await eventually(
      async () =>
        (await row(page, 'Fuzzy search ranks exact hits first').locator('input[name="assignee"]').inputValue()) ===
        'Someone Else',
      'the live change in the row',
    );
    await page.click('[data-testid="layout-table"]');
    await page.waitForSelector('.board-scroll [data-drop-column]');
    assert.equal(await page.locator(TABLE).count(), 0);
    assert.equal(await page.getAttribute('[data-testid="layout-table"]', 'aria-pressed'), 'false');
  });
});
