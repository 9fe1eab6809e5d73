import { strict as assert } from 'node:assert';
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { useDemoUi } from './demoBoard';
import { cardFilePath, closeDrawer, DRAWER, fileEventually, openDrawer } from './drawerHelpers';
import { card, eventually } from './uiHelpers';

/**
 * The drawer shows what is on disk, or says that it changed: a hand edit of the open card's file
 * reaches the drawer, and text the person has not saved is never replaced without asking.
 */
describe('Board UI: the open card changes on disk (Chromium)', function () {
  this.timeout(60_000);
  const { ui, ids } = useDemoUi();

  function editByHand(title: string, edit: (text: string) => string): string {
    const file = cardFilePath(ui.server, ids.get(title) as string) as string;
    const before = readFileSync(file, 'utf8');
    writeFileSync(file, edit(before));
    return before;
  }

  it('when the file is edited by hand while the description has unsaved text, then the drawer says so, keeps the text, and loads the file on request', async () => {
    const page = ui.page;
    const title = 'Drag and drop between columns';
    await openDrawer(page, title);
    await page.click(`${DRAWER} [data-testid="edit-content"]`);
    const editor = page.locator(`${DRAWER} textarea[name="content"]`);
    await editor.fill(`# ${title}\n\nMy unsaved plan.\n`);
    editByHand(title, (text) => text.replace('Details in the description.', 'Rewritten in vim.'));

    const notice = page.locator(`${DRAWER} [data-testid="content-changed-notice"]`);
    await notice.waitFor();
    assert.match(await notice.innerText(), /file changed on disk/);
    assert.match(await editor.inputValue(), /My unsaved plan\./);
    assert.ok(!readFileSync(cardFilePath(ui.server, ids.get(title)!)!, 'utf8').includes('My unsaved plan.'));

    await notice.locator('button:has-text("Load new version")').click();
    assert.match(await editor.inputValue(), /Rewritten in vim\./);
    await notice.waitFor({ state: 'detached' });
    await page.click(`${DRAWER} button:has-text("Cancel")`);
    await page.locator(`${DRAWER} [data-testid="content-preview"]`, { hasText: 'Rewritten in vim.' }).waitFor();
    await closeDrawer(page);
  });

  it('when the file is put back on disk to an older version (an older modified date), then the drawer shows that version', async () => {
    const page = ui.page;
    const title = 'Release notes for 0.1';
    await openDrawer(page, title);
    editByHand(title, (text) =>
      text
        .replace(/^modified: .*$/m, "modified: '2020-01-01T00:00:00.000Z'")
        .replace('Details in the description.', 'The version from last week.'),
    );
    await page
      .locator(`${DRAWER} [data-testid="content-preview"]`, { hasText: 'The version from last week.' })
      .waitFor();
    await closeDrawer(page);
  });

  it('when a field is edited by hand while the person types in it, then leaving it saves nothing unasked, and Keep mine saves the typed value', async () => {
    const page = ui.page;
    const title = 'Fuzzy search ranks exact hits first';
    const id = ids.get(title) as string;
    await openDrawer(page, title);
    const assignee = page.locator(`${DRAWER} input[name="assignee"]`);
    await assignee.click();
    await assignee.fill('ada');
    editByHand(title, (text) =>
      text.replace(/^assignee: .*$/m, 'assignee: bob').replace('Details in the description.', 'Bob took it, by hand.'),
    );
    // The hand edit reached the drawer (the description shows it) while the field kept the typing.
    await page.locator(`${DRAWER} [data-testid="content-preview"]`, { hasText: 'Bob took it, by hand.' }).waitFor();
    assert.equal(await assignee.inputValue(), 'ada');

    await page.keyboard.press('Tab');
    const notice = page.locator(`${DRAWER} [data-testid="field-changed-notice"]`);
    await notice.waitFor();
    assert.match(await notice.innerText(), /Assignee changed elsewhere to “bob”/);
    assert.match(readFileSync(cardFilePath(ui.server, id)!, 'utf8'), /^assignee: bob$/m, 'the hand edit stays');

    await notice.locator('button:has-text("Keep mine")').click();
    await notice.waitFor({ state: 'detached' });
    await fileEventually(ui.server, id, (t) => /^assignee: ada$/m.test(t), 'my value in the file');
    await closeDrawer(page);
  });

  it("when the card's file is deleted by hand while the description has unsaved text, then the drawer keeps the text, says so, and Recreate card makes a card of it", async () => {
    const page = ui.page;
    const title = 'Webhook retries with backoff';
    await openDrawer(page, title);
    await page.click(`${DRAWER} [data-testid="edit-content"]`);
    const editor = page.locator(`${DRAWER} textarea[name="content"]`);
    await editor.fill('# Webhook retries, rethought\n\nMy plan outlives the file.\n');
    unlinkSync(cardFilePath(ui.server, ids.get(title) as string) as string);

    const notice = page.locator(`${DRAWER} [data-testid="content-deleted-notice"]`);
    await notice.waitFor();
    assert.match(await notice.innerText(), /file was deleted/);
    await card(page, title).waitFor({ state: 'detached' });
    assert.match(await editor.inputValue(), /My plan outlives the file\./);

    await notice.locator('button:has-text("Recreate card")').click();
    await page.locator(`${DRAWER} .sheet-title:has-text("Webhook retries, rethought")`).waitFor();
    await card(page, 'Webhook retries, rethought').waitFor();
    let recreated: { id: string; status: string } | undefined;
    await eventually(async () => {
      const list = await ui.server.api('GET', '/api/boards/default/tasks');
      recreated = (list.body?.data as { id: string; title: string; status: string }[]).find(
        (t) => t.title === 'Webhook retries, rethought',
      );
      return Boolean(recreated);
    }, 'the recreated card on the server');
    assert.equal(recreated?.status, 'todo', 'back in the column it was in');
    assert.match(readFileSync(cardFilePath(ui.server, recreated!.id)!, 'utf8'), /My plan outlives the file\./);
    await closeDrawer(page);
  });
});
