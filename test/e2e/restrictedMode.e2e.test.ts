import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { startCodeServer } from './helpers/codeServer';
import { seedWorkspace, useWorkbenchSession } from './helpers/session';
import { boardFrame, cardIn, dragCardTo, runFromPalette, screenshot } from './helpers/workbench';

/** Every file under the folder, by relative path: a write of any kind shows. */
async function filesOf(root: string): Promise<string[]> {
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort();
}

describe('the extension in a real VS Code, in a folder not trusted (Restricted Mode)', function () {
  this.timeout(180_000);
  let folder = '';
  let before: string[] = [];
  const session = useWorkbenchSession(async (temp) => {
    folder = await seedWorkspace(temp, ['Look but do not touch'], 'kanban-e2e-restricted-');
    await fs.rm(path.join(folder, '.kanban', '.state'), { recursive: true, force: true });
    before = await filesOf(folder);
    // Trust is on, and the folder opens untrusted without the start-up dialog.
    const settings = { 'security.workspace.trust.startupPrompt': 'never', 'kanban.server.autoStart': true };
    return startCodeServer(await temp.make('kanban-e2e-restricted-run-'), folder, settings, {
      workspaceTrust: true,
    });
  });

  it('when the board opens, then it shows the cards with a read-only notice and a drag changes nothing', async () => {
    await runFromPalette(session.page, 'Kanban: Open Board');
    const board = await boardFrame(session.page);
    await cardIn(board, 'Look but do not touch').waitFor({ state: 'visible', timeout: 15_000 });
    const notice = board.locator('[data-testid="read-only"]');
    await notice.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await notice.innerText(), /Restricted Mode/);
    await screenshot(session.page, 'vscode-restricted-board');
    await dragCardTo(session.page, board, 'Look but do not touch', 'done');
    await board.locator('text=trust this folder to change the board').first().waitFor({ timeout: 10_000 });
    await cardIn(board, 'Look but do not touch').waitFor({ state: 'visible' });
    assert.equal(await board.locator('[data-drop-column="done"] [data-card-id]').count(), 0);
    assert.deepEqual(await filesOf(folder), before);
  });

  it('when auto-start is on in user settings, then no API server item shows a running server', async () => {
    const running = session.page.locator('.statusbar-item', { hasText: /Kanban API.*:\d+/ });
    assert.equal(await running.count(), 0);
  });
});
