import { strict as assert } from 'node:assert';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { ensureUiBuilt, launchChromium } from './uiHelpers';

/** What the page reports about the icon font and the glyph inside a button of that accessible name. */
function iconOf(page: Page, buttonName: string) {
  return page.getByRole('button', { name: buttonName, exact: true }).evaluate(async (button) => {
    await document.fonts.ready;
    const face = [...document.fonts].find((f) => f.family.replace(/["']/g, '') === 'codicon');
    const icon = button.querySelector('.codicon');
    const style = icon ? getComputedStyle(icon) : undefined;
    return {
      fontStatus: face?.status,
      family: style?.fontFamily,
      glyph: icon ? getComputedStyle(icon, '::before').content : undefined,
      width: icon?.getBoundingClientRect().width ?? 0,
    };
  });
}

describe('Board UI: icons drawn with the codicon font (Chromium)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  before(async () => {
    ensureUiBuilt();
    server = await startTestServer();
    browser = await launchChromium();
    // Listening before the first load: a font the policy refused is reported while the page loads.
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    context.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    context.on('requestfailed', (request) => problems.push(`${request.url()}: ${request.failure()?.errorText}`));
    page = await context.newPage();
    await page.goto(server.url);
    await page.waitForSelector('.board-scroll [data-drop-column]');
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await server?.close();
  });

  it('when the board opens, then the Settings button shows its gear glyph from the loaded codicon font', async () => {
    const icon = await iconOf(page, 'Settings');
    assert.equal(icon.fontStatus, 'loaded');
    assert.match(icon.family ?? '', /codicon/);
    assert.ok(icon.glyph && icon.glyph !== 'none' && icon.glyph !== 'normal', `a glyph, got ${icon.glyph}`);
    assert.equal(icon.width, 16);
    assert.deepEqual(problems, [], 'no refused or missing resource');
  });
});
