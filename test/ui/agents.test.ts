import { strict as assert } from 'node:assert';
import { copyFileSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { startDemoUi } from './demoBoard';
import { textContrasts } from '../helpers/contrast';
import { DRAWER, openDrawer } from './drawerHelpers';
import { topBarRows } from './layoutCheck';
import { SCREENSHOT_DIR, card, stopUi, type UiContext } from './uiHelpers';

/**
 * The board shows agents at work: a claim's agent and time left on the card, a badge for a session
 * a person must answer, a stale marker, the agent filters, and the drawer's Agent section. Agents act
 * through the REST API (X-Kanban-Agent), as a real one would; the page learns it over the WebSocket.
 */

const SCREENSHOT = path.resolve(__dirname, '..', '..', 'media', 'screenshots', 'agents.png');
const as = (agent: string) => ({ 'X-Kanban-Agent': agent });

/** Titles the board shows, sorted. */
function shownTitles(page: Page): Promise<string[]> {
  return page.$$eval('.board [data-card-id] .card-title', (els) => els.map((el) => el.textContent ?? '').sort());
}

/** Waits until the board shows exactly these titles (the filter runs on the server). */
async function waitForTitles(page: Page, titles: string[]): Promise<void> {
  const wanted = [...titles].sort();
  await page
    .waitForFunction(
      (expected) =>
        JSON.stringify(
          Array.from(document.querySelectorAll('.board [data-card-id] .card-title'))
            .map((el) => el.textContent ?? '')
            .sort(),
        ) === JSON.stringify(expected),
      wanted,
      { timeout: 10_000 },
    )
    .catch(async () => assert.deepEqual(await shownTitles(page), wanted));
}

describe('Board UI: agents at work (Chromium)', function () {
  this.timeout(90_000);
  let ui: UiContext;
  let ids: Map<string, string>;
  const id = (title: string) => ids.get(title) as string;
  const DRAG = 'Drag and drop between columns';
  const WEBHOOK = 'Webhook retries with backoff';
  const PREVIEWS = 'Attachment previews for images';

  before(async () => {
    ({ ui, ids } = await startDemoUi());
    await ui.page.waitForSelector('[data-testid="connection"]:has-text("Live")');
  });

  after(async () => {
    await stopUi(ui);
  });

  it('when an agent claims a card through the API, then the card shows the agent and its time left, in words too', async () => {
    const page = ui.page;
    assert.equal(
      await page.locator('[data-testid="filter-agent"]').count(),
      0,
      'no agent menu while no agent is at work',
    );
    const answer = await ui.server.api('POST', `/api/tasks/${id(DRAG)}/claim`, { ttlSeconds: 900 }, as('agent-1'));
    assert.equal(answer.status, 200);
    const line = card(page, DRAG).locator('[data-testid="card-agent"]');
    await line.locator('[data-testid="agent-name"]', { hasText: 'agent-1' }).waitFor();
    assert.match((await line.textContent()) ?? '', /agent-1\s*· 15m left/);
    assert.match(
      (await card(page, DRAG).getAttribute('aria-label')) ?? '',
      /claimed by agent agent-1, 15 minutes left/,
    );
    assert.equal(
      await card(page, WEBHOOK).locator('[data-testid="card-agent"]').count(),
      0,
      'a free card shows no agent',
    );
  });

  it('when the agent reports awaitingInput or error, then the card shows a badge that says so', async () => {
    const page = ui.page;
    const report = { state: 'awaitingInput', note: 'Touch or mouse first?', url: 'https://ci.example/run/7' };
    assert.equal((await ui.server.api('PUT', `/api/tasks/${id(DRAG)}/session`, report, as('agent-1'))).status, 200);
    const badge = card(page, DRAG).locator('[data-testid="agent-badge"]');
    await badge.waitFor();
    assert.equal((await badge.textContent())?.trim(), 'Needs input');
    assert.match((await card(page, DRAG).getAttribute('aria-label')) ?? '', /needs input/);
    // An agent may send any string as its link: the drawer must not follow this one.
    const failing = { state: 'error', note: 'tests fail on CI', url: 'javascript:alert(1)' };
    assert.equal(
      (await ui.server.api('PUT', `/api/tasks/${id(PREVIEWS)}/session`, failing, as('agent-1'))).status,
      200,
    );
    await card(page, PREVIEWS).locator('[data-testid="agent-badge"]', { hasText: 'Agent error' }).waitFor();
  });

  it('when an agent goes silent past its 2 s lease, then its claim leaves the card and the session is marked stale', async () => {
    const page = ui.page;
    await ui.server.api('POST', `/api/tasks/${id(WEBHOOK)}/claim`, { ttlSeconds: 2 }, as('agent-2'));
    await ui.server.api('PUT', `/api/tasks/${id(WEBHOOK)}/session`, { state: 'active', ttlSeconds: 2 }, as('agent-2'));
    const webhook = card(page, WEBHOOK);
    await webhook.locator('[data-testid="agent-name"]', { hasText: 'agent-2' }).waitFor();
    await webhook.locator('[data-testid="agent-stale"]').waitFor({ timeout: 15_000 });
    assert.equal(
      await webhook.locator('[data-testid="claim-left"]').count(),
      0,
      'the claim ran out: no time left shows',
    );
    assert.match(
      (await webhook.locator('[data-testid="agent-stale"]').getAttribute('title')) ?? '',
      /No report from agent agent-2 since/,
    );
    assert.match((await webhook.getAttribute('aria-label')) ?? '', /agent agent-2, agent session stale/);
    // The picture for docs/agents.md: a claim, a question, an error, a stale session and the Agent
    // menu; the part of the board that holds them, so the picture stays small.
    await page.mouse.move(0, 0);
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const file = path.join(SCREENSHOT_DIR, 'agents.png');
    await page.screenshot({ path: file, clip: { x: 0, y: 0, width: 1000, height: 630 } });
    if (process.env.UPDATE_README_SCREENSHOT === '1') copyFileSync(file, SCREENSHOT);
  });

  for (const theme of ['light', 'dark']) {
    it(`when agents are at work in the ${theme} theme, then every word they put on cards keeps a 4.5:1 contrast`, async () => {
      const page = ui.page;
      await page.evaluate((t) => (window as any).kanbanBoard.setTheme(t), theme);
      await page.waitForFunction((t) => document.documentElement.dataset.theme === t, theme);
      const readings = await textContrasts(page.mainFrame(), '.agent-name, .claim-left, .agent-badge, .agent-stale');
      assert.ok(readings.length >= 4, JSON.stringify(readings));
      assert.ok(readings[0].ratio >= 4.5, `lowest contrasts: ${JSON.stringify(readings.slice(0, 3))}`);
    });
  }

  it("when the agent filter is set, then the board narrows to claimed, unclaimed, or one agent's cards", async () => {
    const page = ui.page;
    const menu = '[data-testid="filter-agent"]';
    const all = await shownTitles(page);
    assert.deepEqual(await page.$$eval(`${menu} optgroup option`, (els) => els.map((el) => el.textContent)), [
      'agent-1',
      'agent-2',
    ]);
    await page.selectOption(menu, 'claimed');
    await waitForTitles(page, [DRAG, PREVIEWS]);
    await page.selectOption(menu, 'unclaimed');
    await waitForTitles(
      page,
      all.filter((t) => t !== DRAG && t !== PREVIEWS),
    );
    // agent-2's claim ran out; its stale session still makes the card one of its own.
    await page.selectOption(menu, 'agent:agent-2');
    await waitForTitles(page, [WEBHOOK]);
    assert.match(page.url(), /byAgent=agent-2/);
    await page.selectOption(menu, 'agent:agent-1');
    await waitForTitles(page, [DRAG, PREVIEWS]);
    await page.selectOption(menu, '');
    await waitForTitles(page, all);
  });

  it('when agents are at work, then the agent menu fits the top bar: one row when wide, the two-row layout (not stray buttons) at 1440 and 1600 px', async () => {
    const page = ui.page;
    try {
      await page.setViewportSize({ width: 1760, height: 900 });
      assert.equal((await topBarRows(page)).length, 1, JSON.stringify(await topBarRows(page)));
      for (const width of [1600, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        const rows = await topBarRows(page);
        assert.equal(rows.length, 2, `${width} px: ${JSON.stringify(rows)}`);
        assert.ok(
          rows[0].includes('New card') && rows[1][0] === 'Search' && rows[1].includes('Agent'),
          `${width} px: ${JSON.stringify(rows)}`,
        );
      }
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }
  });

  it('when the drawer of a card with an agent opens, then it shows the note and a safe link, and Release claim frees the card', async () => {
    const page = ui.page;
    await openDrawer(page, PREVIEWS);
    const previews = page.locator(`${DRAWER} [data-testid="agent-section"]`);
    await previews.locator('[data-testid="agent-note"]', { hasText: 'tests fail on CI' }).waitFor();
    assert.equal(await previews.locator('a').count(), 0, 'a javascript: link is shown as text, never as a link');
    await page.keyboard.press('Escape');

    await openDrawer(page, DRAG);
    const section = page.locator(`${DRAWER} [data-testid="agent-section"]`);
    assert.equal((await section.locator('[data-testid="agent-note"]').textContent())?.trim(), 'Touch or mouse first?');
    const link = section.locator('[data-testid="agent-link"]');
    assert.equal(await link.getAttribute('href'), 'https://ci.example/run/7');
    assert.match((await link.getAttribute('rel')) ?? '', /noopener/);
    assert.equal(await link.getAttribute('target'), '_blank');
    assert.match((await section.locator('[data-testid="agent-claim"]').textContent()) ?? '', /agent-1 · 1[45]m left/);

    await section.getByRole('button', { name: 'Release claim' }).click();
    await section.locator('.confirm-inline').getByRole('button', { name: 'Release claim' }).click();
    await section.locator('[data-testid="agent-claim"]').waitFor({ state: 'detached' });
    await card(page, DRAG).locator('[data-testid="claim-left"]').waitFor({ state: 'detached' });
    const after = await ui.server.api('GET', `/api/tasks/${id(DRAG)}`);
    assert.equal(after.body?.data.claim, null);
    assert.equal(after.body?.data.session.state, 'awaitingInput', 'the session stays until a person clears it');

    await section.getByRole('button', { name: 'Clear session' }).click();
    await section.locator('.confirm-inline').getByRole('button', { name: 'Clear session' }).click();
    await card(page, DRAG).locator('[data-testid="card-agent"]').waitFor({ state: 'detached' });
    // The drawer re-reads the card after the board does, so it is waited for, not counted at once.
    await page.locator(`${DRAWER} [data-testid="agent-section"]`).waitFor({ state: 'detached' });
    assert.equal((await ui.server.api('GET', `/api/tasks/${id(DRAG)}`)).body?.data.session, null);
    assert.deepEqual(ui.pageErrors, []);
  });

  it("when a minute passes on the page's clock, then the time left counts down without a request, and an expired claim disappears", async () => {
    const page = await ui.browser.newPage({ viewport: { width: 1440, height: 900 } });
    try {
      await page.clock.install();
      await page.goto(ui.server.url);
      await ui.server.api('POST', `/api/tasks/${id(DRAG)}/claim`, { ttlSeconds: 600 }, as('agent-3'));
      const left = card(page, DRAG).locator('[data-testid="claim-left"]');
      await left.filter({ hasText: '10m left' }).waitFor();
      const requests: string[] = [];
      page.on('request', (request) => requests.push(request.url()));
      await page.clock.fastForward('01:00');
      await left.filter({ hasText: '9m left' }).waitFor();
      await page.clock.fastForward('09:30');
      await card(page, DRAG).locator('[data-testid="card-agent"]').waitFor({ state: 'detached' });
      assert.deepEqual(requests, [], 'the count-down reads the lease in the card, not the server');
    } finally {
      await page.close();
    }
  });
});
