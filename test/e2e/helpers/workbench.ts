import { existsSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type ElementHandle, type Frame, type Locator, type Page } from 'playwright-core';
import { OUTPUT_DIR } from './codeServer';

export async function openWorkbench(url: string): Promise<{ browser: Browser; page: Page }> {
  if (!existsSync('/usr/bin/chromium'))
    throw new Error(
      'chromium is missing at /usr/bin/chromium: apt-get install chromium (test/e2e/setup-code-server.sh checks it)',
    );
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  await page.goto(url);
  await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
  return { browser, page };
}

/** The extension host lives as long as the page: close it with unload, then the browser. */
export async function closeWorkbench(browser: Browser, page: Page): Promise<void> {
  await page.close({ runBeforeUnload: true }).catch(() => undefined);
  await browser.close().catch(() => undefined);
}

/** The quick input opened with `key` (F1: commands, Control+P: files), wherever the focus was. */
async function openQuickInput(page: Page, key: string): Promise<Locator> {
  // A picker still closing would swallow the key and then vanish under the typing.
  await page
    .locator('.quick-input-widget')
    .waitFor({ state: 'hidden', timeout: 5000 })
    .catch(() => page.keyboard.press('Escape'));
  // With the focus inside a webview the key goes to the webview, or the picker opens and closes
  // again as the webview keeps the focus.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press(key);
  const input = page.locator('.quick-input-widget input[type="text"]');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  return input;
}

/** Open a file of the workspace by name through Quick Open (Control+P), retried like the palette. */
export async function quickOpenFile(page: Page, name: string): Promise<void> {
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline) {
    try {
      const input = await openQuickInput(page, 'Control+P');
      await input.fill(name, { timeout: 5000 });
      await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().click({ timeout: 5000 });
      return;
    } catch {
      await page.keyboard.press('Escape');
    }
  }
  throw new Error(`Quick Open never offered "${name}"`);
}

/**
 * Run a command from the palette by its title. An extension's commands may be missing from the
 * palette for the first seconds after the window opens, so the lookup is retried.
 */
export async function runFromPalette(page: Page, title: string): Promise<void> {
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline) {
    const rows = page.locator('.quick-input-list .monaco-list-row');
    try {
      // The palette can open and close again at once (a webview or panel taking the focus back):
      // the typing then waits for an input that is gone, so it is bounded and tried again.
      const input = await openQuickInput(page, 'F1');
      await input.fill(`>${title}`, { timeout: 5000 });
      await rows.filter({ hasText: title }).first().waitFor({ state: 'visible', timeout: 2000 });
      // The command of this very title: the top row may be a longer one that contains it.
      const labels = await rows.evaluateAll((all) => all.map((r) => r.getAttribute('aria-label') ?? ''));
      const exact = labels.findIndex((label) => label === title || label.startsWith(`${title},`));
      await rows.nth(exact >= 0 ? exact : labels.findIndex((label) => label.includes(title))).click();
      return;
    } catch {
      await page.keyboard.press('Escape');
      await page.waitForTimeout(500);
    }
  }
  throw new Error(`the command palette never offered "${title}"`);
}

/**
 * Wait until the editor shows or hides the webview holding `frame` (its iframe in the workbench
 * page; a hidden webview's own document cannot tell).
 */
export async function webviewShown(frame: Frame, shown: boolean, timeoutMs = 10_000): Promise<void> {
  const outer = frame.parentFrame() ?? frame;
  const element = await outer.frameElement();
  await element.waitForElementState(shown ? 'visible' : 'hidden', { timeout: timeoutMs });
}

/**
 * Click the editor tab titled `tab` and answer how long the browser took from the press to the
 * first frame in which the webview holding `frame` is shown (measured in the page, so the test
 * driver's own delays are not counted).
 */
export async function clickTabUntilShown(page: Page, frame: Frame, tab: string | RegExp): Promise<number> {
  return clickTabUntilVisible(page, await (frame.parentFrame() ?? frame).frameElement(), tab);
}

/**
 * Click the editor tab titled `tab` and answer the milliseconds from the press to the first frame
 * in which `shown` is visible: an element of the workbench page, or a selector for one that the
 * editor may only build after the press.
 */
export async function clickTabUntilVisible(
  page: Page,
  shown: ElementHandle | string,
  tab: string | RegExp,
): Promise<number> {
  if (typeof shown === 'string')
    await page.evaluate(
      (selector) => void ((window as unknown as { tabReturnTarget: unknown }).tabReturnTarget = selector),
      shown,
    );
  else
    await shown.evaluate(
      (element: unknown) => void ((window as unknown as { tabReturnTarget: unknown }).tabReturnTarget = element),
    );
  // A plain script: the test runner's transpiler would add helpers the page does not have.
  await page.evaluate(`(() => {
    const target = window.tabReturnTarget;
    const find = () => (typeof target === 'string' ? document.querySelector(target) : target);
    const times = (window.tabReturn = {});
    const watch = () => (find()?.checkVisibility() ? (times.shown = performance.now()) : requestAnimationFrame(watch));
    document.addEventListener('pointerdown', () => { times.down = performance.now(); requestAnimationFrame(watch); }, { capture: true, once: true });
  })()`);
  await page.locator('.tabs-container .tab', { hasText: tab }).click();
  const handle = await page.waitForFunction(
    () => {
      const times = (window as unknown as { tabReturn: { down?: number; shown?: number } }).tabReturn;
      return times.shown !== undefined && times.down !== undefined ? times.shown - times.down : null;
    },
    undefined,
    { timeout: 10_000 },
  );
  return Math.round(Number(await handle.jsonValue()));
}

/** The frame of the board webview (an iframe inside an iframe): the one holding board columns. */
export async function boardFrame(page: Page, timeoutMs = 30_000): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      const columns = await frame
        .locator('[data-drop-column]')
        .count()
        .catch(() => 0);
      if (columns > 0) return frame;
    }
    await page.waitForTimeout(250);
  }
  throw new Error('no webview frame with a board appeared');
}

export function cardIn(frame: Frame, title: string) {
  return frame.locator('[data-card-id]', { has: frame.locator('.card-title', { hasText: title }) });
}

/** Drag with real pointer moves; bounding boxes of frame elements are in page coordinates. */
export async function dragCardTo(page: Page, frame: Frame, title: string, columnId: string): Promise<void> {
  const source = await cardIn(frame, title).boundingBox();
  const target = await frame.locator(`[data-drop-column="${columnId}"] [data-column-cards]`).boundingBox();
  if (!source || !target) throw new Error(`card "${title}" or column "${columnId}" is not visible`);
  // A pointer drag can only reach what is on screen; a column scrolled out of view is a test set-up problem.
  const viewport = page.viewportSize();
  if (viewport && target.x + target.width / 2 > viewport.width)
    throw new Error(`column "${columnId}" is outside the ${viewport.width}px window`);
  await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2);
  await page.mouse.down();
  await page.mouse.move(source.x + source.width / 2 + 12, source.y + source.height / 2 + 12, { steps: 3 });
  await page.mouse.move(target.x + target.width / 2, target.y + Math.max(10, target.height - 10), { steps: 8 });
  await frame.waitForSelector(`[data-drop-column="${columnId}"] .drop-gap`, { timeout: 5000 });
  await page.mouse.up();
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  const file = path.join(OUTPUT_DIR, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}
