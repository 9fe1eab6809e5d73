import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { DEMO_CONFIG, seedDemoBoard } from './demoBoard';
import {
  cardFilePath,
  cardFileText,
  closeDrawer,
  createCard,
  DRAWER,
  drawerSettled,
  fileEventually,
  openDrawer,
  TINY_PNG,
} from './drawerHelpers';
import {
  card,
  column,
  eventually,
  focusedCardTitle,
  nextFramesDrawn,
  screenshot,
  startUi,
  stopUi,
  type UiContext,
} from './uiHelpers';

describe('Board UI: the card drawer (Chromium)', function () {
  this.timeout(60_000);
  let ui: UiContext;
  let ids: Map<string, string>;
  const dialogs: string[] = [];

  before(async () => {
    ui = await startUi({ config: DEMO_CONFIG });
    ids = await seedDemoBoard(ui.server);
    ids.set(
      'Hostile content',
      await createCard(ui.server, {
        content: [
          '# Hostile content',
          '',
          'Plain words stay.',
          '',
          '<script>window.__pwned = "script"</script>',
          '<img src=x onerror="window.__pwned = \'img\'; alert(1)">',
          '<a href="javascript:window.__pwned=\'link\'">click me</a>',
          '',
          '[the docs](https://example.com/docs)',
          '<iframe src="javascript:alert(2)"></iframe>',
          '',
        ].join('\n'),
        status: 'todo',
      }),
    );
    // A lived-in card for the screenshot: a comment, a log line and an image.
    const webhooks = ids.get('Webhook retries with backoff') as string;
    const body =
      'Retry failed deliveries with **exponential backoff**.\n\n- 5 attempts, then give up\n- pending deliveries survive a restart\n- show the last result per webhook\n';
    await ui.server.api('PUT', `/api/tasks/${webhooks}`, { content: `# Webhook retries with backoff\n\n${body}` });
    await ui.server.api('POST', `/api/tasks/${webhooks}/comments`, {
      author: 'Lena Fischer',
      content: 'Should we cap the backoff at **5 minutes**?',
    });
    await ui.server.api('POST', `/api/tasks/${webhooks}/logs`, {
      text: 'Delivery to `hooks.example` failed, retrying',
      source: 'webhooks',
    });
    await ui.server.api('POST', `/api/tasks/${webhooks}/attachments`, {
      files: [{ name: 'retry-curve.png', data: TINY_PNG.toString('base64'), contentType: 'image/png' }],
    });
    ui.page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await ui.page.reload();
    await ui.page.waitForSelector('[data-card-id]');
  });

  after(async () => {
    await stopUi(ui);
  });

  it('when a card is clicked, then the drawer shows its content, fields and labels', async () => {
    const page = ui.page;
    await openDrawer(page, 'Webhook retries with backoff');
    const drawer = page.locator(DRAWER);
    assert.equal(await drawer.locator('select[name="priority"]').inputValue(), 'high');
    assert.equal(await drawer.locator('input[name="assignee"]').inputValue(), 'Ada Okafor');
    assert.deepEqual(await drawer.locator('.label-picker .label-chip').allTextContents(), ['feature', 'backend']);
    assert.match((await drawer.locator('[data-testid="content-preview"]').textContent()) ?? '', /exponential backoff/);
    assert.equal(await drawer.locator('[data-meta-key="jira"] .metadata-value').inputValue(), 'KB-42');
    await drawer.locator('.comment-body strong', { hasText: '5 minutes' }).waitFor();
    await drawer.locator('.log-entry', { hasText: 'retrying' }).waitFor();
    await drawer.locator('[data-attachment="retry-curve.png"] img').waitFor();
    await drawerSettled(page);
    await screenshot(page, 'card-drawer');
    await closeDrawer(page);
  });

  it('when Enter is pressed on a focused card, then its drawer opens, and Escape closes it and gives focus back to the card', async () => {
    const page = ui.page;
    await card(page, 'Release notes for 0.1').press('Enter');
    await page.waitForSelector(`${DRAWER} .sheet-title:has-text("Release notes for 0.1")`);
    await closeDrawer(page);
    // A keyboard user goes on from the card they opened.
    assert.equal(await focusedCardTitle(page), 'Release notes for 0.1');
  });

  it('when another card is focused the moment a drawer closes, then focus stays on it and Enter opens that card', async () => {
    const page = ui.page;
    await openDrawer(page, 'Webhook retries with backoff');
    // Escape, and focus on another card in the same frame: quick hands, or a busy machine whose
    // frames come late. Nothing the closing drawer left for after the paint may take focus back.
    await page.evaluate(async () => {
      const closed = new Promise<void>((resolve) => {
        const watch = new MutationObserver(() => {
          if (document.querySelector('[data-testid="card-drawer"]')) return;
          watch.disconnect();
          resolve();
        });
        watch.observe(document.body, { childList: true, subtree: true });
      });
      document.activeElement?.dispatchEvent(
        new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }),
      );
      await closed;
      const cards = Array.from(document.querySelectorAll<HTMLElement>('[data-card-id]'));
      cards.find((el) => el.querySelector('.card-title')?.textContent === 'Release notes for 0.1')?.focus();
    });
    await nextFramesDrawn(page);
    assert.equal(await focusedCardTitle(page), 'Release notes for 0.1');
    await page.keyboard.press('Enter');
    await page.waitForSelector(`${DRAWER} .sheet-title:has-text("Release notes for 0.1")`);
    await closeDrawer(page);
  });

  it('when the content is edited, then the preview follows, the title comes from the heading and the file changes', async () => {
    const page = ui.page;
    const id = ids.get('Dark theme contrast pass') as string;
    await openDrawer(page, 'Dark theme contrast pass');
    await page.click(`${DRAWER} [data-testid="edit-content"]`);
    const editor = page.locator(`${DRAWER} textarea[name="content"]`);
    await editor.fill('# Dark theme contrast audit\n\nCheck **every** token.\n\n- buttons\n- chips\n');
    await page.waitForSelector(`${DRAWER} [data-testid="content-preview"] strong:has-text("every")`);
    // The preview shows what was typed once it has both list items (a busy machine may paint late).
    await page.locator(`${DRAWER} [data-testid="content-preview"] li`, { hasText: 'chips' }).waitFor();
    assert.deepEqual(await page.locator(`${DRAWER} [data-testid="content-preview"] li`).allInnerTexts(), [
      'buttons',
      'chips',
    ]);
    assert.equal(await page.locator(`${DRAWER} .sheet-title`).textContent(), 'Dark theme contrast audit');
    await page.click(`${DRAWER} [data-testid="save-content"]`);
    const text = await fileEventually(
      ui.server,
      id,
      (t) => t.includes('Check **every** token.'),
      'the new content is in the card file',
    );
    assert.match(text, /# Dark theme contrast audit/);
    await page.waitForSelector(`${DRAWER} textarea[name="content"]`, { state: 'detached' });
    await card(page, 'Dark theme contrast audit').waitFor();
    await closeDrawer(page);
  });

  it('when a card holds <script>, <img onerror>, javascript: links and frames, then nothing of it runs', async () => {
    const page = ui.page;
    await openDrawer(page, 'Hostile content');
    const preview = page.locator(`${DRAWER} [data-testid="content-preview"]`);
    await preview.getByText('Plain words stay.').waitFor();
    assert.equal(await preview.locator('script, iframe, [onerror]').count(), 0);
    const href = await preview
      .locator('a')
      .first()
      .getAttribute('href')
      .catch(() => null);
    assert.ok(!href || !href.startsWith('javascript:'), `link href ${href}`);
    await preview
      .locator('a', { hasText: 'click me' })
      .click()
      .catch(() => undefined);
    // Ordinary links open outside the board, without a handle back to it.
    const docs = preview.locator('a', { hasText: 'the docs' });
    assert.equal(await docs.getAttribute('target'), '_blank');
    assert.equal(await docs.getAttribute('rel'), 'noopener noreferrer');
    // Editing shows the live preview too: the same text through the same sanitizer.
    await page.click(`${DRAWER} [data-testid="edit-content"]`);
    await page.waitForTimeout(300);
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned), undefined);
    assert.deepEqual(dialogs, []);
    assert.deepEqual(ui.pageErrors, []);
    await page.click(`${DRAWER} button:has-text("Cancel")`);
    await closeDrawer(page);
  });

  it('when priority, labels and metadata change in the drawer, then the card file holds them', async () => {
    const page = ui.page;
    const id = ids.get('Evaluate SQLite for large workspaces') as string;
    await openDrawer(page, 'Evaluate SQLite for large workspaces');
    const drawer = page.locator(DRAWER);
    await drawer.locator('select[name="priority"]').selectOption('critical');
    await fileEventually(ui.server, id, (t) => /priority: critical/.test(t), 'priority critical in the file');

    await drawer.locator('[data-testid="label-picker-toggle"]').click();
    // The picker shows every defined label in its group, with its color.
    assert.deepEqual(await drawer.locator('.label-group .menu-label').allTextContents(), ['area', 'type', 'Other']);
    const bugSwatch = drawer.locator('.label-option', { hasText: 'bug' }).locator('.label-swatch');
    assert.equal(await bugSwatch.evaluate((el) => getComputedStyle(el).backgroundColor), 'rgb(239, 68, 68)');
    await drawer.locator('.label-option', { hasText: 'bug' }).locator('input').check();
    await fileEventually(ui.server, id, (t) => /- bug/.test(t), 'label bug in the file');
    await drawer.locator('.label-option', { hasText: 'backend' }).locator('input').uncheck();
    await fileEventually(ui.server, id, (t) => !/- backend/.test(t), 'label backend gone from the file');
    // A label the server refuses shows the server's reason, and the card keeps its labels.
    const tooLong = 'x'.repeat(70);
    await drawer.locator('input[name="newLabel"]').fill(tooLong);
    await drawer.locator('input[name="newLabel"]').press('Enter');
    assert.match(
      (await page.locator('.toast-error').textContent()) ?? '',
      /label name must be 1-64 printable characters/,
    );
    await eventually(
      async () => (await drawer.locator('.label-picker .label-chip').allTextContents()).join() === 'bug',
      'the refused label is gone again',
      10_000,
    );
    assert.ok(!cardFileText(ui.server, id).includes(tooLong));
    await page.keyboard.press('Escape'); // closes the picker only
    assert.equal(await page.locator(DRAWER).count(), 1);

    await drawer.locator('input[name="metaKey"]').fill('owner');
    await drawer.locator('input[name="metaValue"]').fill('platform team');
    await drawer.locator('button[aria-label="Add metadata entry"]').click();
    await drawer.locator('[data-meta-key="owner"]').waitFor();
    await fileEventually(ui.server, id, (t) => /owner: platform team/.test(t), 'new metadata entry in the file');
    const estimate = drawer.locator('[data-meta-key="estimate"] .metadata-value');
    await estimate.fill('8');
    await estimate.press('Enter');
    await fileEventually(ui.server, id, (t) => /estimate: 8\b/.test(t), 'edited metadata value in the file');
    await drawer.locator('button[aria-label="Remove owner"]').click();
    const text = await fileEventually(
      ui.server,
      id,
      (t) => !t.includes('owner:'),
      'removed metadata entry gone from the file',
    );
    assert.match(text, /estimate: 8\b/);
    // The board card shows the new label too.
    await card(page, 'Evaluate SQLite for large workspaces').locator('.label-chip', { hasText: 'bug' }).waitFor();
    await closeDrawer(page);
  });

  it('when a comment is added, edited and deleted, then the drawer and the card file follow', async () => {
    const page = ui.page;
    const id = ids.get('Keyboard shortcuts cheat sheet') as string;
    await openDrawer(page, 'Keyboard shortcuts cheat sheet');
    const drawer = page.locator(DRAWER);
    await drawer.locator('input[name="author"]').fill('Robin');
    await drawer.locator('textarea[name="comment"]').fill('Include **Alt+arrows**.');
    // A stray Escape leaves the text box and keeps the half-written comment; the drawer stays open.
    await page.keyboard.press('Escape');
    assert.equal(await page.locator(DRAWER).count(), 1);
    assert.equal(await drawer.locator('textarea[name="comment"]').inputValue(), 'Include **Alt+arrows**.');
    await drawer.locator('button:has-text("Comment")').click();
    await drawer.locator('.comment .comment-body strong', { hasText: 'Alt+arrows' }).waitFor();
    await fileEventually(
      ui.server,
      id,
      (t) => t.includes('Include **Alt+arrows**.') && t.includes('author: Robin'),
      'comment in the file',
    );

    await drawer.locator('.comment button[aria-label="Edit comment"]').click();
    await drawer.locator('.comment textarea').fill('Include Alt+arrows and Shift+arrows.');
    await drawer.locator('.comment button:has-text("Save")').click();
    await drawer.locator('.comment-body', { hasText: 'Shift+arrows' }).waitFor();
    await fileEventually(
      ui.server,
      id,
      (t) => t.includes('Include Alt+arrows and Shift+arrows.'),
      'edited comment in the file',
    );

    await drawer.locator('.comment .comment-tools button').nth(1).click();
    await drawer.locator('.comment button:has-text("Delete")').click();
    await drawer.locator('.comment').waitFor({ state: 'detached' });
    await fileEventually(ui.server, id, (t) => !t.includes('Shift+arrows'), 'comment gone from the file');
    await closeDrawer(page);
  });

  it('when the card changes elsewhere during an edit, then the edit is kept and a notice offers the new version', async () => {
    const page = ui.page;
    const id = ids.get('Attachment previews for images') as string;
    await openDrawer(page, 'Attachment previews for images');
    await page.click(`${DRAWER} [data-testid="edit-content"]`);
    const editor = page.locator(`${DRAWER} textarea[name="content"]`);
    await editor.fill('# Attachment previews for images\n\nMy unsaved thoughts.\n');
    const answer = await ui.server.api('PUT', `/api/tasks/${id}`, {
      content: '# Attachment previews for images\n\nSomeone else wrote this.\n',
      priority: 'high',
    });
    assert.equal(answer.status, 200);
    await page.waitForSelector(`${DRAWER} [data-testid="content-changed-notice"]`);
    assert.match(await editor.inputValue(), /My unsaved thoughts/);
    // Fields that are not being edited show the new data at once.
    await eventually(
      async () => (await page.locator(`${DRAWER} select[name="priority"]`).inputValue()) === 'high',
      'priority follows',
      10_000,
    );
    await page.click(`${DRAWER} button:has-text("Load new version")`);
    assert.match(await editor.inputValue(), /Someone else wrote this/);
    await page.click(`${DRAWER} button:has-text("Cancel")`);
    await closeDrawer(page);
  });

  it('when the open card file is edited by hand, then the drawer shows the new content and fields', async () => {
    const page = ui.page;
    const id = ids.get('Fuzzy search ranks exact hits first') as string;
    await openDrawer(page, 'Fuzzy search ranks exact hits first');
    const file = cardFilePath(ui.server, id) as string;
    const text = readFileSync(file, 'utf8');
    writeFileSync(
      file,
      text
        .replace('priority: medium', 'priority: low')
        .replace('Details in the description.', 'Edited *by hand* in the editor.'),
    );
    await page.waitForSelector(`${DRAWER} [data-testid="content-preview"] em:has-text("by hand")`);
    await eventually(
      async () => (await page.locator(`${DRAWER} select[name="priority"]`).inputValue()) === 'low',
      'priority follows the file',
      10_000,
    );
    await closeDrawer(page);
  });

  it('when a card is deleted from the drawer, then Undo in the toast puts it back in its column', async () => {
    const page = ui.page;
    const id = ids.get('Crash when a card file has tabs in YAML') as string;
    await openDrawer(page, 'Crash when a card file has tabs in YAML');
    await page.click(`${DRAWER} button:has-text("Delete"):not(:has-text("permanently"))`);
    await page.waitForSelector(DRAWER, { state: 'detached' });
    await page.waitForSelector('.toast:has-text("moved to Deleted")');
    assert.equal(await column(page, 'todo').locator(`[data-card-id="${id}"]`).count(), 0);
    await eventually(
      async () => (cardFilePath(ui.server, id) ?? '').includes('/deleted/'),
      'file in the deleted folder',
      10_000,
    );
    await page.click('.toast button:has-text("Undo")');
    await column(page, 'todo').locator(`[data-card-id="${id}"]`).waitFor();
    await eventually(async () => (cardFilePath(ui.server, id) ?? '').includes('/todo/'), 'file back in todo', 10_000);
  });

  it('when a card sits in the deleted column, then it can be restored from its drawer or its Restore button, and a permanent delete asks first', async () => {
    const page = ui.page;
    const id = ids.get('Write a migration guide for v2 config') as string;
    assert.equal((await ui.server.api('DELETE', `/api/tasks/${id}`)).status, 200);
    assert.equal((await ui.server.api('PUT', '/api/settings', { showDeletedColumn: true })).status, 200);
    await column(page, 'deleted').locator(`[data-card-id="${id}"]`).waitFor();
    await openDrawer(page, 'Write a migration guide for v2 config');
    await page.locator(`${DRAWER} select[name="restoreTo"]`).selectOption('review');
    await page.click(`${DRAWER} button:has-text("Restore")`);
    await column(page, 'review').locator(`[data-card-id="${id}"]`).waitFor();
    await eventually(
      async () => (cardFilePath(ui.server, id) ?? '').includes('/review/'),
      'file restored to review',
      10_000,
    );

    // The deleted column's own Restore button works too, without opening the card, and puts the
    // card back in the column it was deleted from (review), not the board's default (backlog).
    await closeDrawer(page);
    assert.equal((await ui.server.api('DELETE', `/api/tasks/${id}`)).status, 200);
    await eventually(
      async () => (cardFilePath(ui.server, id) ?? '').includes('/deleted/'),
      'file in the deleted folder',
      10_000,
    );
    const inDeleted = column(page, 'deleted').locator(`[data-card-id="${id}"]`);
    await inDeleted.waitFor();
    await inDeleted.locator('button.card-restore').click();
    await column(page, 'review').locator(`[data-card-id="${id}"]`).waitFor();
    await eventually(
      async () => (cardFilePath(ui.server, id) ?? '').includes('/review/'),
      'file restored to review again',
      10_000,
    );
    assert.equal(await card(page, 'Write a migration guide for v2 config').locator('button.card-restore').count(), 0);

    await openDrawer(page, 'Write a migration guide for v2 config');
    await page.click(`${DRAWER} button:has-text("Delete permanently…")`);
    // Nothing is gone until the second, explicit confirmation.
    assert.ok(cardFilePath(ui.server, id));
    await page.click(`${DRAWER} .confirm-inline button:has-text("Delete permanently")`);
    await page.waitForSelector(DRAWER, { state: 'detached' });
    await page.waitForSelector(`[data-card-id="${id}"]`, { state: 'detached' });
    await eventually(async () => cardFilePath(ui.server, id) === null, 'the card file is removed', 10_000);
    assert.equal(cardFileText(ui.server, id), '');
    assert.equal((await ui.server.api('GET', `/api/tasks/${id}`)).status, 404);
    await ui.server.api('PUT', '/api/settings', { showDeletedColumn: false });
    assert.deepEqual(ui.pageErrors, []);
  });
});
