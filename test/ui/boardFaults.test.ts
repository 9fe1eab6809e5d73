import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { startDemoUi } from './demoBoard';
import { card, column, eventually, screenshot, stopUi, type UiContext } from './uiHelpers';

describe('Board UI: drops below short columns and where new cards land (Chromium)', function () {
  this.timeout(60_000);
  let ui: UiContext;
  let ids: Map<string, string>;

  async function serverTitles(status: string): Promise<string[]> {
    const answer = await ui.server.api('GET', `/api/tasks?status=${status}`);
    return answer.body?.data.map((t: { title: string }) => t.title);
  }

  before(async () => {
    ({ ui, ids } = await startDemoUi());
  });

  after(async () => {
    await stopUi(ui);
  });

  it('when a card is dropped in the empty area far below a short column, then it lands in that column, shown by an insertion line while dragging', async () => {
    const page = ui.page;
    const title = 'Sketch the onboarding flow';
    const source = await card(page, title).boundingBox();
    const target = await column(page, 'in-progress').boundingBox();
    const viewport = page.viewportSize();
    assert.ok(source && target && viewport);
    // Far below In Progress's last card, where no column is drawn, after crossing To Do on the way.
    const dropX = target.x + target.width / 2;
    const dropY = viewport.height - 30;
    assert.ok(dropY > target.y + target.height + 100, 'the drop point is well below the column');
    await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2);
    await page.mouse.down();
    await page.mouse.move(source.x + source.width / 2 + 12, source.y + source.height / 2 + 12, { steps: 3 });
    const todo = await column(page, 'todo').boundingBox();
    await page.mouse.move(todo!.x + todo!.width / 2, todo!.y + 60, { steps: 6 });
    await page.mouse.move(dropX, dropY, { steps: 10 });
    const line = column(page, 'in-progress').locator('[data-testid="drop-line"]');
    await line.waitFor({ state: 'visible' });
    const box = await line.boundingBox();
    assert.ok(box && box.height >= 2 && box.width > 100, 'the insertion line is drawn across the column');
    // It sits after the column's last card: the card will land at the end.
    const lastCard = await column(page, 'in-progress').locator('[data-card-id]').last().boundingBox();
    assert.ok(lastCard && box.y >= lastCard.y + lastCard.height - 1);
    await screenshot(page, 'drop-below-short-column');
    await page.mouse.up();

    await page.waitForFunction(() => !document.querySelector('.drop-gap'));
    assert.equal((await column(page, 'in-progress').locator('.card-title').allTextContents()).at(-1), title);
    await eventually(
      async () => (await serverTitles('in-progress')).at(-1) === title,
      'the server has the card last in In Progress',
      10_000,
    );
    assert.ok(!(await serverTitles('todo')).includes(title));
    const file = (status: string) =>
      path.join(ui.server.root, '.kanban', 'boards', 'default', status, `${ids.get(title)}.md`);
    await eventually(async () => existsSync(file('in-progress')), 'the card file moved to in-progress/');
    assert.ok(!existsSync(file('backlog')));
  });

  it('when a card is added from the column box, then it lands at the end of the column, as a card added through the API does', async () => {
    const page = ui.page;
    await page.click('button[aria-label="Add a card to To Do"]');
    await page.fill('[data-drop-column="todo"] .quick-add-input', 'Added in the board');
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll('[data-drop-column="todo"] .card-title')).at(-1)?.textContent ===
        'Added in the board',
    );
    await eventually(
      async () => (await serverTitles('todo')).at(-1) === 'Added in the board',
      'the server has the UI card last in To Do',
    );

    await ui.server.api('POST', '/api/tasks', { content: '# Added through the API\n', status: 'todo' });
    await page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll('[data-drop-column="todo"] .card-title')).at(-1)?.textContent ===
        'Added through the API',
    );
    const shown = await column(page, 'todo').locator('.card-title').allTextContents();
    assert.deepEqual(shown.slice(-2), ['Added in the board', 'Added through the API']);
    assert.deepEqual(await serverTitles('todo'), shown);
    await page.keyboard.press('Escape');
    assert.deepEqual(ui.pageErrors, []);
  });
});
