import { strict as assert } from 'node:assert';
import type { Browser, Page } from 'playwright-core';
import { createTask, okData } from '../helpers/envelope';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { card, dragCard, ensureUiBuilt, launchChromium } from './uiHelpers';

/**
 * The page as VS Code runs it: `acquireVsCodeApi` is present, so the board talks postMessage. This
 * stand-in for the extension host answers each `request` from the real server and, as the real
 * bridge does from the in-process dispatcher (test/extension/webviewBridge.test.ts), hands the
 * server's warnings to the page in the `response` message. A string, not a function: compiled test
 * functions may call helpers that the page does not have.
 */
const FAKE_VSCODE_HOST = `
(() => {
  const post = (message) => window.postMessage(message, '*');
  const texts = (header) => [...(header || '').matchAll(/299 - "((?:[^"\\\\]|\\\\.)*)"/g)].map((m) => m[1]);
  window.acquireVsCodeApi = () => ({
    getState: () => ({}),
    setState: () => undefined,
    postMessage: (message) => {
      if (message.type === 'ready') return post({ type: 'hello', revision: 0 });
      if (message.type !== 'request') return;
      const headers = { 'content-type': 'application/json' };
      if (message.ifMatch) headers['if-match'] = message.ifMatch;
      const body = message.body === undefined ? undefined : JSON.stringify(message.body);
      void fetch('/api' + message.path, { method: message.method, headers, body }).then(async (res) => {
        const text = await res.text();
        const warnings = texts(res.headers.get('warning'));
        const etag = res.headers.get('etag') || undefined;
        // As the extension host does, reads come back as the answer's UTF-8 JSON for the page to parse.
        const answer = message.method === 'GET' && text ? { body: null, utf8: new TextEncoder().encode(text) } : { body: text ? JSON.parse(text) : null };
        post({ type: 'response', id: message.id, status: res.status, ...answer, etag, ...(warnings.length ? { warnings } : {}) });
      });
    },
  });
})();
`;

describe('Board UI in the VS Code webview: WIP warnings from the host (Chromium)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let browser: Browser;
  let page: Page;

  before(async () => {
    ensureUiBuilt();
    server = await startTestServer();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.addInitScript({ content: FAKE_VSCODE_HOST });
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await server?.close();
  });

  it('when a drag takes a column over its WIP limit, then the toast shows the warning the host passed on', async () => {
    okData(await server.api('PUT', '/api/columns/in-progress', { wipLimit: 1 }));
    await createTask(server, { content: '# Busy already\n', status: 'in-progress' });
    await createTask(server, { content: '# Pulled in\n', status: 'todo' });
    await page.goto(server.url);
    await page.waitForSelector('.board-scroll [data-drop-column]');
    assert.equal(
      await page.evaluate(() => typeof (window as unknown as { acquireVsCodeApi?: unknown }).acquireVsCodeApi),
      'function',
    );
    await card(page, 'Pulled in').waitFor();
    await dragCard(page, 'Pulled in', { column: 'in-progress' });
    await page.locator('.toast', { hasText: 'Column In Progress is over its WIP limit (2/1).' }).waitFor();
    assert.equal(okData<unknown[]>(await server.api('GET', '/api/tasks?status=in-progress')).length, 2);
  });
});
