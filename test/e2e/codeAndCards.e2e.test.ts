import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { waitUntil as waitFor } from '../helpers/waiting';
import { kanbanOutputLines, startCodeServer } from './helpers/codeServer';
import { seedWorkspace, useWorkbenchSession } from './helpers/session';
import { quickOpenFile, runFromPalette, screenshot } from './helpers/workbench';

const waitUntil = (probe: () => Promise<boolean>, what: string, timeoutMs = 15_000) =>
  waitFor(() => probe().catch(() => false), timeoutMs, what, 200);

/** The content of every card file of the default board, any column. */
async function cardTexts(folder: string): Promise<string[]> {
  const board = path.join(folder, '.kanban/boards/default');
  const files = (await fs.readdir(board, { recursive: true })).filter((f) => f.endsWith('.md'));
  return Promise.all(files.map((f) => fs.readFile(path.join(board, f), 'utf8')));
}

describe('the extension in a real VS Code: code and cards together', function () {
  this.timeout(180_000);
  let folder: string;

  const session = useWorkbenchSession(async (temp) => {
    folder = await seedWorkspace(temp, ['Already here'], 'kanban-e2e-code-');
    await fs.mkdir(path.join(folder, 'src'));
    await fs.writeFile(
      path.join(folder, 'src', 'login.ts'),
      'Retry the login on a 503\nwith a short backoff\nconst x = 1;\n',
    );
    return startCodeServer(await temp.make('kanban-e2e-code-cs-'), folder, {});
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      await screenshot(session.page, 'vscode-failed-code-and-cards').catch(() => undefined);
  });

  it('when two lines are selected and Create Card from Selection is run, then the card holds them with a link back', async () => {
    const page = session.page;
    await waitUntil(
      async () => (await kanbanOutputLines(session.server)).some((l) => /activated in/.test(l)),
      'activation',
      60_000,
    );
    await quickOpenFile(page, 'login.ts');
    await page.locator('.tabs-container .tab.active', { hasText: 'login.ts' }).waitFor({ timeout: 15_000 });
    await page.locator('.editor-group-container .monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+End');
    await runFromPalette(page, 'Kanban: Create Card from Selection');
    // The column (the default first), then the priority (the default preselected).
    const rows = page.locator('.quick-input-list .monaco-list-row');
    await rows.first().waitFor({ state: 'visible', timeout: 15_000 });
    await page.keyboard.press('Enter');
    await rows.filter({ hasText: 'critical' }).waitFor({ state: 'visible', timeout: 15_000 });
    await page.keyboard.press('Enter');
    const isNew = (t: string) => t.includes('# Retry the login');
    await waitUntil(async () => (await cardTexts(folder)).some(isNew), 'the card file', 30_000);
    const text = (await cardTexts(folder)).find(isNew)!;
    assert.match(
      text,
      /^# Retry the login on a 503\n\nwith a short backoff\n\nFrom \[login\.ts:1-2\]\(\.\.\/\.\.\/\.\.\/\.\.\/src\/login\.ts#L1-L2\)\n$/m,
    );
    await screenshot(page, 'vscode-card-from-selection');
  });
});
