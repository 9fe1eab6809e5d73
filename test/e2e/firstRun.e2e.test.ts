import { strict as assert } from 'node:assert';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { waitUntil as waitFor } from '../helpers/waiting';
import { kanbanOutputLines, startCodeServer } from './helpers/codeServer';
import { screenshotWhenFailed, useWorkbenchSession } from './helpers/session';
import { boardFrame, screenshot } from './helpers/workbench';

const waitUntil = (probe: () => Promise<boolean>, what: string, timeoutMs = 15_000) =>
  waitFor(() => probe().catch(() => false), timeoutMs, what, 200);

describe('the extension in a real VS Code: the first run in a folder without a board', function () {
  this.timeout(180_000);
  let folder: string;

  const session = useWorkbenchSession(async (temp) => {
    folder = await temp.make('kanban-e2e-empty-');
    return startCodeServer(await temp.make('kanban-e2e-empty-vs-'), folder, {});
  });
  screenshotWhenFailed(session);

  it('when the Kanban view opens, then it explains and offers Create Board, with no status item and nothing written', async () => {
    const page = session.page;
    await page.locator('.activitybar [aria-label^="Kanban"]').first().click();
    await waitUntil(
      async () => (await kanbanOutputLines(session.server)).some((l) => /activated in/.test(l)),
      'activation by the view',
      60_000,
    );
    const welcome = page.locator('.welcome-view-content', { hasText: 'has no kanban board yet' });
    await welcome.waitFor({ state: 'visible', timeout: 30_000 });
    await welcome.getByRole('button', { name: 'Create Board' }).waitFor({ state: 'visible' });
    await screenshot(page, 'vscode-first-run-welcome');
    assert.equal(await page.locator('.statusbar-item', { hasText: 'Kanban' }).count(), 0, 'no Kanban status item');
    assert.deepEqual(await fs.readdir(folder), [], 'nothing written before the person asks');
  });

  it('when Create Board is pressed, then .kanban.json and .kanban/.gitignore exist, the board opens and the view lists its columns', async () => {
    const page = session.page;
    await page
      .locator('.welcome-view-content', { hasText: 'has no kanban board yet' })
      .getByRole('button', { name: 'Create Board' })
      .click();
    await waitUntil(async () => existsSync(path.join(folder, '.kanban.json')), '.kanban.json');
    assert.ok(existsSync(path.join(folder, '.kanban', '.gitignore')));
    const board = await boardFrame(page);
    assert.equal(await board.locator('[data-drop-column]').count(), 5);
    const sidebar = page.locator('.pane-body .monaco-list-row', { hasText: 'Backlog' });
    await sidebar.first().waitFor({ state: 'visible', timeout: 15_000 });
    assert.equal(await page.locator('.welcome-view-content', { hasText: 'has no kanban board yet' }).count(), 0);
    await screenshot(page, 'vscode-first-run-created');
  });
});
