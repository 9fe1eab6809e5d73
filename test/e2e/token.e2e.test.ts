import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { startCodeServer, type TempDirs } from './helpers/codeServer';
import { seedWorkspace, useWorkbenchSession } from './helpers/session';
import { boardFrame, cardIn, runFromPalette, screenshot } from './helpers/workbench';

/** A workspace with two cards whose .kanban.json turns on the token identity provider. */
async function guardedWorkspace(temp: TempDirs, editorToken: string): Promise<string> {
  const folder = await seedWorkspace(temp, ['Rotate the keys', 'Audit the logs'], 'kanban-e2e-auth-');
  const config = {
    version: 2,
    plugins: {
      'auth.identity': {
        provider: 'token',
        options: { tokens: [{ token: editorToken, subject: 'eddie', role: 'editor' }] },
      },
    },
  };
  await fs.writeFile(path.join(folder, '.kanban.json'), JSON.stringify(config, null, 2));
  return folder;
}

/** Every log file the editor wrote for this run (the extension host's, the Kanban channel, ...). */
async function allLogText(dir: string): Promise<string> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = entries
    .filter((e) => e.isFile() && e.name.endsWith('.log'))
    .map((e) => path.join(e.parentPath, e.name));
  return (await Promise.all(files.map((file) => fs.readFile(file, 'utf8')))).join('\n');
}

describe('the extension in a real VS Code with auth on (SecretStorage token)', function () {
  this.timeout(180_000);
  const token = `tok-e2e-${randomBytes(16).toString('hex')}`;
  const session = useWorkbenchSession(async (temp) =>
    startCodeServer(await temp.make('kanban-e2e-auth-run-'), await guardedWorkspace(temp, token), {}),
  );

  it('when the board needs a token, then Set Token asks for it in a password box and the board loads with it', async () => {
    await runFromPalette(session.page, 'Kanban: Open Board');
    const offer = session.page.locator('.notification-toast', { hasText: 'requires authentication' });
    await offer.waitFor({ state: 'visible', timeout: 30_000 });
    await screenshot(session.page, 'vscode-token-offer');
    await offer.locator('.monaco-button', { hasText: 'Set Token' }).click();
    const box = session.page.locator('.quick-input-widget input[type="password"]');
    await box.waitFor({ state: 'visible', timeout: 10_000 });
    await box.fill(token);
    await session.page.keyboard.press('Enter');
    const board = await boardFrame(session.page);
    for (const title of ['Rotate the keys', 'Audit the logs'])
      await cardIn(board, title).waitFor({ state: 'visible', timeout: 15_000 });
    await session.page
      .locator('.notification-toast', { hasText: 'you act as eddie (editor)' })
      .waitFor({ timeout: 10_000 });
    await screenshot(session.page, 'vscode-token-board');
  });

  it('when the token has been used, then it appears in none of the editor logs', async () => {
    const logs = await allLogText(path.join(session.server.dirs.userData, 'logs'));
    assert.match(logs, /API token stored for/, 'the Kanban channel is among the logs read');
    assert.ok(!logs.includes(token), 'the token was written to a log');
  });
});
