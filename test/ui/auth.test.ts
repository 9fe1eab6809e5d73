import { strict as assert } from 'node:assert';
import type { Browser, Page } from 'playwright-core';
import type { TestServer } from '../helpers/testServer';
import { bearer, makeTokens, startAuthServer, stopAuthServer } from '../auth/helpers/authWorkspace';
import { ensureUiBuilt, eventually, launchChromium } from './uiHelpers';

const PROMPT = '[data-testid="token-prompt"]';

async function enterToken(page: Page, token: string): Promise<void> {
  await page.fill(`${PROMPT} input[name="token"]`, token);
  await page.click(`${PROMPT} button[type="submit"]`);
}

describe('Board UI with auth on: token prompt, Bearer header, ?token= on the WebSocket (Chromium)', function () {
  this.timeout(60_000);
  const tokens = makeTokens();
  let server: TestServer;
  let browser: Browser;
  const pageErrors: string[] = [];

  before(async () => {
    ensureUiBuilt();
    server = await startAuthServer(tokens);
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await stopAuthServer(server);
  });

  async function freshPage(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) pageErrors.push(message.text());
    });
    return page;
  }

  it('when the server answers 401, then a token prompt shows its message, a wrong token is refused and a right one loads the live board', async () => {
    const page = await freshPage();
    const apiCalls: { url: string; authorization?: string }[] = [];
    const sockets: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/'))
        apiCalls.push({ url: request.url(), authorization: request.headers().authorization });
    });
    page.on('websocket', (socket) => sockets.push(socket.url()));
    await page.goto(server.url);

    await page.waitForSelector(PROMPT);
    assert.match((await page.textContent('[data-testid="token-prompt-message"]')) ?? '', /authentication required/);
    assert.equal(await page.locator('.board-scroll').count(), 0);

    await enterToken(page, tokens.bad);
    await page.waitForFunction(() =>
      /not recognised/.test(document.querySelector('[data-testid="token-prompt-message"]')?.textContent ?? ''),
    );

    await enterToken(page, tokens.editor);
    await page.waitForSelector(PROMPT, { state: 'detached' });
    await page.waitForSelector('.board-scroll [data-drop-column]');
    await page.waitForSelector('[data-testid="connection"]:has-text("Live")');

    assert.equal(await page.evaluate(() => localStorage.getItem('repo-kanban.token')), tokens.editor);
    const lastCall = apiCalls.at(-1);
    assert.equal(lastCall?.authorization, `Bearer ${tokens.editor}`);
    assert.ok(
      sockets.some((url) => url.endsWith(`/ws?token=${encodeURIComponent(tokens.editor)}`)),
      `sockets: ${sockets.length}`,
    );

    // Live updates flow over the authenticated socket.
    const created = await fetch(`${server.url}/api/tasks`, {
      method: 'POST',
      headers: { ...bearer(tokens.admin), 'content-type': 'application/json' },
      body: JSON.stringify({ content: '# Made by the admin\n' }),
    });
    assert.equal(created.status, 201);
    await page.waitForSelector('.card-title:text("Made by the admin")');

    // The token is kept for this server: a reload goes straight to the board.
    await page.reload();
    await page.waitForSelector('.board-scroll [data-drop-column]');
    assert.equal(await page.locator(PROMPT).count(), 0);
    await page.context().close();
  });

  it('when the role is not enough, then the UI says the role cannot do this, with the server message', async () => {
    const page = await freshPage();
    await page.goto(server.url);
    await page.waitForSelector(PROMPT);
    await enterToken(page, tokens.viewer);
    await page.waitForSelector('.board-scroll [data-drop-column]');

    await page.click('.add-column');
    await page.fill('input[aria-label="New column name"]', 'Not allowed');
    await page.click('.add-column button[type="submit"]');
    const toast = page.locator('.toast', { hasText: 'Your role cannot do this' });
    await toast.waitFor();
    assert.match((await toast.textContent()) ?? '', /role "viewer" may not POST/);
    const columns = await fetch(`${server.url}/api/columns`, { headers: bearer(tokens.admin) }).then((r) => r.json());
    assert.ok(!columns.data.some((c: { name: string }) => c.name === 'Not allowed'));
    await page.context().close();
  });

  it('when a stored token stops being accepted, then the prompt comes back and a new token carries on', async () => {
    const page = await freshPage();
    await page.goto(server.url);
    await page.evaluate((bad) => localStorage.setItem('repo-kanban.token', bad), tokens.bad);
    await page.reload();
    await page.waitForSelector(PROMPT);
    assert.match((await page.textContent('[data-testid="token-prompt-message"]')) ?? '', /not recognised/);
    await enterToken(page, tokens.admin);
    await page.waitForSelector('.board-scroll [data-drop-column]');
    await eventually(
      async () => (await page.evaluate(() => localStorage.getItem('repo-kanban.token'))) === tokens.admin,
      'the new token is stored',
    );
    await page.context().close();
  });

  it('when the pages ran, then no script error or CSP violation was reported', () => {
    assert.deepEqual(pageErrors, []);
  });
});
