import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { waitUntil } from '../helpers/waiting';

const ROOT = path.resolve(__dirname, '..', '..');
export const CHROMIUM = '/usr/bin/chromium';
export const SCREENSHOT_DIR = path.join(ROOT, 'test-output', 'screenshots');

function newestChange(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestChange(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** The server serves dist/webview: rebuild it when a source file is newer, so tests never run stale UI. */
export function ensureUiBuilt(): void {
  const built = path.join(ROOT, 'dist', 'webview', 'main.js');
  const sources = Math.max(newestChange(path.join(ROOT, 'webview')), newestChange(path.join(ROOT, 'media')));
  if (existsSync(built) && statSync(built).mtimeMs >= sources) return;
  execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'inherit' });
}

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Browser tests need Debian's chromium at ${CHROMIUM}: apt-get install chromium`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

export interface UiContext {
  server: TestServer;
  browser: Browser;
  page: Page;
  /** Every script error and CSP violation the page reported. */
  pageErrors: string[];
}

/** A real server over a temp workspace, a real Chromium, and one page on the board. */
export async function startUi(
  options: { config?: unknown; viewport?: { width: number; height: number } } = {},
): Promise<UiContext> {
  ensureUiBuilt();
  const server = await startTestServer({ config: options.config });
  const browser = await launchChromium();
  const page = await newBoardPage(browser, server.url, options.viewport);
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return { server, browser, page, pageErrors };
}

export async function newBoardPage(
  browser: Browser,
  url: string,
  viewport = { width: 1440, height: 900 },
): Promise<Page> {
  const page = await browser.newPage({ viewport });
  await page.goto(url);
  await page.waitForSelector('.board-scroll [data-drop-column]');
  return page;
}

export async function stopUi(ui: UiContext | undefined): Promise<void> {
  if (!ui) return;
  await ui.browser.close().catch(() => undefined);
  await ui.server.close();
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** A picture kept in the repository (README, docs) stays small enough to keep there. */
const MAX_COMMITTED_BYTES = 300_000;

/**
 * A screenshot that is also a picture in the repository at `committed` (from the repository's
 * root): it must stay small, and it replaces that picture only on request
 * (UPDATE_README_SCREENSHOT=1), since the dates on the cards change every day.
 */
export async function committedScreenshot(page: Page, name: string, committed: string): Promise<void> {
  const file = await screenshot(page, name);
  const bytes = statSync(file).size;
  assert.ok(
    bytes < MAX_COMMITTED_BYTES,
    `the screenshot is ${bytes} bytes; ${committed} needs < ${MAX_COMMITTED_BYTES}`,
  );
  if (process.env.UPDATE_README_SCREENSHOT === '1') copyFileSync(file, path.join(ROOT, committed));
}

export function card(page: Page, title: string) {
  return page.locator('[data-card-id]', { has: page.locator('.card-title', { hasText: title }) });
}

/** The title of the card that has keyboard focus, or null when focus is not on a card. */
export function focusedCardTitle(page: Page): Promise<string | null> {
  return page.evaluate(
    () => document.activeElement?.closest('[data-card-id]')?.querySelector('.card-title')?.textContent ?? null,
  );
}

/**
 * Waits until the page has drawn two more frames and run the tasks queued behind them, so whatever
 * the UI left for "after the next paint" has happened: a test can then check that it did no harm.
 */
export async function nextFramesDrawn(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve)))),
  );
}

export function column(page: Page, id: string) {
  return page.locator(`[data-drop-column="${id}"]`);
}

/** Drag a card with real pointer moves and drop it above `target` (or at the end of a column). */
export async function dragCard(page: Page, from: string, to: { column: string; above?: string }): Promise<void> {
  // Hover waits until the card stands still: a board that just redrew may still be moving it.
  await card(page, from).hover();
  const source = await card(page, from).boundingBox();
  if (!source) throw new Error(`card "${from}" is not visible`);
  let targetX: number;
  let targetY: number;
  if (to.above) {
    const box = await card(page, to.above).boundingBox();
    if (!box) throw new Error(`card "${to.above}" is not visible`);
    targetX = box.x + box.width / 2;
    targetY = box.y + 6;
  } else {
    const box = await column(page, to.column).locator('[data-column-cards]').boundingBox();
    if (!box) throw new Error(`column "${to.column}" is not visible`);
    targetX = box.x + box.width / 2;
    targetY = box.y + box.height - 10;
  }
  await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2);
  await page.mouse.down();
  await page.mouse.move(source.x + source.width / 2 + 12, source.y + source.height / 2 + 12, { steps: 3 });
  await page.mouse.move(targetX, targetY, { steps: 8 });
  await page.waitForSelector(`[data-drop-column="${to.column}"] .drop-gap`);
  await page.mouse.up();
}

/** Polls until `check` holds: the UI shows a change at once, the server may save it a moment later. */
export function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 3000): Promise<void> {
  return waitUntil(check, timeoutMs, what, 25);
}
