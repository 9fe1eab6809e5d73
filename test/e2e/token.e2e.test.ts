import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { KanbanService } from '../../extension/service/kanbanService';
import { startCodeServer, TempDirs, type CodeServer } from './helpers/codeServer';
import { boardFrame, cardIn, closeWorkbench, openWorkbench, runFromPalette, screenshot } from './helpers/workbench';

/** A workspace with two cards whose .kanban.json turns on the token identity provider. */
async function guardedWorkspace(temp: TempDirs, editorToken: string): Promise<string> {
  const folder = await temp.make('kanban-e2e-auth-');
  const service = await KanbanService.open(folder);
  for (const title of ['Rotate the keys', 'Audit the logs']) {
    const answer = await service.dispatcher.dispatch({ method: 'POST', path: '/tasks', body: { content: `# ${title}\n`, status: 'todo' } });
    if (answer.status !== 201) throw new Error(`seeding failed: ${JSON.stringify(answer.body)}`);
  }
  await service.close();
  const config = { version: 2, plugins: { 'auth.identity': { provider: 'token', options: { tokens: [{ token: editorToken, subject: 'eddie', role: 'editor' }] } } } };
  await fs.writeFile(path.join(folder, '.kanban.json'), JSON.stringify(config, null, 2));
  return folder;
}

/** Every log file the editor wrote for this run (the extension host's, the Kanban channel, ...). */
async function allLogText(dir: string): Promise<string> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = entries.filter((e) => e.isFile() && e.name.endsWith('.log')).map((e) => path.join(e.parentPath, e.name));
  return (await Promise.all(files.map((file) => fs.readFile(file, 'utf8')))).join('\n');
}

describe('the extension in a real VS Code with auth on (SecretStorage token)', function () {
  this.timeout(180_000);
  const token = `tok-e2e-${randomBytes(16).toString('hex')}`;
  let server: CodeServer;
  let browser: Browser;
  let page: Page;

  const temp = new TempDirs();

  before(async () => {
    try {
      const scratch = await temp.make('kanban-e2e-auth-run-');
      server = await startCodeServer(scratch, await guardedWorkspace(temp, token), {});
      ({ browser, page } = await openWorkbench(server.url));
    } catch (error) {
      temp.failed = true;
      throw error;
    }
  });

  afterEach(function () {
    if (this.currentTest?.state !== 'passed') temp.failed = true;
  });

  after(async () => {
    if (page) await closeWorkbench(browser, page);
    await server?.stop();
    await temp.cleanUp();
  });

  it('when the board needs a token, then Set Token asks for it in a password box and the board loads with it', async () => {
    await runFromPalette(page, 'Kanban: Open Board');
    const offer = page.locator('.notification-toast', { hasText: 'requires authentication' });
    await offer.waitFor({ state: 'visible', timeout: 30_000 });
    await screenshot(page, 'vscode-token-offer');
    await offer.locator('.monaco-button', { hasText: 'Set Token' }).click();
    const box = page.locator('.quick-input-widget input[type="password"]');
    await box.waitFor({ state: 'visible', timeout: 10_000 });
    await box.fill(token);
    await page.keyboard.press('Enter');
    const board = await boardFrame(page);
    for (const title of ['Rotate the keys', 'Audit the logs']) await cardIn(board, title).waitFor({ state: 'visible', timeout: 15_000 });
    await page.locator('.notification-toast', { hasText: 'you act as eddie (editor)' }).waitFor({ timeout: 10_000 });
    await screenshot(page, 'vscode-token-board');
  });

  it('when the token has been used, then it appears in none of the editor logs', async () => {
    const logs = await allLogText(path.join(server.dirs.userData, 'logs'));
    assert.match(logs, /API token stored for/, 'the Kanban channel is among the logs read');
    assert.ok(!logs.includes(token), 'the token was written to a log');
  });
});
