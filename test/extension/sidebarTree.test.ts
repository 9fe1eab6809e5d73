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
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { DataTransfer } from './helpers/vscodeDouble';
import type { BoardTree } from '../../extension/sidebar/boardTree';
import type { BoardNode, CardNode, ColumnNode } from '../../extension/sidebar/boardTreeItems';

function tree(): BoardTree {
  return double.treeViews.get('kanban.sidebar')!.options.treeDataProvider as BoardTree;
}

async function columns(): Promise<ColumnNode[]> {
  return (await tree().getChildren()) as ColumnNode[];
}

async function rowsOf(columnId: string): Promise<CardNode[]> {
  const column = (await columns()).find((c) => c.columnId === columnId)!;
  return (await tree().getChildren(column)) as CardNode[];
}

describe('extension: the sidebar lists the board compactly', () => {
  afterEach(async () => {
    await deactivate();
  });

  it('when the sidebar shows a board, then each column is a foldable row with its count and each card a one-line row', async () => {
    const folder = await folderWithCards(['First', 'Second'], { status: 'todo' });
    activateWith([folder]);
    const shown = await columns();
    assert.deepEqual(
      shown.map((c) => [c.name, tree().getTreeItem(c).description]),
      [
        ['Backlog', '0'],
        ['To Do', '2'],
        ['In Progress', '0'],
        ['Review', '0'],
        ['Done', '0'],
      ],
    );
    const rows = await rowsOf('todo');
    assert.deepEqual(rows.map((r) => tree().getTreeItem(r).label).sort(), ['First', 'Second']);
    assert.equal(tree().getTreeItem(rows[0]).collapsibleState, 0);
  });

  it('when a card row is dropped on another column, then the card moves there and the list follows', async () => {
    const folder = await folderWithCards(['Drag me'], { status: 'todo' });
    activateWith([folder]);
    const [row] = await rowsOf('todo');
    const transfer = new DataTransfer();
    await tree().handleDrag([row], transfer as never);
    const done = (await columns()).find((c) => c.columnId === 'done')!;
    await tree().handleDrop(done as BoardNode, transfer as never);
    const files = await fs.readdir(path.join(folder, '.kanban', 'boards', 'default', 'done'));
    assert.deepEqual(files, [`${row.taskId}.md`]);
    await waitFor(async () => (await rowsOf('done')).length === 1, 'the moved row under Done');
    assert.equal((await rowsOf('todo')).length, 0);
  });

  it('when "Move Card to Column" is chosen on a card row, then the card moves to the picked column (moves without a mouse)', async () => {
    const folder = await folderWithCards(['Keyboard move'], { status: 'todo' });
    activateWith([folder]);
    const [row] = await rowsOf('todo');
    double.answer('quickPick', (o: { items: { label: string }[] }) => o.items.find((i) => i.label === 'Review'));
    await runCommand('kanban.moveCardOfFile', row);
    await waitFor(async () => (await rowsOf('review')).length === 1, 'the row under Review');
  });

  it('when a card row is clicked, then the board panel opens with that card', async () => {
    const folder = await folderWithCards(['Click me']);
    activateWith([folder]);
    const [column] = (await columns()).filter((c) => c.count > 0);
    const [row] = (await tree().getChildren(column)) as CardNode[];
    const click = tree().getTreeItem(row).command!;
    await runCommand(click.command, ...(click.arguments ?? []));
    const panel = double.panels.at(-1)!;
    panel.webview.send({ type: 'ready' });
    const shown = await waitFor(() => panel.webview.posted.find((m) => m.type === 'openTask'), 'openTask');
    assert.equal(shown.taskId, row.taskId);
  });

  it('when the board panel switches to another board, then the sidebar lists that board', async () => {
    const folder = await folderWithCards(['On default']);
    activateWith([folder]);
    const panel = await openReadyBoard();
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
    assert.equal((await columns())[0].boardId, 'default');
    panel.webview.send({ type: 'boardShown', boardId: 'roadmap' });
    await waitFor(async () => (await columns()).map((c) => c.name).join() === 'Ideas', 'the sidebar on Roadmap');
    assert.match(double.treeViews.get('kanban.sidebar')!.description ?? '', /Roadmap/);
  });

  it('when two folders are open, then the sidebar names the folder it shows and Switch Sidebar Folder changes it', async () => {
    const first = await folderWithCards(['In the first']);
    const second = await folderWithCards(['In the second', 'Also second']);
    activateWith([first, second]);
    const count = async () => (await columns()).reduce((sum, c) => sum + c.count, 0);
    assert.equal(await count(), 1);
    assert.match(
      double.treeViews.get('kanban.sidebar')!.description ?? '',
      new RegExp(`^${path.basename(first)} · Default$`),
    );
    assert.equal(double.treeViews.get('kanban.sidebar')!.title, `${path.basename(first)}: Default`);
    await waitFor(() => double.contexts.get('kanban.multiRoot') === true, 'the multi-root context');

    double.answer('quickPick', (o: { items: { label: string }[] }) =>
      o.items.find((i) => i.label === path.basename(second)),
    );
    await runCommand('kanban.sidebar.switchFolder');
    assert.equal(await count(), 2);
    assert.match(double.treeViews.get('kanban.sidebar')!.description ?? '', new RegExp(`^${path.basename(second)} · `));
  });
});
