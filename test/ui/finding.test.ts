import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import { startDemoUi } from './demoBoard';
import { stopUi, type UiContext } from './uiHelpers';

/** Titles of the cards the board shows, sorted, so a test can compare what a user sees. */
async function shownTitles(page: Page): Promise<string[]> {
  return (
    await page.$$eval('.board [data-card-id] .card-title', (els) => els.map((el) => el.textContent ?? ''))
  ).sort();
}

/** Waits until the board shows exactly these titles (the filter runs on the server, as you type). */
async function waitForTitles(page: Page, titles: string[]): Promise<void> {
  const wanted = [...titles].sort();
  try {
    await page.waitForFunction(
      (expected) => {
        const got = Array.from(document.querySelectorAll('.board [data-card-id] .card-title'))
          .map((el) => el.textContent ?? '')
          .sort();
        return JSON.stringify(got) === JSON.stringify(expected);
      },
      wanted,
      { timeout: 4000 },
    );
  } catch {
    assert.deepEqual(await shownTitles(page), wanted);
  }
}

/**
 * Holds the board's search request for `q` until `release` is called; `asked` resolves when the
 * page sends it. Lets a test see the board while a search is on its way, without timing.
 */
async function holdSearch(page: Page, q: string): Promise<{ asked: Promise<void>; release(): Promise<void> }> {
  let release!: () => void;
  let asked!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const sent = new Promise<void>((resolve) => (asked = resolve));
  const matcher = (url: URL) => url.pathname.endsWith('/tasks') && url.searchParams.get('q') === q;
  await page.route(matcher, async (route) => {
    asked();
    await released;
    await route.continue();
  });
  return {
    asked: sent,
    release: async () => {
      release();
      await page.unroute(matcher);
    },
  };
}

async function clearAll(page: Page): Promise<void> {
  await page.fill('#search-input', '');
  for (const id of ['filter-priority', 'filter-assignee', 'filter-label', 'filter-group', 'filter-due']) {
    await page.selectOption(`[data-testid="${id}"]`, '');
  }
  if ((await page.locator('.search-toggle[aria-pressed="true"]').count()) > 0) await page.click('.search-toggle');
  await page.waitForFunction(() => document.querySelectorAll('.board [data-card-id]').length === 12);
}

