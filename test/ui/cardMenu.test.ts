import { strict as assert } from 'node:assert';
import { startDemoUi } from './demoBoard';
import { card, column, eventually, stopUi, type UiContext } from './uiHelpers';

/** The card context menu in a browser: everything but "Open file", which needs an editor. */
describe('Board UI: the card context menu (Chromium)', function () {
  this.timeout(60_000);
  let ui: UiContext;
  let ids: Map<string, string>;

  const menu = () => ui.page.getByTestId('card-menu');

  async function statusOnServer(title: string): Promise<string> {
    const answer = await ui.server.api('GET', `/api/boards/default/tasks/${ids.get(title)}`);
    return answer.body?.data.status;
  }

  before(async () => {
    ({ ui, ids } = await startDemoUi());
    await ui.page
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(ui.server.url).origin });
  });

  after(async () => {
    await stopUi(ui);
  });

  it('when a card is right-clicked in a browser, then its menu offers copy, move and delete but no "Open file"', async () => {
    await card(ui.page, 'Webhook retries with backoff').click({ button: 'right' });
    await menu().waitFor();
    const items = await menu().locator('[role="menuitem"]').allTextContents();
    assert.deepEqual(
      items.map((t) => t.trim()),
      ['Copy link', 'Copy Markdown link', 'Copy id', 'Move to', 'Delete'],
    );
    await ui.page.keyboard.press('Escape');
    await menu().waitFor({ state: 'detached' });
  });

  it('when "Copy id" is chosen, then the clipboard holds the card id and a toast says so', async () => {
    await card(ui.page, 'Webhook retries with backoff').click({ button: 'right' });
    await menu().getByRole('menuitem', { name: 'Copy id' }).click();
    await ui.page.getByText('Copied the card id.').waitFor();
    assert.equal(await ui.page.evaluate(() => navigator.clipboard.readText()), ids.get('Webhook retries with backoff'));
  });

  it('when "Copy link" is chosen, then the clipboard holds the page URL that opens the card', async () => {
    const id = ids.get('Dark theme contrast pass');
    await card(ui.page, 'Dark theme contrast pass').click({ button: 'right' });
    await menu().getByRole('menuitem', { name: 'Copy link', exact: true }).click();
    await ui.page.getByText('Copied the link to the card.').waitFor();
    assert.equal(
      await ui.page.evaluate(() => navigator.clipboard.readText()),
      `${new URL(ui.page.url()).origin}/?board=default&card=${id}`,
    );
  });

  it('when "Copy Markdown link" is chosen, then the clipboard holds a Markdown link to the card file', async () => {
    const id = ids.get('Dark theme contrast pass');
    await card(ui.page, 'Dark theme contrast pass').click({ button: 'right' });
    await menu().getByRole('menuitem', { name: 'Copy Markdown link' }).click();
    await ui.page.getByText('Copied the Markdown link to the card file.').waitFor();
    assert.equal(
      await ui.page.evaluate(() => navigator.clipboard.readText()),
      `[Dark theme contrast pass](.kanban/boards/default/review/${id}.md)`,
    );
  });

  it('when a focused card gets Shift+F10 and the keyboard picks Move to > Done, then the card moves there', async () => {
    const title = 'Attachment previews for images';
    await card(ui.page, title).focus();
    await ui.page.keyboard.press('Shift+F10');
    await menu().waitFor();
    // Copy link, Copy Markdown link, Copy id, Move to: the fourth item, then into its columns.
    await ui.page.keyboard.press('ArrowDown');
    await ui.page.keyboard.press('ArrowDown');
    await ui.page.keyboard.press('ArrowDown');
    await ui.page.keyboard.press('ArrowRight');
    const done = menu().locator('[data-move-to="done"]');
    await done.waitFor();
    // The columns list leaves out the one the card is in.
    assert.equal(await menu().locator('[data-move-to="in-progress"]').count(), 0);
    await done.focus();
    await ui.page.keyboard.press('Enter');
    await column(ui.page, 'done').locator('.card-title', { hasText: title }).waitFor();
    await eventually(async () => (await statusOnServer(title)) === 'done', 'the server has the card in done');
    // Focus goes back to the card, so the keyboard user carries on from there.
    await eventually(
      async () =>
        (await ui.page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.cardId ?? null)) ===
        ids.get(title),
      'the moved card has focus',
    );
  });

  it('when the card\'s "..." button is clicked and Delete chosen, then the card leaves the board', async () => {
    const title = 'Keyboard shortcuts cheat sheet';
    await card(ui.page, title).hover();
    await card(ui.page, title).getByRole('button', { name: 'Card actions' }).click();
    await menu().getByRole('menuitem', { name: 'Delete' }).click();
    await card(ui.page, title).waitFor({ state: 'detached' });
    await eventually(async () => (await statusOnServer(title)) === 'deleted', 'the server has the card deleted');
  });

  it('when the drawer opens in a browser, then the file name is plain text, not a link to an editor', async () => {
    await card(ui.page, 'Dark theme contrast pass').click();
    await ui.page.getByTestId('card-drawer').waitFor();
    assert.equal(await ui.page.getByTestId('drawer-open-file').count(), 0);
    assert.match((await ui.page.locator('.drawer-file').textContent()) ?? '', /\.md$/);
  });
});
