import { strict as assert } from 'node:assert';
import { existsSync, promises as fs } from 'node:fs';
import { waitUntil as waitFor } from '../helpers/waiting';
import { kanbanOutputLines, startCodeServer } from './helpers/codeServer';
import { cardFileOf } from './helpers/editorUi';
import { seedWorkspace, screenshotWhenFailed, useWorkbenchSession } from './helpers/session';
import { quickOpenFile } from './helpers/workbench';

const waitUntil = (probe: () => Promise<boolean>, what: string, timeoutMs = 15_000) =>
  waitFor(() => probe().catch(() => false), timeoutMs, what, 200);

/**
 * With auto-save on (the default of browser VS Code), every pause in typing saves the card file. A
 * status typed there used to move the file a second later, swapping the tab to the new path with the
 * cursor on line 1, so the next keystrokes overwrote the id. Now the card follows the
 * frontmatter and the file stays under the editor until the card's next write.
 */
describe('the extension in a real VS Code with auto-save after a delay: typing in a card file', function () {
  this.timeout(180_000);
  let folder: string;

  const session = useWorkbenchSession(async (temp) => {
    folder = await seedWorkspace(temp, ['Typed status'], 'kanban-e2e-autosave-');
    return startCodeServer(await temp.make('kanban-e2e-27-'), folder, {
      'files.autoSave': 'afterDelay',
      'files.autoSaveDelay': 300,
    });
  });
  screenshotWhenFailed(session);

  it('when status: is typed in the open card file, then the card takes the column, the file stays under the editor, and typing on keeps the id intact', async () => {
    const page = session.page;
    await waitUntil(
      async () => (await kanbanOutputLines(session.server)).some((l) => /activated in/.test(l)),
      'activation',
      60_000,
    );
    const file = await cardFileOf(folder, 'default', 'todo', 'typed-status-');
    await quickOpenFile(page, 'typed-status-');
    await page.locator('.tabs-container .tab.active', { hasText: 'typed-status-' }).waitFor({ timeout: 15_000 });
    await page.locator('.editor-group-container .monaco-editor .view-lines').first().click();

    // Line 3 is `status: todo`: replaced as a person would, by selecting the line and typing.
    await page.keyboard.press('Control+Home');
    for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    await page.keyboard.press('Shift+Home');
    await page.keyboard.type('status: review');
    await waitUntil(
      async () => /^status: review$/m.test(await fs.readFile(file, 'utf8')),
      'auto-save wrote the typed status',
    );
    await page.locator('.statusbar-item', { hasText: 'Review' }).waitFor({ state: 'visible', timeout: 15_000 });

    // Keep typing where the cursor is, after the status: the text lands there, not over the id.
    // The column suggestions of `status:` are open; Escape closes them, or Enter would take one.
    await page.keyboard.press('Escape');
    await page.keyboard.type('\nassignee: ada');
    await waitUntil(
      async () => /^status: review\nassignee: ada$/m.test(await fs.readFile(file, 'utf8')),
      'auto-save wrote the next keystrokes',
    );
    const text = await fs.readFile(file, 'utf8');
    assert.match(text, /^---\nid: typed-status-\d{4}-\d{2}-\d{2}-[a-z0-9]{4}\n/, 'the id line is intact');
    assert.equal(existsSync(file), true, 'the file was not moved under the editor');
    assert.equal(existsSync(file.replace('/todo/', '/review/')), false);
    assert.equal(await page.locator('.tabs-container .tab', { hasText: 'typed-status-' }).count(), 1);
    assert.equal(await page.locator('.tabs-container .tab.deleted').count(), 0);
    await page.locator('.statusbar-item', { hasText: 'Review' }).waitFor({ state: 'visible', timeout: 15_000 });
  });
});
