import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import type { TestServer } from '../helpers/testServer';
import { card, eventually } from './uiHelpers';

export const DRAWER = '[data-testid="card-drawer"]';

/** A real 2x2 PNG, so a preview can be checked to have decoded. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFElEQVR4nGP4z8DAwPAfhP7/ZwAAHu8E/Gj7YDYAAAAASUVORK5CYII=',
  'base64',
);

/** Waits for the sheet's slide-in to end, so a screenshot shows the drawer as people see it. */
export async function drawerSettled(page: Page): Promise<void> {
  await page.locator('.sheet').evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));
}

/**
 * Click a card on the board and wait for its drawer to show the full card. After a reload the page
 * may reopen the card by itself (the URL names it): whichever comes first, the drawer of this card.
 */
export async function openDrawer(page: Page, title: string): Promise<void> {
  const wanted = page.locator(`${DRAWER} .sheet-title:has-text(${JSON.stringify(title)})`);
  const deadline = Date.now() + 20_000;
  await card(page, title).waitFor();
  while (!(await wanted.isVisible())) {
    if (Date.now() > deadline) throw new Error(`the drawer of "${title}" did not open`);
    // A drawer of another card (left open by an earlier failed test) would cover the board.
    if (await page.locator(DRAWER).count()) {
      await page
        .locator(`${DRAWER} button[aria-label="Close"]`)
        .click()
        .catch(() => undefined);
      await page.waitForSelector(DRAWER, { state: 'detached', timeout: 5_000 }).catch(() => undefined);
      continue;
    }
    await card(page, title)
      .click({ timeout: 2_000 })
      .catch(() => undefined);
    await wanted.waitFor({ timeout: 2_000 }).catch(() => undefined);
  }
  await page.waitForSelector(`${DRAWER} [aria-label="Comments"]`);
}

export async function closeDrawer(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await page.waitForSelector(DRAWER, { state: 'detached' });
}

/** The Markdown file of a card, wherever its status folder is; null when there is none. */
export function cardFilePath(server: TestServer, id: string): string | null {
  const board = path.join(server.root, '.kanban', 'boards', 'default');
  if (!existsSync(board)) return null;
  for (const status of readdirSync(board)) {
    const file = path.join(board, status, `${id}.md`);
    if (existsSync(file)) return file;
  }
  return null;
}

export function cardFileText(server: TestServer, id: string): string {
  const file = cardFilePath(server, id);
  return file ? readFileSync(file, 'utf8') : '';
}

/** Waits until the card's file on disk satisfies `check` (the UI shows a change before the save lands). */
export async function fileEventually(
  server: TestServer,
  id: string,
  check: (text: string) => boolean,
  what: string,
): Promise<string> {
  // Patient on a busy machine: this waits for a save to land, it does not measure how fast.
  await eventually(async () => check(cardFileText(server, id)), what, 10_000);
  return cardFileText(server, id);
}

export async function createCard(server: TestServer, body: Record<string, unknown>): Promise<string> {
  const answer = await server.api('POST', '/api/tasks', body);
  if (answer.status !== 201) throw new Error(`create failed: ${answer.body?.error}`);
  return answer.body?.data.id as string;
}
