import { strict as assert } from 'node:assert';
import { useDemoUi } from './demoBoard';
import { cardFileText, closeDrawer, DRAWER, fileEventually, openDrawer } from './drawerHelpers';
import { eventually } from './uiHelpers';

/**
 * Drawer saves carry If-Match (the version the edit started from): a card changed elsewhere while
 * the drawer was open is never overwritten silently, and the person's unsaved text is never lost.
 */
describe('Board UI: a drawer save meets a newer version of the card (Chromium)', function () {
  this.timeout(60_000);
  const { ui, ids } = useDemoUi();

  /** Open the card, type into its editor without saving, then change the card through the API. */
  async function editWhileSomeoneElseSaves(title: string, mine: string, theirs: string): Promise<string> {
    const page = ui.page;
    const id = ids.get(title) as string;
    await openDrawer(page, title);
    await page.click(`${DRAWER} [data-testid="edit-content"]`);
    await page.locator(`${DRAWER} textarea[name="content"]`).fill(`# ${title}\n\n${mine}\n`);
    const answer = await ui.server.api('PUT', `/api/tasks/${id}`, { content: `# ${title}\n\n${theirs}\n` });
    assert.equal(answer.status, 200);
    await fileEventually(ui.server, id, (t) => t.includes(theirs), 'the API change in the file');
    await page.click(`${DRAWER} [data-testid="save-content"]`);
    await page.waitForSelector(
      `${DRAWER} [data-testid="content-conflict"]:has-text("This card was changed elsewhere since you opened it")`,
    );
    return id;
  }

  it('when the card changes elsewhere while the drawer is open with unsaved text, then saving shows the newer version, keeps the unsaved text, and the user chooses', async () => {
    const page = ui.page;
    const title = 'Attachment previews for images';
    const id = await editWhileSomeoneElseSaves(title, 'My unsaved thoughts.', 'Someone else wrote this.');
    const drawer = page.locator(DRAWER);
    // The newer version is shown, the unsaved text is still in the editor, the file is untouched.
    await drawer.locator('[data-testid="conflict-newer"]', { hasText: 'Someone else wrote this.' }).waitFor();
    assert.match(await drawer.locator('textarea[name="content"]').inputValue(), /My unsaved thoughts\./);
    assert.ok(cardFileText(ui.server, id).includes('Someone else wrote this.'), 'the API change is still in the file');
    assert.ok(!cardFileText(ui.server, id).includes('My unsaved thoughts.'), 'nothing of mine was written');

    await drawer.locator('button:has-text("Overwrite with mine")').click();
    await drawer.locator('[data-testid="content-preview"]', { hasText: 'My unsaved thoughts.' }).waitFor();
    await drawer.locator('textarea[name="content"]').waitFor({ state: 'detached' });
    assert.equal(await drawer.locator('[data-testid="content-conflict"]').count(), 0);
    const text = await fileEventually(ui.server, id, (t) => t.includes('My unsaved thoughts.'), 'my text in the file');
    assert.ok(!text.includes('Someone else wrote this.'));
    await closeDrawer(page);
  });

  it('when the user chooses "Discard mine" after a conflict, then the newer version stays and the editor closes', async () => {
    const page = ui.page;
    const title = 'Dark theme contrast pass';
    const id = await editWhileSomeoneElseSaves(title, 'Draft nobody will see.', 'The newer contrast notes.');
    const drawer = page.locator(DRAWER);
    await drawer.locator('button:has-text("Discard mine")').click();
    await drawer.locator('textarea[name="content"]').waitFor({ state: 'detached' });
    await drawer.locator('[data-testid="content-preview"]', { hasText: 'The newer contrast notes.' }).waitFor();
    const text = cardFileText(ui.server, id);
    assert.ok(text.includes('The newer contrast notes.') && !text.includes('Draft nobody will see.'));
    // A save after choosing goes onto the newer version without a second conflict.
    await page.click(`${DRAWER} [data-testid="edit-content"]`);
    await drawer.locator('textarea[name="content"]').fill(`# ${title}\n\nThe newer contrast notes, checked.\n`);
    await page.click(`${DRAWER} [data-testid="save-content"]`);
    await drawer.locator('[data-testid="content-preview"]', { hasText: 'checked.' }).waitFor();
    assert.equal(await drawer.locator('[data-testid="content-conflict"]').count(), 0);
    await fileEventually(
      ui.server,
      id,
      (t) => t.includes('The newer contrast notes, checked.'),
      'the follow-up save in the file',
    );
    await closeDrawer(page);
  });

  it('when the page reloads with unsaved description and comment text, then both come back in the same card; saving the description forgets it', async () => {
    const page = ui.page;
    const title = 'Release notes for 0.1';
    const id = ids.get(title) as string;
    await openDrawer(page, title);
    const drawer = page.locator(DRAWER);
    await page.click(`${DRAWER} [data-testid="edit-content"]`);
    await drawer.locator('textarea[name="content"]').fill(`# ${title}\n\nTyped before the reload.\n`);
    await drawer.locator('textarea[name="comment"]').fill('A comment not sent yet');

    // The reload reopens the card (its id is in the page URL); the text comes back in it.
    await page.reload();
    await openDrawer(page, title);
    assert.match(await drawer.locator('textarea[name="content"]').inputValue(), /Typed before the reload\./);
    assert.equal(await drawer.locator('textarea[name="comment"]').inputValue(), 'A comment not sent yet');

    await page.click(`${DRAWER} [data-testid="save-content"]`);
    await fileEventually(
      ui.server,
      id,
      (t) => t.includes('Typed before the reload.'),
      'the kept text saved to the file',
    );
    await drawer.locator('textarea[name="comment"]').fill('');
    await page.reload();
    await openDrawer(page, title);
    await page.locator(`${DRAWER} [data-testid="content-preview"]`, { hasText: 'Typed before the reload.' }).waitFor();
    assert.equal(
      await drawer.locator('textarea[name="content"]').count(),
      0,
      'a saved text does not come back as a draft',
    );
    assert.equal(await drawer.locator('textarea[name="comment"]').inputValue(), '');
    await closeDrawer(page);
  });

  /**
   * Type a new description, press Save and close the drawer at `when`: as the button is pressed
   * (the answer still on its way), or as soon as the saved text is drawn, before the browser paints.
   */
  async function saveAndCloseAt(title: string, text: string, when: 'pressed' | 'drawn'): Promise<void> {
    const page = ui.page;
    await openDrawer(page, title);
    await page.click(`${DRAWER} [data-testid="edit-content"]`);
    await page.locator(`${DRAWER} textarea[name="content"]`).fill(`# ${title}\n\n${text}\n`);
    // No named functions inside: the test runner's compiler would wrap them in a helper the page lacks.
    await page.evaluate(
      ([drawerSelector, wanted, moment]) =>
        new Promise<void>((resolve) => {
          const closeButton = `${drawerSelector} button[aria-label="Close"]`;
          const observer = new MutationObserver(() => {
            const editing = document.querySelector(`${drawerSelector} textarea[name="content"]`);
            const preview = document.querySelector(`${drawerSelector} [data-testid="content-preview"]`);
            if (editing || !preview?.textContent?.includes(wanted)) return;
            observer.disconnect();
            (document.querySelector(closeButton) as HTMLElement).click();
            resolve();
          });
          if (moment === 'drawn')
            observer.observe(document.body, { childList: true, subtree: true, characterData: true });
          (document.querySelector(`${drawerSelector} [data-testid="save-content"]`) as HTMLElement).click();
          if (moment === 'pressed') {
            (document.querySelector(closeButton) as HTMLElement).click();
            resolve();
          }
        }),
      [DRAWER, text, when] as const,
    );
    await page.waitForSelector(DRAWER, { state: 'detached' });
  }

  /** The card's drawer shows `text` as its saved description, now and after a reload, with no editor open. */
  async function savedNotDraft(title: string, text: string): Promise<void> {
    const page = ui.page;
    await fileEventually(ui.server, ids.get(title) as string, (t) => t.includes(text), 'the saved text in the file');
    for (const moment of ['reopened', 'after a reload']) {
      if (moment === 'after a reload') await page.reload();
      await openDrawer(page, title);
      await page.locator(`${DRAWER} [data-testid="edit-content"]`).waitFor();
      assert.equal(
        await page.locator(`${DRAWER} textarea[name="content"]`).count(),
        0,
        `the saved text is not a draft when ${moment}`,
      );
      assert.match(await page.locator(`${DRAWER} [data-testid="content-preview"]`).innerText(), new RegExp(text));
      await closeDrawer(page);
    }
  }

  it('when the drawer is closed right after Save is pressed, then the text is saved and does not come back as a draft', async () => {
    await saveAndCloseAt('Evaluate SQLite for large workspaces', 'Saved while the drawer closed.', 'pressed');
    await savedNotDraft('Evaluate SQLite for large workspaces', 'Saved while the drawer closed.');
  });

  it('when the drawer is closed in the same moment its saved text is drawn, then that text does not come back as a draft', async () => {
    await saveAndCloseAt('Atomic writes for card files', 'Closed as it was drawn.', 'drawn');
    await savedNotDraft('Atomic writes for card files', 'Closed as it was drawn.');
  });

  it('when the drawer is closed right after Comment is pressed, then the comment is posted once and the box is empty on the next open', async () => {
    const page = ui.page;
    const title = 'Fuzzy search ranks exact hits first';
    const id = ids.get(title) as string;
    await openDrawer(page, title);
    await page.locator(`${DRAWER} input[name="author"]`).fill('Robin');
    await page.locator(`${DRAWER} textarea[name="comment"]`).fill('Posted as the drawer closed');
    await page.evaluate((drawerSelector) => {
      (document.querySelector(`${drawerSelector} form.comment-new button[type="submit"]`) as HTMLElement).click();
      (document.querySelector(`${drawerSelector} button[aria-label="Close"]`) as HTMLElement).click();
    }, DRAWER);
    await page.waitForSelector(DRAWER, { state: 'detached' });
    await eventually(
      async () => ((await ui.server.api('GET', `/api/tasks/${id}/comments`)).body?.data as unknown[]).length === 1,
      'the comment posted',
      15_000,
    );
    await openDrawer(page, title);
    await page.locator(`${DRAWER} .comment-list li`, { hasText: 'Posted as the drawer closed' }).waitFor();
    assert.equal(
      await page.locator(`${DRAWER} textarea[name="comment"]`).inputValue(),
      '',
      'the posted comment is not offered again',
    );
    await closeDrawer(page);
  });

  it('when the card changed elsewhere while the page was away, then the kept text is not saved over it unasked', async () => {
    const page = ui.page;
    const title = 'Dark theme contrast pass';
    const id = ids.get(title) as string;
    await openDrawer(page, title);
    const drawer = page.locator(DRAWER);
    await page.click(`${DRAWER} [data-testid="edit-content"]`);
    await drawer.locator('textarea[name="content"]').fill(`# ${title}\n\nKept across the reload.\n`);
    const answer = await ui.server.api('PUT', `/api/tasks/${id}`, {
      content: `# ${title}\n\nChanged while the page was away.\n`,
    });
    assert.equal(answer.status, 200);
    await page.reload();
    await openDrawer(page, title);
    await drawer.locator('textarea[name="content"]').waitFor();
    await page.click(`${DRAWER} [data-testid="save-content"]`);
    await drawer.locator('[data-testid="content-conflict"]').waitFor();
    assert.ok(
      cardFileText(ui.server, id).includes('Changed while the page was away.'),
      'the other change is still in the file',
    );
    await drawer.locator('button:has-text("Discard mine")').click();
    await drawer.locator('textarea[name="content"]').waitFor({ state: 'detached' });
    await closeDrawer(page);
  });

  it("when a field changes elsewhere between the drawer's read and a field change in it, then nothing is overwritten until the user chooses", async () => {
    const page = ui.page;
    const title = 'Release notes for 0.1';
    const id = ids.get(title) as string;
    await openDrawer(page, title);
    const drawer = page.locator(DRAWER);
    // The other change lands just before the drawer's save reaches the server.
    let raced = false;
    await page.route(`**/api/boards/*/tasks/${id}`, async (route) => {
      if (route.request().method() === 'PUT' && !raced) {
        raced = true;
        const answer = await ui.server.api('PUT', `/api/tasks/${id}`, { assignee: 'Someone Else', priority: 'medium' });
        assert.equal(answer.status, 200);
      }
      await route.continue();
    });
    await drawer.locator('select[name="priority"]').selectOption('critical');
    await drawer
      .locator('[data-testid="field-conflict"]:has-text("This card was changed elsewhere since you opened it")')
      .waitFor();
    await page.unroute(`**/api/boards/*/tasks/${id}`);
    // The newer version is shown and is what the file holds.
    assert.equal(await drawer.locator('input[name="assignee"]').inputValue(), 'Someone Else');
    assert.equal(await drawer.locator('select[name="priority"]').inputValue(), 'medium');
    assert.match(cardFileText(ui.server, id), /priority: medium/);

    await drawer.locator('[data-testid="field-conflict"] button:has-text("Overwrite with mine")').click();
    await drawer.locator('[data-testid="field-conflict"]').waitFor({ state: 'detached' });
    const text = await fileEventually(ui.server, id, (t) => /priority: critical/.test(t), 'my priority in the file');
    assert.match(text, /assignee: Someone Else/);
    await closeDrawer(page);
  });
});
