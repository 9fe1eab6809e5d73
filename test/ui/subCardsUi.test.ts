import { strict as assert } from 'node:assert';
import { createCard, DRAWER, openDrawer } from './drawerHelpers';
import { card, dragCard, eventually, committedScreenshot, startUi, stopUi, type UiContext } from './uiHelpers';

interface Listed {
  id: string;
  title: string;
  status: string;
  parent: string | null;
}

describe('Board UI: sub-cards on the board, in the drawer and in the table (Chromium)', function () {
  this.timeout(90_000);
  let ui: UiContext;
  let parentId: string;
  const parent = 'Launch the site';
  const open = 'Write the launch post';
  const done = 'Proofread the pricing page';
  const doing = 'Deploy the docs';

  before(async () => {
    ui = await startUi();
    parentId = await createCard(ui.server, { content: `# ${parent}\n`, status: 'todo' });
    await createCard(ui.server, { content: `# ${open}\n`, status: 'todo', parent: parentId, assignee: 'Ana Ruiz' });
    await createCard(ui.server, { content: `# ${done}\n`, status: 'done', parent: parentId });
    await createCard(ui.server, { content: `# ${doing}\n`, status: 'in-progress', parent: parentId });
    await createCard(ui.server, { content: '# Tell the press\n', status: 'backlog', relatesTo: [parentId] });
    await createCard(ui.server, { content: '# Site launch (old card)\n', status: 'backlog', duplicateOf: [parentId] });
    await ui.page.reload();
    await ui.page.waitForSelector('[data-card-id]');
  });

  after(async () => {
    await stopUi(ui);
  });

  const badge = (title: string) => card(ui.page, title).locator('[data-testid="subcards-chip"]');

  it('when a card has sub-cards, then the board card shows done/total with a spoken label, and a card without any shows none', async () => {
    assert.equal((await badge(parent).textContent())?.trim(), '1/3');
    assert.equal(await badge(parent).getAttribute('aria-label'), '1 of 3 sub-cards done');
    assert.equal(await badge(open).count(), 0);
  });

  it('when the parent is opened, then the drawer lists its sub-cards with column and assignee, and its related cards and duplicates as links', async () => {
    const page = ui.page;
    await openDrawer(page, parent);
    const rows = page.locator(`${DRAWER} [data-testid="subcard-row"]`);
    await eventually(async () => (await rows.count()) === 3, 'three sub-cards listed');
    const texts = await rows.allInnerTexts();
    assert.ok(
      texts.some((t) => t.includes(open) && t.includes('To Do')),
      texts.join(' | '),
    );
    assert.ok(
      texts.some((t) => t.includes(done) && t.includes('Done')),
      texts.join(' | '),
    );
    assert.ok(
      texts.some((t) => t.includes(doing) && t.includes('In Progress')),
      texts.join(' | '),
    );
    assert.ok(
      texts.some((t) => t.includes('Ana Ruiz')),
      'the assignee is named',
    );
    const linksIn = (list: string) =>
      page.locator(`${DRAWER} [data-testid="${list}"] [data-testid="relation-link"]`).allTextContents();
    assert.deepEqual(await linksIn('related-list'), ['Tell the press']);
    assert.deepEqual(await linksIn('duplicates-list'), ['Site launch (old card)']);
  });

  it('when the screenshot for the docs is taken with the drawer open, then it is small enough to keep in the repository', async () => {
    await ui.page.mouse.move(0, 719);
    await committedScreenshot(ui.page, 'sub-cards', 'docs/images/sub-cards.png');
  });

  it('when a sub-card in the list is clicked, then its drawer opens and names the parent as a link back', async () => {
    const page = ui.page;
    await page.locator(`${DRAWER} [data-testid="subcard-row"] button`, { hasText: open }).click();
    await page.waitForSelector(`${DRAWER} .sheet-title:has-text("${open}")`);
    const link = page.locator(`${DRAWER} [data-testid="parent-link"] [data-testid="relation-link"]`);
    assert.equal((await link.textContent())?.trim(), parent);
    await link.click();
    await page.waitForSelector(`${DRAWER} .sheet-title:has-text("${parent}")`);
  });

  it('when a sub-card is added in the drawer, then the server has a card with that parent in the parent column, and the badge counts it', async () => {
    const page = ui.page;
    await openDrawer(page, parent);
    await page.locator(`${DRAWER} input[name="subcard-add"]`).fill('Record the demo video');
    await page.locator(`${DRAWER} [data-testid="add-subcard"]`).click();
    await page.waitForSelector(`${DRAWER} [data-testid="subcard-row"]:has-text("Record the demo video")`);
    const answer = await ui.server.api('GET', `/api/tasks?parent=${parentId}&fields=id,title,status,parent`);
    const added = (answer.body?.data as Listed[]).find((t) => t.title === 'Record the demo video');
    assert.ok(added, 'the new sub-card is listed under its parent by the server');
    assert.equal(added.parent, parentId);
    assert.equal(added.status, 'todo');
    await eventually(async () => (await badge(parent).textContent())?.trim() === '1/4', 'the badge shows 1/4', 10_000);
    await page.keyboard.press('Escape');
    await page.waitForSelector(DRAWER, { state: 'detached' });
  });

  it('when the table groups by parent, then each sub-card row follows its parent row, indented', async () => {
    const page = ui.page;
    await page.click('[data-testid="layout-table"]');
    await page.locator('[data-testid="table-group-parent"]').check();
    const titles = await page.locator('.table-body .table-row .table-title').evaluateAll((cells) =>
      cells
        .map((cell) => ({
          title: cell.textContent ?? '',
          depth: Number((cell as HTMLElement).dataset.depth),
          top: cell.closest<HTMLElement>('.table-row')!.getBoundingClientRect().top,
        }))
        .sort((a, b) => a.top - b.top),
    );
    const at = titles.findIndex((t) => t.title === parent);
    const under = titles.slice(at + 1, at + 5);
    assert.deepEqual(
      under.map((t) => t.depth),
      [1, 1, 1, 1],
      titles.map((t) => `${t.depth} ${t.title}`).join(' | '),
    );
    assert.deepEqual(new Set(under.map((t) => t.title)), new Set([open, done, doing, 'Record the demo video']));
    await page.locator('[data-testid="table-group-parent"]').uncheck();
    await page.click('[data-testid="layout-table"]');
    await page.waitForSelector('.board-scroll [data-drop-column]');
  });

  it('when the parent is moved to the last column with sub-cards open, then the move stands and the page says which are open', async () => {
    const page = ui.page;
    await dragCard(page, parent, { column: 'done' });
    const toast = page.locator('.toast', { hasText: 'sub-cards are still open' });
    await toast.waitFor({ timeout: 10_000 });
    assert.match((await toast.textContent()) ?? '', /3 of its sub-cards are still open/);
    const answer = await ui.server.api('GET', `/api/tasks/${parentId}`);
    assert.equal(answer.body?.data.status, 'done');
  });
});
