import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
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

/** The id of the card whose file starts with `heading`. */
async function idOf(folder: string, heading: string): Promise<string> {
  const board = path.join(folder, '.kanban/boards/default');
  const files = (await fs.readdir(board, { recursive: true })).filter((f) => f.endsWith('.md'));
  for (const file of files)
    if ((await fs.readFile(path.join(board, file), 'utf8')).includes(heading)) return path.basename(file, '.md');
  throw new Error(`no card ${heading}`);
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
    // A repository whose checked-out branch is named after the card (as `kanban/<id>` branches are).
    const git = (...args: string[]) => execFileSync('git', ['-C', folder, ...args], { stdio: 'ignore' });
    git('init', '-q', '-b', `kanban/${await idOf(folder, '# Already here')}`);
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

  it('when the checked-out branch is named after a card, then the status bar shows the card and its column, and a branch switch hides it', async () => {
    const page = session.page;
    const item = page.locator('.statusbar-item', { hasText: 'Already here · To Do' });
    await item.waitFor({ state: 'visible', timeout: 30_000 });
    await screenshot(page, 'vscode-branch-card');
    execFileSync('git', ['-C', folder, 'checkout', '-q', '-b', 'unrelated-work'], { stdio: 'ignore' });
    await item.waitFor({ state: 'hidden', timeout: 30_000 });
  });
});
