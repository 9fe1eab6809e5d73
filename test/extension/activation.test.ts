import {
  activateWith,
  deactivate,
  double,
  folderWithCards,
  listFiles,
  runCommand,
  tempFolder,
  waitFor,
  folderWithCardBodies,
} from './helpers/harness';
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import packageJson from '../../package.json';

const contributed = packageJson.contributes.commands.map((c: { command: string }) => c.command).sort();

describe('extension activation and commands', () => {
  afterEach(async () => {
    await deactivate();
  });

  it('when activated, then every command in package.json is registered, and deactivation removes them all', async () => {
    activateWith([await tempFolder()]);
    assert.deepEqual([...double.commands.keys()].sort(), contributed);
    await deactivate();
    assert.equal(double.commands.size, 0);
    assert.equal(double.serializers.size, 0);
    assert.equal(double.viewProviders.size, 0);
  });

  it('when activated with the API server stopped, then no API status item shows; it appears while the server runs', async () => {
    activateWith([await folderWithCards([])], { 'kanban.server.port': 0 });
    assert.equal(double.statusItem('kanban.apiServer')?.visible, false);
    await runCommand('kanban.startApiServer');
    const item = double.statusItem('kanban.apiServer')!;
    assert.ok(item.visible);
    assert.match(item.text, /Kanban API 127\.0\.0\.1:\d+/);
    assert.equal(item.command, 'kanban.serverActions');
    await runCommand('kanban.stopApiServer');
    assert.equal(item.visible, false);
  });

  it('when activated, then no card is read until something needs the board', async () => {
    const folder = await folderWithCards(['Early']);
    const parts = activateWith([folder]);
    assert.deepEqual(parts.services.openFolders(), []);
    await runCommand('kanban.openBoard');
    const bridgeReady = double.panels[0];
    bridgeReady.webview.send({ type: 'ready' });
    await waitFor(() => parts.services.openFolders().length === 1, 'the service to open');
  });

  it('when the board opens, then the Kanban output tells the activation time and how many cards loaded in how long', async () => {
    const folder = await folderWithCards(['Counted', 'Also counted']);
    activateWith([folder]);
    await runCommand('kanban.openCardFile');
    const lines = double.outputs.find((o) => o.name === 'Kanban')!.lines;
    assert.match(lines[0], /activated in \d+(\.\d)? ms/);
    assert.match(lines[1], /opened the board of .*: 2 card\(s\) in \d+ ms; extension host heap [\d.]+ MB/);
  });

  it('when a panel, a command and the API server need the board, then they share one service instance', async () => {
    const folder = await folderWithCards(['Shared']);
    const parts = activateWith([folder], { 'kanban.server.port': 0 });
    await runCommand('kanban.openBoard');
    double.panels[0].webview.send({ type: 'ready' });
    await waitFor(() => double.panels[0].webview.posted.find((m) => m.type === 'hello'), 'hello');
    await runCommand('kanban.startApiServer');
    const ref = parts.folders.all()[0];
    const fromCommand = await parts.services.get(ref);
    assert.equal(parts.control.server.workspaceOfRunning, fromCommand.workspace);
    assert.equal(parts.services.openFolders().length, 1);
  });

  it('when Add Card is answered with a title, a column and a priority, then the card file appears in that column', async () => {
    const folder = await folderWithCards([]);
    activateWith([folder]);
    double.answer('input', 'Write the release notes');
    double.answer('quickPick', (offered: { items: { id: string }[] }) => offered.items.find((i) => i.id === 'todo'));
    double.answer('quickPick', (offered: { items: { label: string }[] }) =>
      offered.items.find((i) => i.label === 'high'),
    );
    await runCommand('kanban.addCard');
    const files = await listFiles(path.join(folder, '.kanban'));
    const card = files.find((f) => f.startsWith('boards/default/todo/write-the-release-notes-'));
    assert.ok(card, `no card file in ${files.join(', ')}`);
    const text = await fs.readFile(path.join(folder, '.kanban', card), 'utf8');
    assert.match(text, /priority: high/);
    assert.match(double.messages.at(-1)!.text, /added "Write the release notes" to To Do/);
  });

  it('when Add Card is cancelled at the title, then nothing is written', async () => {
    const folder = await folderWithCards([]);
    activateWith([folder]);
    await runCommand('kanban.addCard');
    await assert.rejects(fs.access(path.join(folder, '.kanban', 'boards')));
  });

  it('when Open Card File picks a card, then its Markdown file opens in an editor', async () => {
    const folder = await folderWithCards(['Fix the login page', 'Update docs']);
    activateWith([folder]);
    double.answer('quickPick', (offered: { items: { label: string }[] }) =>
      offered.items.find((i) => i.label === 'Update docs'),
    );
    await runCommand('kanban.openCardFile');
    assert.equal(double.openedDocuments.length, 1);
    assert.match(
      double.openedDocuments[0],
      /\.kanban\/boards\/default\/backlog\/update-docs-\d{4}-\d{2}-\d{2}-[a-z0-9]{4}\.md$/,
    );
  });

  it('when a word of a card description, labels or assignee is typed into Search Cards, then that card is offered though its title lacks the word', async () => {
    activateWith([
      await folderWithCardBodies([
        { content: '# Fix the login\n\nThe session cookie expires too early.' },
        { content: '# Update docs\n', labels: ['frontend'], assignee: 'maria' },
        { content: '# Unrelated chore\n' },
      ]),
    ]);
    const offeredFor = async (text: string) => {
      let labels: string[] = [];
      double.answer('quickPick', { typed: text });
      double.answer('quickPick', (offered: { items: { label: string }[] }) => {
        labels = offered.items.map((i) => i.label);
        return undefined;
      });
      await runCommand('kanban.searchCards');
      return labels;
    };
    assert.deepEqual(await offeredFor('cookie'), ['Fix the login']);
    assert.deepEqual(await offeredFor('frontend'), ['Update docs']);
    assert.deepEqual(await offeredFor('maria'), ['Update docs']);
    assert.deepEqual((await offeredFor('')).sort(), ['Fix the login', 'Unrelated chore', 'Update docs']);
  });

  it('when Search Cards picks a card, then the board opens and is asked to show that card', async () => {
    const folder = await folderWithCards(['Alpha task', 'Beta task']);
    activateWith([folder]);
    double.answer('quickPick', (offered: { items: { label: string }[] }) => {
      assert.deepEqual(offered.items.map((i) => i.label).sort(), ['Alpha task', 'Beta task']);
      return offered.items.find((i) => i.label === 'Beta task');
    });
    await runCommand('kanban.searchCards');
    const panel = double.panels[0];
    panel.webview.send({ type: 'ready' });
    const open = await waitFor(() => panel.webview.posted.find((m) => m.type === 'openTask'), 'openTask');
    assert.equal(open.boardId, 'default');
    assert.match(open.taskId, /^beta-task-/);
  });

  it('when a workspace has two folders, then commands ask which folder and act on the chosen one', async () => {
    const first = await folderWithCards(['In first']);
    const second = await folderWithCards(['In second']);
    activateWith([first, second]);
    double.answer('quickPick', (offered: { items: { folder: { fsPath: string } }[] }) =>
      offered.items.find((i) => i.folder.fsPath === second),
    );
    double.answer('quickPick', (offered: { items: { label: string }[] }) => {
      assert.deepEqual(
        offered.items.map((i) => i.label),
        ['In second'],
      );
      return offered.items[0];
    });
    await runCommand('kanban.openCardFile');
    assert.ok(double.openedDocuments[0].startsWith(second));
  });

  it('when no folder is open, then a command explains that a folder is needed', async () => {
    activateWith([]);
    await runCommand('kanban.addCard');
    assert.match(double.messages.at(-1)!.text, /open a folder first/);
  });
});
