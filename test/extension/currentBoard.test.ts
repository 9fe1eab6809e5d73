import {
  activateWith,
  deactivate,
  double,
  folderWithCards,
  openReadyBoard,
  runCommand,
  waitFor,
} from './helpers/harness';
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import type { BoardTree } from '../../extension/sidebar/boardTree';
import type { ColumnNode } from '../../extension/sidebar/boardTreeItems';
import type { FakeWebviewPanel } from './helpers/vscodeDouble';

async function sidebarColumns(): Promise<ColumnNode[]> {
  const tree = double.treeViews.get('kanban.sidebar')!.options.treeDataProvider as BoardTree;
  return (await tree.getChildren()) as ColumnNode[];
}

/** The panel's page makes a second board, Roadmap, as the board's "New board" does. */
async function addRoadmap(panel: FakeWebviewPanel): Promise<void> {
  panel.webview.send({
    type: 'request',
    id: 1,
    method: 'POST',
    path: '/boards',
    body: { id: 'roadmap', name: 'Roadmap', columns: [{ id: 'ideas', name: 'Ideas' }] },
  });
  await waitFor(
    () => panel.webview.posted.find((m) => m.type === 'response' && m.id === 1 && m.status === 201),
    'the Roadmap board',
  );
}

function pickBoard(name: string): void {
  double.answer('quickPick', (o: { items: { label: string }[] }) => o.items.find((i) => i.label === name));
}

const overdueItemText = () => double.statusItem('kanban.overdue')?.text ?? '';

describe('extension: one current board that the panel, the sidebar and the status bar follow', () => {
  afterEach(async () => {
    await deactivate();
  });

  it('when Switch Board in the palette picks Roadmap, then the panel, its tab, the sidebar and the status item all show Roadmap', async () => {
    activateWith([await folderWithCards(['On default'])]);
    const panel = await openReadyBoard();
    panel.webview.send({ type: 'boardShown', boardId: 'default' });
    await addRoadmap(panel);
    await waitFor(() => panel.title === 'Default', 'the tab titled Default');
    await waitFor(() => /Default/.test(overdueItemText()), 'the status item on Default');

    pickBoard('Roadmap');
    await runCommand('kanban.switchBoard');
    // The page has not answered yet: everything else follows the choice already.
    assert.deepEqual(panel.webview.posted.at(-1), { type: 'showBoard', boardId: 'roadmap' });
    assert.equal(panel.title, 'Roadmap');
    await waitFor(async () => (await sidebarColumns())[0]?.boardId === 'roadmap', 'the sidebar on Roadmap');
    assert.equal(double.treeViews.get('kanban.sidebar')!.title, 'Roadmap');
    await waitFor(() => /Roadmap/.test(overdueItemText()), 'the status item on Roadmap');
    // The page's report of the board it now shows changes nothing.
    panel.webview.send({ type: 'boardShown', boardId: 'roadmap' });
    assert.equal(panel.title, 'Roadmap');
  });

  it('when the board page switches board itself, then the tab is retitled and the status item follows', async () => {
    activateWith([await folderWithCards(['On default'])]);
    const panel = await openReadyBoard();
    await addRoadmap(panel);
    panel.webview.send({ type: 'boardShown', boardId: 'roadmap' });
    await waitFor(() => panel.title === 'Roadmap', 'the tab titled Roadmap');
    await waitFor(() => /Roadmap/.test(overdueItemText()), 'the status item on Roadmap');
  });

  it('when the shown board is renamed, then the open panel is retitled with the new name', async () => {
    activateWith([await folderWithCards(['On default'])]);
    const panel = await openReadyBoard();
    panel.webview.send({ type: 'boardShown', boardId: 'default' });
    await waitFor(() => panel.title === 'Default', 'the tab titled Default');
    panel.webview.send({
      type: 'request',
      id: 2,
      method: 'PUT',
      path: '/boards/default',
      body: { name: 'Launch plan' },
    });
    await waitFor(
      () => panel.webview.posted.find((m) => m.type === 'response' && m.id === 2 && m.status === 200),
      'the rename answered',
    );
    await waitFor(() => panel.title === 'Launch plan', 'the tab titled Launch plan');
  });

  it('when a board was chosen before the panel opens, then the new panel is told to show it', async () => {
    activateWith([await folderWithCards(['On default'])]);
    const first = await openReadyBoard();
    await addRoadmap(first);
    first.dispose();
    pickBoard('Roadmap');
    await runCommand('kanban.switchBoard');
    const panel = double.panels.at(-1)!;
    assert.notEqual(panel, first);
    panel.webview.send({ type: 'ready' });
    await waitFor(
      () => panel.webview.posted.find((m) => m.type === 'showBoard' && m.boardId === 'roadmap'),
      'showBoard roadmap',
    );
    assert.equal(panel.title, 'Roadmap');
  });

  it('when the page left a board for another and the palette picks the first again, then the page is told to show it', async () => {
    activateWith([await folderWithCards(['On default'])]);
    const panel = await openReadyBoard();
    await addRoadmap(panel);
    pickBoard('Roadmap');
    await runCommand('kanban.switchBoard');
    panel.webview.send({ type: 'boardShown', boardId: 'roadmap' });
    panel.webview.send({ type: 'boardShown', boardId: 'default' });
    pickBoard('Roadmap');
    await runCommand('kanban.switchBoard');
    assert.deepEqual(panel.webview.posted.at(-1), { type: 'showBoard', boardId: 'roadmap' });
    assert.equal(panel.webview.posted.filter((m) => m.type === 'showBoard').length, 2, 'one command per choice');
  });

  it('when the board panel opens, then its tab carries the extension icon', async () => {
    activateWith([await folderWithCards(['On default'])]);
    const panel = await openReadyBoard();
    assert.match(String((panel.iconPath as { path: string }).path), /extension\/media\/icon\.png$/);
  });

  it('when two folders are open, then the tab, the status item and the Switch Board prompt name the folder', async () => {
    const first = await folderWithCards(['In the first']);
    const second = await folderWithCards(['In the second']);
    activateWith([first, second]);
    const name = path.basename(first);
    double.answer('quickPick', (o: { items: { label: string }[] }) => o.items.find((i) => i.label === name));
    const panel = await openReadyBoard();
    panel.webview.send({ type: 'boardShown', boardId: 'default' });
    await waitFor(() => panel.title === `Default (${name})`, 'the tab naming the folder');
    await waitFor(() => overdueItemText().includes(`Default (${name})`), 'the status item naming the folder');
    let placeholder = '';
    double.answer('quickPick', (o: { items: { label: string }[]; options: { placeHolder?: string } }) => {
      placeholder = o.options.placeHolder ?? '';
      return undefined;
    });
    await runCommand('kanban.switchBoard');
    assert.equal(placeholder, `Board to show (${name})`);
  });
});
