import { strict as assert } from 'node:assert';
import { okData } from '../helpers/envelope';
import { closeDrawer, createCard, DRAWER, fileEventually, openDrawer } from './drawerHelpers';
import { card, eventually, startUi, stopUi, type UiContext } from './uiHelpers';

describe('Board UI: open blockers on the badge, the Ready filter and editing blockers in the drawer (Chromium)', function () {
  this.timeout(60_000);
  let ui: UiContext;
  const ids: Record<string, string> = {};
  const release = 'Release the app';
  const tests = 'Write the tests';
  const docs = 'Write the docs';
  const shipped = 'Ship the beta';
  const finished = 'Plan the release';
  const infra = 'Provision the servers';

  before(async () => {
    ui = await startUi();
    const server = ui.server;
    await server.api('POST', '/api/boards', {
      id: 'ops',
      name: 'Operations',
      columns: [
        { id: 'inbox', name: 'Inbox' },
        { id: 'closed', name: 'Closed' },
      ],
    });
    ids.infra = okData<{ id: string }>(
      await server.api('POST', '/api/boards/ops/tasks', { content: `# ${infra}\n` }),
      201,
    ).id;
    ids.tests = await createCard(server, { content: `# ${tests}\n`, status: 'in-progress' });
    ids.docs = await createCard(server, { content: `# ${docs}\n`, status: 'todo' });
    ids.shipped = await createCard(server, { content: `# ${shipped}\n`, status: 'done' });
    ids.finished = await createCard(server, { content: `# ${finished}\n`, status: 'done' });
    ids.release = await createCard(server, {
      content: `# ${release}\n`,
      status: 'todo',
      blockedBy: [ids.tests, ids.shipped, ids.finished],
    });
    await ui.page.reload();
    await ui.page.waitForSelector('[data-card-id]');
  });

  after(async () => {
    await stopUi(ui);
  });

  const badge = (title: string) => card(ui.page, title).locator('[data-testid="blocked-badge"]');
  const visible = async (title: string) => (await card(ui.page, title).count()) > 0;

  it('when a card waits for three cards of which two are done, then its badge says "blocked by 1", and none once the last is done', async () => {
    assert.equal((await badge(release).textContent())?.trim(), 'blocked by 1');
    okData(await ui.server.api('PATCH', `/api/tasks/${ids.tests}/move`, { status: 'done' }));
    await eventually(
      async () => (await badge(release).count()) === 0,
      'the badge is gone when no blocker is open',
      10_000,
    );
    okData(await ui.server.api('PATCH', `/api/tasks/${ids.tests}/move`, { status: 'in-progress' }));
    await eventually(
      async () => (await badge(release).textContent())?.trim() === 'blocked by 1',
      'the badge is back',
      10_000,
    );
  });

  it('when Ready is switched on, then only cards not blocked and not in the last column stay, and all come back when it is off', async () => {
    const page = ui.page;
    const ready = page.locator('[data-testid="filter-ready"]');
    await ready.click();
    await eventually(
      async () => !(await visible(release)) && !(await visible(shipped)),
      'the blocked and the finished cards are hidden',
    );
    assert.ok(await visible(tests), 'an open card with no blockers stays');
    assert.ok(await visible(docs));
    assert.equal(await ready.getAttribute('aria-pressed'), 'true');
    await ready.click();
    await eventually(async () => (await visible(release)) && (await visible(shipped)), 'every card is back');
  });

  it('when a blocker is picked by its title from another board in the drawer, then the file names its whole id and the badge counts it', async () => {
    const page = ui.page;
    await openDrawer(page, release);
    await page.locator(`${DRAWER} input[name="blocker-search"]`).fill('servers');
    await page.locator(`${DRAWER} [data-testid="blocker-option"]`, { hasText: infra }).click();
    await fileEventually(
      ui.server,
      ids.release,
      (text) => text.includes(`- ${ids.infra}`),
      'the new blocker in the file',
    );
    await page.waitForSelector(`${DRAWER} [data-testid="dependency-link"][data-card-id="${ids.infra}"]`);
    await eventually(
      async () => (await badge(release).textContent())?.trim() === 'blocked by 2',
      'the badge counts the new open blocker',
    );
  });

  it('when a blocker is removed in the drawer, then the file no longer names it and the badge follows', async () => {
    const page = ui.page;
    await page.locator(`${DRAWER} [aria-label="Remove blocker ${ids.tests}"]`).click();
    await fileEventually(
      ui.server,
      ids.release,
      (text) => !text.includes(ids.tests),
      'the removed blocker gone from the file',
    );
    await eventually(
      async () => (await badge(release).textContent())?.trim() === 'blocked by 1',
      'the badge counts one open blocker',
    );
    await closeDrawer(page);
  });

  it('when an added blocker would make a cycle or names no card, then the drawer says so in words and nothing is stored', async () => {
    const page = ui.page;
    await createCycleCandidate();
    await openDrawer(page, docs);
    const input = page.locator(`${DRAWER} input[name="blocker-search"]`);
    await input.fill(ids.release);
    await input.press('Enter');
    const problem = page.locator(`${DRAWER} [data-testid="blocker-problem"]`);
    await problem.waitFor();
    assert.match(
      (await problem.textContent()) ?? '',
      new RegExp(`would make a cycle: ${ids.docs} is blocked by ${ids.release} is blocked by ${ids.docs}`),
    );
    await input.fill('no-such-card-anywhere');
    await input.press('Enter');
    await eventually(
      async () => /no card "no-such-card-anywhere"/.test((await problem.textContent()) ?? ''),
      'the unknown id is named',
    );
    const stored = okData<{ blockedBy: string[] }>(await ui.server.api('GET', `/api/tasks/${ids.docs}`));
    assert.deepEqual(stored.blockedBy, []);
    await closeDrawer(page);
  });

  /** Make the release wait for the docs, so the docs waiting for the release would close a loop. */
  async function createCycleCandidate(): Promise<void> {
    const current = okData<{ blockedBy: string[] }>(await ui.server.api('GET', `/api/tasks/${ids.release}`)).blockedBy;
    okData(await ui.server.api('PUT', `/api/tasks/${ids.release}`, { blockedBy: [...current, ids.docs] }));
  }
});
