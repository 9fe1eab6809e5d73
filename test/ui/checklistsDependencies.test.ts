import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import { cardFilePath, createCard, DRAWER, fileEventually, openDrawer } from './drawerHelpers';
import { card, eventually, startUi, stopUi, type UiContext } from './uiHelpers';

describe('Board UI: checklist progress, ticking in the drawer and the blocked badge (Chromium)', function () {
  this.timeout(60_000);
  let ui: UiContext;
  let listId: string;
  let blockerId: string;
  const listed = 'Prepare the launch';
  const blocker = 'Sign the contract';
  const waiting = 'Announce the launch';

  before(async () => {
    ui = await startUi();
    listId = await createCard(ui.server, {
      content: `# ${listed}\n\nThe plan for launch day.\n\n- [x] draft\n- [ ] review\n- [ ] publish\n`,
      status: 'todo',
    });
    blockerId = await createCard(ui.server, { content: `# ${blocker}\n`, status: 'in-progress' });
    await createCard(ui.server, { content: `# ${waiting}\n`, status: 'todo', blockedBy: [blockerId] });
    await ui.page.reload();
    await ui.page.waitForSelector('[data-card-id]');
  });

  after(async () => {
    await stopUi(ui);
  });

  const chipText = (title: string) => card(ui.page, title).locator('[data-testid="checklist-chip"]').textContent();

  it('when a card has task list items, then the board card shows done/total, and a card without any shows no chip', async () => {
    assert.equal((await chipText(listed))?.trim(), '1/3');
    assert.equal(await card(ui.page, blocker).locator('[data-testid="checklist-chip"]').count(), 0);
  });

  it('when an item is ticked in the drawer, then the file has the box ticked and the board chip follows', async () => {
    const page = ui.page;
    await openDrawer(page, listed);
    const review = page.locator(`${DRAWER} [data-testid="checklist-item"]`, { hasText: 'review' });
    await review.locator('input[type="checkbox"]').check();
    await fileEventually(ui.server, listId, (text) => text.includes('- [x] review'), 'the ticked item in the file');
    await eventually(async () => (await chipText(listed))?.trim() === '2/3', 'the board chip shows 2/3');
    assert.ok(await review.locator('input[type="checkbox"]').isChecked());
  });

  it('when the drawer shows a card with a checklist, then the items are listed once, in the checklist, and the description keeps its text', async () => {
    const page = ui.page;
    await openDrawer(page, listed);
    const preview = page.locator(`${DRAWER} [data-testid="content-preview"]`);
    assert.match((await preview.textContent()) ?? '', /The plan for launch day/);
    assert.equal(await preview.locator('li').count(), 0);
    assert.equal(await preview.locator('input[type="checkbox"]').count(), 0);
    assert.deepEqual(await page.locator(`${DRAWER} [data-testid="checklist-item"]`).allInnerTexts(), [
      'draft',
      'review',
      'publish',
    ]);
  });

  it('when an item is added in the drawer, then it is the last line of the list in the file', async () => {
    const page = ui.page;
    await page.locator(`${DRAWER} input[name="checklist-add"]`).fill('celebrate');
    await page.locator(`${DRAWER} input[name="checklist-add"]`).press('Enter');
    await fileEventually(
      ui.server,
      listId,
      (text) => text.includes('- [ ] publish\n- [ ] celebrate\n'),
      'the added item in the file',
    );
    await eventually(async () => (await chipText(listed))?.trim() === '2/4', 'the board chip shows 2/4');
  });

  it('when the file is edited by hand, then the open drawer and the chip show the new state', async () => {
    const file = cardFilePath(ui.server, listId)!;
    const text = await fs.readFile(file, 'utf8');
    await fs.writeFile(file, text.replace('- [ ] publish', '- [x] publish'));
    await eventually(async () => (await chipText(listed))?.trim() === '3/4', 'the board chip shows 3/4', 10_000);
    const publish = ui.page.locator(`${DRAWER} [data-testid="checklist-item"]`, { hasText: 'publish' });
    await eventually(
      async () => publish.locator('input[type="checkbox"]').isChecked(),
      'the drawer shows publish ticked',
      10_000,
    );
    await ui.page.keyboard.press('Escape');
    await ui.page.waitForSelector(DRAWER, { state: 'detached' });
  });

  it('when a card waits for an open card, then it shows "blocked by 1", the drawer links the blocker, and the badge goes when the blocker is done', async () => {
    const page = ui.page;
    const badge = card(page, waiting).locator('[data-testid="blocked-badge"]');
    assert.equal((await badge.textContent())?.trim(), 'blocked by 1');
    assert.equal(await card(page, blocker).locator('[data-testid="blocked-badge"]').count(), 0);
    await openDrawer(page, waiting);
    await page.locator(`${DRAWER} [data-testid="dependency-link"]`, { hasText: blocker }).click();
    await page.waitForSelector(`${DRAWER} .sheet-title:has-text(${JSON.stringify(blocker)})`);
    await page.keyboard.press('Escape');
    await page.waitForSelector(DRAWER, { state: 'detached' });
    const moved = await ui.server.api('PATCH', `/api/tasks/${blockerId}/move`, { status: 'done' });
    assert.equal(moved.status, 200);
    await eventually(async () => (await badge.count()) === 0, 'the blocked badge is gone', 10_000);
  });
});
