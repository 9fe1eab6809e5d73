// Makes the Getting Started walkthrough's pictures (extension/media/walkthrough/*.png) from the
// packaged extension in a real VS Code (code-server), so they can be made again whenever the board
// or a command changes: `npm run walkthrough-images` (it packages the .vsix first). One window, the
// story of the walkthrough in order: a folder without a board, Create Board, cards, Add Card, the
// card's file beside the board, the API server.
import { promises as fs, statSync } from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { KanbanService } from '../../extension/service/kanbanService';
import { repoRoot, startCodeServer, TempDirs } from './helpers/codeServer';
import { toast } from './helpers/editorUi';
import { boardFrame, cardIn, closeWorkbench, openWorkbench, runFromPalette } from './helpers/workbench';

const TARGET = path.join(repoRoot, 'extension/media/walkthrough');
/** The window is drawn at this size and the picture scaled to WIDTH: the whole board fits, text stays legible. */
const WINDOW = { width: 1440, height: 900 };
const WIDTH = 960;
/** What the .vsix may carry per picture (test/extension/checkVsix.mjs checks the same). */
const MAX_IMAGE_BYTES = 150 * 1024;

const today = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** A board that looks like a week of work, so each picture shows what a card carries. */
const CARDS = [
  { title: 'Sketch the onboarding flow', status: 'backlog', priority: 'low', labels: ['design'] },
  { title: 'Evaluate SQLite for big boards', status: 'backlog', priority: 'medium', assignee: 'Sam Okafor' },
  { title: 'Fix the login redirect', status: 'todo', priority: 'high', assignee: 'Ada Lovelace', due: 3 },
  { title: 'Write the API guide', status: 'todo', priority: 'medium', labels: ['docs'] },
  { title: 'Cache the search index', status: 'in-progress', priority: 'high', assignee: 'Grace Hopper', due: 1 },
  { title: 'Review the webhook retries', status: 'review', priority: 'medium', assignee: 'Ada Lovelace' },
  { title: 'Ship the release notes', status: 'done', priority: 'low', labels: ['docs'] },
];

async function seedCards(folder: string): Promise<void> {
  const service = await KanbanService.open(folder);
  try {
    for (const { title, due, ...fields } of CARDS) {
      const body = { content: `# ${title}\n`, ...fields, ...(due ? { dueDate: today(due) } : {}) };
      const answer = await service.dispatcher.dispatch({ method: 'POST', path: '/tasks', body });
      if (answer.status !== 201) throw new Error(`seeding failed: ${JSON.stringify(answer.body)}`);
    }
  } finally {
    await service.close();
  }
}

/** The window as it is now, scaled down to WIDTH by the browser itself, written as a PNG. */
async function picture(page: Page, name: string): Promise<void> {
  // The pointer's hover labels would sit over the picture: it rests on the activity bar's empty part.
  await page.mouse.move(20, WINDOW.height - 200);
  await page
    .locator('.monaco-hover, .workbench-hover-container')
    .first()
    .waitFor({ state: 'hidden', timeout: 5000 })
    .catch(() => undefined);
  const shot = await page.screenshot();
  const height = Math.round((WINDOW.height * WIDTH) / WINDOW.width);
  const canvas = await page
    .context()
    .browser()!
    .newPage({ viewport: { width: WIDTH, height } });
  try {
    await canvas.setContent(
      `<body style="margin:0"><img style="display:block;width:${WIDTH}px" src="data:image/png;base64,${shot.toString('base64')}"></body>`,
    );
    await canvas.locator('img').evaluate((img: HTMLImageElement) => img.decode());
    const file = path.join(TARGET, `${name}.png`);
    await canvas.screenshot({ path: file });
    const bytes = statSync(file).size;
    console.log(`${path.relative(repoRoot, file)}: ${WIDTH}x${height}, ${Math.round(bytes / 1024)} KB`);
    if (bytes > MAX_IMAGE_BYTES) throw new Error(`${file} is ${bytes} bytes; keep it under ${MAX_IMAGE_BYTES}`);
  } finally {
    await canvas.close();
  }
}

async function clearNotifications(page: Page): Promise<void> {
  await runFromPalette(page, 'Notifications: Clear All Notifications');
  await page.locator('.notification-toast').first().waitFor({ state: 'detached', timeout: 10_000 });
}

async function main(): Promise<void> {
  const temp = new TempDirs();
  // A plain name in the title bar and the Explorer, not a temporary folder's random one.
  const folder = path.join(await temp.make('kanban-walkthrough-ws-'), 'my-project');
  await fs.mkdir(folder);
  const server = await startCodeServer(await temp.make('kanban-walkthrough-'), folder, {
    'workbench.colorTheme': 'Default Dark Modern',
  });
  const { browser, page } = await openWorkbench(server.url);
  try {
    await page.setViewportSize(WINDOW);
    await page.locator('.activitybar [aria-label^="Kanban"]').first().click();
    const welcome = page.locator('.welcome-view-content', { hasText: 'has no kanban board yet' });
    await welcome.getByRole('button', { name: 'Create Board' }).waitFor({ state: 'visible', timeout: 60_000 });
    await picture(page, 'create-board');

    await welcome.getByRole('button', { name: 'Create Board' }).click();
    const board = await boardFrame(page);
    await seedCards(folder);
    for (const { title } of CARDS) await cardIn(board, title).waitFor({ state: 'visible', timeout: 30_000 });
    await clearNotifications(page);
    await picture(page, 'open-board');

    await runFromPalette(page, 'Kanban: Add Card');
    const input = page.locator('.quick-input-widget input[type="text"]');
    await input.fill('Add a dark theme to the docs site');
    await input.press('Enter');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'In Progress' }).waitFor({ timeout: 15_000 });
    await picture(page, 'add-card');

    await input.press('Enter'); // the default column
    await page.locator('.quick-input-list .monaco-list-row', { hasText: /high/i }).first().waitFor({ timeout: 15_000 });
    await input.press('Enter'); // the default priority
    await cardIn(board, 'Add a dark theme to the docs site').waitFor({ state: 'visible', timeout: 15_000 });
    await clearNotifications(page);

    // From the board's card menu, so the file opens beside the board rather than over it.
    await cardIn(board, 'Fix the login redirect').click({ button: 'right' });
    await board.locator('[data-testid="card-menu"] [data-menu-item="open-file"]').click({ timeout: 10_000 });
    await page
      .locator('.tabs-container .tab.active', { hasText: 'fix-the-login-redirect-' })
      .waitFor({ timeout: 15_000 });
    // Coloured: the Markdown grammar has tokenized the frontmatter.
    await page.locator('.monaco-editor .view-line span[class*="mtk"]:not(.mtk1)').first().waitFor({ timeout: 15_000 });
    await picture(page, 'edit-file');

    await runFromPalette(page, 'Kanban: Start API Server');
    await toast(page, 'API server running at').waitFor({ state: 'visible', timeout: 30_000 });
    await page.locator('.statusbar-item', { hasText: 'Kanban API' }).waitFor({ timeout: 15_000 });
    await picture(page, 'api-server');
  } catch (error) {
    temp.failed = true;
    throw error;
  } finally {
    await closeWorkbench(browser, page);
    await server.stop();
    await temp.cleanUp();
  }
}

if (require.main === module)
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
