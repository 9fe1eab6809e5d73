import { strict as assert } from 'node:assert';
import { createCard, DRAWER } from './drawerHelpers';
import { committedScreenshot, startUi, stopUi, type UiContext } from './uiHelpers';

const GRAPH = '[data-testid="graph-view"]';

describe('Board UI: the dependency graph view (Chromium)', function () {
  this.timeout(90_000);
  let ui: UiContext;
  const ids = new Map<string, string>();

  async function add(title: string, body: Record<string, unknown> = {}): Promise<string> {
    const id = await createCard(ui.server, { content: `# ${title}\n`, status: 'todo', ...body });
    ids.set(title, id);
    return id;
  }

  before(async () => {
    ui = await startUi({ viewport: { width: 1440, height: 720 } });
    // A chain of blockers, a parent with two sub-cards, and a card with no link (not drawn).
    const schema = await add('Design the schema', { status: 'done' });
    const api = await add('Build the import API', { blockedBy: [schema] });
    const ui1 = await add('Import screen', { blockedBy: [api] });
    const release = await add('Release 1.4', { status: 'backlog' });
    await add('Write the release notes', { parent: release, blockedBy: [ui1] });
    await add('Record the demo video', { parent: release, status: 'in-progress' });
    await add('Tidy the backlog');
    await ui.page.goto(`${ui.server.url}/?layout=graph`);
    await ui.page.waitForSelector(`${GRAPH} .graph-node`);
  });

  after(async () => {
    await stopUi(ui);
  });

  const nodeIds = () =>
    ui.page
      .locator(`${GRAPH} .graph-node`)
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-card-id') as string).sort());
  const node = (title: string) => ui.page.locator(`${GRAPH} .graph-node[data-card-id="${ids.get(title)}"]`);

  it('when the page is opened with ?layout=graph, then the graph shows the linked cards as nodes and leaves out a card without links', async () => {
    const page = ui.page;
    assert.equal(await page.getAttribute('[data-testid="layout-graph"]', 'aria-pressed'), 'true');
    const linked = [...ids.entries()].filter(([title]) => title !== 'Tidy the backlog').map(([, id]) => id);
    assert.deepEqual(await nodeIds(), linked.sort());
    assert.equal((await node('Import screen').locator('text').textContent())?.trim(), 'Import screen');
  });

  it('when cards wait for others or are sub-cards, then each link is an edge of its own kind, and the legend names both', async () => {
    const edges = await ui.page
      .locator(`${GRAPH} .graph-edge[data-kind]`)
      .evaluateAll((paths) =>
        paths
          .map((p) => `${p.getAttribute('data-kind')} ${p.getAttribute('data-from')}>${p.getAttribute('data-to')}`)
          .sort(),
      );
    const id = (title: string) => ids.get(title) as string;
    assert.deepEqual(
      edges,
      [
        `blocks ${id('Build the import API')}>${id('Import screen')}`,
        `blocks ${id('Design the schema')}>${id('Build the import API')}`,
        `blocks ${id('Import screen')}>${id('Write the release notes')}`,
        `parent ${id('Release 1.4')}>${id('Record the demo video')}`,
        `parent ${id('Release 1.4')}>${id('Write the release notes')}`,
      ].sort(),
    );
    const dashed = await ui.page
      .locator(`${GRAPH} .graph-edge-parent[data-kind]`)
      .first()
      .evaluate((p) => getComputedStyle(p).strokeDasharray);
    assert.notEqual(dashed, 'none', 'sub-card links are dashed');
    const legend = (await ui.page.locator(`${GRAPH} .graph-legend`).textContent()) ?? '';
    assert.match(legend, /blocks/);
    assert.match(legend, /sub-card of/);
  });

  it('when a card has no open blocker and is not done, then it is marked ready; blocked and done cards are not', async () => {
    assert.equal(await node('Build the import API').getAttribute('data-state'), 'ready');
    assert.equal(await node('Release 1.4').getAttribute('data-state'), 'ready');
    assert.equal(await node('Import screen').getAttribute('data-state'), 'blocked');
    assert.equal(await node('Design the schema').getAttribute('data-state'), 'done');
    const x = async (title: string) => (await node(title).boundingBox())?.x ?? 0;
    assert.ok(
      (await x('Design the schema')) < (await x('Build the import API')),
      'a blocker is drawn left of what it blocks',
    );
  });

  it('when the screenshot for the docs is taken, then it is small enough to keep in the repository', async () => {
    await ui.page.mouse.move(0, 719);
    await committedScreenshot(ui.page, 'graph-view', 'docs/images/graph-view.png');
  });

  it('when a node is clicked, then the card drawer opens on that card', async () => {
    const page = ui.page;
    await node('Import screen').click();
    await page.waitForSelector(`${DRAWER} .sheet-title:has-text("Import screen")`);
    await page.keyboard.press('Escape');
    await page.waitForSelector(DRAWER, { state: 'detached' });
  });

  it('when a node has keyboard focus and Enter is pressed, then its drawer opens', async () => {
    const page = ui.page;
    await node('Release 1.4').focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector(`${DRAWER} .sheet-title:has-text("Release 1.4")`);
    await page.keyboard.press('Escape');
    await page.waitForSelector(DRAWER, { state: 'detached' });
  });

  it('when the filter is typed, then only the matching cards and their neighbours stay', async () => {
    const page = ui.page;
    await page.locator('[data-testid="graph-filter"]').fill('demo video');
    const wanted = [ids.get('Record the demo video'), ids.get('Release 1.4')].sort();
    await page.waitForFunction(
      (count) => document.querySelectorAll('[data-testid="graph-view"] .graph-node').length === count,
      wanted.length,
    );
    assert.deepEqual(await nodeIds(), wanted);
    assert.equal(await page.locator(`${GRAPH} .graph-edge[data-kind]`).count(), 1);
    await page.locator('[data-testid="graph-filter"]').fill('');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="graph-view"] .graph-node').length === 6);
  });

  it('when the board search is typed in the top bar, then the graph narrows to the matching cards and their neighbours too', async () => {
    const page = ui.page;
    await page.locator('#search-input').fill('schema');
    const wanted = [ids.get('Design the schema'), ids.get('Build the import API')].sort();
    await page.waitForFunction(
      (count) => document.querySelectorAll('[data-testid="graph-view"] .graph-node').length === count,
      wanted.length,
    );
    assert.deepEqual(await nodeIds(), wanted);
    await page.locator('#search-input').fill('');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="graph-view"] .graph-node').length === 6);
  });

  it('when the pressed graph button is clicked, then the board is back and the URL says so', async () => {
    const page = ui.page;
    await page.click('[data-testid="layout-graph"]');
    await page.waitForSelector('.board-scroll [data-drop-column]');
    assert.equal(await page.locator(GRAPH).count(), 0);
    assert.equal(new URL(page.url()).searchParams.get('layout'), null);
    await page.click('[data-testid="layout-graph"]');
    await page.waitForSelector(`${GRAPH} .graph-node`);
    assert.equal(new URL(page.url()).searchParams.get('layout'), 'graph');
  });
});
