import { strict as assert } from 'node:assert';
import { useDemoUi } from './demoBoard';
import { card, eventually, newBoardPage } from './uiHelpers';

const DRAWER = '[data-testid="card-drawer"]';

/** Saved views (switcher, save, apply) and the page URL as a link to what is shown (Chromium). */
describe('Board UI: saved views and deep links (Chromium)', function () {
  this.timeout(90_000);
  const { ui, ids } = useDemoUi();

  const search = () => new URL(ui.page.url()).searchParams;
  const priority = () => ui.page.getByTestId('filter-priority');

  it('when a filter is set and saved as a view, then .kanban.json holds it and picking it later puts the filter back', async () => {
    await priority().selectOption('high');
    await eventually(async () => search().get('priority') === 'high', 'the URL to carry the filter');
    await ui.page.getByTestId('view-switcher').click();
    await ui.page.getByTestId('view-name').fill('High only');
    await ui.page.getByTestId('save-view').click();
    await ui.page.getByText('Saved the view "High only".').waitFor();
    const views = (await ui.server.api('GET', '/api/views')).body?.data;
    assert.deepEqual(
      views.map((v: any) => [v.id, v.board, v.filter]),
      [['high-only', 'default', { priority: 'high' }]],
    );
    await ui.page.getByTestId('view-switcher').filter({ hasText: 'High only' }).waitFor();

    await priority().selectOption('');
    // A filter changed by hand is no longer the view.
    await eventually(
      async () => !(await ui.page.getByTestId('view-switcher').textContent())?.includes('High only'),
      'the switcher to leave the view',
    );
    await ui.page.getByTestId('view-switcher').click();
    await ui.page.getByRole('menuitemradio', { name: /High only/ }).click();
    assert.equal(await priority().inputValue(), 'high');
    await eventually(async () => search().get('view') === 'high-only', 'the URL to name the view');
  });

  it('when a URL with a board, a card and filters is loaded, then the page shows that card with those filters', async () => {
    const id = ids.get('Webhook retries with backoff')!;
    const page = await newBoardPage(ui.browser, `${ui.server.url}/?board=default&card=${id}&priority=high&q=retries`);
    try {
      await page.locator(DRAWER).getByText('Webhook retries with backoff').first().waitFor();
      assert.equal(await page.getByTestId('filter-priority').inputValue(), 'high');
      assert.equal(await page.locator('#search-input').inputValue(), 'retries');
    } finally {
      await page.close();
    }
  });

  it('when a URL names a saved view alone, then the view is applied', async () => {
    const page = await newBoardPage(ui.browser, `${ui.server.url}/?board=default&view=high-only`);
    try {
      await page.getByTestId('view-switcher').filter({ hasText: 'High only' }).waitFor();
      await eventually(
        async () => (await page.getByTestId('filter-priority').inputValue()) === 'high',
        "the view's filter",
      );
    } finally {
      await page.close();
    }
  });

  it('when a card is opened and closed, then Back opens it again and Back once more closes it', async () => {
    const page = await newBoardPage(ui.browser, ui.server.url);
    try {
      const id = ids.get('Dark theme contrast pass')!;
      await card(page, 'Dark theme contrast pass').click();
      await page.locator(DRAWER).waitFor();
      await eventually(async () => new URL(page.url()).searchParams.get('card') === id, 'the URL to name the card');
      await page.keyboard.press('Escape');
      await page.locator(DRAWER).waitFor({ state: 'detached' });
      await eventually(async () => new URL(page.url()).searchParams.get('card') === null, 'the URL to drop the card');
      await page.goBack();
      await page.locator(DRAWER).waitFor();
      assert.equal(new URL(page.url()).searchParams.get('card'), id);
      await page.goBack();
      await page.locator(DRAWER).waitFor({ state: 'detached' });
    } finally {
      await page.close();
    }
  });
});
