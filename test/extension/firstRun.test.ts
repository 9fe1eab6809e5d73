import {
  activateWith,
  deactivate,
  double,
  folderWithCards,
  listFiles,
  runCommand,
  tempFolder,
  waitFor,
} from './helpers/harness';
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { BoardTree } from '../../extension/sidebar/boardTree';
import { initWorkspace } from '../../server/service/initWorkspace';
import { Uri } from './helpers/vscodeDouble';

function tree(): BoardTree {
  return double.treeViews.get('kanban.sidebar')!.options.treeDataProvider as BoardTree;
}

const visibleStatusItems = () => double.statusItems.filter((item) => item.visible).map((item) => item.id);

describe('extension: the first run in a folder without a board', () => {
  afterEach(async () => {
    await deactivate();
  });

  it('when a folder has no board, then kanban.hasBoard is false, the sidebar is empty for its welcome, no status item shows and nothing is written', async () => {
    const folder = await tempFolder();
    activateWith([folder]);
    assert.equal(double.contexts.get('kanban.hasBoard'), false);
    assert.deepEqual(await tree().getChildren(), []);
    assert.equal(double.treeViews.get('kanban.sidebar')!.message, undefined);
    assert.deepEqual(visibleStatusItems(), []);
    assert.deepEqual(await fs.readdir(folder), []);
  });

  it('when Create Board runs, then .kanban.json and .kanban/.gitignore are written as kanban init writes them, the key flips and the board opens', async () => {
    const folder = await tempFolder();
    const parts = activateWith([folder]);
    await runCommand('kanban.createBoard');
    assert.deepEqual(await listFiles(folder), ['.kanban.json', '.kanban/.gitignore']);
    const fromInit = await tempFolder();
    await initWorkspace(fromInit);
    assert.equal(
      await fs.readFile(path.join(folder, '.kanban.json'), 'utf8'),
      await fs.readFile(path.join(fromInit, '.kanban.json'), 'utf8'),
    );
    assert.equal(double.contexts.get('kanban.hasBoard'), true);
    assert.equal(double.panels.length, 1);
    const columns = await waitFor(async () => {
      const shown = await tree().getChildren();
      return shown.length ? shown : null;
    }, 'the sidebar to list the new board');
    assert.deepEqual(
      columns.map((c) => (c.kind === 'column' ? c.name : c.kind)),
      ['Backlog', 'To Do', 'In Progress', 'Review', 'Done'],
    );
    assert.equal(parts.folders.hasKanban(parts.folders.all()[0]), true);
  });

  it('when Create Board runs where a board exists, then .kanban.json is left as it is and the board opens', async () => {
    const folder = await folderWithCards([]);
    await fs.writeFile(path.join(folder, '.kanban.json'), '{"boards":[{"id":"mine","name":"Mine"}]}\n');
    activateWith([folder]);
    await runCommand('kanban.createBoard');
    assert.equal(
      await fs.readFile(path.join(folder, '.kanban.json'), 'utf8'),
      '{"boards":[{"id":"mine","name":"Mine"}]}\n',
    );
    assert.match(double.messages.at(-1)!.text, /already has a board/);
    assert.equal(double.panels.length, 1);
  });

  it('when Add Card runs in a folder without a board and Create Board is declined, then nothing is written', async () => {
    const folder = await tempFolder();
    activateWith([folder]);
    double.answer('input', 'Never written');
    await runCommand('kanban.addCard');
    const offer = double.messages.at(-1)!;
    assert.match(offer.text, /has no board yet/);
    assert.deepEqual(offer.items, ['Create Board']);
    assert.deepEqual(await fs.readdir(folder), []);
  });

  it('when Add Card runs in a folder without a board and Create Board is accepted, then the card lands in a board that has its .kanban.json', async () => {
    const folder = await tempFolder();
    activateWith([folder]);
    double.answer('message', 'Create Board');
    double.answer('input', 'First card');
    double.answer('quickPick', (offered: { items: { id: string }[] }) => offered.items.find((i) => i.id === 'todo'));
    double.answer('quickPick', (offered: { items: { label: string }[] }) => offered.items[0]);
    await runCommand('kanban.addCard');
    const files = await listFiles(folder);
    assert.ok(files.includes('.kanban.json'), files.join(', '));
    assert.ok(
      files.some((f) => f.startsWith('.kanban/boards/default/todo/first-card-')),
      files.join(', '),
    );
    assert.equal(double.contexts.get('kanban.hasBoard'), true);
  });

  it('when Open Board runs in a folder without a board and the offer is dismissed, then no panel opens', async () => {
    const folder = await tempFolder();
    activateWith([folder]);
    await runCommand('kanban.openBoard');
    assert.equal(double.panels.length, 0);
    assert.deepEqual(await fs.readdir(folder), []);
  });

  it('when kanban init runs in a terminal, then the sidebar notices the new .kanban.json and leaves its welcome', async () => {
    const folder = await tempFolder();
    activateWith([folder]);
    assert.equal(double.contexts.get('kanban.hasBoard'), false);
    await initWorkspace(folder);
    const watcher = double.fileWatchers.find((w) => w.pattern.endsWith('.kanban.json'))!;
    watcher.created.fire(Uri.file(path.join(folder, '.kanban.json')));
    assert.equal(double.contexts.get('kanban.hasBoard'), true);
  });

  it('when a folder has a board, then kanban.hasBoard is true at activation', async () => {
    activateWith([await folderWithCards(['Here'])]);
    assert.equal(double.contexts.get('kanban.hasBoard'), true);
  });
});