describe('Board UI: search and filters (Chromium)', function () {
  this.timeout(60_000);
  let ui: UiContext;

  before(async () => {
    ({ ui } = await startDemoUi());
  });

  afterEach(async () => {
    await clearAll(ui.page);
  });

  after(async () => {
    await stopUi(ui);
  });

  it('when a word is typed, then the board narrows as you type, without Enter, and column counts say matching/all', async () => {
    const page = ui.page;
    await page.type('#search-input', 'webhook', { delay: 30 });
    await waitForTitles(page, ['Webhook retries with backoff']);
    assert.equal(await page.locator('[data-drop-column="todo"] .column-count').textContent(), '1/3');
    assert.equal(await page.locator('[data-drop-column="backlog"] .column-empty').textContent(), 'No matching cards');
  });

  it('when a misspelt word is searched, then exact matching (the default) finds nothing and the fuzzy toggle finds the card', async () => {
    const page = ui.page;
    assert.equal(await page.getAttribute('.search-toggle', 'aria-pressed'), 'false');
    await page.fill('#search-input', 'webhok retries');
    await waitForTitles(page, []);
    await page.click('.search-toggle');
    assert.equal(await page.getAttribute('.search-toggle', 'aria-pressed'), 'true');
    await waitForTitles(page, ['Webhook retries with backoff']);
  });

  it('when a meta.field: value token is searched, then only cards with that metadata remain', async () => {
    const page = ui.page;
    await page.fill('#search-input', 'meta.jira: KB-42');
    await waitForTitles(page, ['Webhook retries with backoff']);
    await page.fill('#search-input', 'meta.estimate: 5');
    await waitForTitles(page, ['Evaluate SQLite for large workspaces']);
  });

  it('when the priority filter is set, then only cards of that priority show', async () => {
    await ui.page.selectOption('[data-testid="filter-priority"]', 'critical');
    await waitForTitles(ui.page, ['Crash when a card file has tabs in YAML']);
  });

  it('when the due filter is set, then overdue leaves out done cards, and today and this week show their windows', async () => {
    const page = ui.page;
    const menu = '[data-testid="filter-due"]';
    assert.deepEqual(await page.$$eval(`${menu} option`, (els) => els.map((el) => el.textContent)), [
      'Due',
      'Overdue',
      'Due today',
      'Due this week',
      'No due date',
    ]);
    await page.selectOption(menu, 'overdue');
    await waitForTitles(page, ['Crash when a card file has tabs in YAML']);
    await page.selectOption(menu, 'today');
    await waitForTitles(page, ['Drag and drop between columns']);
    await page.selectOption(menu, 'week');
    await waitForTitles(page, [
      'Keyboard shortcuts cheat sheet',
      'Drag and drop between columns',
      'Attachment previews for images',
      'Dark theme contrast pass',
    ]);
    await page.selectOption('[data-testid="filter-assignee"]', 'Maya Chen');
    await waitForTitles(page, ['Drag and drop between columns', 'Dark theme contrast pass']);
  });

  it("when the assignee filter is set, then only that person's cards show", async () => {
    await ui.page.selectOption('[data-testid="filter-assignee"]', 'Maya Chen');
    await waitForTitles(ui.page, [
      'Sketch the onboarding flow',
      'Drag and drop between columns',
      'Dark theme contrast pass',
    ]);
  });

  it('when the label filter is set, then only cards with that label show', async () => {
    await ui.page.selectOption('[data-testid="filter-label"]', 'docs');
    await waitForTitles(ui.page, [
      'Write a migration guide for v2 config',
      'Keyboard shortcuts cheat sheet',
      'Release notes for 0.1',
    ]);
  });

  it('when the label group filter is set, then cards with any label of that group show', async () => {
    await ui.page.selectOption('[data-testid="filter-group"]', 'area');
    await waitForTitles(ui.page, [
      'Sketch the onboarding flow',
      'Evaluate SQLite for large workspaces',
      'Keyboard shortcuts cheat sheet',
      'Crash when a card file has tabs in YAML',
      'Webhook retries with backoff',
      'Drag and drop between columns',
      'Fuzzy search ranks exact hits first',
      'Dark theme contrast pass',
      'Atomic writes for card files',
    ]);
  });

  it('when a filter and a search combine and Clear is pressed, then both apply together and Clear shows every card again', async () => {
    const page = ui.page;
    await page.selectOption('[data-testid="filter-assignee"]', 'Ada Okafor');
    await page.fill('#search-input', 'card');
    await waitForTitles(page, ['Crash when a card file has tabs in YAML', 'Atomic writes for card files']);
    await page.click('.search-bar button:has-text("Clear")');
    await page.waitForFunction(() => document.querySelectorAll('.board [data-card-id]').length === 12);
    assert.equal(await page.inputValue('#search-input'), '');
  });

  it('when a card changes so that it matches, then it joins the filtered board without a reload', async () => {
    const page = ui.page;
    await page.selectOption('[data-testid="filter-priority"]', 'critical');
    await waitForTitles(page, ['Crash when a card file has tabs in YAML']);
    const tasks = (await ui.server.api('GET', '/api/tasks')).body?.data as { id: string; title: string }[];
    const release = tasks.find((t) => t.title === 'Release notes for 0.1');
    assert.ok(release);
    await ui.server.api('PUT', `/api/tasks/${release.id}`, { priority: 'critical' });
    await waitForTitles(page, ['Crash when a card file has tabs in YAML', 'Release notes for 0.1']);
    await ui.server.api('PUT', `/api/tasks/${release.id}`, { priority: 'low' });
    await waitForTitles(page, ['Crash when a card file has tabs in YAML']);
  });

  it('when a search is still on its way, then the search box says busy and the board is unchanged; once answered, only its matches show', async () => {
    const page = ui.page;
    const held = await holdSearch(page, 'webhook');
    await page.fill('#search-input', 'webhook');
    await held.asked;
    assert.equal(await page.getAttribute('.search-bar', 'aria-busy'), 'true');
    assert.equal((await shownTitles(page)).length, 12);
    await held.release();
    await waitForTitles(page, ['Webhook retries with backoff']);
    await page.waitForSelector('.search-bar[aria-busy="false"]');
  });

  it('when a word is typed while the search before it is on its way, then the older answer is never shown and the board ends on the last word', async () => {
    const page = ui.page;
    const first = await holdSearch(page, 'webhook');
    const second = await holdSearch(page, 'drag');
    await page.fill('#search-input', 'webhook');
    await first.asked;
    await page.fill('#search-input', 'drag');
    await first.release();
    // The newer search is sent only once the older one is answered, and that answer is dropped.
    await second.asked;
    assert.equal((await shownTitles(page)).length, 12);
    assert.equal(await page.getAttribute('.search-bar', 'aria-busy'), 'true');
    await second.release();
    await waitForTitles(page, ['Drag and drop between columns']);
    await page.waitForSelector('.search-bar[aria-busy="false"]');
  });
});
