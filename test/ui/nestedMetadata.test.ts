import { strict as assert } from 'node:assert';
import { createCard, DRAWER, drawerSettled, fileEventually, openDrawer } from './drawerHelpers';
import { screenshot, startUi, stopUi, type UiContext } from './uiHelpers';
import { waitUntil } from '../helpers/waiting';

describe('Board UI: nested metadata as key paths in the drawer (Chromium)', function () {
  this.timeout(60_000);
  let ui: UiContext;
  let id: string;
  const title = 'Linked to Jira';

  before(async () => {
    ui = await startUi();
    id = await createCard(ui.server, {
      content: `# ${title}\n`,
      status: 'todo',
      metadata: { links: { jira: 'ABC-1', pr: 12 }, owner: 'platform' },
    });
    await ui.page.reload();
    await openDrawer(ui.page, title);
  });

  after(async () => {
    await stopUi(ui);
  });

  function value(path: string) {
    return ui.page.locator(`${DRAWER} [data-meta-key="${path}"] .metadata-value`);
  }

  it('when a card has nested metadata, then the drawer shows one row per key path, not raw JSON', async () => {
    const keys = await ui.page
      .locator(`${DRAWER} [data-meta-key]`)
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-meta-key')));
    assert.deepEqual(keys, ['links.jira', 'links.pr', 'owner']);
    assert.equal(await value('links.jira').inputValue(), 'ABC-1');
    assert.equal(await value('links.pr').inputValue(), '12');
    await drawerSettled(ui.page);
    await screenshot(ui.page, 'nested-metadata');
  });

  it('when a key path value is edited, then the nested value in the file changes and its siblings stay', async () => {
    await value('links.jira').fill('ABC-2');
    await value('links.jira').press('Enter');
    const text = await fileEventually(
      ui.server,
      id,
      (t) => /jira: ABC-2/.test(t),
      'links.jira edited in the frontmatter',
    );
    // Nested in the frontmatter, beside its sibling, not a JSON string.
    assert.match(text, /\nmetadata:\n {2}links:\n {4}jira: ABC-2\n {4}pr: 12\n {2}owner: platform\n/);
    const saved = await ui.server.api('GET', `/api/tasks/${id}`);
    assert.deepEqual(saved.body?.data.metadata.links, { jira: 'ABC-2', pr: 12 });
  });

  it('when a new key path is added with a number or a word, then it nests in the file with that type', async () => {
    const page = ui.page;
    for (const [key, text] of [
      ['links.sprint', '7'],
      ['review.done', 'true'],
      ['review.by', 'Maya Chen'],
    ]) {
      await page.fill(`${DRAWER} input[name="metaKey"]`, key);
      await page.fill(`${DRAWER} input[name="metaValue"]`, text);
      await page.click(`${DRAWER} button[aria-label="Add metadata entry"]`);
      await page.waitForSelector(`${DRAWER} [data-meta-key="${key}"]`);
    }
    await fileEventually(ui.server, id, (t) => /by: Maya Chen/.test(t), 'the new nested keys in the file');
    const saved = await ui.server.api('GET', `/api/tasks/${id}`);
    assert.deepEqual(saved.body?.data.metadata, {
      links: { jira: 'ABC-2', pr: 12, sprint: 7 },
      owner: 'platform',
      review: { done: true, by: 'Maya Chen' },
    });
  });

  it('when a path is taken or sits under a plain value, then the drawer says why and saves nothing', async () => {
    const page = ui.page;
    await page.fill(`${DRAWER} input[name="metaKey"]`, 'owner.team');
    await page.fill(`${DRAWER} input[name="metaValue"]`, 'x');
    await page.click(`${DRAWER} button[aria-label="Add metadata entry"]`);
    assert.match((await page.locator(`${DRAWER} .field-error`).textContent()) ?? '', /“owner” holds a value/);
    await page.fill(`${DRAWER} input[name="metaKey"]`, '');
  });

  it('when the last keys of a nested map are removed in quick succession, then both are saved without a conflict and the map leaves the file', async () => {
    const page = ui.page;
    // As on a slow server: the first save is held at the browser until the second click is made.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const isSave = (url: URL, method: string) => method === 'PUT' && url.pathname.endsWith(`/tasks/${id}`);
    let held = 0;
    const statuses: number[] = [];
    const onResponse = (response: { url(): string; status(): number; request(): { method(): string } }) => {
      if (isSave(new URL(response.url()), response.request().method())) statuses.push(response.status());
    };
    page.on('response', onResponse);
    await page.route(
      (url) => url.pathname.endsWith(`/tasks/${id}`),
      async (route) => {
        if (isSave(new URL(route.request().url()), route.request().method()) && held++ === 0) await released;
        await route.continue();
      },
    );
    try {
      await page.click(`${DRAWER} button[aria-label="Remove review.done"]`);
      await page.waitForSelector(`${DRAWER} [data-meta-key="review.done"]`, { state: 'detached' });
      await page.click(`${DRAWER} button[aria-label="Remove review.by"]`);
      await page.waitForSelector(`${DRAWER} [data-meta-key="review.by"]`, { state: 'detached' });
      release();
      await waitUntil(() => statuses.length === 2, 10_000, 'both saves answered');
      assert.deepEqual(statuses, [200, 200], 'the second save went onto the version the first one made');
      const text = await fileEventually(
        ui.server,
        id,
        (t) => !t.includes('review'),
        'the emptied review map gone from the file',
      );
      assert.match(text, /jira: ABC-2/);
      assert.equal(await page.locator(`${DRAWER} .drawer-conflict`).count(), 0, 'no "changed elsewhere" notice');
      assert.deepEqual(ui.pageErrors, []);
    } finally {
      release();
      page.off('response', onResponse);
      await page.unroute((url) => url.pathname.endsWith(`/tasks/${id}`));
    }
  });
});
