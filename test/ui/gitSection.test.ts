import { strict as assert } from 'node:assert';
import { commit, git, initRepo } from '../helpers/gitRepos';
import { createCard, DRAWER, openDrawer } from './drawerHelpers';
import { startUi, stopUi, type UiContext } from './uiHelpers';

describe('Board UI: git links in the card drawer (Chromium)', function () {
  this.timeout(60_000);
  let ui: UiContext;
  let id: string;
  let other: string;

  before(async () => {
    ui = await startUi();
    await initRepo(ui.server.root);
    await commit(ui.server.root, 'Start');
    id = await createCard(ui.server, { content: '# Linked card\n', status: 'todo' });
    other = await createCard(ui.server, { content: '# Card without links\n', status: 'todo' });
    await git(ui.server.root, ['branch', `kanban/${id}`]);
    await git(ui.server.root, ['checkout', '--quiet', `kanban/${id}`]);
    await commit(ui.server.root, `Fix the login timeout\n\nKanban: ${id}`);
    await git(ui.server.root, ['checkout', '--quiet', 'main']);
    await ui.page.reload();
    await ui.page.waitForSelector('[data-card-id]');
  });

  after(async () => stopUi(ui));

  it('when a card has a branch and a commit naming it, then its drawer lists the branch with ahead/behind and the commit with its short sha and subject', async () => {
    await openDrawer(ui.page, 'Linked card');
    const section = ui.page.locator(`${DRAWER} [data-testid="git-section"]`);
    await section.waitFor({ state: 'visible', timeout: 15_000 });
    const branch = section.locator('[data-testid="git-branches"] .git-row');
    assert.match(await branch.innerText(), new RegExp(`kanban/${id}\\s*↑1 ↓0`));
    const commitRow = section.locator('[data-testid="git-commits"] .git-row');
    assert.match(await commitRow.innerText(), /^[0-9a-f]{7}\s+Fix the login timeout/);
  });

  it('when a card has no git links, then its drawer shows no Git section', async () => {
    // The links of the card are asked for when its drawer opens: wait for that answer, then look.
    const answered = ui.page.waitForResponse(
      (response) => response.url().includes(`/tasks/${encodeURIComponent(other)}/git`),
      { timeout: 15_000 },
    );
    await openDrawer(ui.page, 'Card without links');
    assert.deepEqual((await (await answered).json()).data, { branches: [], commits: [] });
    await ui.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    assert.equal(await ui.page.locator(`${DRAWER} [data-testid="git-section"]`).count(), 0);
  });
});
