import { strict as assert } from 'node:assert';
import { createTask, okData } from '../helpers/envelope';
import { card, column, dragCard, eventually, screenshot, startUi, stopUi, type UiContext } from './uiHelpers';
import { DRAWER, cardFilePath, openDrawer } from './drawerHelpers';

describe('Board UI: WIP limits and the archive (Chromium)', function () {
  this.timeout(60_000);
  let ui: UiContext;

  beforeEach(async () => {
    ui = await startUi();
  });
  afterEach(async () => stopUi(ui));

  it('when a column has a WIP limit, then its header shows count/limit, and a drag over the limit shows a toast and the warning colour', async () => {
    const { page, server } = ui;
    okData(await server.api('PUT', '/api/columns/in-progress', { wipLimit: 1 }));
    await createTask(server, { content: '# Busy already\n', status: 'in-progress' });
    await createTask(server, { content: '# One more thing\n', status: 'todo' });
    const wip = page.locator('[data-testid="wip-in-progress"]');
    await eventually(async () => (await wip.textContent()) === '1/1', 'the header shows 1/1');
    assert.equal(await wip.evaluate((el) => el.classList.contains('is-over-limit')), false);
    await card(page, 'One more thing').waitFor();
    await dragCard(page, 'One more thing', { column: 'in-progress' });
    const toast = page.locator('.toast', { hasText: 'Column In Progress is over its WIP limit (2/1)' });
    await toast.waitFor();
    await eventually(async () => (await wip.textContent()) === '2/1', 'the header shows 2/1');
    assert.equal(await wip.evaluate((el) => el.classList.contains('is-over-limit')), true);
    assert.equal(await wip.evaluate((el) => getComputedStyle(el).backgroundColor), 'rgb(245, 158, 11)');
    await eventually(
      async () => okData<any[]>(await server.api('GET', '/api/tasks?status=in-progress')).length === 2,
      'the server has the move',
    );
    await screenshot(page, 'wip-over-limit');
  });

  it("when a card's status is changed in its drawer to a column over its limit, then the toast shows the server's Warning text", async () => {
    const { page, server } = ui;
    okData(await server.api('PUT', '/api/columns/review', { wipLimit: 1 }));
    await createTask(server, { content: '# Under review\n', status: 'review' });
    await createTask(server, { content: '# Ready for review\n', status: 'todo' });
    await card(page, 'Ready for review').waitFor();
    await openDrawer(page, 'Ready for review');
    await page.selectOption(`${DRAWER} select[name="status"]`, 'review');
    await page.locator('.toast', { hasText: 'Column Review is over its WIP limit (2/1).' }).waitFor();
    await eventually(
      async () => okData<any[]>(await server.api('GET', '/api/tasks?status=review')).length === 2,
      'the server has the change',
    );
  });

  it('when a column limit is set in the column menu, then the header shows it and the server keeps it', async () => {
    const { page, server } = ui;
    await createTask(server, { content: '# Reviewing\n', status: 'review' });
    await card(page, 'Reviewing').waitFor();
    await page.click('[data-testid="column-menu-review"]');
    await page.fill('input[aria-label="WIP limit"]', '3');
    await page.click('button:has-text("Set limit")');
    await eventually(
      async () => (await page.locator('[data-testid="wip-review"]').textContent()) === '1/3',
      'the header shows 1/3',
    );
    const review = okData<any[]>(await server.api('GET', '/api/columns')).find((c) => c.id === 'review');
    assert.equal(review.wipLimit, 3);
  });

  it("when the board panel sets the block policy and a column is full, then a drag into it is refused with the server's message and the card goes back", async () => {
    const { page, server } = ui;
    okData(await server.api('PUT', '/api/columns/review', { wipLimit: 1 }));
    await createTask(server, { content: '# In review\n', status: 'review' });
    await createTask(server, { content: '# Waiting\n', status: 'todo' });
    await card(page, 'Waiting').waitFor();
    await page.click('[data-testid="board-switcher"]');
    await page.click('.board-list-item:has-text("Edit this board")');
    await page.selectOption('[data-testid="board-panel"] select[name="wipPolicy"]', 'block');
    await page.fill('[data-testid="board-panel"] input[name="autoArchiveDays"]', '14');
    await page.click('[data-testid="board-panel"] button[type="submit"]');
    await eventually(
      async () => okData(await server.api('GET', '/api/boards/default')).wipPolicy === 'block',
      'the server saved wipPolicy block',
    );
    assert.equal(okData(await server.api('GET', '/api/boards/default')).autoArchiveDays, 14);
    await page.locator('[data-testid="board-panel"]').waitFor({ state: 'detached' });
    await dragCard(page, 'Waiting', { column: 'review' });
    await page.locator('.toast-error', { hasText: 'is at its WIP limit (1/1)' }).waitFor();
    await eventually(
      async () => (await column(page, 'todo').locator('[data-card-id]').count()) === 1,
      'the card is back in To Do',
    );
    assert.equal(okData<any[]>(await server.api('GET', '/api/tasks?status=review')).length, 1);
  });

  it('when cards are archived with "Archive all", then they leave the column, the archive panel finds them by search, and Restore brings one back', async () => {
    const { page, server } = ui;
    await createTask(server, { content: '# Ship release notes\n', status: 'done' });
    await createTask(server, { content: '# Close sprint\n', status: 'done' });
    await card(page, 'Close sprint').waitFor();
    await page.click('[data-testid="column-menu-done"]');
    await page.click('button:has-text("Archive all")');
    await page.click('.confirm-inline button:has-text("Archive all")');
    await eventually(
      async () => (await column(page, 'done').locator('[data-card-id]').count()) === 0,
      'the done column is empty',
    );
    assert.equal(okData<any[]>(await server.api('GET', '/api/tasks?archived=only')).length, 2);

    await page.click('[data-testid="open-archive"]');
    const panel = page.locator('[data-testid="archive-panel"]');
    await panel.locator('.archive-item', { hasText: 'Ship release notes' }).waitFor();
    assert.equal(await panel.locator('.archive-item').count(), 2);
    await panel.locator('input[aria-label="Search the archive"]').fill('release');
    await eventually(async () => (await panel.locator('.archive-item').count()) === 1, 'the search leaves one card');
    assert.match((await panel.locator('.archive-item').textContent()) ?? '', /Ship release notes.*Done/);
    await screenshot(page, 'archive-panel');
    await panel.locator('button[aria-label="Restore Ship release notes"]').click();
    await panel.locator('[data-testid="archive-empty"]').waitFor();
    await page.keyboard.press('Escape');
    await card(page, 'Ship release notes').waitFor();
    assert.equal(await column(page, 'done').locator('[data-card-id]').count(), 1);
    assert.equal(okData<any[]>(await server.api('GET', '/api/tasks?archived=only')).length, 1);
  });

  it('when a card is archived elsewhere, then it leaves the board here and an open archive panel lists it', async () => {
    const { page, server } = ui;
    const task = await createTask(server, { content: '# Archived by a script\n', status: 'todo' });
    await card(page, 'Archived by a script').waitFor();
    await page.click('[data-testid="open-archive"]');
    const panel = page.locator('[data-testid="archive-panel"]');
    await panel.locator('[data-testid="archive-empty"]').waitFor();
    okData(await server.api('POST', `/api/tasks/${task.id}/archive`));
    await panel.locator('.archive-item', { hasText: 'Archived by a script' }).waitFor();
    await eventually(async () => (await card(page, 'Archived by a script').count()) === 0, 'the card left the board');
  });

  it('when a card is archived from its drawer, then it leaves the board, its file moves under archived/, and Undo brings it back', async () => {
    const { page, server } = ui;
    const task = await createTask(server, { content: '# Archive me\n', status: 'review' });
    await card(page, 'Archive me').waitFor();
    await openDrawer(page, 'Archive me');
    await page.click(`${DRAWER} button:has-text("Archive")`);
    await page.waitForSelector(DRAWER, { state: 'detached' });
    await page.waitForSelector('.toast:has-text("archived")');
    assert.equal(await card(page, 'Archive me').count(), 0);
    await eventually(
      async () => (cardFilePath(server, task.id) ?? '').includes('/archived/'),
      'the file under archived/',
      10_000,
    );
    await page.click('.toast button:has-text("Undo")');
    await column(page, 'review').locator(`[data-card-id="${task.id}"]`).waitFor();
    await eventually(
      async () => (cardFilePath(server, task.id) ?? '').includes('/review/'),
      'the file back in review/',
      10_000,
    );
  });
});
