import { strict as assert } from 'node:assert';
import { useDemoUi } from './demoBoard';
import { card, column, eventually, nextFramesDrawn } from './uiHelpers';

describe('Board UI: Ctrl+Z takes back the last board change, as the Undo in the message does (Chromium)', function () {
  this.timeout(60_000);
  const { ui, ids } = useDemoUi();

  async function statusOnServer(title: string): Promise<string> {
    const answer = await ui.server.api('GET', `/api/boards/default/tasks/${ids.get(title)}`);
    return answer.body?.data.status;
  }

  /** Waits until keyboard focus is on the card itself (not on a button inside it, not on the page). */
  async function focusSettlesOnCard(title: string): Promise<void> {
    const id = ids.get(title);
    let last: string | null = null;
    const focusedId = () =>
      ui.page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.cardId ?? null);
    await eventually(async () => (last = await focusedId()) === id, `focus on "${title}" (was on ${last})`, 5000);
  }

  it('when a card is deleted with Delete and Ctrl+Z is pressed, then it is back in its column and the message with Undo is gone', async () => {
    const page = ui.page;
    await card(page, 'Release notes for 0.1').focus();
    await page.keyboard.press('Delete');
    await page.waitForSelector('.toast:has-text("moved to Deleted")');
    await eventually(async () => (await statusOnServer('Release notes for 0.1')) === 'deleted', 'the card deleted');
    await page.keyboard.press('Control+z');
    await column(page, 'done').locator('.card-title:text("Release notes for 0.1")').waitFor();
    await page.waitForSelector('.toast:has-text("moved to Deleted")', { state: 'detached' });
    await eventually(async () => (await statusOnServer('Release notes for 0.1')) === 'done', 'the card back in Done');
  });

  it('when a card is moved with Alt+Arrow and Ctrl+Z is pressed before the server has answered, then it goes back to its column once the move lands', async () => {
    const page = ui.page;
    // The move's request is held until Ctrl+Z has been pressed: the person was quicker than the server.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let requested = false;
    await page.route('**/move', async (route) => {
      requested = true;
      await held;
      await route.continue();
    });
    try {
      await card(page, 'Atomic writes for card files').focus();
      await page.keyboard.press('Alt+ArrowLeft');
      await eventually(async () => requested, 'the move sent');
      await page.keyboard.press('Control+z');
      release();
      await eventually(async () => (await statusOnServer('Atomic writes for card files')) === 'done', 'back in Done');
      await column(page, 'done').locator('.card-title:text("Atomic writes for card files")').waitFor();
    } finally {
      release();
      await page.unroute('**/move');
    }
  });

  it('when Ctrl+Z is pressed in the search box, then the board stays as it is, and on the board it takes back the move', async () => {
    const page = ui.page;
    await card(page, 'Dark theme contrast pass').focus();
    await page.keyboard.press('Alt+ArrowRight');
    await eventually(async () => (await statusOnServer('Dark theme contrast pass')) === 'done', 'moved to Done');
    await page.focus('#search-input');
    await page.keyboard.press('Control+z');
    // A move taken back is drawn at once, before the server answers: the next frames would show it.
    await nextFramesDrawn(page);
    assert.equal(await column(page, 'done').locator('.card-title:text("Dark theme contrast pass")').count(), 1);
    assert.equal(await statusOnServer('Dark theme contrast pass'), 'done');
    await card(page, 'Dark theme contrast pass').focus();
    await page.keyboard.press('Control+z');
    await eventually(async () => (await statusOnServer('Dark theme contrast pass')) === 'review', 'back in Review');
  });

  it('when a card is deleted with Delete and Ctrl+Z is pressed, then focus leaves the neighbour the delete gave it to for the card brought back', async () => {
    const page = ui.page;
    await card(page, 'Keyboard shortcuts cheat sheet').focus();
    await page.keyboard.press('Delete');
    await focusSettlesOnCard('Crash when a card file has tabs in YAML');
    await eventually(async () => (await statusOnServer('Keyboard shortcuts cheat sheet')) === 'deleted', 'deleted');
    await page.keyboard.press('Control+z');
    await column(page, 'todo').locator('.card-title:text("Keyboard shortcuts cheat sheet")').waitFor();
    await focusSettlesOnCard('Keyboard shortcuts cheat sheet');
  });

  it('when a card is moved with Alt+Arrow, focus is put on another card and Ctrl+Z is pressed, then focus is on the card moved back', async () => {
    const page = ui.page;
    await card(page, 'Webhook retries with backoff').focus();
    await page.keyboard.press('Alt+ArrowRight');
    await eventually(async () => (await statusOnServer('Webhook retries with backoff')) === 'in-progress', 'moved');
    await card(page, 'Drag and drop between columns').focus();
    await page.keyboard.press('Control+z');
    await eventually(async () => (await statusOnServer('Webhook retries with backoff')) === 'todo', 'back in To do');
    await column(page, 'todo').locator('.card-title:text("Webhook retries with backoff")').waitFor();
    await focusSettlesOnCard('Webhook retries with backoff');
  });

  it('when a card is archived from its drawer and Ctrl+Z is pressed, then the card is back on the board with focus', async () => {
    const page = ui.page;
    await card(page, 'Attachment previews for images').focus();
    await page.keyboard.press('Enter');
    await page.focus('[data-testid="card-drawer"] [data-testid="archive-card"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.toast:has-text("archived")');
    await focusSettlesOnCard('Drag and drop between columns');
    await page.keyboard.press('Control+z');
    await column(page, 'in-progress').locator('.card-title:text("Attachment previews for images")').waitFor();
    await focusSettlesOnCard('Attachment previews for images');
  });
});
